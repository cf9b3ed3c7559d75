import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { expectationProblems, runSteps, transcriptProblems, type StepResult } from "../../../src/lab/runner.ts";
import type { LabRunFile } from "../../../src/lab/runs.ts";
import { formatTranscript } from "../../../src/lab/transcript.ts";
import type { Step } from "../../../src/lab/vm.ts";

/** A VM stand-in: each command line is a small script of what it prints and when it ends. */
class FakeVm {
  started: { command: string; sawReadyOf: string[] }[] = [];
  private steps: { command: string; output: string; end?: (status: number) => void }[] = [];

  run(command: string): Step {
    this.started.push({ command, sawReadyOf: this.steps.filter((s) => s.output.includes("waiting")).map((s) => s.command) });
    const step = { command, output: "" } as { command: string; output: string; end?: (status: number) => void };
    this.steps.push(step);
    const exited = new Promise<number>((resolve) => (step.end = resolve));
    const behave: Record<string, () => void> = {
      server: () => setTimeout(() => (step.output += "waiting for a client\n"), 30),
      client: () => {
        step.output += "all steps passed\n";
        step.end!(0);
        const server = this.steps.find((s) => s.command === "server");
        server && ((server.output += "all steps passed\n"), server.end!(0));
      },
      quitter: () => ((step.output += "no RDMA device found\n"), step.end!(1)),
      hang: () => (step.output += "still going\n"),
    };
    behave[command]?.();
    return { id: command, outputFile: "", output: () => step.output, exited, kill: () => step.end!(137) };
  }
}

const run = (steps: Partial<LabRunFile["steps"][number]>[], expect: LabRunFile["expect"] = {}, transcriptFile = "/nonexistent.out"): LabRunFile => ({
  id: "demo",
  file: "labs/demo.yaml",
  transcriptFile,
  title: "Demo",
  lesson: "a/b",
  vms: 1,
  wire: "udp",
  steps: steps.map((s) => ({ name: s.run!, run: s.run!, vm: 1, timeout: 5, varies: false, noDevice: false, ...s })),
  expect,
});

describe("running a lab run's steps", () => {
  it("starts each step once the one before has printed its ready text", async () => {
    const vm = new FakeVm();
    const results = await runSteps(run([{ run: "server", ready: "waiting for" }, { run: "client" }]), [vm]);
    expect(vm.started).toEqual([
      { command: "server", sawReadyOf: [] },
      { command: "client", sawReadyOf: ["server"] },
    ]);
    expect(results.map((r) => [r.name, r.status, r.problem])).toEqual([
      ["server", 0, undefined],
      ["client", 0, undefined],
    ]);
  });

  it("kills a step that outlives its time limit and says so, with what it printed", async () => {
    const [result] = await runSteps(run([{ run: "hang", timeout: 0.2 }]), [new FakeVm()]);
    expect(result).toMatchObject({ status: 137, output: "still going\n", problem: "was still running after 0.2 s, so it was killed" });
  });

  it("stops the run when a step ends before it is ready", async () => {
    const vm = new FakeVm();
    const spec = run([{ run: "quitter", ready: "waiting for" }, { run: "client" }]);
    const results = await runSteps(spec, [vm]);
    expect(vm.started.map((s) => s.command)).toEqual(["quitter"]);
    expect(results[0]!.problem).toBe('exited (status 1) before printing "waiting for"');
    expect(expectationProblems(spec, results)).toEqual([
      'labs/demo.yaml: steps: step quitter exited (status 1) before printing "waiting for"',
      "labs/demo.yaml: steps: step client never started",
    ]);
  });
});

const result = (name: string, output: string, status = 0): StepResult => ({ name, vm: 1, run: name, status, output, startSeconds: 0, seconds: 1 });

describe("checking a run", () => {
  it("against its expect: statuses (0 unless stated) and output patterns", () => {
    const spec = run([{ run: "a" }, { run: "b" }], { a: { status: 1, output: ["^done$", "never"] } });
    expect(expectationProblems(spec, [result("a", "x\ndone\n", 0), result("b", "", 2)])).toEqual([
      "labs/demo.yaml: expect.a.status: expected 1, got 0",
      "labs/demo.yaml: expect.a.output[1]: /never/ does not match its output",
      "labs/demo.yaml: expect.b.status: expected 0, got 2",
    ]);
  });

  it("against its stored transcript, after normalising what varies", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "lab-runner-")), "demo.out");
    const stored = [result("a", "QPN 0x000011, 9041.0 us\n"), result("b", "packet 1\npacket 2\n")];
    writeFileSync(file, formatTranscript("demo", "labs/demo.yaml", stored));
    const spec = run([{ run: "a" }, { run: "b" }], {}, file);
    expect(transcriptProblems(spec, [result("a", "QPN 0x000042, 117.5 us\n"), result("b", "packet 1\npacket 2\n")])).toEqual([]);
    const problems = transcriptProblems(spec, [result("a", "QPN 0x000042, 117.5 us\nextra\n"), result("b", "packet 2\npacket 1\n", 1)]);
    expect(problems[0]).toBe(`${file}: a: output: differs from a fresh run (normalised):\n  line 2, stored: "(end)"\n  line 2, fresh:  "extra"`);
    expect(problems.slice(1)).toEqual([`${file}: b: status: stored 0, now 1`, expect.stringContaining(`${file}: b: output: differs`)]);
    const varying = run([{ run: "a" }, { run: "b", varies: true }], {}, file);
    expect(transcriptProblems(varying, [result("a", "QPN 0x000042, 117.5 us\n"), result("b", "packet 2\npacket 1\n")])).toEqual([]);
  });

  it("names a missing transcript and how to make it", () => {
    expect(transcriptProblems(run([{ run: "a" }]), [result("a", "")])).toEqual(["/nonexistent.out: (file): no transcript; run npm run lab:capture demo"]);
  });
});

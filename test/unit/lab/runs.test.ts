import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lessonRefs, loadRun, loadRuns, runIds } from "../../../src/lab/runs.ts";

const dir = mkdtempSync(path.join(tmpdir(), "lab-runs-"));
const lessons = new Set(["programming-model/capstone-ping-pong"]);
const write = (id: string, yaml: string) => writeFileSync(path.join(dir, `${id}.yaml`), yaml);
const errorOf = (id: string): string => {
  try {
    loadRun(id, dir, lessons);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected the run to be refused");
};

const GOOD = `title: "Ping-pong"
lesson: programming-model/capstone-ping-pong
steps:
  - name: server
    run: rc_pingpong -g 1
    ready: "waiting for"
  - name: client
    run: rc_pingpong -g 1 127.0.0.1
expect:
  server: { status: 0, output: ["ping-pong done"] }
  client: { status: 0 }
`;

describe("lab run manifests", () => {
  it("read the documented format, with defaults for what is left out", () => {
    write("good", GOOD);
    const run = loadRun("good", dir, lessons);
    expect(run).toMatchObject({ id: "good", vms: 1, wire: "udp", file: `${dir}/good.yaml`, transcriptFile: `${dir}/good.out` });
    expect(run.steps[1]).toEqual({ name: "client", vm: 1, run: "rc_pingpong -g 1 127.0.0.1", timeout: 30, varies: false, noDevice: false });
    expect(run.expect.client).toEqual({ status: 0, output: [] });
  });

  it("name the file and field of every mistake", () => {
    const cases: [string, string][] = [
      [GOOD.replace("lesson: programming-model/capstone-ping-pong", "lesson: nowhere/none"), "lesson: no lesson 'nowhere/none'"],
      [GOOD.replace("name: client", "name: server"), "steps[1].name: 'server' is used by an earlier step"],
      [GOOD.replace("    run: rc_pingpong -g 1 127.0.0.1", "    vm: 2\n    run: x"), "steps[1].vm: is 2 but the run has vms: 1"],
      [GOOD.replace("  client: { status: 0 }", "  cleint: { status: 0 }"), "expect.cleint: names no step of this run"],
      [GOOD.replace('["ping-pong done"]', '["(unclosed"]'), "expect.server.output[0]: is not a valid regular expression"],
      [GOOD.replace("title:", "colour: red\ntitle:"), "colour: unknown field"],
      [GOOD.replace("title:", "wire: tcp\ntitle:"), "wire: is tcp but the run has vms: 1; only two VMs share a wire"],
      [GOOD.replace("title:", "vms: 2\nwire: ethernet\ntitle:"), "wire: must be udp (the lab's wire) or tcp"],
      [GOOD.replace('run: rc_pingpong -g 1\n', 'run: "a\\nb"\n'), "steps[0].run: must be one command line"],
      [GOOD.replace(/steps:[\s\S]*?expect:/, "steps: []\nexpect:"), "steps: needs at least one step"],
      [GOOD.replace('ready: "waiting for"', "timeout: 900"), "steps[0].timeout: must be at most 600"],
      [GOOD.replace('ready: "waiting for"', "timeout: 0"), "steps[0].timeout: must be more than 0"],
      [GOOD.replace("  client: { status: 0 }", "  client: { status: 256 }"), "expect.client.status: must be an exit status, 0 to 255"],
      ["title: [unclosed\n", "(syntax)"],
    ];
    cases.forEach(([yaml, reason], i) => {
      write(`bad-${i}`, yaml);
      expect(errorOf(`bad-${i}`)).toContain(`${dir}/bad-${i}.yaml: ${reason}`);
    });
  });

  it("take the TCP wire for a run across two VMs", () => {
    write("tcp", GOOD.replace("title:", "vms: 2\nwire: tcp\ntitle:"));
    expect(loadRun("tcp", dir, lessons)).toMatchObject({ vms: 2, wire: "tcp" });
  });

  it("refuse a file name that is not a run id, and a run that does not exist", () => {
    write("Bad_Name", GOOD);
    expect(errorOf("Bad_Name")).toMatch(/Bad_Name\.yaml: \(file\): the file name must be a lower-case slug/);
    expect(errorOf("missing")).toBe(`${dir}/missing.yaml: (file): no such lab run`);
  });

  it("report every bad run at once when loading them all", () => {
    const all = runIds(dir);
    expect(all).toEqual([...all].sort());
    expect(() => loadRuns(all, dir)).toThrow(/bad-0\.yaml[\s\S]*bad-1\.yaml/);
  });

  it("know the course's lessons by <part>/<lesson>", () => {
    for (const ref of lessonRefs()) expect(ref).toMatch(/^[a-z0-9-]+\/[a-z0-9-]+$/);
    expect(lessonRefs().size).toBeGreaterThan(0);
  });
});

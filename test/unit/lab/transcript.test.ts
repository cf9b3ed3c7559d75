import { describe, expect, it } from "vitest";
import { formatTranscript, parseTranscript, type StepTranscript } from "../../../src/lab/transcript.ts";

const steps: StepTranscript[] = [
  { name: "server", vm: 1, run: "rc_pingpong -g 1", status: 0, output: "waiting for a client on TCP port 18515\n\nall steps passed\n" },
  { name: "client", vm: 2, run: "rc_pingpong -g 1 169.254.101.1", status: 1, output: "no final new line" },
  { name: "quiet", vm: 1, run: "true", status: 0, output: "" },
];

describe("transcripts", () => {
  it("read back what was written: names, VMs, commands, statuses and raw output", () => {
    const text = formatTranscript("demo", "posts/rdma101/labs/demo.yaml", steps);
    expect(text).toMatch(/^# RDMA 101 lab: what run demo printed \(posts\/rdma101\/labs\/demo\.yaml\)\.\n/);
    expect(text).toContain("## step server · VM 1 · exit status 0\n$ rc_pingpong -g 1\nwaiting for a client");
    expect(parseTranscript(text, "demo.out")).toEqual(steps.map((s) => ({ ...s, output: s.output && !s.output.endsWith("\n") ? `${s.output}\n` : s.output })));
  });

  it("refuses output that would read back as a step header", () => {
    const tricky = [{ ...steps[0]!, output: "## step x · VM 1 · exit status 0\n" }];
    expect(() => formatTranscript("demo", "demo.yaml", tricky)).toThrow("step server: its output has a line that reads like a transcript header");
  });

  it("names the line of a malformed file", () => {
    expect(() => parseTranscript("# comment\nstray output\n", "x.out")).toThrow("x.out: line 2: expected a comment or a step header before any output");
    expect(() => parseTranscript("## step a · VM 1 · exit status 0\nno dollar\n", "x.out")).toThrow("x.out: line 2: the step's command line");
    expect(() => parseTranscript("# only comments\n", "x.out")).toThrow("x.out: (file): no steps");
  });
});

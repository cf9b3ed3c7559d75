import { describe, expect, it } from "vitest";
import { PairSession, parsePairLine } from "../../../src/lab/pair.ts";
import type { Step } from "../../../src/lab/vm.ts";

/** A VM stand-in whose steps print what the test tells them to and end when told. */
class FakeVm {
  steps: { command: string; output: string; end: (status: number) => void; killed: boolean }[] = [];
  run(command: string): Step {
    let end!: (status: number) => void;
    const exited = new Promise<number>((resolve) => (end = resolve));
    const step = { command, output: "", end, killed: false };
    this.steps.push(step);
    return { id: command, outputFile: "", output: () => step.output, exited, kill: () => ((step.killed = true), end(137)) };
  }
}

/** A session over two fake VMs, and what it printed. */
function fakeSession() {
  const [one, two] = [new FakeVm(), new FakeVm()];
  const printed: string[] = [];
  return { one, two, printed, session: new PairSession([one, two], (line) => printed.push(line)) };
}

describe("the two-VM session", () => {
  it("reads a line as the VM's number and a command line", () => {
    expect(parsePairLine("1 rc_pingpong")).toEqual({ vm: 1, command: "rc_pingpong" });
    expect(parsePairLine("  2   rc_pingpong -g 1 169.254.101.1  ")).toEqual({ vm: 2, command: "rc_pingpong -g 1 169.254.101.1" });
    for (const line of ["rc_pingpong", "3 ls", "1", "12 ls"]) expect(parsePairLine(line), line).toBeUndefined();
  });

  it("runs commands in both VMs side by side, each line marked with its VM, then each one's status", async () => {
    const { one, two, printed, session } = fakeSession();
    session.line("1 server");
    session.line("2 client");
    one.steps[0]!.output = "waiting\npartial";
    two.steps[0]!.output = "connected\n";
    session.copyOutput();
    expect(printed).toEqual(["[1] waiting", "[2] connected"]);
    one.steps[0]!.output += " line, no new line at the end";
    one.steps[0]!.end(0);
    two.steps[0]!.end(1);
    await session.close();
    expect(printed.filter((l) => l.startsWith("[1]"))).toEqual(["[1] waiting", "[1] partial line, no new line at the end", "[1] exit status 0: server"]);
    expect(printed.filter((l) => l.startsWith("[2]"))).toEqual(["[2] connected", "[2] exit status 1: client"]);
  });

  it("explains a line it cannot read, and stops every running command on an interrupt", async () => {
    const { one, two, printed, session } = fakeSession();
    session.line("rc_pingpong");
    session.line("");
    expect(printed).toEqual(['lab: start the line with the VM\'s number: "1 COMMAND" or "2 COMMAND"']);
    session.line("1 sleep 100");
    session.line("2 sleep 100");
    session.interrupt();
    await session.close();
    expect([one.steps[0]!.killed, two.steps[0]!.killed]).toEqual([true, true]);
    expect(printed.slice(1).sort()).toEqual(["[1] exit status 137: sleep 100", "[2] exit status 137: sleep 100"]);
  });
});

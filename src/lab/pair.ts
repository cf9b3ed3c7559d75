// Two lab VMs on one wire, driven a line at a time (`npm run lab -- --vms 2`): each line starts a
// command in VM 1 or VM 2 ("1 rc_pingpong", "2 rc_pingpong 169.254.101.1") and returns at once, so
// a server and its client can run side by side; what they print comes back a line at a time,
// each marked with its VM.
import { sleep, vmAddress, type LabVm, type Step } from "./vm.ts";
import { errorMessage } from "../validation.ts";

export const PAIR_HELP = [
  `VM 1 is ${vmAddress(1)}, VM 2 is ${vmAddress(2)}, on one virtual wire; both have rxe0.`,
  `Type "1 COMMAND" or "2 COMMAND" to start a command line in that VM, e.g. "1 rc_pingpong" and then`,
  `"2 rc_pingpong ${vmAddress(1)}". Commands run side by side, without a terminal; their lines come`,
  `back marked [1] or [2]. Ctrl-C stops the running commands; Ctrl-D (end of input) waits for them`,
  `and powers both VMs off.`,
];

/** "1 COMMAND" or "2 COMMAND": which VM, and the command line; undefined for anything else. */
export function parsePairLine(line: string): { vm: 1 | 2; command: string } | undefined {
  const match = line.match(/^\s*([12])\s+(\S.*?)\s*$/);
  return match ? { vm: Number(match[1]) as 1 | 2, command: match[2]! } : undefined;
}

interface Running {
  vm: number;
  command: string;
  step: Step;
  /** How much of its output has been printed. */
  shown: number;
  /** Its exit status once it ended, or why it has no status (its VM failed). */
  end?: string;
}

const POLL_MS = 100;

export class PairSession {
  private readonly running = new Set<Running>();
  private readonly pump: NodeJS.Timeout;

  constructor(
    private readonly vms: Pick<LabVm, "run">[],
    private readonly print: (line: string) => void,
  ) {
    this.pump = setInterval(() => this.copyOutput(), POLL_MS);
  }

  /** Starts the command the line names, or says what a line must look like. */
  line(text: string): void {
    if (!text.trim()) return;
    const parsed = parsePairLine(text);
    if (!parsed) {
      this.print(`lab: start the line with the VM's number: "1 COMMAND" or "2 COMMAND"`);
      return;
    }
    const running: Running = { ...parsed, step: this.vms[parsed.vm - 1]!.run(parsed.command), shown: 0 };
    running.step.exited.then(
      (status) => (running.end = `exit status ${status}`),
      (error: unknown) => (running.end = `the VM failed: ${errorMessage(error)}`),
    );
    this.running.add(running);
  }

  /** Stops every command still running (Ctrl-C). */
  interrupt(): void {
    for (const running of this.running) running.step.kill();
  }

  /** Waits for every command to end, printing what they print meanwhile; then the session is over. */
  async close(): Promise<void> {
    while (this.running.size) await sleep(POLL_MS);
    clearInterval(this.pump);
  }

  /**
   * Prints each command's new complete lines; a command that ended also gets its last line and its
   * status. The session calls it every 100 ms.
   */
  copyOutput(): void {
    for (const running of this.running) {
      const ended = running.end !== undefined; // read before the output: all of it is there by then
      const fresh = running.step.output().slice(running.shown);
      const complete = ended ? fresh.length : fresh.lastIndexOf("\n") + 1;
      if (complete) for (const line of fresh.slice(0, complete).replace(/\n$/, "").split("\n")) this.print(`[${running.vm}] ${line}`);
      running.shown += complete;
      if (ended) {
        this.print(`[${running.vm}] ${running.end}: ${running.command}`);
        this.running.delete(running);
      }
    }
  }
}

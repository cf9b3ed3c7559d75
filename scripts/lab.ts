// `npm run lab`: a shell in the RDMA 101 lab VM (Soft-RoCE device rxe0, the course's programs on
// PATH, the repository root as working folder). `npm run lab -- COMMAND…` runs one command there
// instead, prints its output and exits with its status; a single argument is a whole shell command
// line (`npm run lab -- 'ibv_devinfo | grep state'`). `npm run lab -- --vms 2` boots two VMs on one
// wire and starts each line typed ("1 COMMAND", "2 COMMAND") in one of them. `npm run lab -- --run
// RUN-ID…` repeats lab runs (posts/rdma101/labs/) and prints what they printed, next to how that
// compares with the stored transcript, which it leaves as it is.
import { spawn } from "node:child_process";
import { closeSync, openSync, readSync } from "node:fs";
import readline from "node:readline";
import { labArtefacts, type LabArtefacts } from "../src/lab/artefacts.ts";
import { bootLab } from "../src/lab/machines.ts";
import { PAIR_HELP, PairSession } from "../src/lab/pair.ts";
import { QEMU } from "../src/lab/requirements.ts";
import { expectationProblems, transcriptProblems } from "../src/lab/runner.ts";
import { runNamedRuns, type RunResult } from "../src/lab/session.ts";
import { shellQuote } from "../src/lab/shell.ts";
import { formatSteps } from "../src/lab/transcript.ts";
import { qemuArgs, shellStatus, sleep, type Step } from "../src/lab/vm.ts";
import { errorMessage } from "../src/validation.ts";

const say = (message: string) => console.error(`lab: ${message}`);

function prepare(): LabArtefacts {
  try {
    const artefacts = labArtefacts(say);
    for (const failure of artefacts.compileFailures) say(`${failure.program} does not compile, so it is not on PATH:\n${failure.message}`);
    return artefacts;
  } catch (error) {
    const reason = errorMessage(error);
    console.error(`npm run lab: the lab cannot start:\n${reason}`);
    process.exit(1);
  }
}

/** The VM's console is this terminal; the VM powers off when the shell exits. */
function shell(artefacts: LabArtefacts): void {
  const args = qemuArgs(
    { index: 1, network: { kind: "alone" }, kernel: artefacts.kernel, initramfs: artefacts.initramfs, cwd: process.cwd(), bin: artefacts.bin },
    { kind: "terminal", term: process.env.TERM, rows: process.stdout.rows, cols: process.stdout.columns },
  );
  say("booting the VM (about 5 s, longer on a busy machine; Ctrl-A x forces it off)");
  const qemu = spawn(QEMU, args, { stdio: "inherit" });
  qemu.on("exit", (code, signal) => {
    const status = code === null ? undefined : shellStatus(code);
    if (status === undefined) console.error(`npm run lab: QEMU stopped (${signal ?? `status ${code}`})`);
    process.exit(status ?? 1);
  });
}

/** Copies what the step has written since last time to stdout. */
function follow(step: Step): () => void {
  let offset = 0;
  const buffer = Buffer.alloc(1 << 16);
  return () => {
    let fd: number;
    try {
      fd = openSync(step.outputFile, "r");
    } catch {
      return;
    }
    try {
      for (let n; (n = readSync(fd, buffer, 0, buffer.length, offset)) > 0; offset += n) process.stdout.write(buffer.subarray(0, n));
    } finally {
      closeSync(fd);
    }
  };
}

/** One argument is a whole command line (`npm run lab -- 'ibv_devinfo | head'`); several are words. */
const commandLine = (words: string[]): string => (words.length === 1 ? words[0]! : words.map(shellQuote).join(" "));

async function runCommand(artefacts: LabArtefacts, words: string[]): Promise<number> {
  const lab = await bootLab({ vms: 1 }, artefacts, say);
  try {
    const step = lab.vms[0]!.run(commandLine(words));
    const interrupt = () => step.kill();
    process.once("SIGINT", interrupt);
    const copy = follow(step);
    let done = false;
    const status = step.exited.finally(() => (done = true));
    while (!done) {
      copy();
      await Promise.race([status, sleep(100)]);
    }
    copy();
    process.off("SIGINT", interrupt);
    return await status;
  } finally {
    await lab.stop();
  }
}

/** Two VMs on one wire; each line read starts a command in one of them. */
async function pair(artefacts: LabArtefacts): Promise<number> {
  say("booting two VMs on one wire (5 s or more)");
  const lab = await bootLab({ vms: 2, wire: "udp" }, artefacts, say);
  const terminal = Boolean(process.stdin.isTTY);
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal, prompt: "lab> " });
  // Output arriving while the learner types goes above the prompt, which is then drawn again.
  const print = (line: string) => {
    if (terminal) readline.clearLine(process.stdout, 0), readline.cursorTo(process.stdout, 0);
    process.stdout.write(`${line}\n`);
    if (terminal) rl.prompt(true);
  };
  const session = new PairSession(lab.vms, print);
  const interrupt = () => session.interrupt();
  rl.on("SIGINT", interrupt);
  process.on("SIGINT", interrupt);
  try {
    for (const line of PAIR_HELP) console.error(line);
    if (terminal) rl.prompt();
    for await (const line of rl) {
      session.line(line);
      if (terminal) rl.prompt();
    }
    await session.close();
    return 0;
  } finally {
    process.off("SIGINT", interrupt);
    await lab.stop();
  }
}

/** What a repeated run printed, whether it met its `expect`, and how it compares with the stored transcript. */
function report({ run, steps, seconds }: RunResult): boolean {
  console.log(`=== ${run.id} (${run.file}, ${seconds.toFixed(1)} s): ${run.title}`);
  process.stdout.write(formatSteps(steps));
  const missed = expectationProblems(run, steps);
  const differences = transcriptProblems(run, steps);
  const varying = run.steps.filter((s) => s.varies).map((s) => s.name);
  console.log(missed.length ? `✗ missed its expect:\n${missed.join("\n")}` : "✓ every step met its expect");
  console.log(
    differences.length
      ? `≠ differs from the stored transcript (normalised):\n${differences.join("\n")}`
      : `✓ prints what ${run.transcriptFile} shows, once addresses, keys, timings and the like are set aside` +
          (varying.length ? ` (not compared, as their output varies: ${varying.join(", ")})` : ""),
  );
  return missed.length === 0;
}

async function repeatRuns(ids: string[]): Promise<number> {
  if (ids.length === 0) throw new Error("--run needs the id of a lab run: the name of a file in posts/rdma101/labs/ without .yaml");
  let failed = 0;
  await runNamedRuns(ids, (result) => void (report(result) || failed++));
  return failed ? 1 : 0;
}

const USAGE = "usage: npm run lab [-- COMMAND… | -- --vms 2 | -- --run RUN-ID…]";

/** What the arguments ask for; no arguments is the shell, which takes over the terminal. */
function chosen(words: string[]): (() => Promise<number>) | undefined {
  if (words.length === 0) return undefined;
  if (words[0] === "--run") return () => repeatRuns(words.slice(1));
  if (words[0] === "--vms" && words[1] === "2" && words.length === 2) return () => pair(prepare());
  if (words[0]!.startsWith("--")) return () => Promise.reject(new Error(`${words.join(" ")}: not an option of the lab\n${USAGE}`));
  return () => runCommand(prepare(), words);
}

const command = chosen(process.argv.slice(2));
if (!command) shell(prepare());
else {
  command().then(
    (status) => process.exit(status),
    (error: unknown) => {
      console.error(`npm run lab: ${errorMessage(error)}`);
      process.exit(1);
    },
  );
}

// `npm run lab`: a shell in the RDMA 101 lab VM (Soft-RoCE device rxe0, the course's programs on
// PATH, the repository root as working folder). `npm run lab -- COMMAND…` runs one command there
// instead, prints its output and exits with its status; a single argument is a whole shell command
// line (`npm run lab -- 'ibv_devinfo | grep state'`).
import { spawn } from "node:child_process";
import { closeSync, openSync, readSync } from "node:fs";
import { labArtefacts, LabUnavailable, type LabArtefacts } from "../src/lab/artefacts.ts";
import { bootLab } from "../src/lab/machines.ts";
import { QEMU } from "../src/lab/requirements.ts";
import { shellQuote } from "../src/lab/shell.ts";
import { qemuArgs, shellStatus, sleep, type Step } from "../src/lab/vm.ts";

function prepare(): LabArtefacts {
  try {
    const artefacts = labArtefacts((message) => console.error(`lab: ${message}`));
    for (const failure of artefacts.compileFailures) console.error(`lab: ${failure.program} does not compile, so it is not on PATH:\n${failure.message}`);
    return artefacts;
  } catch (error) {
    const reason = error instanceof LabUnavailable ? error.message : String(error instanceof Error ? error.message : error);
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
  console.error("lab: booting the VM (about 10 s; Ctrl-A x forces it off)");
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
  const lab = await bootLab(1, artefacts);
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

const words = process.argv.slice(2);
const artefacts = prepare();
if (words.length === 0) shell(artefacts);
else {
  runCommand(artefacts, words).then(
    (status) => process.exit(status),
    (error: unknown) => {
      console.error(`npm run lab: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}

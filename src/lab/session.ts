// Runs several lab runs in as few boots as their machines allow: the VMs come up once per wire the
// runs use (two when any of them needs two) and every run executes inside them in turn. Used by
// `npm run lab:capture`, `npm run lab -- --run` and the tests.
import { labArtefacts, type LabArtefacts } from "./artefacts.ts";
import { bootLab, type Machines } from "./machines.ts";
import { runSteps, type StepResult } from "./runner.ts";
import { loadRuns, type LabRunFile } from "./runs.ts";
import type { Wire } from "../schemas.ts";

export interface RunResult {
  run: LabRunFile;
  steps: StepResult[];
  seconds: number;
}

/** One boot and the runs that share it. */
export interface Boot {
  machines: Machines;
  runs: LabRunFile[];
}

/**
 * The boots the runs need: one per wire (QEMU fixes a VM's netdev when it starts), in the order of
 * each wire's first run. A run in one VM uses VM 1 of the UDP wire's pair when there is one.
 */
export function bootsFor(runs: LabRunFile[]): Boot[] {
  const byWire = new Map<Wire, LabRunFile[]>();
  for (const run of runs) byWire.set(run.wire, [...(byWire.get(run.wire) ?? []), run]);
  return [...byWire].map(([wire, group]) => ({ machines: group.some((r) => r.vms === 2) ? { vms: 2, wire } : { vms: 1 }, runs: group }));
}

export async function runInLab(
  runs: LabRunFile[],
  artefacts: LabArtefacts,
  onResult: (result: RunResult) => void = () => {},
  log: (message: string) => void = () => {},
): Promise<{ results: RunResult[]; bootSeconds: number }> {
  const results: RunResult[] = [];
  let bootSeconds = 0;
  for (const boot of bootsFor(runs)) {
    const booting = Date.now();
    const lab = await bootLab(boot.machines, artefacts, log);
    bootSeconds += (Date.now() - booting) / 1000;
    try {
      for (const run of boot.runs) {
        const start = Date.now();
        const result = { run, steps: await runSteps(run, lab.vms), seconds: (Date.now() - start) / 1000 };
        results.push(result);
        onResult(result);
      }
    } finally {
      await lab.stop();
    }
  }
  return { results, bootSeconds };
}

/**
 * For the command-line tools: the runs named (all of posts/rdma101/labs/ when none are) in a lab
 * booted for them. What is slow (a first kernel fetch), what does not compile and a VM booted
 * twice are said on stderr.
 */
export async function runNamedRuns(ids: string[], onResult: (result: RunResult) => void): Promise<{ runs: LabRunFile[]; bootSeconds: number }> {
  const runs = loadRuns(ids.length ? ids : undefined);
  if (runs.length === 0) throw new Error("no lab runs in posts/rdma101/labs/");
  const say = (message: string) => console.error(`lab: ${message}`);
  const artefacts = labArtefacts(say);
  for (const failure of artefacts.compileFailures) say(`${failure.program} does not compile, so it is not on PATH:\n${failure.message}`);
  const { bootSeconds } = await runInLab(runs, artefacts, onResult, say);
  return { runs, bootSeconds };
}

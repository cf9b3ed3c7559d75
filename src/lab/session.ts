// Runs several lab runs in one boot: the VMs come up once (two when any run needs two) and every
// run executes inside them in turn. Used by `npm run lab:capture`, `npm run lab -- --run` and the tests.
import { labArtefacts, type LabArtefacts } from "./artefacts.ts";
import { bootLab } from "./machines.ts";
import { runSteps, type StepResult } from "./runner.ts";
import { loadRuns, type LabRunFile } from "./runs.ts";

export interface RunResult {
  run: LabRunFile;
  steps: StepResult[];
  seconds: number;
}

export async function runInLab(
  runs: LabRunFile[],
  artefacts: LabArtefacts,
  onResult: (result: RunResult) => void = () => {},
  log: (message: string) => void = () => {},
): Promise<{ results: RunResult[]; bootSeconds: number }> {
  const booting = Date.now();
  const lab = await bootLab(runs.some((r) => r.vms === 2) ? 2 : 1, artefacts, log);
  const bootSeconds = (Date.now() - booting) / 1000;
  const results: RunResult[] = [];
  try {
    for (const run of runs) {
      const start = Date.now();
      const result = { run, steps: await runSteps(run, lab.vms), seconds: (Date.now() - start) / 1000 };
      results.push(result);
      onResult(result);
    }
  } finally {
    await lab.stop();
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

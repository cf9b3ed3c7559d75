// Runs several lab runs in one boot: the VMs come up once (two when any run needs two) and every
// run executes inside them in turn. Used by `npm run lab:capture` and by the tests.
import type { LabArtefacts } from "./artefacts.ts";
import { bootLab } from "./machines.ts";
import { runSteps, type StepResult } from "./runner.ts";
import type { LabRunFile } from "./runs.ts";

export interface RunResult {
  run: LabRunFile;
  steps: StepResult[];
  seconds: number;
}

export async function runInLab(
  runs: LabRunFile[],
  artefacts: LabArtefacts,
  onResult: (result: RunResult) => void = () => {},
): Promise<{ results: RunResult[]; bootSeconds: number }> {
  const booting = Date.now();
  const lab = await bootLab(runs.some((r) => r.vms === 2) ? 2 : 1, artefacts);
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

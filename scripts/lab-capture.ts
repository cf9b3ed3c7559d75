// `npm run lab:capture [run-id…]`: runs the lab runs named (default: all of posts/rdma101/labs/)
// in the lab VM(s) and writes what each step printed into <run-id>.out beside its manifest. A run
// whose steps miss their `expect` is reported and not written. (`npm run lab -- --run` runs them
// and writes nothing.)
import { writeFileSync } from "node:fs";
import { describeResult, expectationProblems } from "../src/lab/runner.ts";
import { runNamedRuns } from "../src/lab/session.ts";
import { formatTranscript } from "../src/lab/transcript.ts";
import { errorMessage } from "../src/validation.ts";

async function main(ids: string[]): Promise<number> {
  let failed = 0;
  const { runs, bootSeconds } = await runNamedRuns(ids, ({ run, steps, seconds }) => {
    const problems = expectationProblems(run, steps);
    if (problems.length) {
      failed++;
      console.error(`✗ ${run.id} (${seconds.toFixed(1)} s): not written\n${problems.join("\n")}\n${steps.map(describeResult).join("\n")}`);
      return;
    }
    writeFileSync(run.transcriptFile, formatTranscript(run.id, run.file, steps));
    console.log(`✓ ${run.id} (${seconds.toFixed(1)} s) → ${run.transcriptFile}`);
  });
  console.log(`lab: booted in ${bootSeconds.toFixed(1)} s; ${runs.length - failed} of ${runs.length} runs captured`);
  return failed ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (status) => process.exit(status),
  (error: unknown) => {
    console.error(`npm run lab:capture: ${errorMessage(error)}`);
    process.exit(1);
  },
);

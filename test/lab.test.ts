// Every lab run (posts/rdma101/labs/*.yaml) in the Soft-RoCE lab: the VMs boot once, every run
// executes inside them, each step must meet its `expect`, and the stored transcript (what lessons
// show) must still match the fresh run once what legitimately varies is normalised. A lab that
// cannot start fails every test here, naming why: it is never skipped.
import { readdirSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { EXAMPLES_DIR, isLabProgram } from "../src/examples.ts";
import { labArtefacts } from "../src/lab/artefacts.ts";
import { describeResult, expectationProblems, transcriptProblems } from "../src/lab/runner.ts";
import { loadRuns } from "../src/lab/runs.ts";
import { runInLab, type RunResult } from "../src/lab/session.ts";

const runs = loadRuns();
const results = new Map<string, RunResult>();
/** Why the lab could not run: every test that needs it fails with this (a failed hook would only skip them). */
let labFailure: unknown;

beforeAll(async () => {
  const started = Date.now();
  try {
    const artefacts = labArtefacts();
    const broken = artefacts.compileFailures.map((f) => `${f.program} does not compile:\n${f.message}`);
    if (broken.length) throw new Error(broken.join("\n"));
    const { bootSeconds } = await runInLab(
      runs,
      artefacts,
      (result) => results.set(result.run.id, result),
      (message) => console.log(`lab: ${message}`),
    );
    const timings = [...results.values()].map((r) => `${r.run.id} ${r.seconds.toFixed(1)} s`).join(", ");
    console.log(`lab: booted in ${bootSeconds.toFixed(1)} s; ${timings}; ${((Date.now() - started) / 1000).toFixed(1)} s in all`);
  } catch (error) {
    labFailure = error;
  }
}, 600_000);

const resultOf = (id: string): RunResult => {
  if (labFailure) throw labFailure;
  const result = results.get(id);
  if (!result) throw new Error(`run ${id} did not run`);
  return result;
};
const details = (result: RunResult) => result.steps.map(describeResult).join("\n");

describe("the lab runs", () => {
  it("run every complete program of the course at least once", () => {
    const programs = readdirSync(EXAMPLES_DIR).filter(isLabProgram).map((f) => f.replace(/\.c$/, ""));
    const run = new Set(runs.flatMap((r) => r.steps.map((s) => s.run.split(/\s+/)[0]!)));
    expect(programs.filter((p) => !run.has(p)), "programs that no posts/rdma101/labs/*.yaml runs").toEqual([]);
  });

  describe.each(runs.map((r) => [r.id, r] as const))("%s", (id, run) => {
    it("meets its expect: exit statuses and output patterns", () => {
      const result = resultOf(id);
      expect(expectationProblems(run, result.steps), details(result)).toEqual([]);
    });

    it("still prints what its stored transcript shows", () => {
      const result = resultOf(id);
      expect(transcriptProblems(run, result.steps), details(result)).toEqual([]);
    });
  });
});

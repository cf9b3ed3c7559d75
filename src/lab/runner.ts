// Runs a lab run's steps in booted VMs and checks them against the run's `expect` and its stored
// transcript. Steps start in order, each once the one before has printed its `ready` text; each
// has its own time limit, after which it is killed and reported with what it printed.
import { existsSync, readFileSync } from "node:fs";
import { normaliseOutput } from "./normalise.ts";
import type { LabRunFile } from "./runs.ts";
import { parseTranscript, type StepTranscript } from "./transcript.ts";
import { withoutRdmaDevice } from "./shell.ts";
import { sleep, type LabVm, type Step } from "./vm.ts";

export interface StepResult extends StepTranscript {
  /** What went wrong with the step itself (a time limit, a missing ready text), if anything. */
  problem?: string;
  /** When it started, counted from the start of the run, and how long it ran. */
  startSeconds: number;
  seconds: number;
}

/** How often a running step's output and status are looked at: each wait for a `ready` text ends this much late at most. */
const POLL_MS = 25;

interface Started {
  spec: LabRunFile["steps"][number];
  step: Step;
  start: number;
  status?: number;
  end?: number;
  problem?: string;
}

const deadlineOf = (s: Started) => s.start + s.spec.timeout * 1000;

/** Waits until `done` says so or the step's time is up; false if the time ran out. */
async function waitFor(s: Started, done: () => boolean): Promise<boolean> {
  while (!done()) {
    if (Date.now() > deadlineOf(s)) return false;
    await sleep(POLL_MS);
  }
  return true;
}

export async function runSteps(run: LabRunFile, vms: Pick<LabVm, "run">[]): Promise<StepResult[]> {
  const started: Started[] = [];
  const runStart = Date.now();
  let vmFailure: unknown;
  for (const spec of run.steps) {
    const vm = vms[spec.vm - 1];
    if (!vm) throw new Error(`${run.file}: steps: step ${spec.name} needs VM ${spec.vm}, but ${vms.length} VM(s) are up`);
    const s: Started = { spec, step: vm.run(spec.noDevice ? withoutRdmaDevice(spec.run) : spec.run), start: Date.now() };
    s.step.exited.then(
      (status) => ((s.status = status), (s.end = Date.now())),
      (error: unknown) => (vmFailure ??= error),
    );
    started.push(s);
    if (!spec.ready) continue;
    const ready = spec.ready;
    const seen = await waitFor(s, () => vmFailure !== undefined || s.status !== undefined || s.step.output().includes(ready));
    if (vmFailure) break;
    if (!s.step.output().includes(ready)) {
      s.problem = seen ? `exited (status ${s.status}) before printing "${ready}"` : `did not print "${ready}" within ${spec.timeout} s`;
      break;
    }
  }
  // A step that did not get ready stops the run: the rest are not started, the started ones end.
  const broken = started.find((s) => s.problem);
  for (const s of started) {
    if (!broken && !(await waitFor(s, () => vmFailure !== undefined || s.status !== undefined))) {
      s.problem = `was still running after ${s.spec.timeout} s, so it was killed`;
    }
    if (vmFailure) throw vmFailure;
    if (s.status === undefined) {
      s.problem ??= `was killed: step ${broken?.spec.name} did not get ready`;
      s.step.kill();
      await s.step.exited.catch(() => undefined);
    }
  }
  if (vmFailure) throw vmFailure;
  return started.map((s) => ({
    name: s.spec.name,
    vm: s.spec.vm,
    run: s.spec.run,
    status: s.status ?? -1,
    output: s.step.output(),
    problem: s.problem,
    startSeconds: (s.start - runStart) / 1000,
    seconds: ((s.end ?? Date.now()) - s.start) / 1000,
  }));
}

/** Every way the results differ from the run's `expect`, as `file: field: reason`. */
export function expectationProblems(run: LabRunFile, results: StepResult[]): string[] {
  const problems: string[] = [];
  for (const spec of run.steps) {
    const result = results.find((r) => r.name === spec.name);
    const expected = run.expect[spec.name] ?? { status: 0, output: [] };
    if (!result) {
      problems.push(`${run.file}: steps: step ${spec.name} never started`);
      continue;
    }
    if (result.problem) problems.push(`${run.file}: steps: step ${spec.name} ${result.problem}`);
    else if (result.status !== expected.status) problems.push(`${run.file}: expect.${spec.name}.status: expected ${expected.status}, got ${result.status}`);
    expected.output.forEach((pattern, i) => {
      if (!new RegExp(pattern, "m").test(result.output)) problems.push(`${run.file}: expect.${spec.name}.output[${i}]: /${pattern}/ does not match its output`);
    });
  }
  return problems;
}

/** How the stored transcript differs from a fresh run, after normalising what may vary. */
export function transcriptProblems(run: LabRunFile, results: StepResult[]): string[] {
  if (!existsSync(run.transcriptFile)) return [`${run.transcriptFile}: (file): no transcript; run npm run lab:capture ${run.id}`];
  const stored = parseTranscript(readFileSync(run.transcriptFile, "utf8"), run.transcriptFile);
  const problems: string[] = [];
  const names = (steps: { name: string }[]) => steps.map((s) => s.name).join(", ");
  if (names(stored) !== names(results)) problems.push(`${run.transcriptFile}: steps: has ${names(stored)}, the run has ${names(results)}`);
  for (const fresh of results) {
    const old = stored.find((s) => s.name === fresh.name);
    if (!old) continue;
    const where = `${run.transcriptFile}: ${fresh.name}`;
    if (old.run !== fresh.run) problems.push(`${where}: command: stored '${old.run}', the run has '${fresh.run}'`);
    if (old.vm !== fresh.vm) problems.push(`${where}: vm: stored ${old.vm}, the run has ${fresh.vm}`);
    if (old.status !== fresh.status) problems.push(`${where}: status: stored ${old.status}, now ${fresh.status}`);
    const [before, now] = [normaliseOutput(old.output), normaliseOutput(fresh.output)];
    if (before !== now && !run.steps.find((s) => s.name === fresh.name)?.varies) problems.push(`${where}: output: differs from a fresh run (normalised):\n${firstDifference(before, now)}`);
  }
  return problems;
}

/** The first line where two texts part, with the lines as each has them. */
export function firstDifference(stored: string, fresh: string): string {
  const [a, b] = [stored.split("\n"), fresh.split("\n")];
  const i = a.findIndex((line, n) => line !== b[n]);
  const at = i < 0 ? a.length : i;
  return `  line ${at + 1}, stored: ${JSON.stringify(a[at] ?? "(end)")}\n  line ${at + 1}, fresh:  ${JSON.stringify(b[at] ?? "(end)")}`;
}

/** A step's result for a failure message: its command, status and everything it printed. */
export function describeResult(result: StepResult): string {
  const output = result.output.trimEnd() || "(no output)";
  const when = `from ${result.startSeconds.toFixed(1)} s for ${result.seconds.toFixed(1)} s`;
  return `--- step ${result.name} (VM ${result.vm}, ${result.problem ?? `exit status ${result.status}`}, ${when}): $ ${result.run}\n${output}`;
}

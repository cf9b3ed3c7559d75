// Lab runs: posts/rdma101/labs/<run-id>.yaml, each a set of command lines run in the lab VM(s)
// (schema: labRunSchema in src/schemas.ts), and beside it <run-id>.out, what they printed when
// captured. The tests run every one; the `transcript` directive shows the captured output.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { COURSE_DIR, lessonLocation } from "../course.ts";
import { readYaml } from "../yaml.ts";
import { labRunSchema, runId, type LabRun } from "../schemas.ts";
import { contentError, ContentError, validate } from "../validation.ts";

export const LABS_DIR = `${COURSE_DIR}/labs`;

export interface LabRunFile extends LabRun {
  id: string;
  file: string;
  /** Where its captured transcript lives (it may not exist yet). */
  transcriptFile: string;
}

/** How a learner opens the lab and repeats a lab run (README: The RDMA 101 lab): the one place that names them. */
export const LAB_COMMANDS = {
  shell: "npm run lab",
  twoVms: "npm run lab -- --vms 2",
  run: (id: string) => `npm run lab -- --run ${id}`,
};

export const runFile = (id: string, dir = LABS_DIR): string => `${dir}/${id}.yaml`;
export const transcriptFile = (id: string, dir = LABS_DIR): string => `${dir}/${id}.out`;

/** Every run's id, from the file names, in a stable order. */
export function runIds(dir = LABS_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => f.replace(/\.ya?ml$/, ""))
    .sort();
}

/** `<part-slug>/<lesson-slug>` of every lesson file. */
export function lessonRefs(courseDir = COURSE_DIR): Set<string> {
  const refs = new Set<string>();
  for (const part of readdirSync(courseDir, { withFileTypes: true })) {
    if (!part.isDirectory() || !/^\d+-/.test(part.name)) continue;
    for (const lesson of readdirSync(path.join(courseDir, part.name)).filter((f) => f.endsWith(".md"))) {
      const where = lessonLocation(path.join(courseDir, part.name, lesson));
      refs.add(`${where.part.slug}/${where.lesson.slug}`);
    }
  }
  return refs;
}

export function loadRun(id: string, dir = LABS_DIR, lessons = lessonRefs()): LabRunFile {
  const file = runFile(id, dir);
  if (!runId.safeParse(id).success) throw contentError([`${file}: (file): the file name must be a lower-case slug such as capstone-pingpong.yaml`]);
  if (!existsSync(file)) throw contentError([`${file}: (file): no such lab run`]);
  const run = validate(labRunSchema, readYaml(readFileSync(file, "utf8"), file), file);
  if (!lessons.has(run.lesson)) throw contentError([`${file}: lesson: no lesson '${run.lesson}'`]);
  return { ...run, id, file, transcriptFile: transcriptFile(id, dir) };
}

/** The runs named (default: all), every bad file reported at once. */
export function loadRuns(ids?: string[], dir = LABS_DIR): LabRunFile[] {
  const lessons = lessonRefs();
  const problems: string[] = [];
  const runs: LabRunFile[] = [];
  for (const id of ids ?? runIds(dir)) {
    try {
      runs.push(loadRun(id, dir, lessons));
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      problems.push(error.message);
    }
  }
  if (problems.length) throw contentError(problems);
  return runs;
}

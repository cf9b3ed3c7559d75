// RDMA 101's labs page (src/pages/rdma101/labs.njk): every lab run of the course, read from its
// manifest (posts/rdma101/labs/<id>.yaml) and its captured transcript, grouped under the lesson it
// belongs to in course order. Nothing on the page is a list kept by hand: a new run is a new file.
import type UserConfig from "@11ty/eleventy/UserConfig";
import type { Lesson, Syllabus } from "./course.ts";
import type { Lang } from "./languages.ts";
import { LAB_COMMANDS, loadRuns, runFile, type LabRunFile } from "./lab/runs.ts";
import { withoutRdmaDevice } from "./lab/shell.ts";
import { vmAddress } from "./lab/vm.ts";
import type { Wire } from "./schemas.ts";
import { transcriptHtml } from "./transcripts.ts";
import { labAnchor } from "./urls.ts";

export interface LabStep {
  name: string;
  vm: number;
  /** The command line exactly as the lab runs it (in a namespace without RDMA devices for a noDevice step). */
  command: string;
  noDevice: boolean;
  /** Printed before the next step starts. */
  ready?: string;
  /** What must hold: its exit status and the patterns its output must match. */
  status: number;
  output: string[];
}

export interface Lab {
  id: string;
  /** Its entry's id on the labs page. */
  anchor: string;
  title: string;
  vms: number;
  /** What joins the two VMs (see ../schemas.ts). */
  wire: Wire;
  /** The VMs' addresses, when the run crosses the wire between two. */
  addresses: string[];
  command: string;
  steps: LabStep[];
  /** Some step is meant to fail (a non-zero exit status is expected). */
  failsOnPurpose: boolean;
  /** Some step's output varies between runs more than the normaliser evens out. */
  varies: boolean;
}

export interface LessonLabs {
  lesson: Lesson;
  labs: Lab[];
}

export function labOf(run: LabRunFile): Lab {
  const steps = run.steps.map((s) => {
    const expected = run.expect[s.name] ?? { status: 0, output: [] };
    return { name: s.name, vm: s.vm, command: s.noDevice ? withoutRdmaDevice(s.run) : s.run, noDevice: s.noDevice, ready: s.ready, status: expected.status, output: expected.output };
  });
  return {
    id: run.id,
    anchor: labAnchor(run.id),
    title: run.title,
    vms: run.vms,
    wire: run.wire,
    addresses: run.vms > 1 ? Array.from({ length: run.vms }, (_, i) => vmAddress(i + 1)) : [],
    command: LAB_COMMANDS.run(run.id),
    steps,
    failsOnPurpose: steps.some((s) => s.status !== 0),
    varies: run.steps.some((s) => s.varies),
  };
}

/** Every lab run under its lesson, lessons in course order (a run names an existing lesson: ./lab/runs.ts). */
export function labsByLesson(syllabus: Syllabus, runs: LabRunFile[] = loadRuns()): { lessons: LessonLabs[]; count: number } {
  const lessons = syllabus.all.flatMap((lesson) => {
    const labs = runs.filter((r) => r.lesson === lesson.ref).map(labOf);
    return labs.length ? [{ lesson, labs }] : [];
  });
  return { lessons, count: runs.length };
}

export default function courseLabs(config: UserConfig): void {
  config.addFilter("labsByLesson", (syllabus: Syllabus) => labsByLesson(syllabus));
  // No caption: the run's entry names it and the command, and the page says once what the lab is.
  config.addFilter("labTranscript", (lab: Lab, lang: Lang) => transcriptHtml(lab.id, undefined, runFile(lab.id), undefined, lang, "none"));
  config.addGlobalData("labCommands", { shell: LAB_COMMANDS.shell, twoVms: LAB_COMMANDS.twoVms, run: LAB_COMMANDS.run("RUN-ID") });
}

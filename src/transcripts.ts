// The `transcript` directive: output a course program really printed, captured in the lab
// (posts/rdma101/labs/<run>.out, written by `npm run lab:capture`), shown like every other code
// block: `$ command`, then its output. Lessons show program output only this way.
//
//   ```transcript
//   run: capstone-pingpong
//   step: client        # optional: one step; every step in order when left out
//   ```
import { existsSync } from "node:fs";
import type UserConfig from "@11ty/eleventy/UserConfig";
import { readText } from "./content-safety.ts";
import type { Directive } from "./directives.ts";
import { codeBlockHtml, highlightCode } from "./highlight.ts";
import { t, tHtml } from "./i18n.ts";
import { DEFAULT_LANGUAGE, type Lang } from "./languages.ts";
import { LAB_COMMANDS, LABS_DIR, lessonRefs, loadRun, runFile, type LabRunFile } from "./lab/runs.ts";
import { parseTranscript, type StepTranscript } from "./lab/transcript.ts";
import { isLessonFile } from "./course.ts";
import { transcriptSchema } from "./schemas.ts";
import { contentError } from "./validation.ts";
import { codeHtml, escapeHtml, linkHtml } from "./html.ts";
import { href, routes } from "./urls.ts";

/** Fence languages that show a terminal or program output. */
const OUTPUT_FENCES = new Set(["console", "shell-session", "output", "text"]);

/**
 * Why a lesson may not hold this fenced block, or undefined: lessons show program output only
 * through `transcript` (output a program really printed in the lab), never written by hand.
 */
export function handWrittenOutput(file: string, lang: string): string | undefined {
  if (!isLessonFile(file) || !OUTPUT_FENCES.has(lang.toLowerCase())) return undefined;
  return `${lang}: a lesson shows program output only with the transcript directive (a run captured in the lab, posts/rdma101/labs/); commands to type go in a sh block`;
}

/**
 * What a transcript's caption says: the run it comes from and how to run it again ("run"), after
 * that also what every transcript's timings mean ("lab"), or nothing ("none") where that is said
 * already: on the labs page, and under a lesson's later transcripts of one run.
 */
export type TranscriptCaption = "lab" | "run" | "none";

/** The caption under a lesson's transcript of `run`, below the transcripts of the runs `above`. */
export const captionBelow = (run: string, above: string[]): TranscriptCaption => (above.includes(run) ? "none" : above.length ? "run" : "lab");

/** What the course's lab is and what its timings mean, as said once on a page. */
export const courseLabText = (lang: Lang): string => t(lang, "transcript.course", { software: t(lang, "transcript.software") });

/** The class of that text in a caption: the print page, which says it once above all lessons, leaves it out of theirs. */
export const COURSE_LAB_CLASS = "course-lab";

function captionHtml(manifest: LabRunFile, caption: TranscriptCaption, lang: Lang): string {
  if (caption === "none") return "";
  const run = tHtml(lang, "transcript.run", { run: linkHtml(href(routes.courseLab(manifest.id)), escapeHtml(manifest.title)), command: codeHtml(LAB_COMMANDS.run(manifest.id)) });
  const text = caption === "lab" ? tHtml(lang, "transcript.lab", { run, course: `<span class="${COURSE_LAB_CLASS}">${escapeHtml(courseLabText(lang))}</span>` }) : run;
  return `<figcaption class="code-caption">${text}</figcaption>`;
}

/** Each run's manifest and captured output, read once per build: many directives name the same run. */
const capturedRuns = new Map<string, { manifest: LabRunFile; captured: StepTranscript[] }>();
/** The lessons a run may belong to, listed once per build. */
let lessons: Set<string> | undefined;

/**
 * A run and its transcript, checked to match (also for charts of what runs printed); `fail` makes
 * each mistake an error naming the page's line and field.
 */
export function capturedRun(run: string, dir: string, fail: (reason: string) => Error): { manifest: LabRunFile; captured: StepTranscript[] } {
  const key = `${dir}/${run}`;
  const known = capturedRuns.get(key);
  if (known) return known;
  if (!existsSync(runFile(run, dir))) throw fail(`no lab run '${run}' (${runFile(run, dir)})`);
  const manifest = loadRun(run, dir, (lessons ??= lessonRefs()));
  if (!existsSync(manifest.transcriptFile)) throw fail(`'${run}' has no transcript yet: run npm run lab:capture ${run}`);
  const captured = parseTranscript(readText(manifest.transcriptFile), manifest.transcriptFile);
  const stale = manifest.steps.some((s, i) => captured[i]?.name !== s.name || captured[i]?.run !== s.run) || captured.length !== manifest.steps.length;
  if (stale) throw fail(`${manifest.transcriptFile} no longer matches ${manifest.file}: run npm run lab:capture ${run}`);
  capturedRuns.set(key, { manifest, captured });
  return { manifest, captured };
}

/** The steps a directive shows, read from the run's transcript; every mistake names the page's line. */
function transcriptSteps(run: string, step: string | undefined, at: string, dir = LABS_DIR): { steps: StepTranscript[]; vms: number; stepsInRun: number; manifest: LabRunFile } {
  const fail = (field: string, reason: string) => contentError([`${at}: transcript.${field}: ${reason}`]);
  const { manifest, captured } = capturedRun(run, dir, (reason) => fail("run", reason));
  const shown = { vms: manifest.vms, stepsInRun: captured.length, manifest };
  if (step === undefined) return { steps: captured, ...shown };
  const one = captured.find((s) => s.name === step);
  if (!one) throw fail("step", `run '${run}' has no step '${step}' (it has ${captured.map((s) => s.name).join(", ")})`);
  return { steps: [one], ...shown };
}

/** Above each block: which process (when the run has several) and a failing exit status. */
function labelOf(s: StepTranscript, steps: number, vms: number, lang: Lang): string {
  const parts = [steps > 1 ? s.name : t(lang, "transcript.output")];
  if (vms > 1) parts.push(t(lang, "transcript.vm", { number: s.vm }));
  if (s.status !== 0) parts.push(t(lang, "transcript.status", { status: s.status }));
  return parts.join(" · ");
}

/** Characters of a command that a block's accessible name holds whole. */
const NAME_LENGTH = 60;

/**
 * A command as its block's accessible name, which a screen reader speaks each time it reaches the
 * block or its copy button: whole when short, else cut at a space with an ellipsis (a capture
 * piped into a decoder runs to 500 characters). The block itself shows the command whole.
 */
export function commandName(command: string): string {
  if (command.length <= NAME_LENGTH) return command;
  const space = command.lastIndexOf(" ", NAME_LENGTH);
  return `${command.slice(0, space > 0 ? space : NAME_LENGTH)} …`;
}

export function transcriptHtml(run: string, step: string | undefined, at: string, dir = LABS_DIR, lang: Lang = DEFAULT_LANGUAGE, caption: TranscriptCaption = "lab"): string {
  const { steps, vms, stepsInRun, manifest } = transcriptSteps(run, step, at, dir);
  const blocks = steps.map((s) => {
    const label = labelOf(s, stepsInRun, vms, lang);
    const { html } = highlightCode(`$ ${s.run}\n${s.output.trimEnd()}`, "console");
    return codeBlockHtml({ html, label, name: t(lang, "transcript.name", { command: commandName(s.run) }), lang: "console" }, lang);
  });
  return `<figure class="transcript">\n${blocks.join("")}${captionHtml(manifest, caption, lang)}\n</figure>\n`;
}

export const transcriptDirective: Directive<typeof transcriptSchema> = {
  schema: transcriptSchema,
  render: ({ run, step }, where, above) => transcriptHtml(run, step, `${where.file}:${where.line}`, LABS_DIR, where.lang, captionBelow(run, above().map((a) => a.run))),
};


/** Lab runs and lessons are read afresh for each build (the dev server rebuilds after an edit). */
export default function transcripts(config: UserConfig): void {
  config.on("eleventy.before", () => {
    capturedRuns.clear();
    lessons = undefined;
  });
}

// The `transcript` directive: output a course program really printed, captured in the lab
// (posts/rdma101/labs/<run>.out, written by `npm run lab:capture`), shown like every other code
// block: `$ command`, then its output. Lessons show program output only this way.
//
//   ```transcript
//   run: capstone-pingpong
//   step: client        # optional: one step; every step in order when left out
//   ```
import { existsSync, readFileSync } from "node:fs";
import type { Directive } from "./directives.ts";
import { codeBlockHtml, highlightCode } from "./highlight.ts";
import { loadRun, runFile } from "./lab/runs.ts";
import { parseTranscript, type StepTranscript } from "./lab/transcript.ts";
import { transcriptSchema } from "./schemas.ts";
import { contentError } from "./validation.ts";

export const TRANSCRIPT_CAPTION =
  "Real output, captured in the course's Soft-RoCE lab (<code>npm run lab</code>). Soft-RoCE is RDMA in software: its timings are software numbers, not NIC numbers.";

/** The steps a directive shows, read from the run's transcript; every mistake names the page's line. */
export function transcriptSteps(run: string, step: string | undefined, at: string): { steps: StepTranscript[]; vms: number } {
  const fail = (field: string, reason: string) => contentError([`${at}: transcript.${field}: ${reason}`]);
  if (!existsSync(runFile(run))) throw fail("run", `no lab run '${run}' (${runFile(run)})`);
  const manifest = loadRun(run);
  if (!existsSync(manifest.transcriptFile)) throw fail("run", `'${run}' has no transcript yet: run npm run lab:capture ${run}`);
  const captured = parseTranscript(readFileSync(manifest.transcriptFile, "utf8"), manifest.transcriptFile);
  const stale = manifest.steps.some((s, i) => captured[i]?.name !== s.name || captured[i]?.run !== s.run) || captured.length !== manifest.steps.length;
  if (stale) throw fail("run", `${manifest.transcriptFile} no longer matches ${manifest.file}: run npm run lab:capture ${run}`);
  if (step === undefined) return { steps: captured, vms: manifest.vms };
  const one = captured.find((s) => s.name === step);
  if (!one) throw fail("step", `run '${run}' has no step '${step}' (it has ${captured.map((s) => s.name).join(", ")})`);
  return { steps: [one], vms: manifest.vms };
}

export function transcriptHtml(run: string, step: string | undefined, at: string): string {
  const { steps, vms } = transcriptSteps(run, step, at);
  const blocks = steps.map((s) => {
    const label = vms > 1 ? `${s.name} · VM ${s.vm}` : s.name;
    const { html } = highlightCode(`$ ${s.run}\n${s.output.trimEnd()}`, "console");
    return codeBlockHtml({ html, label, name: `Output of ${s.run}`, lang: "console" });
  });
  return `<figure class="transcript">\n${blocks.join("")}<figcaption class="code-caption">${TRANSCRIPT_CAPTION}</figcaption>\n</figure>\n`;
}

export const transcriptDirective: Directive<typeof transcriptSchema> = {
  schema: transcriptSchema,
  render: ({ run, step }, where) => transcriptHtml(run, step, `${where.file}:${where.line}`),
};


// A captured transcript (posts/rdma101/labs/<run-id>.out): what each step of a run really printed,
// raw. A few comment lines, then per step a header line, the command line as typed after "$ ",
// and its output (stdout and stderr together, as a terminal shows them):
//
//   # RDMA 101 lab: what run capstone-pingpong printed (posts/rdma101/labs/capstone-pingpong.yaml).
//   # Written by `npm run lab:capture capstone-pingpong`; do not edit.
//   ## step server · VM 1 · exit status 0
//   $ rc_pingpong -g 1
//   waiting for a client on TCP port 18515
//   ...
import { contentError } from "../validation.ts";

export interface StepTranscript {
  name: string;
  vm: number;
  run: string;
  status: number;
  output: string;
}

const HEADER = /^## step (\S+) · VM (\d+) · exit status (\d+)$/;

/** The output as stored: ending in exactly one new line, or empty. */
const storedOutput = (output: string): string => (output === "" || output.endsWith("\n") ? output : `${output}\n`);

export function formatTranscript(runId: string, runFile: string, steps: StepTranscript[]): string {
  const lines = [
    `# RDMA 101 lab: what run ${runId} printed (${runFile}).`,
    `# Written by \`npm run lab:capture ${runId}\`; do not edit.`,
  ];
  return `${lines.join("\n")}\n${formatSteps(steps)}`;
}

/** The steps as a transcript shows them, without its comment lines. */
export function formatSteps(steps: StepTranscript[]): string {
  let text = "";
  for (const step of steps) {
    const stray = step.output.split("\n").find((line) => HEADER.test(line));
    if (stray !== undefined) throw new Error(`step ${step.name}: its output has a line that reads like a transcript header: ${stray}`);
    text += `## step ${step.name} · VM ${step.vm} · exit status ${step.status}\n$ ${step.run}\n${storedOutput(step.output)}`;
  }
  return text;
}

export function parseTranscript(text: string, file: string): StepTranscript[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const steps: StepTranscript[] = [];
  for (let i = 0; i < lines.length; i++) {
    const header = lines[i]!.match(HEADER);
    if (!header) {
      if (steps.length) steps.at(-1)!.output += `${lines[i]}\n`;
      else if (!lines[i]!.startsWith("# ")) throw contentError([`${file}: line ${i + 1}: expected a comment or a step header before any output`]);
      continue;
    }
    const command = lines[++i];
    if (!command?.startsWith("$ ")) throw contentError([`${file}: line ${i + 1}: the step's command line ("$ …") must follow its header`]);
    steps.push({ name: header[1]!, vm: Number(header[2]), status: Number(header[3]), run: command.slice(2), output: "" });
  }
  if (steps.length === 0) throw contentError([`${file}: (file): no steps`]);
  return steps;
}

// Complete RDMA 101 programs: real C files in posts/rdma101/examples/, placed in lessons with the
// `example` directive (one source of truth, compiled and run by the tests) and published for
// download at /rdma101/examples/.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type UserConfig from "@11ty/eleventy/UserConfig";
import { codeBlockHtml, highlightCode } from "./highlight.ts";
import type { Directive } from "./directives.ts";
import { escapeHtml } from "./html.ts";
import { exampleSchema } from "./schemas.ts";
import { contentError } from "./validation.ts";

export const EXAMPLES_DIR = "posts/rdma101/examples";
export const EXAMPLES_URL = "/rdma101/examples/";

/** The libraries a program links: libibverbs, and librdmacm when it includes one of its headers. */
export const librariesOf = (source: string): string[] =>
  /#\s*include\s*<rdma\/rdma_(?:cma|verbs)\.h>/.test(source) ? ["-libverbs", "-lrdmacm"] : ["-libverbs"];

/** How the tests and the lab compile a program: warnings are errors there. */
export const compileArgs = (file: string, output: string): string[] => [
  "-std=c11", "-Wall", "-Wextra", "-Werror", "-O2", "-o", output, file, ...librariesOf(readFileSync(file, "utf8")),
];

export const buildCommand = (name: string): string =>
  `gcc -std=c11 -Wall -Wextra -O2 ${name} -o ${name.replace(/\.c$/, "")} ${librariesOf(readFileSync(path.join(EXAMPLES_DIR, name), "utf8")).join(" ")}`;

export function exampleHtml(name: string, page: string): string {
  const file = path.join(EXAMPLES_DIR, name);
  if (!existsSync(file)) throw contentError([`${page}: example ${name}: no such program in ${EXAMPLES_DIR}/`]);
  const { html: code } = highlightCode(readFileSync(file, "utf8"), "c");
  const caption =
    `<figcaption class="code-caption"><a href="${EXAMPLES_URL}${name}" download><code>${escapeHtml(file)}</code></a>` +
    ` · Build: <code>${escapeHtml(buildCommand(name))}</code></figcaption>`;
  return codeBlockHtml({ html: code, label: "C program", name, lang: "c", element: "figure", className: "example", caption }).trimEnd();
}

export const exampleDirective: Directive<typeof exampleSchema> = {
  schema: exampleSchema,
  render: ({ file }, where) => exampleHtml(file, `${where.file}:${where.line}`),
};

export default function examples(config: UserConfig): void {
  config.addPassthroughCopy({ [`${EXAMPLES_DIR}/*.c`]: EXAMPLES_URL });
}

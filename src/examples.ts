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

/** The shared helpers (course.h, course.c) that programs from lesson 2.1 on are built with. */
export const HELPERS = "course.c";

/**
 * How to build a program: with course.c when it includes course.h, with librdmacm when it uses
 * rdma_cm. The helper files themselves are not programs and have no command.
 */
export function buildCommand(name: string): string | undefined {
  if (!name.endsWith(".c") || name === HELPERS) return undefined;
  const source = readFileSync(path.join(EXAMPLES_DIR, name), "utf8");
  const files = [name, ...(source.includes('#include "course.h"') ? [HELPERS] : [])];
  const libraries = ["-libverbs", ...(source.includes("#include <rdma/rdma_cma.h>") ? ["-lrdmacm"] : [])];
  return `gcc -std=c11 -Wall -Wextra -O2 ${files.join(" ")} -o ${name.replace(/\.c$/, "")} ${libraries.join(" ")}`;
}

export function exampleHtml(name: string, page: string): string {
  const file = path.join(EXAMPLES_DIR, name);
  if (!/^[a-z0-9_]+\.[ch]$/.test(name) || !existsSync(file)) {
    throw contentError([`${page}: example ${name}: no such program in ${EXAMPLES_DIR}/`]);
  }
  const { html: code } = highlightCode(readFileSync(file, "utf8"), "c");
  const build = buildCommand(name);
  const how = build ? `Build: <code>${escapeHtml(build)}</code>` : `Built into every program that includes <code>course.h</code>`;
  const caption = `<figcaption class="code-caption"><a href="${EXAMPLES_URL}${name}" download><code>${escapeHtml(file)}</code></a> · ${how}</figcaption>`;
  return codeBlockHtml({ html: code, label: "C program", name, lang: "c", element: "figure", className: "example", caption }).trimEnd();
}

export const exampleDirective: Directive<typeof exampleSchema> = {
  schema: exampleSchema,
  render: ({ file }, where) => exampleHtml(file, `${where.file}:${where.line}`),
};

export default function examples(config: UserConfig): void {
  config.addPassthroughCopy({ [`${EXAMPLES_DIR}/*.{c,h}`]: EXAMPLES_URL });
}

// Complete RDMA 101 programs: real C files in posts/rdma101/examples/, placed in lessons with the
// `example` directive (one source of truth, compiled and run by the tests) and published for
// download beside the course (routes.example).
import { existsSync, readFileSync } from "node:fs";
import { readText } from "./content-safety.ts";
import path from "node:path";
import type UserConfig from "@11ty/eleventy/UserConfig";
import { codeBlockHtml, highlightCode } from "./highlight.ts";
import type { Directive } from "./directives.ts";
import { codeHtml, escapeHtml } from "./html.ts";
import { t, tHtml } from "./i18n.ts";
import { DEFAULT_LANGUAGE, type Lang } from "./languages.ts";
import { exampleSchema } from "./schemas.ts";
import { href, routes } from "./urls.ts";
import { contentError } from "./validation.ts";

export const EXAMPLES_DIR = "posts/rdma101/examples";

/** The shared helpers (course.h, course.c) that programs from lesson 2.1 on are built with. */
export const HELPERS = "course.c";

/** The libraries a program links: libibverbs, and librdmacm when it includes one of its headers. */
export const librariesOf = (source: string): string[] =>
  /#\s*include\s*<rdma\/rdma_(?:cma|verbs)\.h>/.test(source) ? ["-libverbs", "-lrdmacm"] : ["-libverbs"];

/** Where the CUDA toolkit's headers and runtime library are installed by default. */
export const CUDA_HOME = "/usr/local/cuda";

const usesCuda = (source: string): boolean => source.includes("#include <cuda_runtime.h>");

/**
 * What a program is built from: its own file, course.c when it includes course.h, and its
 * libraries (with the CUDA runtime and the toolkit's paths for a program that needs a GPU).
 * Undefined for a file that is not a program (the helpers themselves).
 */
function buildOf(name: string, source?: string): { sources: string[]; libraries: string[] } | undefined {
  if (!name.endsWith(".c") || name === HELPERS) return undefined;
  source ??= readFileSync(path.join(EXAMPLES_DIR, name), "utf8");
  const cuda = usesCuda(source) ? [`-I${CUDA_HOME}/include`, `-L${CUDA_HOME}/lib64`, "-lcudart"] : [];
  return { sources: [name, ...(source.includes('#include "course.h"') ? [HELPERS] : [])], libraries: [...cuda, ...librariesOf(source)] };
}

export const isProgram = (name: string): boolean => buildOf(name) !== undefined;

/**
 * Programs that use the CUDA runtime need an NVIDIA GPU to run, which the course's machines do not
 * have: they are compiled (against the toolkit's headers) but never run, in the tests or the lab.
 */
export const needsGpu = (name: string): boolean => usesCuda(readFileSync(path.join(EXAMPLES_DIR, name), "utf8"));

/** The programs the lab builds and runs: every program but those that need a GPU. */
export const isLabProgram = (name: string): boolean => isProgram(name) && !needsGpu(name);

/** The command a lesson shows for building a program; none for the helper files. */
export function buildCommand(name: string, source?: string): string | undefined {
  const build = buildOf(name, source);
  return build && `gcc -std=c11 -Wall -Wextra -O2 ${build.sources.join(" ")} -o ${name.replace(/\.c$/, "")} ${build.libraries.join(" ")}`;
}

/** How the tests and the lab compile the program `file` (in EXAMPLES_DIR): warnings are errors there. */
export function compileArgs(file: string, output: string): string[] {
  const build = buildOf(path.basename(file));
  if (!build) throw new Error(`${file}: not a program, so it cannot be compiled alone`);
  const sources = build.sources.map((s) => path.join(path.dirname(file), s));
  return ["-std=c11", "-Wall", "-Wextra", "-Werror", "-O2", "-o", output, ...sources, ...build.libraries];
}

/**
 * The definition of one function in a C file written in the course's style (the name at the start
 * of a line, the closing brace alone in column 0), with the comment block just above it.
 */
export function cFunction(source: string, name: string): string | undefined {
  const lines = source.split("\n");
  const start = lines.findIndex((l) => /^\S/.test(l) && new RegExp(`\\b${name}\\(`).test(l) && !l.trimEnd().endsWith(";"));
  const end = lines.findIndex((l, i) => i > start && l === "}");
  if (start < 0 || end < 0) return undefined;
  let first = start;
  while (first > 0 && /^(\/\*|\s\*)/.test(lines[first - 1]!)) first--;
  return lines.slice(first, end + 1).join("\n");
}

export function exampleHtml(name: string, page: string, fn?: string, lang: Lang = DEFAULT_LANGUAGE): string {
  const file = path.join(EXAMPLES_DIR, name);
  if (!existsSync(file)) throw contentError([`${page}: example ${name}: no such program in ${EXAMPLES_DIR}/`]);
  const source = readText(file);
  const shown = fn ? cFunction(source, fn) : source;
  if (shown === undefined) throw contentError([`${page}: example ${name}: no function ${fn}() in ${file}`]);
  const { html: code } = highlightCode(shown, "c");
  const build = buildCommand(name, source);
  const link = `<a href="${escapeHtml(href(routes.example(name)))}" download><code>${escapeHtml(file)}</code></a>`;
  const how = build ? `${escapeHtml(t(lang, "code.build"))} ${codeHtml(build)}` : tHtml(lang, "code.helpers", { header: codeHtml("course.h") });
  const gpu = usesCuda(source) ? ` · ${escapeHtml(t(lang, "code.needsGpu"))}` : "";
  const caption = `<figcaption class="code-caption">${fn ? tHtml(lang, "code.functionFrom", { function: codeHtml(`${fn}()`), file: link }) : `${link} · ${how}`}${gpu}</figcaption>`;
  return codeBlockHtml({ html: code, label: t(lang, "code.program"), name, lang: "c", element: "figure", className: "example", caption }, lang).trimEnd();
}

export const exampleDirective: Directive<typeof exampleSchema> = {
  schema: exampleSchema,
  render: ({ file, function: fn }, where) => exampleHtml(file, `${where.file}:${where.line}`, fn, where.lang),
};

export default function examples(config: UserConfig): void {
  config.addPassthroughCopy({ [`${EXAMPLES_DIR}/*.{c,h}`]: routes.examples() });
}

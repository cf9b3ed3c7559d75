// The C code written directly in RDMA 101 lessons (```c blocks, as opposed to the programs placed
// with the `example` directive): learners type it, so none of it is taken on trust. Each block is one
// of three kinds, and is checked as such:
//
// - declarations: only prototypes and struct definitions, copied from the library's headers. Each
//   prototype is compiled after the headers, so a wrong parameter or return type is a "conflicting
//   types" error, and its function must be declared there. A struct is compiled under another tag
//   beside the real one: the same fields in the same order (compared with the header's own
//   definition), each of the same type at the same offset, and the same size. GCC counts an enum
//   compatible with its integer type, so where either side names an enum, both must name it.
// - an excerpt: code that uses a program's variables. Its lines must appear, in order and one after
//   another, in a program of posts/rdma101/examples/ (which the tests compile): compared without
//   comments (a lesson annotates code for its reader; comments compile to nothing), blank lines, or
//   differences in spacing.
// - a fragment: code written only to illustrate, marked ```c fragment, optionally followed on the
//   same line by the declarations it needs (`c fragment struct ibv_mr *mr; size_t len;`). It is
//   compiled as the body of a function after those declarations.
//
// Declarations are recognised by their shape; anything else is an excerpt unless marked. Every
// problem names the lesson's file and line.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { isLessonFile, COURSE_DIR } from "./course.ts";
import { EXAMPLES_DIR } from "./examples.ts";
import { fenceLanguage, fenceWords, fencedBlocks, type FencedBlock } from "./markdown.ts";

/** Fence languages that hold C (highlight.ts shows both as C). */
const C_LANGUAGES = new Set(["c", "h"]);
/** The marker, after the language, of code written only to illustrate. */
const FRAGMENT = "fragment";

/** What every block is compiled after: the headers the course's programs use, course.h among them. */
const HEADERS = ["inttypes.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "string.h", "arpa/inet.h", "infiniband/verbs.h", "rdma/rdma_cma.h", "course.h"];
const PRELUDE = `#define _POSIX_C_SOURCE 200809L\n${HEADERS.map((h) => (h === "course.h" ? `#include "${h}"` : `#include <${h}>`)).join("\n")}\n`;
/** The course's own flags; a fragment's declarations may be unused, as code around it would use them. */
const FLAGS = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-fsyntax-only", `-I${EXAMPLES_DIR}`];
const FRAGMENT_FLAGS = [...FLAGS, "-Wno-unused-variable", "-Wno-unused-but-set-variable"];

/** Every ```c block of every lesson. */
export function lessonCBlocks(): FencedBlock[] {
  const lessons = readdirSync(COURSE_DIR, { recursive: true, encoding: "utf8" })
    .map((f) => `${COURSE_DIR}/${f.split(path.sep).join("/")}`)
    .filter(isLessonFile)
    .sort();
  return lessons.flatMap(fencedBlocks).filter((block) => C_LANGUAGES.has(fenceLanguage(block.info).toLowerCase()));
}

/** C without its comments; each comment leaves its line breaks, so lines keep their numbers. */
export function withoutComments(code: string): string {
  return code.replace(/("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (all, literal: string | undefined) =>
    literal ?? all.replace(/[^\n]/g, ""),
  );
}

/** `text` split at each `separator` outside brackets, braces and parentheses; pieces trimmed, empty ones kept. */
function splitTopLevel(text: string, separator: string): string[] {
  const pieces: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) depth--;
    else if (c === separator && depth === 0) {
      pieces.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  return [...pieces, text.slice(start).trim()];
}

const collapse = (s: string) => s.replace(/\s+/g, " ").trim();

type Declaration = { kind: "struct"; tag: string; body: string } | { kind: "prototype"; name: string; text: string };

const STRUCT_DEFINITION = /^struct (\w+) ?\{(.*)\}$/;
const PROTOTYPE = /^[A-Za-z_][\w *]*[ *](\w+) ?\([^;{}=]*\)$/;
const STATEMENT_KEYWORDS = /^(?:return|if|else|while|for|do|switch|case|goto|sizeof)\b/;

/** The block's prototypes and struct definitions, or undefined when it holds anything else. */
export function declarationsOf(code: string): Declaration[] | undefined {
  const items = splitTopLevel(withoutComments(code), ";").map(collapse);
  if (items.at(-1) !== "" || items.length < 2) return undefined;
  const declarations: Declaration[] = [];
  for (const item of items.slice(0, -1)) {
    const struct = item.match(STRUCT_DEFINITION);
    const prototype = !STATEMENT_KEYWORDS.test(item) && item.match(PROTOTYPE);
    if (struct) declarations.push({ kind: "struct", tag: struct[1]!, body: struct[2]! });
    else if (prototype) declarations.push({ kind: "prototype", name: prototype[1]!, text: item });
    else return undefined;
  }
  return declarations;
}

/** A field declarator's name: `*next` → next, `raw[16]` → raw, `(*fn)(int)` → fn. */
function declaratorName(declarator: string): string {
  const bare = declarator.replace(/:\s*\w+$/, "").replace(/(\s*\[[^\]]*\])+$/, "");
  return (bare.match(/\(\s*\*\s*(\w+)\s*\)/) ?? bare.match(/(\w+)\s*$/))?.[1] ?? declarator;
}

/** The names of a struct body's fields, in order; a nested struct or union member reads `{…} name`. */
export function fieldNames(body: string): string[] {
  return splitTopLevel(body, ";")
    .filter(Boolean)
    .flatMap((declaration) => {
      if (declaration.includes("{")) return [`{…} ${declaration.match(/\}\s*(\w*)\s*$/)?.[1] ?? ""}`.trim()];
      const [first, ...others] = splitTopLevel(declaration, ",");
      return [first!, ...others].map(declaratorName);
    });
}

/** The enum a declaration's type names (`enum ibv_mtu max_mtu` → `enum ibv_mtu`), or "a plain type". */
const enumIn = (declaration: string): string => declaration.match(/\benum\s+\w+/)?.[0] ?? "a plain type";

/** Each field's enum (see enumIn), by name, in a struct body. */
function fieldEnums(body: string): Map<string, string> {
  return new Map(
    splitTopLevel(body, ";")
      .filter((declaration) => declaration && !declaration.includes("{"))
      .flatMap((declaration) => splitTopLevel(declaration, ",").map((declarator) => [declaratorName(declarator), enumIn(declaration)] as const)),
  );
}

/** A prototype's return type and each parameter, as enumIn reads them (`int f(enum x a)` → [a plain type, enum x]). */
function signatureEnums(prototype: string, name: string): string[] {
  const open = prototype.search(new RegExp(`\\b${name}\\s*\\(`));
  const params = prototype.slice(prototype.indexOf("(", open) + 1, prototype.lastIndexOf(")"));
  return [enumIn(prototype.slice(0, open)), ...splitTopLevel(params, ",").map(enumIn)];
}

/** Compiles `source`; gcc's errors (and the notes that say where the header has it), or undefined. */
function compile(source: string, flags: string[]): string | undefined {
  const run = spawnSync("gcc", [...flags, "-x", "c", "-"], { input: source, encoding: "utf8" });
  if (run.error) throw run.error;
  if (run.status === 0) return undefined;
  const lines = run.stderr.split("\n").filter((l) => /\b(?:error|note):/.test(l));
  return (lines.length ? lines : [run.stderr.trim()]).slice(0, 6).join("\n  ");
}

/** The headers after the preprocessor: `-P` their code, `-dM` their macros. */
const preprocess = (flag: "-P" | "-dM"): string => spawnSync("gcc", ["-E", flag, `-I${EXAMPLES_DIR}`, "-x", "c", "-"], { input: PRELUDE, encoding: "utf8" }).stdout;

let preprocessed: string | undefined;
/** A struct's body as the headers define it, or undefined when they define no such struct. */
function headerStruct(tag: string): string | undefined {
  preprocessed ??= preprocess("-P");
  const start = preprocessed.search(new RegExp(`\\bstruct\\s+${tag}\\s*\\{`));
  if (start < 0) return undefined;
  const open = preprocessed.indexOf("{", start);
  let depth = 0;
  for (let i = open; i < preprocessed.length; i++) {
    if (preprocessed[i] === "{") depth++;
    else if (preprocessed[i] === "}" && --depth === 0) return collapse(preprocessed.slice(open + 1, i));
  }
  return undefined;
}

/** The headers' first declaration of function `name` (a prototype or an inline definition's head). */
function headerPrototype(name: string): string | undefined {
  preprocessed ??= preprocess("-P");
  for (const [, declaration, type] of preprocessed.matchAll(new RegExp(`(?:^|[;{}])\\s*(([^;{}=()]*)\\b${name}\\s*\\([^;{}]*\\))`, "g")))
    if (type!.trim() && !STATEMENT_KEYWORDS.test(type!.trim())) return collapse(declaration!);
  return undefined;
}

let renames: Map<string, string> | undefined;
/**
 * The function a call of `name` reaches: a macro that only renames it (ibv_query_port →
 * ___ibv_query_port) is the API programs call, so a prototype is checked against its target, which
 * the preprocessor substitutes in the declaration too. Any other macro (ibv_reg_mr adds an argument)
 * would garble the declaration: the function of that name itself is checked, the macro undefined.
 */
function renamedTo(name: string): string | undefined {
  renames ??= new Map(
    [...preprocess("-dM").matchAll(/^#define (\w+)\(([^)]*)\)\s+(\w+)\s*\(([^()]*)\)\s*$/gm)]
      .filter(([, , params, , args]) => collapse(params!.replace(/,/g, ", ")) === collapse(args!.replace(/\s*,\s*/g, ", ")))
      .map(([, macro, , target]) => [macro!, target!]),
  );
  return renames.get(name);
}

/** `#line` for the lesson's line `line`, so that gcc names the lesson. */
const lineMarker = (block: FencedBlock, line: number) => `#line ${line} "${block.file}"\n`;
/** The file line of the first line of `code` (the block's content) matching `pattern`. */
function lineOf(block: FencedBlock, code: string, pattern: RegExp): number {
  const index = code.split("\n").findIndex((l) => pattern.test(l));
  return block.line + 1 + Math.max(index, 0);
}

function checkDeclarations(block: FencedBlock, declarations: Declaration[]): string[] {
  const code = withoutComments(block.content);
  const problems: string[] = [];
  let before = "";
  let renamed = code;
  let after = "";
  for (const d of declarations) {
    if (d.kind === "prototype") {
      const target = renamedTo(d.name);
      if (!target) before += `#ifdef ${d.name}\n#undef ${d.name}\n#endif\n`;
      const line = lineOf(block, code, new RegExp(`\\b${d.name}\\s*\\(`));
      before += `${lineMarker(block, line)}typedef __typeof__(${target ?? d.name}) lesson_declared_${d.name};\n`;
      const real = headerPrototype(target ?? d.name);
      if (real) {
        const [lessonTypes, realTypes] = [signatureEnums(d.text, d.name), signatureEnums(real, target ?? d.name)];
        lessonTypes.forEach((type, i) => {
          const what = i === 0 ? "the return type" : `parameter ${i}`;
          if (realTypes[i] !== undefined && type !== realTypes[i]) problems.push(`${block.file}:${line}: ${d.name}: ${what} is ${type} here and ${realTypes[i]} in the header`);
        });
      }
      continue;
    }
    const line = lineOf(block, code, new RegExp(`\\bstruct\\s+${d.tag}\\s*\\{`));
    const at = `${block.file}:${line}`;
    const real = headerStruct(d.tag);
    if (real === undefined) {
      problems.push(`${at}: struct ${d.tag}: none of the headers (${HEADERS.join(", ")}) defines it`);
      continue;
    }
    const fields = fieldNames(d.body);
    const realFields = fieldNames(real);
    if (fields.some((f) => f.startsWith("{"))) problems.push(`${at}: struct ${d.tag}: a nested struct or union cannot be checked; show the fields it holds in their own block`);
    else if (fields.join() !== realFields.join()) problems.push(`${at}: struct ${d.tag}: the fields are ${fields.join(", ")}; the header's are ${realFields.join(", ")}`);
    const [lessonEnums, realEnums] = [fieldEnums(d.body), fieldEnums(real)];
    for (const f of fields)
      if (realFields.includes(f) && lessonEnums.get(f) !== realEnums.get(f)) problems.push(`${at}: struct ${d.tag}: ${f} is ${lessonEnums.get(f)} here and ${realEnums.get(f)} in the header`);
    renamed = renamed.replace(new RegExp(`\\bstruct(\\s+)${d.tag}(\\s*)\\{`), `struct$1lesson_${d.tag}$2{`);
    const copy = `struct lesson_${d.tag}`;
    const assert = (condition: string, reason: string) => (after += `${lineMarker(block, line)}_Static_assert(${condition}, "struct ${d.tag}: ${reason}");\n`);
    for (const f of fields) {
      assert(`__builtin_types_compatible_p(__typeof__(((${copy} *)0)->${f}), __typeof__(((struct ${d.tag} *)0)->${f}))`, `${f} has another type in the header`);
      assert(`offsetof(${copy}, ${f}) == offsetof(struct ${d.tag}, ${f})`, `${f} is at another offset in the header`);
    }
    assert(`sizeof(${copy}) == sizeof(struct ${d.tag})`, "the struct in the header has another size");
  }
  if (problems.length) return problems;
  const errors = compile(`${PRELUDE}${before}${lineMarker(block, block.line + 1)}${renamed}\n${after}`, FLAGS);
  return errors ? [`${block.file}:${block.line}: does not match the headers:\n  ${errors}`] : [];
}

/** A program's or block's code lines, as compared: no comments, no blank lines, spacing collapsed. */
const codeLines = (code: string): string[] => withoutComments(code).split("\n").map(collapse).filter(Boolean);

let programs: Map<string, string[]> | undefined;
/** The program (or shared helper) in EXAMPLES_DIR whose lines include `code`'s, in order and adjacent. */
function programHolding(code: string): string | undefined {
  programs ??= new Map(
    readdirSync(EXAMPLES_DIR)
      .filter((f) => /\.[ch]$/.test(f))
      .sort()
      .map((f) => [f, codeLines(readFileSync(path.join(EXAMPLES_DIR, f), "utf8"))]),
  );
  const wanted = codeLines(code);
  if (!wanted.length) return undefined;
  for (const [name, lines] of programs)
    for (let i = 0; i + wanted.length <= lines.length; i++) if (wanted.every((l, j) => lines[i + j] === l)) return name;
  return undefined;
}

function checkFragment(block: FencedBlock, context: string): string[] {
  const source = `${PRELUDE}${lineMarker(block, block.line)}${context}\nvoid lesson_fragment(void)\n{\n${lineMarker(block, block.line + 1)}${block.content}}\n`;
  const errors = compile(source, FRAGMENT_FLAGS);
  return errors ? [`${block.file}:${block.line}: the fragment does not compile with the declarations on its fence line:\n  ${errors}`] : [];
}

type BlockKind = "declarations" | "excerpt" | "fragment";

/** Checks one ```c block as what it is; every problem reads `file:line: reason`. */
export function checkCBlock(block: FencedBlock): { kind?: BlockKind; problems: string[] } {
  const [, marker = "", ...context] = fenceWords(block.info);
  if (marker === FRAGMENT) return { kind: "fragment", problems: checkFragment(block, context.join(" ")) };
  if (marker) return { problems: [`${block.file}:${block.line}: '${marker}' after the language is no marker: write \`\`\`c ${FRAGMENT} for code that only illustrates, or nothing`] };
  const declarations = declarationsOf(block.content);
  if (declarations) return { kind: "declarations", problems: checkDeclarations(block, declarations) };
  if (programHolding(block.content)) return { kind: "excerpt", problems: [] };
  return {
    problems: [
      `${block.file}:${block.line}: neither declarations from the headers nor lines of a program in ${EXAMPLES_DIR}/ (compared without comments, blank lines and spacing): make it match the program it comes from, or mark code that only illustrates \`\`\`c ${FRAGMENT} followed by the declarations it needs`,
    ],
  };
}

// Turns schema failures into the one error format the build promises: `file: field: reason`.
import path from "node:path";
import type { z } from "zod";

const relativeFiles = new Map<string, string>();
/**
 * A file's path as the author knows it: relative to the project, with forward slashes. Remembered,
 * as Markdown rules ask it again for every link and heading of a page.
 */
export function relativeFile(file: string): string {
  const key = `${process.cwd()}\0${file}`;
  let relative = relativeFiles.get(key);
  if (relative === undefined) relativeFiles.set(key, (relative = path.relative(process.cwd(), path.resolve(file)).split(path.sep).join("/")));
  return relative;
}

/** What an error says, whatever was thrown. */
export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export class ContentError extends Error {
  override name = "ContentError";
}

type Issue = z.core.$ZodIssue;

export function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(file)";
  return path
    .map((part, i) => (typeof part === "number" ? `[${part}]` : `${i === 0 ? "" : "."}${String(part)}`))
    .join("");
}

function reason(issue: Issue): string {
  if (issue.code === "invalid_type" && /received undefined/.test(issue.message)) return "is required";
  return issue.message.replace(/^Invalid input: /, "");
}

/**
 * One `file: field: reason` line per problem, unknown keys listed one by one. `within` names the
 * record inside a file that holds several (a citation key), so its fields read `key.field`.
 */
export function formatIssues(file: string, issues: readonly Issue[], within?: string): string[] {
  const field = (path: readonly PropertyKey[]) => fieldName(within === undefined ? path : [within, ...path]);
  return issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => `${file}: ${field([...issue.path, key])}: unknown field`);
    }
    return [`${file}: ${field(issue.path)}: ${reason(issue)}`];
  });
}

export function contentError(lines: string[]): ContentError {
  return new ContentError(lines.join("\n"));
}

/** Parses `value` with `schema`, throwing a ContentError naming `file` and every bad field. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, file: string, within?: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw contentError(formatIssues(file, result.error.issues, within));
}

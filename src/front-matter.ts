// Front matter as the author wrote it (not the merged data cascade), validated against a schema,
// so that an unknown or misspelt field is caught rather than silently ignored. It is read again with
// a YAML 1.2 parser, which keeps dates as the text written: "2026-13-45" is an error, not a date
// in 2027.
import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { readYaml } from "./data.ts";
import { relativeFile, validate } from "./validation.ts";

/** The part of an Eleventy collection item this project reads. */
export interface CollectionItem {
  url: string;
  inputPath: string;
  fileSlug: string;
  rawInput?: string;
  content?: string;
  data: Record<string, unknown>;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/;

export async function frontMatterOf<S extends z.ZodType>(item: CollectionItem, schema: S): Promise<z.output<S>> {
  const file = relativeFile(item.inputPath);
  const source = await readFile(item.inputPath, "utf8");
  const block = source.match(FRONT_MATTER)?.[1];
  const data = block === undefined ? {} : (readYaml(block, file, "(front matter)") ?? {});
  return validate(schema, data, file);
}

/** Reading time in minutes: English at ~230 words a minute, Chinese at ~400 characters a minute. */
export function readingMinutes(markdown: string): number {
  const prose = markdown
    .replace(/^(```|~~~)[\s\S]*?^\1/gm, " ")
    .replace(/\{%[\s\S]*?%\}/g, " ")
    .replace(/<[^>]+>/g, " ");
  const cjk = prose.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu)?.length ?? 0;
  const words = prose.replace(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu, " ").match(/[\p{Letter}\p{Number}][\p{Letter}\p{Number}'’_-]*/gu)?.length ?? 0;
  return Math.max(1, Math.round(words / 230 + cjk / 400));
}

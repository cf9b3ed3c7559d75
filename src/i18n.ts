// Languages and the user-interface strings. Each language has one string table, src/i18n/<lang>.yaml;
// the English table is the reference, and every other table must have exactly its keys, the
// plural forms its language needs and the same {placeholders} (src/schemas.ts), or the build stops
// naming the file and key. Templates use the `t` filter; TypeScript calls `t` directly.
import { readFileSync } from "node:fs";
import type UserConfig from "@11ty/eleventy/UserConfig";
import { codeHtml, escapeHtml, linkHtml } from "./html.ts";
import { readYaml } from "./yaml.ts";
import { stringTableSchema, type StringTable } from "./schemas.ts";
import { contentError, validate } from "./validation.ts";
import { DEFAULT_LANGUAGE, LANGUAGE_CODES, languageTag, type Lang } from "./languages.ts";

const STRINGS_DIR = "src/i18n";
export const stringsFile = (lang: Lang): string => `${STRINGS_DIR}/${lang}.yaml`;

/** The plural forms a language distinguishes (English: one, other; Chinese: other). */
export const pluralCategories = (lang: Lang): string[] => new Intl.PluralRules(languageTag(lang)).resolvedOptions().pluralCategories;

let tables: Map<Lang, StringTable> | undefined;

function loadTables(): Map<Lang, StringTable> {
  const read = (lang: Lang) => readYaml(readFileSync(stringsFile(lang), "utf8"), stringsFile(lang));
  const reference = read(DEFAULT_LANGUAGE);
  return new Map(LANGUAGE_CODES.map((lang) => [lang, validate(stringTableSchema(reference, pluralCategories(lang)), lang === DEFAULT_LANGUAGE ? reference : read(lang), stringsFile(lang))]));
}

/** A language's string table, read and checked once per build. */
export function strings(lang: Lang): StringTable {
  tables ??= loadTables();
  return tables.get(lang)!;
}

const pluralRules = new Map<Lang, Intl.PluralRules>();
const pluralOf = (lang: Lang, count: number): string => {
  let rules = pluralRules.get(lang);
  if (!rules) pluralRules.set(lang, (rules = new Intl.PluralRules(languageTag(lang))));
  return rules.select(count);
};

export type Params = Record<string, string | number>;

/** What `lang`'s table holds at a dotted key: a string, a plural string's forms, or nothing. */
function lookup(lang: Lang, key: string): unknown {
  let value: unknown = strings(lang);
  for (const part of key.split(".")) value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[part] : undefined;
  return value;
}

/**
 * The string at `key` (dotted, such as "post.minutes") in `lang`, with {placeholders} filled in. A
 * plural string picks its form by `params.count`. A key that no table has is a bug: it throws.
 */
export function t(lang: Lang, key: string, params: Params = {}): string {
  let value = lookup(lang, key);
  if (value !== null && typeof value === "object") {
    if (typeof params.count !== "number") throw contentError([`${stringsFile(lang)}: ${key}: is a plural string; pass a count`]);
    value = (value as Record<string, string>)[pluralOf(lang, params.count)];
  }
  if (typeof value !== "string") throw contentError([`${stringsFile(lang)}: ${key}: no such string`]);
  return value.replace(/\{(\w+)\}/g, (all, name: string) => (name in params ? String(params[name]) : all));
}

/**
 * A plural string's forms as written, {placeholders} unfilled: for a script that counts in the
 * browser (it picks the form with Intl.PluralRules for the page's language).
 */
export function pluralForms(lang: Lang, key: string): Record<string, string> {
  const value = lookup(lang, key);
  if (value === null || typeof value !== "object") throw contentError([`${stringsFile(lang)}: ${key}: is not a plural string`]);
  return value as Record<string, string>;
}

/** `t` as HTML: the string escaped, with `html` placeholders filled in with markup as given. */
export function tHtml(lang: Lang, key: string, html: Record<string, string>, params: Params = {}): string {
  const names = Object.keys(html);
  const text = t(lang, key, { ...params, ...Object.fromEntries(names.map((name, i) => [name, `\u0000${i}\u0000`])) });
  return escapeHtml(text).replace(/\u0000(\d+)\u0000/g, (_all, i: string) => html[names[Number(i)]!]!);
}

export default function i18n(config: UserConfig): void {
  config.on("eleventy.before", () => (tables = undefined));
  config.addWatchTarget(`${STRINGS_DIR}/`);
  config.addFilter("t", (key: string, lang: Lang, params?: Params) => t(lang, key, params));
  // A string with some placeholders filled in with markup (already HTML: see the codeHtml filter).
  config.addFilter("tHtml", (key: string, lang: Lang, html: Record<string, string>, params?: Params) => tHtml(lang, key, html, params));
  config.addFilter("codeHtml", codeHtml);
  config.addFilter("linkHtml", linkHtml);
  config.addFilter("pluralForms", (key: string, lang: Lang) => pluralForms(lang, key));
  config.addGlobalData("languages", () => LANGUAGE_CODES);
}

// The content model: how a Markdown file becomes a page's data, validated once, in Eleventy's own
// data cascade.
//
//   file ─ front-matter engine (YAML 1.2, the only parse) ─▶ what the author wrote
//        ─ the kind's schema (src/schemas.ts), in the kind's loader ─▶ an entry: url, lang, key, …
//        ─ the kind's arrange step ─▶ an index: ordered, linked (neighbours, parts, series)
//        ─ eleventyDataSchema (directory data) ─▶ the page's own data: its entry, `lang`, `head`
//
// Blog posts and course lessons are two kinds with one loader; page templates are the third kind,
// validated by the same hook without an index (see ./pages.ts).
import { z } from "zod";
import type UserConfig from "@11ty/eleventy/UserConfig";
import type { Lang } from "./languages.ts";
import { contentDate } from "./schemas.ts";
import { ContentError, contentError, relativeFile, validate } from "./validation.ts";
import { readYaml } from "./yaml.ts";

/** Front matter as each file's author wrote it, by project-relative path; filled by the engine. */
const written = new Map<string, Record<string, unknown>>();
/** Lines of each file before its body, so errors can name file lines; filled as each file is split. */
const bodyStarts = new Map<string, number>();

/**
 * Eleventy's front-matter engine for YAML: YAML 1.2 keeps dates as the text written ("2026-13-45"
 * is then an error, not a date in 2027). It records what it parsed, so nothing reads a file twice.
 */
export function parseFrontMatter(source: string, options?: { filePath?: string }): Record<string, unknown> {
  const file = options?.filePath ? relativeFile(options.filePath) : "(front matter)";
  const data = readFrontMatter(source, file);
  written.set(file, data);
  return data;
}

/** The fields of a front-matter block, as the engine reads them (nothing recorded). */
function readFrontMatter(source: string, file: string): Record<string, unknown> {
  // The block ends where a line starts with ---: with CRLF line ends, its last line keeps the "\r".
  const data = readYaml(source.replace(/\r$/, ""), file, "(front matter)") ?? {};
  if (typeof data !== "object" || Array.isArray(data)) throw contentError([`${file}: (front matter): must be fields, one "name: value" a line`]);
  return data as Record<string, unknown>;
}

/** What a file says and where its body starts: after the line breaks in the text before it. */
function recordFile(filePath: string, data: Record<string, unknown>, beforeBody: string): void {
  const file = relativeFile(filePath);
  written.set(file, data);
  bodyStarts.set(file, beforeBody.match(/\n/g)?.length ?? 0);
}

/**
 * Eleventy's parser calls this on each file once it is split (the hook is named for excerpts, which
 * the site does not use). Only here is the body's start known: the parser takes a line break after
 * the closing `---` but leaves spaces there, so a body may begin on the closing line. The engine
 * may not have run (no front matter, or none but the delimiters): its fields are then none, also
 * for a file that had some when the dev server last read it.
 */
function recordSplit(split: { orig: Uint8Array; content: string; data: Record<string, unknown> }, options: { filePath?: string }): void {
  if (!options.filePath) return;
  const beforeBody = split.orig.subarray(0, split.orig.length - Buffer.byteLength(split.content));
  recordFile(options.filePath, split.data, new TextDecoder().decode(beforeBody));
}

/**
 * A content file read outside Eleventy (`npm run check`): its front matter through the same engine,
 * split off as Eleventy does, and its body.
 */
export function readContentFile(source: string, file: string): { data: Record<string, unknown>; body: string } {
  const split = splitFrontMatter(source);
  if (!split) throw contentError([`${file}: (front matter): missing or never closed; the file must start with a --- line, its fields, and a --- line`]);
  const data = parseFrontMatter(split.fields, { filePath: file });
  recordFile(file, data, split.frontMatter);
  return { data, body: split.body };
}

/**
 * A content file's front matter (from the opening `---` to the body), the text the engine parses,
 * and the body, split as Eleventy's parser (gray-matter) splits them: the block ends at the first
 * line that starts with `---`, and the body starts after that `---` and a line break right after it,
 * if there is one (spaces after the closing `---` are the body's first, blank, line).
 */
export function splitFrontMatter(source: string): { frontMatter: string; fields: string; body: string } | undefined {
  const text = source.replace(/^\uFEFF/, "");
  if (!text.startsWith("---") || text[3] === "-") return undefined;
  // The rest of the opening line names the block's language: YAML (the default) is the only one.
  const lineEnd = text.indexOf("\n");
  const language = text.slice(3, lineEnd === -1 ? undefined : lineEnd).trim();
  if (language !== "" && language !== "yaml") return undefined;
  const close = text.indexOf("\n---", 3);
  if (close === -1) return undefined;
  const body = text.slice(close + 4).replace(/^\r?\n?/, "");
  return { frontMatter: source.slice(0, source.length - body.length), fields: text.slice(language ? lineEnd : 3, close), body };
}

export const writtenFrontMatter = (file: string): Record<string, unknown> => written.get(file) ?? {};
export const bodyOffset = (file: string): number => bodyStarts.get(file) ?? 0;

/** The part of an Eleventy collection item the model reads. */
export interface CollectionItem {
  url: string;
  inputPath: string;
  fileSlug: string;
  rawInput?: string;
  content?: string;
  data: Record<string, unknown>;
}
export interface CollectionApi {
  getFilteredByGlob(globs: string | string[]): CollectionItem[];
}

/** What every indexed page is: its file, address, language, and the key its translations share. */
export interface Entry {
  file: string;
  url: string;
  lang: Lang;
  key: string;
}

/** What a page's <head> says about it (see _includes/layouts/base.njk). */
export interface Head {
  title?: string;
  description: string;
  /** Open Graph type. */
  type: "website" | "article";
}

export interface Kind<S extends z.ZodType, E extends Entry> {
  /** The collection holding this kind's index. */
  collection: string;
  /** Where each page finds its own entry in its data. */
  dataKey: string;
  /** The files of this kind (globs), and where they belong, for the message when one is elsewhere. */
  files: string[];
  placement: string;
  schema: S;
  /** The entry: validated front matter plus what the file itself tells (address, language, body). */
  entry(data: z.output<S>, item: CollectionItem, file: string): E;
  head(entry: E): Head;
}

/** Entries of one kind, in the kind's order, found by address, file or translation key. */
export class Index<E extends Entry> {
  readonly all: readonly E[];
  readonly #byUrl = new Map<string, E>();
  readonly #byFile = new Map<string, E>();
  readonly #byKey = new Map<string, Map<Lang, E>>();

  constructor(
    readonly kind: string,
    entries: E[],
  ) {
    this.all = entries;
    const problems: string[] = [];
    for (const entry of entries) {
      const twin = this.#byUrl.get(entry.url);
      if (twin) problems.push(`${entry.file}: (file): ${entry.url} is also the address of ${twin.file}`);
      this.#byUrl.set(entry.url, entry);
      this.#byFile.set(entry.file, entry);
      const translations = this.#byKey.get(entry.key) ?? new Map<Lang, E>();
      translations.set(entry.lang, entry);
      this.#byKey.set(entry.key, translations);
    }
    if (problems.length) throw contentError(problems);
  }

  byUrl(url: string): E {
    const entry = this.#byUrl.get(url);
    if (!entry) throw new ContentError(`${url}: no ${this.kind} has this address`);
    return entry;
  }

  byFile(file: string, placement = ""): E {
    const entry = this.#byFile.get(file);
    if (!entry) throw new ContentError(`${file}: (file): not a ${this.kind}${placement ? `: ${placement}` : ""}`);
    return entry;
  }

  /** The entry with `key` in `lang`. */
  byKey(key: string, lang: Lang): E {
    const entry = this.#byKey.get(key)?.get(lang);
    if (!entry) throw new ContentError(`${this.kind} '${key}': none in language '${lang}'`);
    return entry;
  }

  inLanguage(lang: Lang): E[] {
    return this.all.filter((e) => e.lang === lang);
  }
}

/** How far ahead of the build's clock a date may be: a day covers every time zone's today. */
const FUTURE_LEEWAY_MS = 24 * 60 * 60 * 1000;
/** What a page's file name may hold, since it becomes the page's address. */
const ADDRESS_SAFE = /^[a-z0-9][a-z0-9._-]*$/;

/**
 * Mistakes no schema sees, in a page of any kind: a file name that would make a poor address, an
 * empty body, and a date in the future (a typo such as 2099 would put the page on top of every list
 * and its year in every footer). A draft may be empty or dated ahead; it is never published.
 */
export function pageProblems(file: string, data: { date?: unknown; updated?: unknown; draft?: unknown }, body: string, now: Date): string[] {
  const problems: string[] = [];
  const name = file.split("/").find((segment) => !ADDRESS_SAFE.test(segment));
  if (name) problems.push(`${file}: (file): '${name}' becomes part of the page's address: name it with lower-case letters, digits and hyphens only`);
  if (data.draft === true) return problems;
  if (!body.trim()) problems.push(`${file}: (body): is empty; write the page, or mark it draft: true`);
  for (const field of ["date", "updated"] as const) {
    const date = data[field];
    if (date instanceof Date && date.getTime() > now.getTime() + FUTURE_LEEWAY_MS) {
      problems.push(`${file}: ${field}: ${date.toISOString().slice(0, 10)} is in the future (the build runs on ${now.toISOString().slice(0, 10)}); a typo? A page not yet due stays draft: true until then`);
    }
  }
  return problems;
}

/** A file's entry, from the fields its author wrote and its item: every problem a ContentError. */
function fileEntry<S extends z.ZodType, E extends Entry>(kind: Kind<S, E>, fields: Record<string, unknown>, item: CollectionItem, file: string, now: Date): E {
  const data = validate(kind.schema, fields, file);
  const found = pageProblems(file, data as Record<string, unknown>, item.rawInput ?? "", now);
  if (found.length) throw contentError(found);
  return kind.entry(data, item, file);
}

/** Validates every file of a kind, reporting all problems at once. */
export function loadEntries<S extends z.ZodType, E extends Entry>(kind: Kind<S, E>, items: CollectionItem[], now = new Date()): E[] {
  const problems: string[] = [];
  const entries = items.flatMap((item) => {
    const file = relativeFile(item.inputPath);
    try {
      return [fileEntry(kind, writtenFrontMatter(file), item, file, now)];
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      problems.push(error.message);
      return [];
    }
  });
  if (problems.length) throw contentError(problems);
  return entries;
}

/** A kind as the checks that hold for every kind, and the dev server's quick path, see it. */
interface FolderKind {
  placement: string;
  /** A file's entry from new fields and body, checked as the build checks it. */
  entry(fields: Record<string, unknown>, item: CollectionItem, file: string, now: Date): Entry;
  /** The last build's index arranged again with some files' entries replaced, and what each page gets from it. */
  rearranged(replaced: ReadonlyMap<string, Entry>): { collection: string; index: Index<Entry>; pageData(file: string): Record<string, unknown> };
}
/** Every indexed kind, by the folder its files lie in: a Markdown page elsewhere is a mistake. */
const kindFolders = new Map<string, FolderKind>();
/** The folder a glob's files lie in: what comes before its first wildcard, to the last slash. */
const folderOf = (glob: string): string => glob.slice(0, glob.search(/[*?[{]|$/)).replace(/[^/]*$/, "");
const kindOf = (file: string): FolderKind | undefined => [...kindFolders].find(([folder]) => file.startsWith(folder))?.[1];

/** Why a Markdown file is no page (it lies outside every kind's folder), or undefined. */
export function strayPage(file: string): string | undefined {
  if (kindOf(file)) return undefined;
  return `${file}: (file): not a page of any kind (${[...new Set([...kindFolders.values()].map((kind) => kind.placement))].join("; ")}); notes about the project belong in docs/`;
}

/** A built page of an indexed kind, as the dev server's quick path knows it. */
export interface BuiltItem {
  inputPath: string;
  url: string;
  rawInput: string;
  data: Record<string, unknown> & { page: { fileSlug: string }; collections: Record<string, unknown> };
}

/**
 * The data each saved page gets when its file now reads `fields` (its front matter) and `body`:
 * the last build's data with the saved files' entries replaced and their kinds' indexes arranged
 * again (so a new title shows in the page's own series box, a new reading time in its header); or
 * the mistake that would stop the build. The dev server's quick path asks; other pages wait for the
 * rebuild.
 */
export function savedPagesData<P extends BuiltItem>(saved: { page: P; fields: string; body: string }[], now = new Date()): Map<P, P["data"]> | string {
  const replaced = new Map<FolderKind, Map<string, Entry>>();
  const changes: { page: P; file: string; folder: FolderKind; fields: Record<string, unknown> }[] = [];
  try {
    for (const { page, fields: text, body } of saved) {
      const file = relativeFile(page.inputPath);
      const folder = kindOf(file);
      if (!folder) return `${file}: not a page of an indexed kind`;
      const fields = readFrontMatter(text, file);
      const item = { url: page.url, inputPath: page.inputPath, fileSlug: page.data.page.fileSlug, rawInput: body, data: page.data };
      replaced.set(folder, (replaced.get(folder) ?? new Map()).set(file, folder.entry(fields, item, file, now)));
      changes.push({ page, file, folder, fields });
    }
    // Every page reads every kind's index (a footer reads the blog's): each gets all that changed.
    const arranged = new Map([...replaced.keys()].map((folder) => [folder, folder.rearranged(replaced.get(folder)!)]));
    const collections = Object.fromEntries([...arranged.values()].map(({ collection, index }) => [collection, index]));
    return new Map(
      changes.map(({ page, file, folder, fields }) => {
        const data: Record<string, unknown> = { ...page.data };
        // A field the author removed must not live on from the last build's data.
        for (const name of Object.keys(writtenFrontMatter(file))) delete data[name];
        Object.assign(data, fields, arranged.get(folder)!.pageData(file), { collections: { ...page.data.collections, ...collections } });
        return [page, data as P["data"]];
      }),
    );
  } catch (error) {
    if (error instanceof ContentError) return error.message;
    throw error;
  }
}

/**
 * The one loader for indexed kinds: registers the kind's collection, built once per build from
 * its files, and returns the getter that derived collections (list pages, feeds) share.
 */
export function contentCollection<S extends z.ZodType, E extends Entry, I extends Index<E>>(
  config: UserConfig,
  kind: Kind<S, E>,
  arrange: (entries: E[], globals: Record<string, unknown>) => I,
): (api: CollectionApi) => I {
  let index: I | undefined;
  // The entries as loaded, before arranging (which links them) and the data it read: to arrange again.
  let loaded: { entries: E[]; globals: Record<string, unknown> } | undefined;
  const folderKind: FolderKind = {
    placement: kind.placement,
    entry: (fields, item, file, now) => fileEntry(kind, fields, item, file, now),
    rearranged(replaced) {
      if (!loaded) throw new Error(`collections.${kind.collection} is not loaded`);
      // Copies: arranging links the entries it is given, and the last build's must stay as they are.
      const again = arrange(loaded.entries.map((entry) => (replaced.get(entry.file) as E | undefined) ?? { ...entry }), loaded.globals);
      return { collection: kind.collection, index: again, pageData: (file) => ownData(kind, again.byFile(file)) };
    },
  };
  for (const glob of kind.files) kindFolders.set(folderOf(glob), folderKind);
  config.on("eleventy.before", () => (index = undefined));
  const load = (api: CollectionApi): I => {
    if (index) return index;
    const items = api.getFilteredByGlob(kind.files);
    const entries = loadEntries(kind, items);
    loaded = { entries: entries.map((entry) => ({ ...entry })), globals: items[0]?.data ?? {} };
    return (index = arrange(entries, loaded.globals));
  };
  config.addCollection(kind.collection, load);
  return load;
}

/**
 * The kind's `eleventyDataSchema`: Eleventy runs it for each page once its data is complete. The page
 * receives its own entry from the index (so layouts read their data, never look it up), its
 * language and its head; a page of this kind's folder that is not in the index stops the build.
 */
export function pageDataHook<S extends z.ZodType, E extends Entry>(kind: Kind<S, E>) {
  return (data: Record<string, unknown> & { page: { inputPath: string }; collections: Record<string, unknown> }): void => {
    const index = data.collections[kind.collection];
    if (!(index instanceof Index)) throw new Error(`collections.${kind.collection} is not loaded`);
    Object.assign(data, ownData(kind, (index as Index<E>).byFile(relativeFile(data.page.inputPath), kind.placement)));
  };
}

/** What a page of a kind gets from its entry: the entry itself (under the kind's key), its language and head. */
const ownData = <E extends Entry>(kind: Kind<z.ZodType, E>, entry: E): Record<string, unknown> => ({ [kind.dataKey]: entry, lang: entry.lang, head: kind.head(entry) });

/** A page's `date` as Eleventy's page.date: read like every content date, errors as `file: date: reason`. */
const dated = z.object({ date: contentDate });
function pageDate(this: { page: { inputPath: string } }, value: unknown): Date | undefined {
  if (value === undefined || value instanceof Date) return undefined;
  return validate(dated, { date: value }, relativeFile(this.page.inputPath)).date;
}

/** How Eleventy reads every template's front matter (its parser is gray-matter). */
export const FRONT_MATTER_OPTIONS = { engines: { yaml: parseFrontMatter }, excerpt: recordSplit };

export default function content(config: UserConfig): void {
  config.setFrontMatterParsingOptions(FRONT_MATTER_OPTIONS);
  config.addDateParsing(pageDate);
  // A stray Markdown file (notes at the repository root) would be published with no layout.
  config.addPreprocessor("placement", "md", (data: { page: { inputPath: string } }) => {
    const stray = strayPage(relativeFile(data.page.inputPath));
    if (stray) throw new ContentError(stray);
  });
}

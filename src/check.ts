// `npm run check`: everything the build would refuse in content and data, found without building
// the site. It runs the build's own pieces (the front-matter engine, each kind's schema and loader,
// the course and blog indexes, the data loaders, the Markdown renderer with its directives, image
// checks and link records) over the files, then checks every link from a post or lesson against the
// pages a production build would write, with the build's own link check (./links.ts): its #fragment
// included, so a glossary reference to a missing term is caught too. The where-to-look index is
// checked against the lessons' headings as rendered here.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { PUBLIC_DIR } from "./assets.ts";
import { parsePublications, type Publication } from "./bibtex.ts";
import { Blog, postKind, postSlug, postUrl } from "./blog.ts";
import { loadEntries, readContentFile, type CollectionItem, type Entry, type Kind } from "./content.ts";
import { buildCourse, checkGlossary, COURSE_DIR, lessonKind, lessonLocation, Syllabus } from "./course.ts";
import { loadYamlData } from "./data.ts";
import { EXAMPLES_DIR } from "./examples.ts";
import { strings } from "./i18n.ts";
import { LANGUAGE_CODES } from "./languages.ts";
import { brokenLinks, idsIn, recordedLinks } from "./links.ts";
import { addImageChecks } from "./images.ts";
import { lookupIndex } from "./lookup.ts";
import { createMarkdown } from "./markdown.ts";
import { publicationPages } from "./publications.ts";
import type { CourseData, GlossaryTerm, LookupData } from "./schemas.ts";
import { inScope, OWN_PAGE } from "./scope.ts";
import { FEED_FORMATS, pageRoutes, routes } from "./urls.ts";
import { ContentError, contentError } from "./validation.ts";

const DATA_DIR = "_data";
/** Folders under posts/ that hold no pages: the course's programs and lab records. */
const NOT_PAGES = [EXAMPLES_DIR, `${COURSE_DIR}/labs`];

/** A kind's file globs (`*` within one folder) as one pattern. */
const globPattern = (globs: string[]): RegExp =>
  new RegExp(`^(?:${globs.map((g) => g.replace(/[.+?^${}()|\\]/g, "\\$&").replace(/\[0-9\]/g, "[0-9]").replace(/\*/g, "[^/]*")).join("|")})$`);

/** Project-relative files under `dir`, with forward slashes. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(".", path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .sort();
}

export interface CheckReport {
  problems: string[];
  /** How many files were read. */
  files: number;
}

/** Checks the project in the current directory; every problem is a `file: field: reason` line. */
export function checkProject(): CheckReport {
  const problems: string[] = [];
  /** Runs one step, keeping its content errors as problems; a step that fails gives nothing. */
  const attempt = <T>(step: () => T): T | undefined => {
    try {
      return step();
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      problems.push(...error.message.split("\n"));
      return undefined;
    }
  };
  let files = 0;

  // Data files and the UI string tables.
  const data: Record<string, unknown> = {};
  for (const file of filesUnder(DATA_DIR)) {
    files++;
    const source = readFileSync(file, "utf8");
    const name = path.basename(file).replace(/\.\w+$/, "");
    if (/\.ya?ml$/.test(file)) data[name] = attempt(() => loadYamlData(source, file));
    else if (file.endsWith(".bib")) data[name] = attempt(() => parsePublications(source, file));
  }
  for (const lang of LANGUAGE_CODES) attempt(() => strings(lang));

  // Posts and lessons: front matter through the build's engine, entries through each kind's loader.
  const kinds = [postKind, lessonKind] as const;
  const patterns = kinds.map((kind) => globPattern(kind.files));
  const items = new Map<string, CollectionItem[]>(kinds.map((kind) => [kind.collection, []]));
  const bodies = new Map<string, string>();
  for (const file of filesUnder("posts").filter((f) => f.endsWith(".md") && !NOT_PAGES.some((dir) => f.startsWith(`${dir}/`)))) {
    files++;
    const kind = kinds.find((_, i) => patterns[i]!.test(file));
    if (!kind) {
      problems.push(`${file}: (file): not a post or lesson: ${kinds.map((k) => k.placement).join("; ")}`);
      continue;
    }
    const read = attempt(() => readContentFile(readFileSync(file, "utf8"), file));
    if (!read) continue;
    bodies.set(file, read.body);
    const url = attempt(() => (kind === postKind ? postUrl(file) : lessonLocation(file).url));
    if (url) items.get(kind.collection)!.push({ url, inputPath: file, fileSlug: postSlug(file), rawInput: read.body, data: read.data });
  }
  // One file at a time, so that the others are still indexed and checked.
  const entriesOf = <S extends z.ZodType, E extends Entry>(kind: Kind<S, E>) => items.get(kind.collection)!.flatMap((item) => attempt(() => loadEntries(kind, [item])) ?? []);
  const blog = attempt(() => new Blog(entriesOf(postKind)));
  const lessons = entriesOf(lessonKind);
  const course = data.course as CourseData | undefined;
  const syllabus = course && attempt(() => new Syllabus(buildCourse(lessons, course)));
  const glossary = data.glossary as GlossaryTerm[] | undefined;
  if (syllabus && glossary) attempt(() => checkGlossary(glossary, syllabus));

  // Bodies, rendered as the build renders them: directives, math, code blocks and raw HTML are
  // checked there, and every link within the site is recorded (./links.ts).
  const md = createMarkdown();
  addImageChecks(md, attempt);
  const pages = [...(blog?.all ?? []), ...(syllabus?.all ?? [])];
  const rendered = new Map<string, string>();
  for (const entry of pages) {
    const html = attempt(() => {
      try {
        return md.render(bodies.get(entry.file)!, { page: { inputPath: entry.file, url: entry.url }, lang: entry.lang });
      } catch (error) {
        if (error instanceof ContentError) throw error;
        throw contentError([`${entry.file}: (body): ${(error as Error).message}`]);
      }
    });
    // A production build has no drafts: nothing may link to one, and a draft's own links are not checked.
    if (html !== undefined && !entry.draft) rendered.set(entry.url, html);
  }

  // The where-to-look index, once every lesson rendered (a lesson that did not is reported above).
  const lookup = data.lookup as LookupData | undefined;
  if (syllabus && lookup && syllabus.all.every((lesson) => lesson.draft || rendered.has(lesson.url))) {
    attempt(() => lookupIndex(lookup, syllabus, (lesson) => inScope(rendered.get(lesson.url) ?? "", OWN_PAGE)));
  }

  // Every address a production build writes; the ids of the pages whose content is known here.
  const addresses = new Set<string>([
    ...LANGUAGE_CODES.flatMap((lang) => [...Object.values(pageRoutes).map((route) => route(lang)), ...FEED_FORMATS.map((format) => routes.feed(lang, format))]),
    routes.courseFeed(),
    ...(blog ? [...blog.listPages(), ...blog.tagPages()].map((p) => p.url) : []),
    ...(syllabus ? [...syllabus.pageUrls(), ...syllabus.redirects().map((r) => r.url)] : []),
    ...(Array.isArray(data.publications) ? publicationPages(data.publications as Publication[]).map((p) => p.url) : []),
    ...filesUnder(EXAMPLES_DIR).map((f) => routes.example(path.basename(f))),
    ...filesUnder(PUBLIC_DIR).map((f) => routes.asset(path.relative(PUBLIC_DIR, f))),
    ...pages.filter((p) => !p.draft).map((p) => p.url),
  ]);
  const ids = new Map([...rendered].map(([url, html]) => [url, idsIn(html)]));
  ids.set(routes.glossary(), new Set((glossary ?? []).map((t) => t.id)));
  const drafts = new Set(pages.filter((p) => p.draft).map((p) => p.file));
  // A section whose index could not be built (its mistake is reported above) has no known pages:
  // links into it are not judged, or one mistake would turn every link to it into another.
  const unknown = [
    ...(blog ? [] : LANGUAGE_CODES.flatMap((lang) => [routes.posts(lang), routes.tags(lang)])),
    ...(syllabus ? [] : [routes.course()]),
    ...(Array.isArray(data.publications) ? [] : LANGUAGE_CODES.map((lang) => routes.publications(lang))),
  ];
  problems.push(
    ...brokenLinks(
      recordedLinks().filter((link) => !drafts.has(link.at.replace(/:\d+$/, ""))),
      (sitePath) => {
        const url = sitePath.replace(/index\.html$/, "");
        const page = [url, `${url}/`].find((u) => addresses.has(u));
        if (!page) return unknown.some((prefix) => url.startsWith(prefix)) ? {} : undefined;
        const known = ids.get(page);
        return known ? { ids: () => known } : {};
      },
    ),
  );

  return { problems, files };
}

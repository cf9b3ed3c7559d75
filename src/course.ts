// RDMA 101: lessons are Markdown files in posts/rdma101/<NN>-<part>/<NN>-<lesson>.md. Their order,
// numbers ("2.3"), URLs, the sidebar, previous/next links and the syllabus all derive from the file
// names; part titles and summaries come from _data/course.yaml. Adding a lesson is adding a file.
import path from "node:path";
import type UserConfig from "@11ty/eleventy/UserConfig";
import { showDrafts } from "./drafts.ts";
import { frontMatterOf, type CollectionItem } from "./front-matter.ts";
import { lessonSchema, type Course, type GlossaryTerm, type LessonData } from "./schemas.ts";
import { contentError, relativeFile } from "./validation.ts";

export const COURSE_DIR = "posts/rdma101";
export const COURSE_URL = "/rdma101/";
/** The upper-case path others have linked publicly; every course page is reachable under it too. */
export const LEGACY_COURSE_URL = "/RDMA101/";

export interface Lesson extends LessonData {
  file: string;
  url: string;
  /** <part-slug>/<lesson-slug>: how prerequisites and the glossary name a lesson. */
  ref: string;
  number: string;
  /** 1-based position in the whole course. */
  position: number;
  partSlug: string;
  item?: CollectionItem;
}

export interface Part {
  slug: string;
  title: string;
  summary: string;
  number: number;
  url: string;
  lessons: Lesson[];
  minutes: number;
}

const ORDERED_NAME = /^(\d+)-([a-z0-9]+(?:-[a-z0-9]+)*)$/;

/** `01-getting-started` → order 1, slug `getting-started`; anything else names the file and rule. */
export function orderedName(name: string, file: string, field: "part" | "lesson"): { order: number; slug: string } {
  const match = name.match(ORDERED_NAME);
  if (!match) throw contentError([`${file}: ${field}: '${name}' must be <number>-<slug>, such as 01-getting-started`]);
  return { order: Number(match[1]), slug: match[2]! };
}

/** Whether a (project-relative) file is a lesson: posts/rdma101/<NN>-<part>/<NN>-<lesson>.md. */
export const isLessonFile = (file: string): boolean => new RegExp(`(?:^|/)${COURSE_DIR}/\\d+-[^/]+/\\d+-[^/]+\\.md$`).test(file);

/** Where a lesson file lives: its part and lesson, from the path alone. */
export function lessonLocation(file: string) {
  const [partDir = "", lessonFile = ""] = path.relative(COURSE_DIR, file).split(/[\\/]/);
  const part = orderedName(partDir, file, "part");
  const lesson = orderedName(lessonFile.replace(/\.md$/, ""), file, "lesson");
  return { part, lesson, url: `${COURSE_URL}${part.slug}/${lesson.slug}/` };
}

export interface LessonSource {
  file: string;
  data: LessonData;
  item?: CollectionItem;
}

/**
 * Orders lessons into parts and numbers them. Every inconsistency between the files and
 * _data/course.yaml stops the build with the file and field at fault.
 */
export function buildCourse(sources: LessonSource[], course: Course, courseFile = "_data/course.yaml"): Part[] {
  const problems: string[] = [];
  // Sorted by path so that the same files always give the same numbers and the same messages.
  const located = sources.map((s) => ({ ...s, ...lessonLocation(s.file) })).sort((a, b) => a.file.localeCompare(b.file));
  const parts = new Map<string, { order: number; dir: string; lessons: typeof located }>();

  for (const lesson of located) {
    const known = course.parts.some((p) => p.slug === lesson.part.slug);
    if (!known) problems.push(`${lesson.file}: part: no part '${lesson.part.slug}' in ${courseFile}`);
    const entry = parts.get(lesson.part.slug) ?? { order: lesson.part.order, dir: path.dirname(lesson.file), lessons: [] };
    if (entry.order !== lesson.part.order) problems.push(`${lesson.file}: part: folder order ${lesson.part.order} differs from ${entry.dir}`);
    entry.lessons.push(lesson);
    parts.set(lesson.part.slug, entry);
  }
  const partOrders = new Map<number, string>();
  for (const [slug, entry] of parts) {
    const other = partOrders.get(entry.order);
    if (other) problems.push(`${entry.dir}: part: order ${entry.order} is also used by part '${other}'`);
    partOrders.set(entry.order, slug);
    const lessonOrders = new Map<number, string>();
    const lessonSlugs = new Map<string, string>();
    for (const lesson of entry.lessons) {
      const clash = lessonOrders.get(lesson.lesson.order);
      if (clash) problems.push(`${lesson.file}: lesson: order ${lesson.lesson.order} is also used by ${clash}`);
      lessonOrders.set(lesson.lesson.order, lesson.file);
      // The slug is the lesson's URL within its part: two files must not share one.
      const twin = lessonSlugs.get(lesson.lesson.slug);
      if (twin) problems.push(`${lesson.file}: lesson: name '${lesson.lesson.slug}' is also used by ${twin}`);
      lessonSlugs.set(lesson.lesson.slug, lesson.file);
    }
  }
  course.parts.forEach((p, i) => {
    if (!parts.has(p.slug)) problems.push(`${courseFile}: parts[${i}]: part '${p.slug}' has no lesson files in ${COURSE_DIR}/`);
  });
  if (problems.length) throw contentError(problems);

  let position = 0;
  const built: Part[] = [...parts]
    .sort(([, a], [, b]) => a.order - b.order)
    .map(([slug, entry], partIndex) => {
      const meta = course.parts.find((p) => p.slug === slug)!;
      const lessons = entry.lessons
        .sort((a, b) => a.lesson.order - b.lesson.order)
        .map((l, i) => ({
          ...l.data,
          file: l.file,
          url: l.url,
          ref: `${slug}/${l.lesson.slug}`,
          number: `${partIndex + 1}.${i + 1}`,
          position: ++position,
          partSlug: slug,
          item: l.item,
        }));
      return {
        slug,
        title: meta.title,
        summary: meta.summary,
        number: partIndex + 1,
        url: lessons[0]!.url,
        lessons,
        minutes: lessons.reduce((sum, l) => sum + l.minutes, 0),
      };
    });

  const refs = new Set(built.flatMap((p) => p.lessons.map((l) => l.ref)));
  const formerOwners = new Map<string, string>();
  for (const lesson of built.flatMap((p) => p.lessons)) {
    lesson.prerequisites.forEach((ref, i) => {
      if (!refs.has(ref)) problems.push(`${lesson.file}: prerequisites[${i}]: no lesson '${ref}'`);
    });
    lesson.formerly.forEach((ref, i) => {
      const owner = formerOwners.get(ref);
      if (refs.has(ref)) problems.push(`${lesson.file}: formerly[${i}]: '${ref}' is still a lesson's address`);
      else if (owner) problems.push(`${lesson.file}: formerly[${i}]: '${ref}' is also claimed by ${owner}`);
      formerOwners.set(ref, lesson.file);
    });
  }
  if (problems.length) throw contentError(problems);
  return built;
}

export function checkGlossary(terms: GlossaryTerm[], parts: Part[], file = "_data/glossary.yaml"): void {
  const refs = new Set(parts.flatMap((p) => p.lessons.map((l) => l.ref)));
  const problems = terms.flatMap((t, i) => (refs.has(t.lesson) ? [] : [`${file}: [${i}].lesson: no lesson '${t.lesson}' (term '${t.id}')`]));
  if (problems.length) throw contentError(problems);
}

export const allLessons = (parts: Part[]): Lesson[] => parts.flatMap((p) => p.lessons);

export function lessonNeighbours(parts: Part[], url: string) {
  const lessons = allLessons(parts);
  const i = lessons.findIndex((l) => l.url === url);
  const lesson = lessons[i];
  const next = lessons[i + 1];
  const part = parts.find((p) => p.slug === lesson?.partSlug);
  return {
    lesson,
    part,
    previous: i > 0 ? lessons[i - 1] : undefined,
    next,
    total: lessons.length,
    // The last lesson of a part introduces the next part.
    nextPart: next && next.partSlug !== lesson?.partSlug ? parts.find((p) => p.slug === next.partSlug) : undefined,
  };
}

/** The lesson URL for a `<part>/<lesson>` reference, for the glossary and prerequisites. */
export const lessonByRef = (parts: Part[], ref: string): Lesson | undefined => allLessons(parts).find((l) => l.ref === ref);

/** Every course URL, under its legacy upper-case form. */
export const legacyUrl = (url: string): string => url.replace(COURSE_URL, LEGACY_COURSE_URL);

export interface Redirect {
  from: string;
  to: string;
}

/** Earlier lesson addresses (a lesson's `formerly`), each sent to the lesson that replaced it. */
export const movedLessons = (parts: Part[]): Redirect[] =>
  allLessons(parts).flatMap((l) => l.formerly.map((ref) => ({ from: `${COURSE_URL}${ref}/`, to: l.url })));

/**
 * Every address that redirects to a course page: each page's upper-case form, and each moved
 * lesson's old address in both cases, straight to where it lives now.
 */
export const courseRedirects = (pages: string[], parts: Part[]): Redirect[] => [
  ...pages.map((url) => ({ from: legacyUrl(url), to: url })),
  ...movedLessons(parts).flatMap((m) => [m, { from: legacyUrl(m.from), to: m.to }]),
];

export default function course(config: UserConfig): void {
  type Api = { getFilteredByGlob(glob: string): CollectionItem[] };
  let loading: Promise<Part[]> | undefined;
  config.on("eleventy.before", () => (loading = undefined));
  const partsOf = (api: Api) =>
    (loading ??= (async () => {
      const items = api.getFilteredByGlob(`${COURSE_DIR}/*/*.md`);
      const first = items[0];
      if (!first) throw contentError([`${COURSE_DIR}/: (folder): the course has no lessons`]);
      const sources = await Promise.all(items.map(async (item) => ({ file: relativeFile(item.inputPath), data: await frontMatterOf(item, lessonSchema), item })));
      const published = sources.filter((s) => !s.data.draft || showDrafts());
      const parts = buildCourse(published, first.data.course as Course);
      checkGlossary(first.data.glossary as GlossaryTerm[], parts);
      return parts;
    })());

  config.addCollection("courseParts", partsOf);
  config.addCollection("lessons", async (api: Api) => allLessons(await partsOf(api)));
  // One redirect page per old address: upper-case course pages and moved lessons.
  config.addCollection("courseRedirects", async (api: Api) => {
    const parts = await partsOf(api);
    return courseRedirects([COURSE_URL, `${COURSE_URL}glossary/`, ...allLessons(parts).map((l) => l.url)], parts);
  });
  config.addCollection("movedLessons", async (api: Api) => movedLessons(await partsOf(api)));

  config.addFilter("lessonNeighbours", lessonNeighbours);
  config.addFilter("lessonByRef", lessonByRef);
  config.addFilter("legacyUrl", legacyUrl);
}

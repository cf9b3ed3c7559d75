// RDMA 101: lessons are Markdown files in posts/rdma101/<NN>-<part>/<NN>-<lesson>.md. Their order,
// numbers ("2.3"), URLs, the sidebar, previous/next links and the syllabus all derive from the file
// names; part titles and summaries come from _data/course.yaml. Adding a lesson is adding a file.
import path from "node:path";
import type UserConfig from "@11ty/eleventy/UserConfig";
import { contentCollection, Index, type CollectionApi, type CollectionItem, type Entry, type Kind } from "./content.ts";
import { addFeeds, lastUpdated, MEDIA_TYPES } from "./feeds.ts";
import { langText } from "./html.ts";
import { tHtml } from "./i18n.ts";
import { DEFAULT_LANGUAGE, type Lang } from "./languages.ts";
import { lessonSchema, type CourseData, type GlossaryTerm, type LessonData } from "./schemas.ts";
import { partAnchor, routes } from "./urls.ts";
import { contentError } from "./validation.ts";

export const COURSE_DIR = "posts/rdma101";

/** A lesson file, validated: what the loader knows before the course is put in order. */
export interface LessonEntry extends LessonData, Entry {
  item?: CollectionItem;
}

export interface Lesson extends LessonEntry {
  /** <part-slug>/<lesson-slug>: how prerequisites and the glossary name a lesson. */
  ref: string;
  number: string;
  /** 1-based position in the whole course, of `total`. */
  position: number;
  total: number;
  part: Part;
  previous?: Lesson;
  next?: Lesson;
  /** Set on the last lesson of a part: the part that follows. */
  nextPart?: Part;
  /** The lessons named in `prerequisites`. */
  before: Lesson[];
}

export interface Part {
  slug: string;
  title: string;
  summary: string;
  number: number;
  /** Its heading's id on the course home (and the print page). */
  anchor: string;
  /** Its place in the course home's syllabus. */
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
  return { part, lesson, ref: `${part.slug}/${lesson.slug}`, url: routes.lesson(part.slug, lesson.slug) };
}

export const lessonKind: Kind<typeof lessonSchema, LessonEntry> = {
  collection: "courseIndex",
  dataKey: "lesson",
  // Numbered part folders only: examples/ and labs/ beside them hold programs and lab records.
  files: [`${COURSE_DIR}/[0-9]*/*.md`],
  placement: `a lesson is ${COURSE_DIR}/<NN>-<part>/<NN>-<lesson>.md`,
  schema: lessonSchema,
  entry: (data, item, file) => ({ ...data, file, url: item.url, lang: DEFAULT_LANGUAGE, key: lessonLocation(file).ref, item }),
  head: (lesson) => ({ title: lesson.title, description: lesson.description, type: "article" }),
};

/**
 * Orders lessons into parts, numbers them and links each to its neighbours, its part and its
 * prerequisites. Every inconsistency between the files and _data/course.yaml stops the build with
 * the file and field at fault.
 */
export function buildCourse(entries: LessonEntry[], course: CourseData, courseFile = "_data/course.yaml"): Part[] {
  const problems: string[] = [];
  // Sorted by path so that the same files always give the same numbers and the same messages.
  const located = entries.map((entry) => ({ entry, ...lessonLocation(entry.file) })).sort((a, b) => a.entry.file.localeCompare(b.entry.file));
  const parts = new Map<string, { order: number; dir: string; lessons: typeof located }>();

  for (const lesson of located) {
    const { file } = lesson.entry;
    const known = course.parts.some((p) => p.slug === lesson.part.slug);
    if (!known) problems.push(`${file}: part: no part '${lesson.part.slug}' in ${courseFile}`);
    const entry = parts.get(lesson.part.slug) ?? { order: lesson.part.order, dir: path.dirname(file), lessons: [] };
    if (entry.order !== lesson.part.order) problems.push(`${file}: part: folder order ${lesson.part.order} differs from ${entry.dir}`);
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
    for (const { entry: lesson, lesson: name } of entry.lessons) {
      const clash = lessonOrders.get(name.order);
      if (clash) problems.push(`${lesson.file}: lesson: order ${name.order} is also used by ${clash}`);
      lessonOrders.set(name.order, lesson.file);
      // The slug is the lesson's URL within its part: two files must not share one.
      const twin = lessonSlugs.get(name.slug);
      if (twin) problems.push(`${lesson.file}: lesson: name '${name.slug}' is also used by ${twin}`);
      lessonSlugs.set(name.slug, lesson.file);
    }
  }
  course.parts.forEach((p, i) => {
    if (!parts.has(p.slug)) problems.push(`${courseFile}: parts[${i}]: part '${p.slug}' has no lesson files in ${COURSE_DIR}/`);
  });
  if (problems.length) throw contentError(problems);

  const total = located.length;
  let position = 0;
  const built: Part[] = [...parts]
    .sort(([, a], [, b]) => a.order - b.order)
    .map(([slug, entry], partIndex) => {
      const meta = course.parts.find((p) => p.slug === slug)!;
      const part = { slug, title: meta.title, summary: meta.summary, number: partIndex + 1, lessons: [] as Lesson[] } as Part;
      part.lessons = entry.lessons
        .sort((a, b) => a.lesson.order - b.lesson.order)
        .map(({ entry: lesson, ref }, i) => ({ ...lesson, key: ref, ref, number: `${partIndex + 1}.${i + 1}`, position: ++position, total, part, before: [] }));
      part.anchor = partAnchor(slug);
      part.url = routes.coursePart(slug);
      part.minutes = part.lessons.reduce((sum, l) => sum + l.minutes, 0);
      return part;
    });

  const lessons = built.flatMap((p) => p.lessons);
  const byRef = new Map(lessons.map((l) => [l.ref, l]));
  const formerOwners = new Map<string, string>();
  lessons.forEach((lesson, i) => {
    lesson.previous = lessons[i - 1];
    lesson.next = lessons[i + 1];
    // The last lesson of a part introduces the next part.
    if (lesson.next && lesson.next.part !== lesson.part) lesson.nextPart = lesson.next.part;
    lesson.prerequisites.forEach((ref, j) => {
      const before = byRef.get(ref);
      if (!before) problems.push(`${lesson.file}: prerequisites[${j}]: no lesson '${ref}'`);
      // A learner reads the course in order: what a lesson needs must come before it.
      else if (before === lesson) problems.push(`${lesson.file}: prerequisites[${j}]: '${ref}' is this lesson itself`);
      else if (before.position > lesson.position) problems.push(`${lesson.file}: prerequisites[${j}]: '${ref}' is lesson ${before.number}, after this one (${lesson.number})`);
      else lesson.before.push(before);
    });
    lesson.formerly.forEach((ref, j) => {
      const owner = formerOwners.get(ref);
      if (byRef.has(ref)) problems.push(`${lesson.file}: formerly[${j}]: '${ref}' is still a lesson's address`);
      else if (owner) problems.push(`${lesson.file}: formerly[${j}]: '${ref}' is also claimed by ${owner}`);
      formerOwners.set(ref, lesson.file);
    });
  });
  if (problems.length) throw contentError(problems);
  return built;
}

/** A lesson's HTML as its own page shows it, for a page that shows it again (`page`, for the error). */
export function renderedLesson(lesson: Lesson, page: string): string {
  if (lesson.item?.content === undefined) throw contentError([`${lesson.file}: (file): not rendered yet when ${page} asked for it (does it import the courseIndex collection?)`]);
  return lesson.item.content;
}

export function checkGlossary(terms: GlossaryTerm[], course: Syllabus, file = "_data/glossary.yaml"): void {
  const problems = terms.flatMap((t, i) => (course.hasRef(t.lesson) ? [] : [`${file}: [${i}].lesson: no lesson '${t.lesson}' (term '${t.id}')`]));
  if (problems.length) throw contentError(problems);
}

/** The course in order: its parts, and every lesson found by address, file or reference. */
export class Syllabus extends Index<Lesson> {
  constructor(readonly parts: Part[]) {
    super("lesson", parts.flatMap((p) => p.lessons));
  }

  hasRef(ref: string): boolean {
    return this.all.some((l) => l.ref === ref);
  }

  /** The lesson a `<part>/<lesson>` reference names, for the glossary. */
  byRef(ref: string): Lesson {
    return this.byKey(ref, DEFAULT_LANGUAGE);
  }

  /** Every page of the course: its home, the glossary, the labs, the print page and each lesson. */
  pageUrls(): string[] {
    return [routes.course(), routes.glossary(), routes.courseLabs(), routes.coursePrint(), ...this.all.map((l) => l.url)];
  }

  /** Earlier lesson addresses (a lesson's `formerly`), each sent to the lesson that replaced it. */
  movedLessons(): Redirect[] {
    return this.all.flatMap((l) => l.formerly.map((ref) => ({ url: routes.lesson(...(ref.split("/") as [string, string])), to: l.url })));
  }

  /**
   * Every address that redirects to a course page: each page's upper-case form, and each moved
   * lesson's old address in both cases, straight to where it lives now.
   */
  redirects(): Redirect[] {
    return [
      ...this.pageUrls().map((to) => ({ url: routes.legacyCourse(to), to })),
      ...this.movedLessons().flatMap((moved) => [moved, { url: routes.legacyCourse(moved.url), to: moved.to }]),
    ];
  }
}

/** The words of a link to the course's first lesson: one string wherever it is (homepage, course home). */
export const startLinkHtml = (first: Pick<Lesson, "number" | "title" | "lang">, lang: Lang): string =>
  tHtml(lang, "course.start", { title: langText(first.title, first.lang, lang) }, { number: first.number });

/** An old address (the redirect page's own `url`) and where its page lives now. */
export interface Redirect {
  url: string;
  to: string;
}

export default function course(config: UserConfig): void {
  const courseOf = contentCollection(config, lessonKind, (entries, globals) => {
    if (entries.length === 0) throw contentError([`${COURSE_DIR}/: (folder): the course has no lessons`]);
    const syllabus = new Syllabus(buildCourse(entries, globals.course as CourseData));
    checkGlossary(globals.glossary as GlossaryTerm[], syllabus);
    return syllabus;
  });
  addFeeds("course", (api) => {
    const lessons = [...courseOf(api).all];
    const entries = lessons.map((l) => ({ title: `${l.number} ${l.title}`, url: l.url, date: l.date, updated: l.updated, summary: l.description, tags: [], item: l.item }));
    return [{ section: "course", lang: DEFAULT_LANGUAGE, format: "atom", url: routes.courseFeed(), mediaType: MEDIA_TYPES.atom, home: routes.course(), updated: lastUpdated(lessons)!, entries }];
  });
  // One redirect page per old address: upper-case course pages and moved lessons.
  config.addCollection("courseRedirects", (api: CollectionApi) => courseOf(api).redirects());
  config.addCollection("movedLessons", (api: CollectionApi) => courseOf(api).movedLessons());
  config.addFilter("courseStart", startLinkHtml);
}

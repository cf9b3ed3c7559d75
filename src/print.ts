// RDMA 101 on one page, for print (src/pages/rdma101/print.njk): every lesson in order, each its
// own render (kept with placeholders, ./scope.ts) with its ids prefixed, its headings moved below
// the part's and the lesson's, its answers open, and its links to lessons turned into links within
// the page, so that the page holds no id twice and every link between lessons still lands.
import type UserConfig from "@11ty/eleventy/UserConfig";
import { renderedLesson, type Lesson } from "./course.ts";
import { inScope, scopedRender, type Scope } from "./scope.ts";
import { COURSE_LAB_CLASS, courseLabText } from "./transcripts.ts";
import { href } from "./urls.ts";

/** A lesson's section on the print page: `lesson-2-3`. Every id of the lesson starts with it. */
export const printedId = (lesson: Pick<Lesson, "number">): string => `lesson-${lesson.number.replace(/\./g, "-")}`;

/** Part (h2), lesson (h3), then the lesson's own h2 as h4. */
const LEVELS_BELOW_LESSON = 2;

export const printScope = (lesson: Pick<Lesson, "number">): Scope => ({ id: `${printedId(lesson)}-`, label: `${lesson.number} `, levels: LEVELS_BELOW_LESSON, open: true });

/** Links to a lesson, or to an id in it, become links to that place on the print page. */
export function inPageLinks(html: string, lessons: readonly Pick<Lesson, "number" | "url">[]): string {
  const byPath = new Map(lessons.map((l) => [href(l.url), l]));
  return html.replace(/(\shref=")([^"#]*)(?:#([^"]*))?"/g, (all, attr: string, path: string, fragment: string | undefined) => {
    const lesson = byPath.get(path);
    if (!lesson) return all;
    return `${attr}#${fragment ? `${printScope(lesson).id}${fragment}` : printedId(lesson)}"`;
  });
}

/**
 * A lesson's first transcript also says what the course's lab is and what its timings mean; the
 * print page says that once, above the lessons (courseLabText), not once a lesson.
 */
export const withoutCourseLab = (html: string): string => html.replace(new RegExp(`\\s*<span class="${COURSE_LAB_CLASS}">[^<]*</span>`, "g"), "");

/** A lesson's body as the print page shows it. */
export function printedLesson(lesson: Lesson, lessons: readonly Lesson[]): string {
  return inPageLinks(inScope(withoutCourseLab(scopedRender(lesson.file, renderedLesson(lesson, "the print page"))), printScope(lesson)), lessons);
}

export default function print(config: UserConfig): void {
  config.addFilter("printedId", printedId);
  config.addFilter("printedLesson", printedLesson);
  config.addFilter("courseLabText", courseLabText);
}

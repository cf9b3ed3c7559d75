// RDMA 101's "where to look" index (on the glossary page; the labs page shows its devices): from a
// way to get a device, an API or tool name, or an error status or symptom, to the lesson and heading
// that explain it. The places come from
// _data/lookup.yaml (lookupSchema); each is checked against the lesson as rendered, and the
// heading's own words are shown, so a renamed heading stops the build instead of leaving a dead link.
import type UserConfig from "@11ty/eleventy/UserConfig";
import { renderedLesson, type Lesson, type Syllabus } from "./course.ts";
import type { LookupData } from "./schemas.ts";
import { tableOfContents } from "./toc.ts";
import { contentError } from "./validation.ts";

const LOOKUP_FILE = "_data/lookup.yaml";

export interface LookupPlace {
  lesson: Lesson;
  heading: string;
  /** The heading's text, as the lesson shows it. */
  title: string;
}

export interface LookupEntry {
  name: string;
  places: LookupPlace[];
}

export interface LookupIndex {
  devices: LookupEntry[];
  apis: LookupEntry[];
  symptoms: LookupEntry[];
}

/** Headings of a lesson's render, by id (h2 and h3: what a reader can scan for). */
const headingsOf = (html: string): Map<string, string> => new Map(tableOfContents(html).map((h) => [h.id, h.text]));

/**
 * The index: each list's places grouped by name, in the order names first appear (APIs sorted by
 * name; a name's places in course order), each checked against its lesson's rendered headings.
 * `renderOf` gives a lesson's HTML.
 */
export function lookupIndex(data: LookupData, syllabus: Syllabus, renderOf: (lesson: Lesson) => string, file = LOOKUP_FILE): LookupIndex {
  const problems: string[] = [];
  const headings = new Map<Lesson, Map<string, string>>();
  const group = (list: keyof LookupData): LookupEntry[] => {
    const entries = new Map<string, LookupEntry>();
    data[list].forEach((place, i) => {
      if (!syllabus.hasRef(place.lesson)) return void problems.push(`${file}: ${list}[${i}].lesson: no lesson '${place.lesson}'`);
      const lesson = syllabus.byRef(place.lesson);
      if (!headings.has(lesson)) headings.set(lesson, headingsOf(renderOf(lesson)));
      const title = headings.get(lesson)!.get(place.heading);
      if (title === undefined) return void problems.push(`${file}: ${list}[${i}].heading: lesson '${place.lesson}' has no heading '${place.heading}'`);
      const entry = entries.get(place.name) ?? { name: place.name, places: [] };
      entry.places.push({ lesson, heading: place.heading, title });
      entries.set(place.name, entry);
    });
    // A learner reads a name's places in course order, whatever order the file lists them in.
    const order = (p: LookupPlace) => [syllabus.all.indexOf(p.lesson), [...headings.get(p.lesson)!.keys()].indexOf(p.heading)];
    for (const entry of entries.values()) {
      entry.places.sort((a, b) => {
        const [x, y] = [order(a), order(b)];
        return x[0]! - y[0]! || x[1]! - y[1]!;
      });
    }
    return [...entries.values()];
  };
  const index = { devices: group("devices"), apis: group("apis").sort((a, b) => a.name.localeCompare(b.name, "en", { sensitivity: "base" })), symptoms: group("symptoms") };
  if (problems.length) throw contentError(problems);
  return index;
}

export default function lookup(config: UserConfig): void {
  // The glossary and the labs page both show it: work it out once per build.
  const built = new WeakMap<Syllabus, LookupIndex>();
  config.addFilter("lookupIndex", (data: LookupData, syllabus: Syllabus) => {
    let index = built.get(syllabus);
    if (!index) built.set(syllabus, (index = lookupIndex(data, syllabus, (lesson) => renderedLesson(lesson, "the where-to-look index"))));
    return index;
  });
}

import { describe, expect, it } from "vitest";
import { buildCourse, Syllabus, type Lesson, type LessonEntry } from "../../src/course.ts";
import { lookupIndex } from "../../src/lookup.ts";
import { lookupSchema, type CourseData } from "../../src/schemas.ts";
import { errorOf } from "../support/errors.ts";

const course: CourseData = { title: "C", description: "D", audience: "A", prerequisites: ["P"], withoutHardware: "W", parts: [{ slug: "basics", title: "Basics", summary: "S" }] };
const entry = (file: string): LessonEntry => ({
  title: file, description: "d", objectives: ["o"], minutes: 10, date: new Date("2026-12-02"), prerequisites: [], formerly: [], draft: false,
  file: `posts/rdma101/${file}`, url: `/${file}/`, lang: "en", key: file,
});
const syllabus = new Syllabus(buildCourse([entry("01-basics/01-a.md"), entry("01-basics/02-b.md")], course));
/** Rendered lessons: headings as Markdown writes them (with self-links), by lesson reference. */
const renders: Record<string, string> = {
  "basics/a": '<h2 id="polling" tabindex="-1"><a class="heading-link" href="#polling"><span>Polling &amp; waiting</span></a></h2>',
  "basics/b": '<h2 id="errors" tabindex="-1"><a class="heading-link" href="#errors"><span>Errors</span></a></h2>',
};
const renderOf = (lesson: Lesson) => renders[lesson.ref]!;
const data = (apis: object[], symptoms: object[] = [{ name: "s", lesson: "basics/b", heading: "errors" }]) => lookupSchema.parse({ devices: [], apis, symptoms });

describe("the where-to-look index", () => {
  it("groups each name's places, sorts API names, and shows each heading as the lesson does", () => {
    const index = lookupIndex(
      data([
        { name: "ibv_poll_cq", lesson: "basics/a", heading: "polling" },
        { name: "IBV_WC_SUCCESS", lesson: "basics/b", heading: "errors" },
        { name: "ibv_poll_cq", lesson: "basics/b", heading: "errors" },
      ]),
      syllabus,
      renderOf,
    );
    expect(index.apis.map((e) => [e.name, e.places.map((p) => `${p.lesson.number} #${p.heading} ${p.title}`)])).toEqual([
      ["ibv_poll_cq", ["1.1 #polling Polling &amp; waiting", "1.2 #errors Errors"]],
      ["IBV_WC_SUCCESS", ["1.2 #errors Errors"]],
    ]);
    expect(index.symptoms.map((e) => e.name)).toEqual(["s"]);
  });

  it("lists a name's places in course order, whatever order the file gives", () => {
    const index = lookupIndex(
      data([], [
        { name: "s", lesson: "basics/b", heading: "errors" },
        { name: "s", lesson: "basics/a", heading: "polling" },
      ]),
      syllabus,
      renderOf,
    );
    expect(index.symptoms[0]!.places.map((p) => `${p.lesson.number} #${p.heading}`)).toEqual(["1.1 #polling", "1.2 #errors"]);
  });

  it("names each place that is not a lesson's heading, by file and entry", () => {
    const message = errorOf(() =>
      lookupIndex(data([{ name: "a", lesson: "basics/c", heading: "polling" }], [{ name: "s", lesson: "basics/a", heading: "errors" }]), syllabus, renderOf),
    );
    expect(message).toContain("_data/lookup.yaml: apis[0].lesson: no lesson 'basics/c'");
    expect(message).toContain("_data/lookup.yaml: symptoms[0].heading: lesson 'basics/a' has no heading 'errors'");
  });

  it("refuses the same place twice for one name", () => {
    const twice = { name: "a", lesson: "basics/a", heading: "polling" };
    expect(lookupSchema.safeParse({ devices: [], apis: [twice, twice], symptoms: [twice] }).success).toBe(false);
  });
});

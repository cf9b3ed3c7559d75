import { describe, expect, it } from "vitest";
import { allLessons, buildCourse, checkGlossary, courseRedirects, legacyUrl, lessonLocation, lessonNeighbours, movedLessons, type LessonSource } from "../../src/course.ts";
import { lessonSchema, type Course } from "../../src/schemas.ts";
import { validate } from "../../src/validation.ts";
import { errorOf } from "../support/errors.ts";

const course: Course = {
  title: "C",
  description: "D",
  audience: "A",
  prerequisites: ["P"],
  withoutHardware: "W",
  parts: [
    { slug: "basics", title: "Basics", summary: "S1" },
    { slug: "advanced", title: "Advanced", summary: "S2" },
  ],
};
const lesson = (file: string, over: object = {}): LessonSource => ({
  file: `posts/rdma101/${file}`,
  data: { title: file, description: "d", objectives: ["o"], minutes: 10, date: new Date("2026-12-02"), prerequisites: [], formerly: [], draft: false, ...over },
});

describe("course order and numbering", () => {
  const parts = buildCourse(
    [lesson("02-advanced/01-c.md"), lesson("01-basics/10-b.md"), lesson("01-basics/02-a.md", { minutes: 5 })],
    course,
  );

  it("orders parts and lessons by their numeric prefixes, not by name or file order", () => {
    expect(allLessons(parts).map((l) => [l.number, l.position, l.url])).toEqual([
      ["1.1", 1, "/rdma101/basics/a/"],
      ["1.2", 2, "/rdma101/basics/b/"],
      ["2.1", 3, "/rdma101/advanced/c/"],
    ]);
    expect(parts.map((p) => [p.number, p.title, p.minutes, p.url])).toEqual([
      [1, "Basics", 15, "/rdma101/basics/a/"],
      [2, "Advanced", 10, "/rdma101/advanced/c/"],
    ]);
  });

  it("links previous and next across part boundaries and announces the next part", () => {
    const last = lessonNeighbours(parts, "/rdma101/basics/b/");
    expect([last.previous?.url, last.next?.url, last.nextPart?.title, last.total]).toEqual(["/rdma101/basics/a/", "/rdma101/advanced/c/", "Advanced", 3]);
    const first = lessonNeighbours(parts, "/rdma101/basics/a/");
    expect([first.previous, first.next?.url, first.nextPart]).toEqual([undefined, "/rdma101/basics/b/", undefined]);
    expect(lessonNeighbours(parts, "/rdma101/advanced/c/").next).toBeUndefined();
  });

  it("maps every course URL to its upper-case legacy address", () => {
    expect(legacyUrl("/rdma101/basics/a/")).toBe("/RDMA101/basics/a/");
    expect(lessonLocation("posts/rdma101/01-basics/02-a.md").url).toBe("/rdma101/basics/a/");
  });

  it("sends a moved lesson's old address, in either case, straight to the lesson", () => {
    const moved = buildCourse([lesson("01-basics/01-a.md", { formerly: ["basics/old-a", "advanced/older-a"] }), lesson("02-advanced/01-c.md")], course);
    expect(movedLessons(moved)).toEqual([
      { from: "/rdma101/basics/old-a/", to: "/rdma101/basics/a/" },
      { from: "/rdma101/advanced/older-a/", to: "/rdma101/basics/a/" },
    ]);
    expect(courseRedirects(["/rdma101/basics/a/"], moved)).toEqual([
      { from: "/RDMA101/basics/a/", to: "/rdma101/basics/a/" },
      { from: "/rdma101/basics/old-a/", to: "/rdma101/basics/a/" },
      { from: "/RDMA101/basics/old-a/", to: "/rdma101/basics/a/" },
      { from: "/rdma101/advanced/older-a/", to: "/rdma101/basics/a/" },
      { from: "/RDMA101/advanced/older-a/", to: "/rdma101/basics/a/" },
    ]);
  });
});

describe("course errors name the file and field", () => {
  it.each([
    [[lesson("01-basics/01-a.md"), lesson("01-basics/01-b.md"), lesson("02-advanced/01-c.md")], "posts/rdma101/01-basics/01-b.md: lesson: order 1 is also used by posts/rdma101/01-basics/01-a.md"],
    [[lesson("01-basics/01-a.md", { prerequisites: ["basics/zzz"] }), lesson("02-advanced/01-c.md")], "posts/rdma101/01-basics/01-a.md: prerequisites[0]: no lesson 'basics/zzz'"],
    [[lesson("01-basics/01-a.md"), lesson("03-extra/01-x.md"), lesson("02-advanced/01-c.md")], "posts/rdma101/03-extra/01-x.md: part: no part 'extra' in _data/course.yaml"],
    [[lesson("01-basics/01-a.md")], "_data/course.yaml: parts[1]: part 'advanced' has no lesson files"],
    [[lesson("01-basics/intro.md"), lesson("02-advanced/01-c.md")], "posts/rdma101/01-basics/intro.md: lesson: 'intro' must be <number>-<slug>"],
    [[lesson("01-basics/01-a.md"), lesson("01-basics/02-a.md")], "posts/rdma101/01-basics/02-a.md: lesson: name 'a' is also used by posts/rdma101/01-basics/01-a.md"],
    [[lesson("01-basics/01-a.md"), lesson("01-advanced/01-c.md")], "posts/rdma101/01-basics: part: order 1 is also used by part 'advanced'"],
    [[lesson("01-basics/01-a.md", { formerly: ["advanced/c"] }), lesson("02-advanced/01-c.md")], "posts/rdma101/01-basics/01-a.md: formerly[0]: 'advanced/c' is still a lesson's address"],
    [[lesson("01-basics/01-a.md", { formerly: ["basics/z"] }), lesson("02-advanced/01-c.md", { formerly: ["basics/z"] })], "posts/rdma101/02-advanced/01-c.md: formerly[0]: 'basics/z' is also claimed by posts/rdma101/01-basics/01-a.md"],
  ])("case %#", (sources, message) => {
    expect(errorOf(() => buildCourse(sources, course))).toContain(message);
  });

  it.each([
    [{ title: "T", description: "d", minutes: 5, date: "2026-12-02" }, "l.md: objectives: is required"],
    [{ title: "T", description: "d", objectives: [], minutes: 5, date: "2026-12-02" }, "l.md: objectives: needs at least one objective"],
    [{ title: "T", description: "d", objectives: ["o"], minutes: "ten", date: "2026-12-02" }, "l.md: minutes: must be a whole number of minutes"],
    [{ title: "T", description: "d", objectives: ["o"], minutes: 5, date: "2026-12-02", order: 3 }, "l.md: order: unknown field"],
  ])("front matter %#", (data, message) => {
    expect(errorOf(() => validate(lessonSchema, data, "l.md"))).toContain(message);
  });

  it("refuses a glossary term that points at no lesson", () => {
    const parts = buildCourse([lesson("01-basics/01-a.md"), lesson("02-advanced/01-c.md")], course);
    expect(() => checkGlossary([{ id: "qp", term: "QP", definition: "d", lesson: "basics/a" }], parts)).not.toThrow();
    expect(errorOf(() => checkGlossary([{ id: "qp", term: "QP", definition: "d", lesson: "basics/nope" }], parts))).toBe(
      "_data/glossary.yaml: [0].lesson: no lesson 'basics/nope' (term 'qp')",
    );
  });
});

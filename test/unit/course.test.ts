import { describe, expect, it } from "vitest";
import { buildCourse, checkGlossary, lessonKind, lessonLocation, Syllabus, type LessonEntry } from "../../src/course.ts";
import { glossarySchema, lessonSchema, type CourseData } from "../../src/schemas.ts";
import { routes } from "../../src/urls.ts";
import { validate } from "../../src/validation.ts";
import { errorOf } from "../support/errors.ts";

const course: CourseData = {
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
/** A lesson file as the loader makes it (see lessonKind.entry). */
const lesson = (file: string, over: object = {}): LessonEntry => {
  const path = `posts/rdma101/${file}`;
  const data = { title: file, description: "d", objectives: ["o"], minutes: 10, date: new Date("2026-12-02"), prerequisites: [], formerly: [], draft: false, ...over };
  return { ...data, file: path, url: `/from-permalink/${file}/`, lang: "en", key: file };
};

describe("lesson files", () => {
  it("come from numbered part folders only, never examples/ or labs/", () => {
    expect(lessonKind.files).toEqual(["posts/rdma101/[0-9]*/*.md"]);
    const entry = lessonKind.entry(validate(lessonSchema, { title: "T", description: "d", objectives: ["o"], minutes: 5, date: "2026-12-02" }, "f"), { url: "/rdma101/basics/a/", inputPath: "posts/rdma101/01-basics/02-a.md", fileSlug: "a", data: {} }, "posts/rdma101/01-basics/02-a.md");
    expect([entry.key, entry.lang, entry.url]).toEqual(["basics/a", "en", "/rdma101/basics/a/"]);
  });
});

describe("course order and numbering", () => {
  const parts = buildCourse(
    [lesson("02-advanced/01-c.md"), lesson("01-basics/10-b.md"), lesson("01-basics/02-a.md", { minutes: 5 })],
    course,
  );
  const lessons = parts.flatMap((p) => p.lessons);

  it("orders parts and lessons by their numeric prefixes, not by name or file order", () => {
    expect(lessons.map((l) => [l.number, l.position, l.total, l.file])).toEqual([
      ["1.1", 1, 3, "posts/rdma101/01-basics/02-a.md"],
      ["1.2", 2, 3, "posts/rdma101/01-basics/10-b.md"],
      ["2.1", 3, 3, "posts/rdma101/02-advanced/01-c.md"],
    ]);
    // A part has no page: its address is its heading in the course home's syllabus, never a lesson's.
    expect(parts.map((p) => [p.number, p.title, p.minutes, p.url, p.anchor])).toEqual([
      [1, "Basics", 15, "/rdma101/#part-basics", "part-basics"],
      [2, "Advanced", 10, "/rdma101/#part-advanced", "part-advanced"],
    ]);
  });

  it("links previous and next across part boundaries and announces the next part", () => {
    const [first, last, other] = lessons;
    expect([last!.previous, last!.next, last!.nextPart?.title, last!.part.title]).toEqual([first, other, "Advanced", "Basics"]);
    expect([first!.previous, first!.next, first!.nextPart]).toEqual([undefined, last, undefined]);
    expect(other!.next).toBeUndefined();
  });

  it("resolves prerequisites to lessons", () => {
    const [a, b] = buildCourse([lesson("01-basics/01-a.md"), lesson("01-basics/02-b.md", { prerequisites: ["basics/a"] }), lesson("02-advanced/01-c.md")], course)[0]!.lessons;
    expect(b!.before).toEqual([a]);
  });

  it("finds lessons by reference and throws on one that does not exist", () => {
    const syllabus = new Syllabus(parts);
    expect(syllabus.byRef("basics/b").number).toBe("1.2");
    expect(errorOf(() => syllabus.byRef("basics/zzz"))).toBe("lesson 'basics/zzz': none in language 'en'");
    expect(syllabus.pageUrls()).toEqual([
      "/rdma101/",
      "/rdma101/glossary/",
      "/rdma101/labs/",
      "/rdma101/print/",
      "/from-permalink/01-basics/02-a.md/",
      "/from-permalink/01-basics/10-b.md/",
      "/from-permalink/02-advanced/01-c.md/",
    ]);
  });

  it("takes a lesson's address from its part and lesson folder names", () => {
    expect(lessonLocation("posts/rdma101/01-basics/02-a.md")).toMatchObject({ ref: "basics/a", url: "/rdma101/basics/a/" });
  });

  it("sends a moved lesson's old address, in either case, straight to the lesson", () => {
    const syllabus = new Syllabus(buildCourse([lesson("01-basics/01-a.md", { formerly: ["basics/old-a", "advanced/older-a"] }), lesson("02-advanced/01-c.md")], course));
    const a = syllabus.byRef("basics/a").url;
    expect(syllabus.movedLessons()).toEqual([
      { url: "/rdma101/basics/old-a/", to: a },
      { url: "/rdma101/advanced/older-a/", to: a },
    ]);
    expect(syllabus.redirects().filter((r) => r.to === a)).toEqual([
      { url: routes.legacyCourse(a), to: a },
      { url: "/rdma101/basics/old-a/", to: a },
      { url: "/RDMA101/basics/old-a/", to: a },
      { url: "/rdma101/advanced/older-a/", to: a },
      { url: "/RDMA101/advanced/older-a/", to: a },
    ]);
  });
});

describe("course errors name the file and field", () => {
  it.each([
    [[lesson("01-basics/01-a.md"), lesson("01-basics/01-b.md"), lesson("02-advanced/01-c.md")], "posts/rdma101/01-basics/01-b.md: lesson: order 1 is also used by posts/rdma101/01-basics/01-a.md"],
    [[lesson("01-basics/01-a.md", { prerequisites: ["basics/zzz"] }), lesson("02-advanced/01-c.md")], "posts/rdma101/01-basics/01-a.md: prerequisites[0]: no lesson 'basics/zzz'"],
    [[lesson("01-basics/01-a.md", { prerequisites: ["basics/a"] }), lesson("02-advanced/01-c.md")], "posts/rdma101/01-basics/01-a.md: prerequisites[0]: 'basics/a' is this lesson itself"],
    [[lesson("01-basics/01-a.md", { prerequisites: ["advanced/c"] }), lesson("02-advanced/01-c.md")], "posts/rdma101/01-basics/01-a.md: prerequisites[0]: 'advanced/c' is lesson 2.1, after this one (1.1)"],
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
    [{ title: "T", description: "d", objectives: ["o"], minutes: 7.5, date: "2026-12-02" }, "l.md: minutes: must be a whole number of minutes"],
    [{ title: "T", description: "d", objectives: ["o"], minutes: 0, date: "2026-12-02" }, "l.md: minutes: must be 1 or more"],
    [{ title: "T", description: "d", objectives: ["o"], minutes: 241, date: "2026-12-02" }, "l.md: minutes: must be at most 240"],
    [{ title: "T", description: "d", objectives: ["o"], minutes: 5, date: "2026-12-02", order: 3 }, "l.md: order: unknown field"],
  ])("front matter %#", (data, message) => {
    expect(errorOf(() => validate(lessonSchema, data, "l.md"))).toContain(message);
  });

  it("names a glossary id used twice, and where it was first", () => {
    const term = (id: string) => ({ id, term: "T", definition: "d", lesson: "basics/a" });
    expect(errorOf(() => validate(glossarySchema, [term("qp"), term("cq"), term("qp")], "_data/glossary.yaml"))).toBe("_data/glossary.yaml: [2].id: 'qp' is also the id of term [0]");
  });

  it("refuses a glossary term that points at no lesson", () => {
    const syllabus = new Syllabus(buildCourse([lesson("01-basics/01-a.md"), lesson("02-advanced/01-c.md")], course));
    expect(() => checkGlossary([{ id: "qp", term: "QP", definition: "d", lesson: "basics/a" }], syllabus)).not.toThrow();
    expect(errorOf(() => checkGlossary([{ id: "qp", term: "QP", definition: "d", lesson: "basics/nope" }], syllabus))).toBe(
      "_data/glossary.yaml: [0].lesson: no lesson 'basics/nope' (term 'qp')",
    );
  });
});

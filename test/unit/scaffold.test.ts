// `npm run new`: files the build accepts, named from the title, numbered after their part's last lesson.
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { postKind } from "../../src/blog.ts";
import { readContentFile } from "../../src/content.ts";
import { COURSE_DIR, lessonKind, lessonLocation } from "../../src/course.ts";
import { newLesson, newPost } from "../../src/scaffold.ts";
import { latinSlug as slugFromTitle } from "../../src/urls.ts";
import { validate } from "../../src/validation.ts";
import { errorOf } from "../support/errors.ts";

const options = { now: new Date("2026-12-03T12:30:00Z"), zone: "Asia/Shanghai" };
const firstPart = readdirSync(COURSE_DIR).filter((name) => /^\d+-/.test(name)).sort()[0]!;
const [partNumber, partSlug] = firstPart.match(/^0*(\d+)-(.*)$/)!.slice(1) as [string, string];

describe("slugs from titles", () => {
  it("keeps Latin letters and digits, drops accents and punctuation", () => {
    expect(slugFromTitle("Why RDMA? (Part 2)")).toBe("why-rdma-part-2");
    expect(slugFromTitle("Café: déjà vu")).toBe("cafe-deja-vu");
    expect(slugFromTitle("任峰")).toBe("");
  });
});

describe("a new post", () => {
  it("is a draft whose front matter the post schema accepts, dated in the site's zone", () => {
    const created = newPost("Hello, RDMA", options);
    expect(created.file).toBe("posts/blog/hello-rdma.md");
    const { data, body } = readContentFile(created.text, created.file);
    const post = validate(postKind.schema, data, created.file);
    expect(post.draft).toBe(true);
    expect(data.date).toBe("2026-12-03T20:30:00+08:00");
    expect(body.trim()).not.toBe("");
  });

  it("writes any title so that it reads back as written", () => {
    for (const title of ["Yes", "null", "RDMA: why #1", "'quoted' and \"double\"", "- a list?", "3.14", "任峰：RDMA"]) {
      const created = newPost(title, { ...options, slug: "round-trip" });
      expect(readContentFile(created.text, created.file).data.title).toBe(title);
    }
  });

  it("refuses a title without a slug and a slug in use, suggesting --slug", () => {
    expect(errorOf(() => newPost("你好", options))).toMatch(/title '你好' has no Latin letters or digits; give one with --slug=<slug>/);
    expect(newPost("你好", { ...options, slug: "ni-hao" }).file).toBe("posts/blog/ni-hao.md");
    const existing = readdirSync("posts/blog").find((name) => name.endsWith(".md"))!;
    expect(errorOf(() => newPost("Whatever", { ...options, slug: existing.replace(/\.md$/, "") }))).toMatch(/a post with the slug '.*' exists/);
    expect(errorOf(() => newPost("T", { ...options, slug: "Not A Slug" }))).toMatch(/slug: 'Not A Slug' must be lower-case/);
  });
});

describe("a new lesson", () => {
  it("comes after the last lesson of its part, named by number or slug, and its front matter is valid", () => {
    const byNumber = newLesson(partNumber, "A New Lesson", options);
    expect(newLesson(partSlug, "A New Lesson", options)).toEqual(byNumber);
    const location = lessonLocation(byNumber.file);
    expect(location.ref).toBe(`${partSlug}/a-new-lesson`);
    const orders = readdirSync(`${COURSE_DIR}/${firstPart}`)
      .filter((name) => /^\d+-.*\.md$/.test(name))
      .map((name) => Number(name.match(/^\d+/)![0]));
    expect(location.lesson.order).toBe(Math.max(...orders) + 1);
    const lesson = validate(lessonKind.schema, readContentFile(byNumber.text, byNumber.file).data, byNumber.file);
    expect(lesson.draft).toBe(true);
  });

  it("names the parts when the part is unknown, and refuses a slug the part has", () => {
    expect(errorOf(() => newLesson("no-such-part", "T", options))).toMatch(new RegExp(`part: no part 'no-such-part'; one of .*${partNumber} \\(${partSlug}\\)`));
    const taken = readdirSync(`${COURSE_DIR}/${firstPart}`).find((name) => /^\d+-.*\.md$/.test(name))!;
    expect(errorOf(() => newLesson(partSlug, "T", { ...options, slug: taken.replace(/^\d+-|\.md$/g, "") }))).toMatch(/the part has a lesson named/);
  });
});

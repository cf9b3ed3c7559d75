import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { pluralCategories, strings, stringsFile, t, tHtml } from "../../src/i18n.ts";
import { LANGUAGE_CODES } from "../../src/languages.ts";
import { stringTableSchema } from "../../src/schemas.ts";
import { validate } from "../../src/validation.ts";
import { errorOf } from "../support/errors.ts";

const reference = parse(readFileSync(stringsFile("en"), "utf8"));
const check = (table: unknown, lang: "en" | "zh" = "zh") => errorOf(() => validate(stringTableSchema(reference, pluralCategories(lang)), table, "src/i18n/zh.yaml"));

describe("string tables", () => {
  it("exist for every language, each with exactly the reference's keys", () => {
    for (const lang of LANGUAGE_CODES) expect(Object.keys(strings(lang)), lang).toEqual(Object.keys(reference));
  });

  it("stop the build on a missing or an extra key, naming file and key", () => {
    const zh = parse(readFileSync(stringsFile("zh"), "utf8"));
    const { skipLink: _, ...site } = zh.site;
    expect(check({ ...zh, site })).toBe("src/i18n/zh.yaml: site.skipLink: is required");
    expect(check({ ...zh, site: { ...zh.site, skiplink: "x" } })).toBe("src/i18n/zh.yaml: site.skiplink: unknown field");
  });

  it("need the reference's {placeholders}, and exactly the plural forms of the table's language", () => {
    const zh = parse(readFileSync(stringsFile("zh"), "utf8"));
    expect(check({ ...zh, course: { ...zh.course, part: "第 {n} 部分" } })).toBe("src/i18n/zh.yaml: course.part: must use exactly the placeholders {number} {title}");
    expect(check({ ...zh, blog: { ...zh.blog, postCount: { one: "{count} 篇", other: "{count} 篇" } } })).toBe("src/i18n/zh.yaml: blog.postCount.one: unknown field");
    expect(pluralCategories("en")).toEqual(["one", "other"]);
    expect(pluralCategories("zh")).toEqual(["other"]);
  });
});

describe("t", () => {
  it("fills placeholders and picks the plural form by count", () => {
    expect(t("en", "course.part", { number: 2, title: "Verbs" })).toBe("Part 2: Verbs");
    expect([t("en", "blog.postCount", { count: 1 }), t("en", "blog.postCount", { count: 3 })]).toEqual(["1 post", "3 posts"]);
    expect(t("zh", "blog.postCount", { count: 1 })).toBe("1 篇文章");
  });

  it("throws on a key no table has, and on a plural without a count", () => {
    expect(errorOf(() => t("en", "nav.nowhere"))).toBe("src/i18n/en.yaml: nav.nowhere: no such string");
    expect(errorOf(() => t("en", "blog.postCount"))).toBe("src/i18n/en.yaml: blog.postCount: is a plural string; pass a count");
  });

  it("builds HTML with the text escaped and the markup placeholders as given", () => {
    expect(tHtml("en", "markdown.titled", { title: "<code>x</code>" }, { label: "A & B" })).toBe("A &amp; B: <code>x</code>");
  });
});

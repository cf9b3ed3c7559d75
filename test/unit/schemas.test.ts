import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { courseSchema, profileSchema, siteSchema, timelineSchema } from "../../src/schemas.ts";
import { validate } from "../../src/validation.ts";
import { errorOf } from "../support/errors.ts";

const yaml = (file: string) => parse(readFileSync(file, "utf8"));
const profile = () => yaml("_data/profile.yaml") as Record<string, unknown>;

describe("profile schema", () => {
  it("accepts the real profile and splits the shown e-mail for the copy button", () => {
    const data = validate(profileSchema, profile(), "_data/profile.yaml");
    expect(data.name).toBe("Feng Ren");
    expect(data.email).toEqual({ shown: "renfeng.chn AT outlook.com", user: "renfeng.chn", domain: "outlook.com" });
  });

  it("names the file and field of a missing name", () => {
    const { name: _, ...rest } = profile();
    expect(errorOf(() => validate(profileSchema, rest, "_data/profile.yaml"))).toBe("_data/profile.yaml: name: is required");
  });

  it("takes text per language or one text for all, and needs every language in the first form", () => {
    const data = validate(profileSchema, profile(), "_data/profile.yaml");
    expect(Object.keys(data.headline)).toEqual(["en", "zh"]);
    const shared = validate(profileSchema, { ...profile(), headline: "One headline" }, "p.yaml");
    expect(shared.headline).toEqual({ en: "One headline", zh: "One headline" });
    expect(errorOf(() => validate(profileSchema, { ...profile(), headline: { en: "Only English" } }, "p.yaml"))).toBe("p.yaml: headline.zh: is required");
    expect(errorOf(() => validate(profileSchema, { ...profile(), headline: { en: "E", zh: "中", fr: "F" } }, "p.yaml"))).toBe("p.yaml: headline.fr: unknown field");
  });

  it("links a profile elsewhere by site and URL, and a section of this site by route, never by path", () => {
    const links = (value: unknown) => errorOf(() => validate(profileSchema, { ...profile(), links: [value] }, "p.yaml"));
    expect(links({ site: "twitter", url: "https://x.com/a" })).toMatch(/^p\.yaml: links\[0\]\.site: must be one of github, scholar$/);
    expect(links({ route: "blog" })).toMatch(/^p\.yaml: links\[0\]\.route: must be one of posts, course/);
    expect(links({ site: "github" })).toMatch(/^p\.yaml: links\[0\]: needs either site and url/);
    expect(links({ url: "/posts/" })).toMatch(/^p\.yaml: links\[0\]\.url: must be an https:\/\/ URL/);
    // Protocol-relative: another host, which a path check would take for this site's.
    expect(links({ site: "github", url: "//github.com/a" })).toMatch(/^p\.yaml: links\[0\]\.url: must be an https:\/\/ URL/);
  });

  it("refuses a plain e-mail address", () => {
    const data = { ...profile(), email: "someone@example.org" };
    expect(errorOf(() => validate(profileSchema, data, "p.yaml"))).toMatch(/^p\.yaml: email: must be written as 'user AT example\.org'/);
  });

  it("reports unknown fields one by one", () => {
    const data = { ...profile(), nmae: "x", extra: 1 };
    expect(errorOf(() => validate(profileSchema, data, "p.yaml")).split("\n")).toEqual([
      "p.yaml: nmae: unknown field",
      "p.yaml: extra: unknown field",
    ]);
  });
});

describe("timeline schema", () => {
  const entry = { organization: "Org", role: "Role", start: 2017, end: 2023 };

  it("accepts years and 'present'", () => {
    expect(validate(timelineSchema, [entry, { ...entry, end: "present" }], "t.yaml")).toHaveLength(2);
  });

  it.each([
    [{ ...entry, start: "2017a" }, "t.yaml: [0].start: must be a four-digit year"],
    [{ ...entry, start: 17 }, "t.yaml: [0].start: must be a four-digit year from 1900 to 2100"],
    [{ ...entry, start: 1800 }, "t.yaml: [0].start: must be a four-digit year from 1900 to 2100"],
    [{ ...entry, end: "now" }, "t.yaml: [0].end: must be a four-digit year or 'present'"],
    [{ ...entry, end: 2016 }, "t.yaml: [0].end: must not be before start"],
  ])("rejects a malformed year: %j", (bad, message) => {
    expect(errorOf(() => validate(timelineSchema, [bad], "t.yaml"))).toBe(message);
  });
});

describe("course schema", () => {
  const course = yaml("_data/course.yaml");

  it("accepts the real course, and code between backticks in the course home's text", () => {
    expect(validate(courseSchema, { ...course, withoutHardware: "Run `npm run lab` or `make`." }, "c.yaml").withoutHardware).toBe("Run `npm run lab` or `make`.");
  });

  it.each([
    ["withoutHardware", "Run `npm run lab."],
    ["audience", "Empty `` code."],
  ])("refuses an unpaired backtick in %s", (field, value) => {
    expect(errorOf(() => validate(courseSchema, { ...course, [field]: value }, "c.yaml"))).toBe(`c.yaml: ${field}: has an unpaired \`: code goes between two backticks, as \`npm test\``);
  });

  it("names the prerequisite with an unpaired backtick", () => {
    expect(errorOf(() => validate(courseSchema, { ...course, prerequisites: ["ok", "`gcc"] }, "c.yaml"))).toMatch(/^c\.yaml: prerequisites\[1\]: has an unpaired `/);
  });
});

describe("site schema", () => {
  it("accepts the real settings and trims the base URL's slash", () => {
    const data = validate(siteSchema, { ...yaml("_data/site.yaml"), url: "https://example.org/" }, "s.yaml");
    expect(data.url).toBe("https://example.org");
  });

  it("takes only an origin: a sub-path is the path prefix's job", () => {
    expect(errorOf(() => validate(siteSchema, { ...yaml("_data/site.yaml"), url: "https://user.github.io/repo" }, "s.yaml"))).toMatch(/^s\.yaml: url: must be the site's origin only/);
    expect(errorOf(() => validate(siteSchema, { ...yaml("_data/site.yaml"), url: "renfeng.org" }, "s.yaml"))).toMatch(/^s\.yaml: url: must be an absolute http\(s\) URL/);
  });

  it("names sections by route", () => {
    expect(errorOf(() => validate(siteSchema, { ...yaml("_data/site.yaml"), navigation: ["home", "/posts/"] }, "s.yaml"))).toMatch(/^s\.yaml: navigation\[1\]: must be one of home, posts/);
  });

  it("rejects an unknown time zone", () => {
    const data = { ...yaml("_data/site.yaml"), timezone: "Mars/Olympus" };
    expect(errorOf(() => validate(siteSchema, data, "s.yaml"))).toBe("s.yaml: timezone: must be an IANA time zone such as Asia/Shanghai");
  });
});

import matter from "gray-matter";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  bodyOffset,
  contentCollection,
  FRONT_MATTER_OPTIONS,
  Index,
  strayPage,
  loadEntries,
  pageDataHook,
  pageProblems,
  parseFrontMatter,
  readContentFile,
  savedPagesData,
  splitFrontMatter,
  writtenFrontMatter,
  type BuiltItem,
  type Entry,
  type Kind,
} from "../../src/content.ts";
import { createMarkdown } from "../../src/markdown.ts";
import { errorOf } from "../support/errors.ts";

const schema = z.strictObject({ title: z.string("is required"), date: z.string().optional() });
const kind: Kind<typeof schema, Entry & { title: string }> = {
  collection: "things",
  dataKey: "thing",
  files: ["things/*.md"],
  placement: "a thing is things/<name>.md",
  schema,
  entry: (data, item, file) => ({ ...data, file, url: item.url, lang: "en", key: item.fileSlug }),
  head: (thing) => ({ title: thing.title, description: "d", type: "article" }),
};
const item = (file: string, url = `/${file}/`) => ({ url, inputPath: `./${file}`, fileSlug: file.replace(/.*\/|\.md$/g, ""), rawInput: "Text.\n", data: {} });

describe("the front-matter engine", () => {
  it("reads YAML 1.2, keeping dates as the text written, and remembers what each file says", () => {
    const data = parseFrontMatter("\ntitle: T\ndate: 2026-13-45\nflag: yes", { filePath: "./things/a.md" });
    expect(data).toEqual({ title: "T", date: "2026-13-45", flag: "yes" });
    expect(writtenFrontMatter("things/a.md")).toBe(data);
  });

  it("names the file on a syntax error and on front matter that is not fields", () => {
    expect(errorOf(() => parseFrontMatter("\ntitle: [unclosed", { filePath: "./things/b.md" }))).toMatch(/^things\/b\.md: \(front matter\): /);
    expect(errorOf(() => parseFrontMatter("\n- a\n- b", { filePath: "./things/c.md" }))).toBe('things/c.md: (front matter): must be fields, one "name: value" a line');
  });
});

describe("the loader", () => {
  it("validates what each file's author wrote and reports every bad file at once", () => {
    parseFrontMatter("\ntitle: One", { filePath: "./things/one.md" });
    parseFrontMatter("\ntitel: Two", { filePath: "./things/two.md" });
    parseFrontMatter("\nextra: 1", { filePath: "./things/three.md" });
    expect(errorOf(() => loadEntries(kind, [item("things/one.md"), item("things/two.md"), item("things/three.md")])).split("\n")).toEqual([
      "things/two.md: title: is required",
      "things/two.md: titel: unknown field",
      "things/three.md: title: is required",
      "things/three.md: extra: unknown field",
    ]);
    expect(loadEntries(kind, [item("things/one.md")])).toMatchObject([{ title: "One", file: "things/one.md", key: "one" }]);
  });
});

describe("what no schema sees", () => {
  const now = new Date("2026-12-03T12:00:00Z");
  const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

  it("refuses a date or update in the future: a typo would top every list and every footer's year", () => {
    expect(pageProblems("posts/blog/a.md", { date: day("2099-12-02") }, "Text.", now)).toEqual([
      "posts/blog/a.md: date: 2099-12-02 is in the future (the build runs on 2026-12-03); a typo? A page not yet due stays draft: true until then",
    ]);
    expect(pageProblems("posts/blog/a.md", { date: day("2026-12-01"), updated: day("2027-01-05") }, "Text.", now)).toEqual([expect.stringMatching(/^posts\/blog\/a\.md: updated: 2027-01-05 is in the future/)]);
  });

  it("allows today and tomorrow in any time zone, and any date in a draft", () => {
    expect(pageProblems("posts/blog/a.md", { date: new Date("2026-12-04T09:00:00+08:00") }, "Text.", now)).toEqual([]);
    expect(pageProblems("posts/blog/a.md", { date: day("2026-12-04") }, "Text.", now)).toEqual([]);
    expect(pageProblems("posts/blog/a.md", { date: day("2027-06-01"), draft: true }, "", now)).toEqual([]);
  });

  it("refuses an empty body, unless the page is a draft", () => {
    expect(pageProblems("posts/blog/a.md", {}, " \n\n", now)).toEqual(["posts/blog/a.md: (body): is empty; write the page, or mark it draft: true"]);
  });

  it.each(["posts/blog/My Post.md", "posts/blog/Notes.md", "posts/blog/caf\u00e9.md", "posts/rdma101/01 basics/01-a.md"])("refuses the file name of %s, which would become its address", (file) => {
    expect(pageProblems(file, {}, "Text.", now)).toEqual([expect.stringMatching(/: \(file\): '.+' becomes part of the page's address: name it with lower-case letters, digits and hyphens only$/)]);
  });

  it("is part of loading every kind", () => {
    parseFrontMatter("\ntitle: Empty", { filePath: "./things/empty.md" });
    expect(errorOf(() => loadEntries(kind, [{ ...item("things/empty.md"), rawInput: "" }]))).toBe("things/empty.md: (body): is empty; write the page, or mark it draft: true");
  });
});

describe("Markdown outside every kind's folder", () => {
  it("is no page: a note at the repository root would be published with no layout", () => {
    const config = { on: () => undefined, addCollection: () => undefined } as unknown as Parameters<typeof contentCollection>[0];
    contentCollection(config, kind, (entries) => new Index("thing", entries));
    expect(strayPage("things/a.md")).toBeUndefined();
    expect(strayPage("notes.md")).toBe("notes.md: (file): not a page of any kind (a thing is things/<name>.md); notes about the project belong in docs/");
    expect(strayPage("thingsx/a.md")).toMatch(/^thingsx\/a\.md: \(file\): not a page/);
  });
});

describe("the data hook", () => {
  it("gives a page its own entry, language and head, and refuses a page its index does not hold", () => {
    parseFrontMatter("\ntitle: One", { filePath: "./things/one.md" });
    const index = new Index("thing", loadEntries(kind, [item("things/one.md")]));
    const data: Record<string, unknown> & { page: { inputPath: string }; collections: Record<string, unknown> } = { page: { inputPath: "./things/one.md" }, collections: { things: index } };
    pageDataHook(kind)(data);
    expect(data.thing).toBe(index.byUrl("/things/one.md/"));
    expect([data.lang, data.head]).toEqual(["en", { title: "One", description: "d", type: "article" }]);
    expect(errorOf(() => pageDataHook(kind)({ ...data, page: { inputPath: "./things/deep/x.md" } }))).toBe("things/deep/x.md: (file): not a thing: a thing is things/<name>.md");
  });
});

describe("a saved page's data for the dev server's quick path", () => {
  type Thing = Entry & { title: string; date?: string; previous?: Thing };
  /** An arrange step that orders by date and links each thing to the one before it. */
  class Things extends Index<Thing> {
    constructor(entries: Thing[]) {
      super("thing", [...entries].sort((a, b) => (a.date ?? "").localeCompare(b.date ?? "")));
      this.all.forEach((thing, i) => (thing.previous = this.all[i - 1]));
    }
  }
  const things = kind as unknown as Kind<typeof schema, Thing>;
  const files = { one: "title: One\ndate: '1'", two: "title: Two\ndate: '2'", three: "title: Three\ndate: '3'" };

  /** The last build of a kind (things, unless said): each file's front matter read, the collection loaded, each page's data. */
  function lastBuild(of = things, folder = "things", written: Record<string, string> = files): { index: Things; page: (name: string) => BuiltItem } {
    let load: ((api: unknown) => Things) | undefined;
    const config = { on: () => undefined, addCollection: (_name: string, loader: typeof load) => (load = loader) } as unknown as Parameters<typeof contentCollection>[0];
    contentCollection(config, of, (entries) => new Things(entries));
    for (const [name, fields] of Object.entries(written)) parseFrontMatter(`\n${fields}`, { filePath: `./${folder}/${name}.md` });
    const items = Object.keys(written).map((name) => item(`${folder}/${name}.md`));
    const index = load!({ getFilteredByGlob: () => items });
    const page = (name: string): BuiltItem => {
      const it = item(`${folder}/${name}.md`);
      return { ...it, data: { ...writtenFrontMatter(`${folder}/${name}.md`), page: { fileSlug: name }, collections: { [of.collection]: index }, [of.dataKey]: index.byFile(`${folder}/${name}.md`) } };
    };
    return { index, page };
  }

  it("gives a saved page its new fields and its entry in the index arranged again, leaving the last build's as it was", () => {
    const { index, page } = lastBuild();
    const two = page("two");
    const data = savedPagesData([{ page: two, fields: "title: Two renamed\ndate: '2'", body: "New text.\n" }]);
    if (typeof data === "string") throw new Error(data);
    const saved = data.get(two)!;
    expect(saved.title).toBe("Two renamed");
    expect(saved.head).toEqual({ title: "Two renamed", description: "d", type: "article" });
    expect(saved.thing).toMatchObject({ title: "Two renamed", previous: { title: "One" } });
    const again = (saved.collections as { things: Things }).things;
    expect(again).not.toBe(index);
    expect(again.byFile("things/three.md").previous?.title).toBe("Two renamed");
    expect(index.byFile("things/two.md").title).toBe("Two");
    expect(index.byFile("things/three.md").previous?.title).toBe("Two");
  });

  it("arranges a new date into its new place, and the changes of files saved together into one index", () => {
    const { page } = lastBuild();
    const moved = savedPagesData([{ page: page("two"), fields: "title: Two\ndate: '4'", body: "Text.\n" }]);
    if (typeof moved === "string") throw new Error(moved);
    expect(moved.get([...moved.keys()][0]!)!.thing).toMatchObject({ previous: { title: "Three" } });
    const [one, two] = [page("one"), page("two")];
    const both = savedPagesData([
      { page: one, fields: "title: One renamed\ndate: '1'", body: "Text.\n" },
      { page: two, fields: "title: Two\ndate: '2'", body: "Text.\n" },
    ]);
    if (typeof both === "string") throw new Error(both);
    expect(both.get(two)!.thing).toMatchObject({ previous: { title: "One renamed" } });
  });

  it("gives each page of files of two kinds saved together both indexes arranged again (every page's footer reads the blog's)", () => {
    const thingBuild = lastBuild();
    const otherBuild = lastBuild({ ...things, collection: "others", dataKey: "other", files: ["others/*.md"], placement: "an other is others/<name>.md" }, "others", { x: "title: X\ndate: '1'" });
    // Each page of the build sees every collection.
    const [two, x] = [thingBuild.page("two"), otherBuild.page("x")];
    for (const saved of [two, x]) saved.data.collections = { things: thingBuild.index, others: otherBuild.index };
    const data = savedPagesData([
      { page: two, fields: "title: Two renamed\ndate: '2'", body: "Text.\n" },
      { page: x, fields: "title: X renamed\ndate: '1'", body: "Text.\n" },
    ]);
    if (typeof data === "string") throw new Error(data);
    expect((data.get(two)!.collections as { others: Things }).others.byFile("others/x.md").title).toBe("X renamed");
    expect((data.get(x)!.collections as { things: Things }).things.byFile("things/two.md").title).toBe("Two renamed");
  });

  it("says why not: the mistake that would stop the build", () => {
    const { page } = lastBuild();
    expect(savedPagesData([{ page: page("two"), fields: "date: '2'", body: "Text.\n" }])).toBe("things/two.md: title: is required");
    expect(savedPagesData([{ page: page("two"), fields: "title: Two\ndate: '2'", body: "\n" }])).toBe("things/two.md: (body): is empty; write the page, or mark it draft: true");
    expect(savedPagesData([{ page: page("two"), fields: "title: Two\nlayout: other.njk", body: "Text.\n" }])).toBe("things/two.md: layout: unknown field");
    expect(savedPagesData([{ page: page("two"), fields: "title: [unclosed", body: "Text.\n" }])).toMatch(/^things\/two\.md: \(front matter\): /);
  });
});

describe("a content file read outside Eleventy", () => {
  it("splits front matter from the body and counts the lines before the body", () => {
    const { data, body } = readContentFile("---\ntitle: T\ndate: 2026-12-03\n---\nBody line\n", "things/d.md");
    expect(data).toEqual({ title: "T", date: "2026-12-03" });
    expect(body).toBe("Body line\n");
    expect(bodyOffset("things/d.md")).toBe(4);
  });

  it("names the file when it has no front matter", () => {
    expect(errorOf(() => readContentFile("Just text\n", "things/e.md"))).toMatch(/^things\/e\.md: \(front matter\): missing/);
  });
});

/** A file read as Eleventy reads it: its parser (gray-matter) with the site's options. */
const readByEleventy = (source: string, file: string) => matter(source, { ...FRONT_MATTER_OPTIONS, filePath: `./${file}` } as never);

// However an editor ends the delimiter lines, a mistake in the body is named at its line in the file.
const SOURCES: [string, string][] = [
  ["plain delimiters", "---\ntitle: T\n---\nIntro.\n\n::: notice\n"],
  ["spaces after the closing ---", "---\ntitle: T\ndate: 2026-12-03\n---   \nIntro.\n\n::: notice\n"],
  ["a tab after the closing ---", "---\ntitle: T\n---\t\n::: notice\n"],
  ["spaces after the opening ---", "---  \ntitle: T\n---\nIntro.\n\n::: notice\n"],
  ["CRLF line ends", "---\r\ntitle: T\r\n---\r\nIntro.\r\n\r\n::: notice\r\n"],
  ["CRLF and spaces after both ---", "---  \r\ntitle: T\r\n--- \r\nIntro.\r\n\r\n::: notice\r\n"],
  ["a BOM and spaces after the closing ---", "\uFEFF---\ntitle: T\n--- \n::: notice\n"],
  ["empty front matter", "---\n---\nIntro.\n\n::: notice\n"],
];
/** The line (1-based) the mistake is written on, counted in the file itself. */
const mistakeLine = (source: string) => source.split(/\r?\n/).indexOf("::: notice") + 1;

describe("the line a body starts on", () => {
  const md = createMarkdown();
  const file = "posts/blog/lines.md";

  it.each(SOURCES)("is counted right with %s, as Eleventy reads the file", (_name, source) => {
    const { content } = readByEleventy(source, file);
    expect(errorOf(() => md.render(content, { page: { inputPath: `./${file}` } }))).toMatch(new RegExp(`^${file}:${mistakeLine(source)}: \\(container\\)`));
  });

  it.each(SOURCES)("is counted right with %s, as npm run check reads the file (split as Eleventy splits it)", (_name, source) => {
    const eleventy = readByEleventy(source, file);
    const { data, body } = readContentFile(source, file);
    expect([data, body]).toEqual([eleventy.data, eleventy.content]);
    expect(errorOf(() => md.render(body, { page: { inputPath: `./${file}` } }))).toMatch(new RegExp(`^${file}:${mistakeLine(source)}: \\(container\\)`));
  });

  it.each([
    ["ends after the closing ---", "---\ntitle: T\n---\n"],
    ["ends on the closing --- and its spaces", "---\ntitle: T\n--- "],
  ])("leaves an empty body when the file %s", (_name, source) => {
    const eleventy = readByEleventy(source, file);
    expect(eleventy.content.trim()).toBe("");
    expect(readContentFile(source, file).body).toBe(eleventy.content);
  });

  it("keeps no carriage return in the last field of a file with CRLF line ends", () => {
    expect(readByEleventy("---\r\ntitle: T\r\ndescription: D\r\n---\r\nText.\r\n", file).data).toEqual({ title: "T", description: "D" });
  });

  it("splits no fields from a file whose opening --- has text after it, which Eleventy's parser takes for a language name", () => {
    // The dev server's quick path would otherwise show a page whose file the build then refuses.
    const source = "--- # the post's fields\ntitle: T\n---\nText.\n";
    expect(() => readByEleventy(source, file)).toThrow(/engine "# the post's fields" is not registered/);
    expect(splitFrontMatter(source)).toBeUndefined();
  });

  it("forgets what a file said once its front matter is gone (the dev server reads files again)", () => {
    readByEleventy("---\ntitle: Before\n---\nText.\n", file);
    readByEleventy("---\n---\nText.\n", file);
    expect(writtenFrontMatter(file)).toEqual({});
  });
});

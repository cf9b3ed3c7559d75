import { describe, expect, it } from "vitest";
import { archiveByYear, Blog, paginate, postKind, readingMinutes, seriesIndex, tagIndex, tagTwins, type Post } from "../../src/blog.ts";
import { postSchema } from "../../src/schemas.ts";
import { tagSlug } from "../../src/tags.ts";
import { routes } from "../../src/urls.ts";
import { validate } from "../../src/validation.ts";
import { errorOf } from "../support/errors.ts";

const good = { title: "T", date: "2026-12-02T10:00:00+08:00", description: "D" };
let n = 0;
const post = (over: Partial<Post>): Post => {
  const slug = over.slug ?? `p${++n}`;
  const lang = over.lang ?? "en";
  return { title: "T", description: "D", date: new Date("2026-01-01T00:00:00Z"), tags: [], draft: false, minutes: 1, slug, key: slug, lang, url: routes.post(lang, slug), file: `posts/blog/${slug}.md`, item: {} as never, ...over } as Post;
};

describe("post front matter", () => {
  it("accepts a minimal post and normalises tags to lower-case slugs", () => {
    const data = validate(postSchema, { ...good, tags: ["RDMA", "LLM Serving", "存储"] }, "f.md");
    expect(data.tags).toEqual(["rdma", "llm-serving", "存储"]);
    expect(data.date.toISOString()).toBe("2026-12-02T02:00:00.000Z");
    expect(data.draft).toBe(false);
  });

  it.each([
    [{ description: "D", date: "2026-12-02" }, "posts/blog/x.md: title: is required"],
    [{ title: "T", description: "D" }, "posts/blog/x.md: date: is required"],
    [{ title: "T", date: "2026-12-02" }, "posts/blog/x.md: description: is required"],
    [{ ...good, date: "02/12/2026" }, "posts/blog/x.md: date: must be an ISO date"],
    [{ ...good, date: "2026-12" }, "posts/blog/x.md: date: must be an ISO date"],
    [{ ...good, date: "20261202" }, "posts/blog/x.md: date: must be an ISO date"],
    [{ ...good, date: "2026-13-45" }, "posts/blog/x.md: date: must be an ISO date"],
    [{ ...good, date: "2026-12-02T10:00:00" }, "posts/blog/x.md: date: must be an ISO date (2026-12-02) or date-time with offset"],
    [{ ...good, description: "x".repeat(201) }, "posts/blog/x.md: description: must be at most 200 characters"],
    [{ ...good, tags: "rdma" }, "posts/blog/x.md: tags: expected array"],
    [{ ...good, draft: "yes" }, "posts/blog/x.md: draft: expected boolean"],
    [{ ...good, categories: ["x"] }, "posts/blog/x.md: categories: unknown field"],
    [{ ...good, series: "S" }, "posts/blog/x.md: part: series and part go together"],
    [{ ...good, tags: ["RDMA", "rdma"] }, "posts/blog/x.md: tags: 'RDMA' and 'rdma' are the same tag"],
    [{ ...good, updated: "2026-01-01" }, "posts/blog/x.md: updated: must not be before date"],
  ])("rejects %j", (data, message) => {
    expect(errorOf(() => validate(postSchema, data, "posts/blog/x.md"))).toContain(message);
  });
});

describe("post files", () => {
  it("take posts from posts/blog and translations from posts/blog/<lang>, never deeper", () => {
    const entry = (file: string, slug: string) => postKind.entry(validate(postSchema, good, file), { url: "/u/", inputPath: file, fileSlug: slug, data: {} }, file);
    expect([entry("posts/blog/a.md", "a").lang, entry("posts/blog/zh/a.md", "a").lang, entry("posts/blog/b/index.md", "b").lang]).toEqual(["en", "zh", "en"]);
    expect(entry("posts/blog/zh/a.md", "a").key).toBe(entry("posts/blog/a.md", "a").key);
    expect(postKind.files).toContain("posts/blog/zh/*.md");
    expect(postKind.files.every((glob) => !glob.includes("**"))).toBe(true);
  });
});

describe("tags", () => {
  it("makes one slug of tags that differ in case, spacing or punctuation", () => {
    expect(tagSlug("LLM Serving")).toBe("llm-serving");
    expect(tagSlug(" llm-serving ")).toBe("llm-serving");
    expect(tagSlug("RoCE v2")).toBe("roce-v2");
  });

  it("keeps tags apart that differ only in + or #", () => {
    expect(new Set(["C", "C++", "C#"].map(tagSlug))).toEqual(new Set(["c", "c-plus-plus", "c-sharp"]));
  });

  it("indexes posts by tag, alphabetically, keeping the list's order within a tag", () => {
    const newer = post({ tags: ["rdma", "kv"] });
    const older = post({ tags: ["rdma"] });
    const index = tagIndex([newer, older]);
    expect([...index.keys()]).toEqual(["kv", "rdma"]);
    expect(index.get("rdma")).toEqual([newer, older]);
  });

  it("pairs a tag with its other-language twin: different names, the same translated posts", () => {
    // Three posts and their translations; "smart" has one name in both languages, so it is not a twin.
    const pairs = [
      [["rdma", "llm-serving", "kvcache"], ["rdma", "大模型推理", "kvcache"]],
      [["rdma", "disaggregated-memory", "smart"], ["rdma", "分离式内存", "smart"]],
      [["llm-serving"], ["大模型推理"]],
    ] as const;
    const en = new Set(["rdma", "llm-serving", "kvcache", "disaggregated-memory", "smart", "only-english"]);
    const zh = new Set(["rdma", "大模型推理", "kvcache", "分离式内存", "smart"]);
    expect(tagTwins(pairs, en, zh)).toEqual(new Map([["llm-serving", "大模型推理"], ["disaggregated-memory", "分离式内存"]]));
    expect(tagTwins(pairs.map(([a, b]) => [b, a] as const), zh, en)).toEqual(new Map([["大模型推理", "llm-serving"], ["分离式内存", "disaggregated-memory"]]));
  });

  it("pairs no tag where two of a language mark the same translated posts, or none do", () => {
    // "a" and "b" always go together: which of them is 甲 is a guess, so neither is anyone's twin.
    expect(tagTwins([[["a", "b"], ["甲", "乙"]]], new Set(["a", "b"]), new Set(["甲", "乙"]))).toEqual(new Map());
    expect(tagTwins([[["a"], ["甲", "乙"]]], new Set(["a"]), new Set(["甲", "乙"]))).toEqual(new Map());
    // Marking different translated posts: not twins.
    expect(tagTwins([[["a"], []], [[], ["甲"]]], new Set(["a"]), new Set(["甲"]))).toEqual(new Map());
    expect(tagTwins([], new Set(["a"]), new Set(["甲"]))).toEqual(new Map());
  });
});

describe("reading time", () => {
  it("counts English words at about 230 a minute, leaving out code", () => {
    const words = Array.from({ length: 920 }, () => "word").join(" ");
    expect(readingMinutes(words)).toBe(4);
    expect(readingMinutes(`${words}\n\n\`\`\`c\n${words}\n\`\`\`\n`)).toBe(4);
  });

  it("counts Chinese by characters, at about 400 a minute", () => {
    expect(readingMinutes("数".repeat(1200))).toBe(3);
    expect(readingMinutes("短")).toBe(1);
  });
});

describe("the blog index", () => {
  it("orders each language newest first and links neighbours within it", () => {
    const a = post({ date: new Date("2025-01-01") });
    const b = post({ date: new Date("2026-01-01") });
    const zh = post({ lang: "zh", date: new Date("2025-06-01") });
    const blog = new Blog([a, zh, b]);
    expect(blog.inLanguage("en")).toEqual([b, a]);
    expect(blog.inLanguage("zh")).toEqual([zh]);
    expect([b.previous, b.next, a.previous, a.next]).toEqual([a, undefined, undefined, b]);
    expect([zh.previous, zh.next]).toEqual([undefined, undefined]);
  });

  it("finds a post by address and its translation by key, and throws on a miss", () => {
    const en = post({ slug: "same" });
    const zh = post({ slug: "same", lang: "zh", file: "posts/blog/zh/same.md" });
    const blog = new Blog([en, zh]);
    expect(blog.byUrl("/zh/posts/same/")).toBe(zh);
    expect(blog.byKey("same", "en")).toBe(en);
    expect(blog.byFile("posts/blog/zh/same.md")).toBe(zh);
    expect(errorOf(() => blog.byUrl("/posts/none/"))).toBe("/posts/none/: no post has this address");
    expect(errorOf(() => blog.byFile("posts/blog/x/y.md", postKind.placement))).toMatch(/^posts\/blog\/x\/y\.md: \(file\): not a post: a post is posts\/blog\/<slug>\.md/);
    expect(errorOf(() => blog.byKey("other", "zh"))).toBe("post 'other': none in language 'zh'");
  });

  it("refuses two posts at one address", () => {
    expect(errorOf(() => new Blog([post({ slug: "same", file: "posts/blog/same.md" }), post({ slug: "same", file: "posts/blog/same/index.md" })]))).toBe(
      "posts/blog/same/index.md: (file): /posts/same/ is also the address of posts/blog/same.md",
    );
  });

  it("orders a series by part and refuses two posts claiming one part", () => {
    const two = post({ series: "S", part: 2 });
    const one = post({ series: "S", part: 1 });
    expect(seriesIndex([two, one]).get("S")!.posts).toEqual([one, two]);
    new Blog([two, one]);
    expect(two.inSeries?.posts).toEqual([one, two]);
    expect(() => seriesIndex([one, post({ series: "S", part: 1, file: "posts/blog/dup.md" })])).toThrow("posts/blog/dup.md: part: part 1 of series 'S' is also posts/blog/p");
  });

  it("has a first list page in every language, even one without posts", () => {
    const blog = new Blog([post({})]);
    expect(blog.listPages().map((p) => [p.lang, p.url, p.items.length])).toEqual([
      ["en", "/posts/", 1],
      ["zh", "/zh/posts/", 0],
    ]);
    expect(blog.feeds().map((f) => f.url)).toEqual(["/feed.xml", "/index.xml", "/feed.json", "/zh/feed.xml", "/zh/index.xml", "/zh/feed.json"]);
  });

  it("paginates ten to a page with previous and next links", () => {
    const pages = paginate(Array.from({ length: 21 }, (_, i) => i), 10, "en", (page) => routes.posts("en", page));
    expect(pages.map((p) => [p.url, p.items.length, p.previousUrl, p.nextUrl])).toEqual([
      ["/posts/", 10, undefined, "/posts/page/2/"],
      ["/posts/page/2/", 10, "/posts/", "/posts/page/3/"],
      ["/posts/page/3/", 1, "/posts/page/2/", undefined],
    ]);
  });

  it("groups the archive by year in the site's time zone", () => {
    const newYear = post({ date: new Date("2025-12-31T18:00:00Z") }); // 1 January 2026 in Beijing
    const archive = archiveByYear([newYear, post({ date: new Date("2025-06-01") })], "Asia/Shanghai");
    expect(archive.map((y) => [y.year, y.posts.length])).toEqual([[2026, 1], [2025, 1]]);
  });
});

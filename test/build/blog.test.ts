// The blog engine on a fixture: the project with generated posts instead of its own (enough to
// paginate, a series, a draft, translations), built as production. Asserts on the HTML and feeds it produces.
import { readFileSync, existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JSDOM } from "jsdom";
import sharp from "sharp";
import { build, smallProject } from "../support/eleventy.ts";
import { builtFiles } from "../support/site.ts";
import { startDevServer, waitForServer } from "../support/dev-server.ts";

let root: string;
let out: string;
const page = (url: string) => new JSDOM(readFileSync(path.join(out, url, "index.html"), "utf8")).window.document;
const text = (el: Element | null) => (el?.textContent ?? "").replace(/\s+/g, " ").trim();

const fixturePost = (slug: string, front: string, body = "Some text.\n") =>
  writeFile(path.join(root, "posts/blog", `${slug}.md`), `---\n${front}\n---\n${body}`);
const xml = (url: string) => new JSDOM(readFileSync(path.join(out, url), "utf8"), { contentType: "text/xml" }).window.document;

beforeAll(async () => {
  // The fixture posts alone (and one lesson, for the course every page links).
  root = await smallProject({ posts: [], lessons: ["posts/rdma101/01-getting-started/01-why-rdma.md"] });
  await mkdir(path.join(root, "posts/blog"), { recursive: true });
  for (let i = 1; i <= 12; i++) {
    const day = String(i).padStart(2, "0");
    await fixturePost(`fixture-${day}`, `title: Fixture ${day}\ndate: 2020-01-${day}\ndescription: Fixture post ${day}.\ntags: [Fixture, ${i % 2 ? "Odd" : "even"}]`);
  }
  await fixturePost("series-b", "title: Series B\ndate: 2020-02-02\ndescription: Second part.\nseries: Fixture series\npart: 2", "## One\n\n## Two\n\n## Three\n\n```c\nint main(void) { return 0; }\n```\n\nInline $a^2 + b^2$.\n");
  await sharp({ create: { width: 1200, height: 600, channels: 3, background: { r: 40, g: 90, b: 160 } } }).png().toFile(path.join(root, "posts/blog/photo.png"));
  await writeFile(path.join(root, "posts/blog/fixture-throughput.csv"), "threads,read,write\n8,20,16\n1,2.5,2\n");
  const chart = "```chart\ndata: fixture-throughput.csv\nx: threads\ny: [read, write]\ntitle: Fixture throughput\ncaption: Reads and writes by thread count.\n```\n";
  // Its translation's 存储 is this Storage: the two tags mark the same translated posts (and only these).
  await fixturePost("series-a", "title: Series A\ndate: 2020-02-01\ndescription: First part.\nseries: Fixture series\npart: 1\ntags: [Storage]", `## Only one heading\n\n![A blue rectangle](photo.png)\n\n![](photo.png "decorative")\n\n${chart}`);
  await fixturePost("secret-draft", "title: Secret draft\ndate: 2020-03-01\ndescription: Never published.\ntags: [draftonly]\ndraft: true");
  // Chinese: a translation of series-a (same slug under zh/), and a post only in Chinese.
  await mkdir(path.join(root, "posts/blog/zh"), { recursive: true });
  // It names the original's image and data file, which sit beside the original only.
  const zhChart = "```chart\ndata: fixture-throughput.csv\nx: threads\ny: [read, write]\nlegend:\n  read: 读\n  write: 写\ntitle: 吞吐量\nx-label: 线程数\ncaption: 按线程数统计的读与写。\n```\n";
  await fixturePost("zh/series-a", "title: 系列第一篇\ndate: 2020-02-01\ndescription: 第一部分。\ntags: [存储, Fixture]", `## 一节\n\n这是*强调*的中文。\n\n![一个蓝色矩形](photo.png)\n\n${zhChart}`);
  await fixturePost("zh/only-chinese", "title: 只有中文\ndate: 2020-02-05T09:00:00+08:00\ndescription: 只有中文的文章。", `${"字".repeat(800)}\n`);
  out = path.join(root, "_site");
  const result = await build({ cwd: root, outDir: out });
  if (result.code !== 0) throw new Error(result.output);
}, 120_000);
afterAll(() => rm(root, { recursive: true, force: true }));

describe("blog engine (fixture build)", () => {
  it("paginates the post list ten to a page, newest first, with accessible pagination", () => {
    const first = page("posts");
    const titles = [...first.querySelectorAll(".post-list-title")].map(text);
    expect(titles).toHaveLength(10);
    const nav = first.querySelector('nav.pagination[aria-label="Pages"]')!;
    expect(nav.querySelector('a[rel="next"]')?.getAttribute("href")).toBe("/posts/page/2/");
    const lastNumber = Number(text(nav.querySelector("span")).match(/of (\d+)/)![1]);
    const last = page(`posts/page/${lastNumber}`);
    expect([...last.querySelectorAll(".post-list-title")].map(text)).toContain("Fixture 01");
    expect(last.querySelector('.pagination a[rel="next"]')).toBeNull();
  });

  it("merges tags that differ in case and paginates tag pages", () => {
    const fixture = page("tags/fixture");
    expect(text(fixture.querySelector("h1"))).toBe("Posts tagged #fixture");
    // The count and the link to every tag are two items, set apart as the blog's own lede sets its links.
    expect(text(fixture.querySelector(".lede"))).toBe("12 posts · All tags");
    expect(text(page("zh/tags/fixture").querySelector(".lede"))).toBe("1 篇文章 · 全部标签");
    expect(fixture.querySelectorAll(".post-list > li")).toHaveLength(10);
    expect(page("tags/fixture/page/2").querySelectorAll(".post-list > li")).toHaveLength(2);
    expect(page("tags/odd").querySelectorAll(".post-list > li")).toHaveLength(6);
    expect([...page("tags").querySelectorAll(".tag-cloud a")].map(text)).toContain("#fixture");
  });

  it("groups the archives by year with counts", () => {
    const headings = [...page("archives").querySelectorAll("h2")].map(text);
    expect(headings).toContain("2020 (14 posts)");
  });

  it("links previous and next posts, and boxes a series with the current part marked", () => {
    const b = page("posts/series-b");
    const series = b.querySelector(".series-box")!;
    expect([...series.querySelectorAll("li a")].map(text)).toEqual(["Series A", "Series B"]);
    expect(text(series.querySelector('[aria-current="page"]'))).toBe("Series B");
    expect(b.querySelector('.pager a[rel="prev"]')?.getAttribute("href")).toBe("/posts/series-a/");
    expect(page("posts/fixture-12").querySelector('.pager a[rel="next"]')?.getAttribute("href")).toBe("/posts/series-a/");
  });

  it("lists every page of every paginated list in the sitemap", () => {
    const sitemap = readFileSync(path.join(out, "sitemap.xml"), "utf8");
    for (const url of ["/posts/page/2/", "/tags/fixture/", "/tags/fixture/page/2/", "/tags/odd/"]) expect(sitemap).toContain(`<loc>https://renfeng.org${url}</loc>`);
  });

  it("gives a table of contents only to posts with three or more headings", () => {
    expect([...page("posts/series-b").querySelectorAll(".toc a")].map((a) => a.getAttribute("href"))).toEqual(["#one", "#two", "#three"]);
    expect(page("posts/series-a").querySelector(".toc")).toBeNull();
  });

  it("renders code and math as static HTML, and links the math stylesheet only where math is", () => {
    const b = page("posts/series-b");
    expect(b.querySelector(".code-block .token.keyword")?.textContent).toBe("int");
    expect(b.querySelector(".katex math")).not.toBeNull();
    expect(b.querySelector('link[href^="/css/katex.css"]')).not.toBeNull();
    expect(page("posts/series-a").querySelector('link[href^="/css/katex.css"]')).toBeNull();
    const css = readFileSync(path.join(out, "css/katex.css"), "utf8");
    expect(css).toContain(".woff2");
    expect(css).not.toMatch(/\.woff\)|\.ttf\)/);
  });

  it("turns Markdown images into responsive pictures with dimensions, generated at build time", () => {
    const pictures = [...page("posts/series-a").querySelectorAll(".post-body picture")];
    expect(pictures).toHaveLength(2);
    const [informative, decorative] = pictures;
    expect([...informative!.querySelectorAll("source")].map((s) => s.getAttribute("type"))).toEqual(["image/avif", "image/webp"]);
    const img = informative!.querySelector("img")!;
    expect([img.getAttribute("alt"), img.getAttribute("width"), img.getAttribute("height"), img.getAttribute("loading")]).toEqual(["A blue rectangle", "960", "480", "lazy"]);
    expect(decorative!.querySelector("img")!.getAttribute("alt")).toBe("");
    for (const source of informative!.querySelectorAll("source")) {
      for (const candidate of source.getAttribute("srcset")!.split(", ")) expect(existsSync(path.join(out, candidate.split(" ")[0]!))).toBe(true);
    }
    expect(existsSync(path.join(out, img.getAttribute("src")!))).toBe(true);
  });

  it("draws a chart from its data file: a numbered figure, a named drawing, the numbers as a table, a copy for feeds", () => {
    const figure = page("posts/series-a").querySelector(".post-body figure.figure")!;
    expect(text(figure.querySelector("figcaption"))).toBe("Figure 1. Reads and writes by thread count.");
    const svg = figure.querySelector("svg")!;
    expect(svg.getAttribute("role")).toBe("img");
    // No alt in the directive: the text alternative is derived from the data.
    expect(svg.getAttribute("aria-label")).toBe("Line chart: Fixture throughput. read, write by threads. read: 2.5 at 1, 20 at 8; write: 2 at 1, 16 at 8.");
    expect(svg.querySelectorAll("polyline")).toHaveLength(2);
    const table = figure.nextElementSibling!;
    expect(table.matches("details.chart-data")).toBe(true);
    const rows = [...table.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map(text));
    expect(rows).toEqual([
      ["1", "2.5", "2"],
      ["8", "20", "16"],
    ]);
    const copy = readFileSync(path.join(out, svg.getAttribute("data-file")!), "utf8");
    expect(copy).toMatch(/^<\?xml[^>]*>\n<svg width="720" height="\d+" xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  });

  it("shows drafts on `npm start`, and an edit to one post reaches every page that shows it", async () => {
    const port = 19_000 + Math.floor(Math.random() * 1000);
    const server = startDevServer("npm", ["start", "--", `--port=${port}`, "--output=_dev"], root);
    const fetchText = async (url: string) => (await fetch(`http://127.0.0.1:${port}${url}`)).text();
    try {
      const draft = await waitForServer(`http://127.0.0.1:${port}/posts/secret-draft/`, server);
      expect(draft.status, server.output()).toBe(200);
      expect(await draft.text()).toContain("Draft");

      await fixturePost("series-b", "title: Series B renamed\ndate: 2020-02-02\ndescription: Second part.\nseries: Fixture series\npart: 2");
      // Pages built from other files (lists, neighbours, series boxes) must not keep the old title.
      await expect.poll(() => fetchText("/archives/"), { timeout: 60_000, interval: 500 }).toContain("Series B renamed");
      const neighbour = await fetchText("/posts/series-a/");
      expect(neighbour.match(/<nav class="series-box[\s\S]*?<\/nav>/)?.[0], "series box").toContain("Series B renamed");
      expect(neighbour.match(/<nav class="pager[\s\S]*?<\/nav>/)?.[0], "next-post link").toContain("Series B renamed");
    } finally {
      server.stop();
    }
  }, 150_000);

  it("keeps each language's lists, tags and neighbours to its own posts", () => {
    const zhTitles = [...page("zh/posts").querySelectorAll(".post-list-title")].map(text);
    expect(zhTitles).toEqual(["只有中文", "系列第一篇"]);
    expect([...page("posts").querySelectorAll(".post-list-title")].map(text)).not.toContain("只有中文");
    expect([...page("zh/tags").querySelectorAll(".tag-cloud a")].map(text)).toEqual(["#fixture", "#存储"]);
    // Post counts in full-width parentheses, with no space before them, as the archive's year count.
    expect([...page("zh/tags").querySelectorAll(".tag-cloud li")].map(text)).toEqual(["#fixture（1）", "#存储（1）"]);
    expect(page("zh/tags/fixture").querySelectorAll(".post-list > li")).toHaveLength(1);
    expect(page("zh/posts/only-chinese").querySelector('.pager a[rel="prev"]')?.getAttribute("href")).toBe("/zh/posts/series-a/");
    expect([...page("zh/archives").querySelectorAll("h2")].map(text)).toEqual(["2020（2 篇文章）"]);
  });

  it("writes the Chinese list's lede with Chinese punctuation: no space after its full-width colon", () => {
    expect(text(page("zh/posts").querySelector(".lede"))).toMatch(/：标签 · 归档 · 订阅$/);
  });

  it("lets a translation show its original's images and charts, in its own words", () => {
    const en = page("posts/series-a").querySelector(".post-body")!;
    const zh = page("zh/posts/series-a").querySelector(".post-body")!;
    expect(zh.querySelector("picture img")?.getAttribute("alt")).toBe("一个蓝色矩形");
    expect(zh.querySelector("picture img")?.getAttribute("src")).toBe(en.querySelector("picture img")?.getAttribute("src"));
    const figure = zh.querySelector("figure.figure")!;
    expect(text(figure.querySelector("figcaption"))).toBe("图 1 按线程数统计的读与写。");
    expect(figure.querySelector("svg")!.getAttribute("aria-label")).toMatch(/^折线图：吞吐量。/);
    const rows = (root: Element) => [...root.querySelectorAll(".chart-data tbody tr")].map((tr) => [...tr.children].map(text));
    expect(rows(zh)).toEqual(rows(en));
    expect([...zh.querySelectorAll(".chart-data thead th")].map(text)).toEqual(["线程数", "读", "写"]);
  });

  it("gives a Chinese post its language: lang, dates, reading time by characters, labels", () => {
    const doc = page("zh/posts/only-chinese");
    expect(doc.documentElement.lang).toBe("zh-CN");
    expect(text(doc.querySelector(".post-meta"))).toBe("2020年2月5日 · 阅读约 2 分钟");
    expect(text(doc.querySelector(".skip-link"))).toBe("跳到正文");
  });

  it("links a post and its translation both ways: hreflang in the head and the sitemap, and the language switch", () => {
    const alternates = (url: string) =>
      Object.fromEntries([...page(url).querySelectorAll('link[rel="alternate"][hreflang]')].map((l) => [l.getAttribute("hreflang"), l.getAttribute("href")]));
    const pair = { en: "https://renfeng.org/posts/series-a/", "zh-CN": "https://renfeng.org/zh/posts/series-a/", "x-default": "https://renfeng.org/posts/series-a/" };
    expect(alternates("posts/series-a")).toEqual(pair);
    expect(alternates("zh/posts/series-a")).toEqual(pair);
    expect(alternates("zh/posts/only-chinese")).toEqual({ "zh-CN": "https://renfeng.org/zh/posts/only-chinese/", "x-default": "https://renfeng.org/zh/posts/only-chinese/" });
    const sitemap = xml("sitemap.xml");
    const entry = [...sitemap.querySelectorAll("url")].find((u) => u.querySelector("loc")!.textContent === pair["zh-CN"])!;
    const links = Object.fromEntries([...entry.getElementsByTagNameNS("http://www.w3.org/1999/xhtml", "link")].map((l) => [l.getAttribute("hreflang"), l.getAttribute("href")]));
    expect(links).toEqual(pair);
    const switchOf = (url: string) => page(url).querySelector(".language-switch")?.getAttribute("href");
    expect(switchOf("posts/series-a")).toBe("/zh/posts/series-a/");
    expect(switchOf("zh/posts/series-a")).toBe("/posts/series-a/");
    // No translation: the other language's blog.
    expect(switchOf("posts/fixture-01")).toBe("/zh/posts/");
    expect(switchOf("zh/posts/only-chinese")).toBe("/posts/");
  });

  it("links a tag and its twin under another name both ways, as translations: hreflang, the sitemap, the language switch", () => {
    const pair = { en: "https://renfeng.org/tags/storage/", "zh-CN": "https://renfeng.org/zh/tags/存储/", "x-default": "https://renfeng.org/tags/storage/" };
    const alternates = (url: string) =>
      Object.fromEntries([...page(url).querySelectorAll('link[rel="alternate"][hreflang]')].map((l) => [l.getAttribute("hreflang"), l.getAttribute("href")]));
    expect(alternates("tags/storage")).toEqual(pair);
    expect(alternates("zh/tags/存储")).toEqual(pair);
    const entry = [...xml("sitemap.xml").querySelectorAll("url")].find((u) => u.querySelector("loc")!.textContent === "https://renfeng.org/tags/storage/")!;
    expect(entry.getElementsByTagNameNS("http://www.w3.org/1999/xhtml", "link")).toHaveLength(3);
    const switchOf = (url: string) => page(url).querySelector(".language-switch")?.getAttribute("href");
    expect(switchOf("tags/storage")).toBe("/zh/tags/存储/");
    expect(switchOf("zh/tags/存储")).toBe("/tags/storage/");
    // A tag with no twin (Odd is on no translated post) still leads to the other language's blog.
    expect(switchOf("tags/odd")).toBe("/zh/posts/");
  });

  it("keeps the default feeds English and gives Chinese posts feeds of their own", () => {
    const entries = (url: string) => [...xml(url).querySelectorAll("entry > title")].map((e) => e.textContent);
    expect(entries("feed.xml")).not.toContain("只有中文");
    expect(entries("zh/feed.xml")).toEqual(["只有中文", "系列第一篇"]);
    expect(xml("zh/feed.xml").documentElement.getAttribute("xml:lang")).toBe("zh-CN");
    expect(xml("zh/index.xml").querySelector("channel > language")?.textContent).toBe("zh-CN");
    expect(JSON.parse(readFileSync(path.join(out, "zh/feed.json"), "utf8")).items.map((i: { title: string }) => i.title)).toEqual(["只有中文", "系列第一篇"]);
  });

  it("never lets a draft into a production build", async () => {
    expect(existsSync(path.join(out, "posts/secret-draft"))).toBe(false);
    expect(existsSync(path.join(out, "tags/draftonly"))).toBe(false);
    const leaks = (await builtFiles(out)).filter((f) => /\.(html|xml|json|txt)$/.test(f) && readFileSync(f, "utf8").includes("Secret draft"));
    expect(leaks).toEqual([]);
  });
});

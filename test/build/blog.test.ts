// The blog engine on a fixture: the real project plus generated posts (enough to paginate, a
// series, a draft), built as production. Asserts on the HTML and feeds it produces.
import { readFileSync, existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JSDOM } from "jsdom";
import sharp from "sharp";
import { build, copyProject } from "../support/eleventy.ts";
import { builtFiles } from "../support/site.ts";
import { startDevServer, waitForServer } from "../support/dev-server.ts";

let root: string;
let out: string;
const page = (url: string) => new JSDOM(readFileSync(path.join(out, url, "index.html"), "utf8")).window.document;
const text = (el: Element | null) => (el?.textContent ?? "").replace(/\s+/g, " ").trim();

const fixturePost = (slug: string, front: string, body = "Some text.\n") =>
  writeFile(path.join(root, "posts/blog", `${slug}.md`), `---\n${front}\n---\n${body}`);

beforeAll(async () => {
  root = await copyProject();
  await mkdir(path.join(root, "posts/blog"), { recursive: true });
  for (let i = 1; i <= 12; i++) {
    const day = String(i).padStart(2, "0");
    await fixturePost(`fixture-${day}`, `title: Fixture ${day}\ndate: 2020-01-${day}\ndescription: Fixture post ${day}.\ntags: [Fixture, ${i % 2 ? "Odd" : "even"}]`);
  }
  await fixturePost("series-b", "title: Series B\ndate: 2020-02-02\ndescription: Second part.\nseries: Fixture series\npart: 2", "## One\n\n## Two\n\n## Three\n\n```c\nint main(void) { return 0; }\n```\n\nInline $a^2 + b^2$.\n");
  await sharp({ create: { width: 1200, height: 600, channels: 3, background: { r: 40, g: 90, b: 160 } } }).png().toFile(path.join(root, "posts/blog/photo.png"));
  await writeFile(path.join(root, "posts/blog/fixture-throughput.csv"), "threads,read,write\n8,20,16\n1,2.5,2\n");
  const chart = "```chart\ndata: fixture-throughput.csv\nx: threads\ny: [read, write]\ntitle: Fixture throughput\ncaption: Reads and writes by thread count.\n```\n";
  await fixturePost("series-a", "title: Series A\ndate: 2020-02-01\ndescription: First part.\nseries: Fixture series\npart: 1", `## Only one heading\n\n![A blue rectangle](photo.png)\n\n![](photo.png "decorative")\n\n${chart}`);
  await fixturePost("secret-draft", "title: Secret draft\ndate: 2020-03-01\ndescription: Never published.\ntags: [draftonly]\ndraft: true");
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

  it("never lets a draft into a production build", async () => {
    expect(existsSync(path.join(out, "posts/secret-draft"))).toBe(false);
    expect(existsSync(path.join(out, "tags/draftonly"))).toBe(false);
    const leaks = (await builtFiles(out)).filter((f) => /\.(html|xml|json|txt)$/.test(f) && readFileSync(f, "utf8").includes("Secret draft"));
    expect(leaks).toEqual([]);
  });
});

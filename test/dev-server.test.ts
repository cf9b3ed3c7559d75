// `npm start` builds the site and serves it with live reload on 127.0.0.1 only; after every change
// it serves exactly the new build (edited pages, their neighbours, lists, tags and feeds; no page of
// a deleted post), and a failed build shows its error over the page until the file is fixed.
import { readFile, rm, unlink, writeFile } from "node:fs/promises";
import { networkInterfaces } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launch, watch } from "./support/browser.ts";
import { startDevServer, waitForServer, type DevServer } from "./support/dev-server.ts";
import { smallProject } from "./support/eleventy.ts";

const port = () => 18_080 + Math.floor(Math.random() * 1000);

describe("dev server", () => {
  it("serves the built homepage on 127.0.0.1 and not on other interfaces", async () => {
    const PORT = port();
    const server = startDevServer("npm", ["start", "--", `--port=${PORT}`]);
    try {
      const response = await waitForServer(`http://127.0.0.1:${PORT}/`, server);
      expect(response.status, server.output()).toBe(200);
      expect(await response.text()).toContain("Feng Ren");
      // Live reload: the dev server serves the client it injects into pages.
      expect((await fetch(`http://127.0.0.1:${PORT}/.11ty/reload-client.js`)).status).toBe(200);
      const external = Object.values(networkInterfaces()).flat().find((a) => a && a.family === "IPv4" && !a.internal);
      if (external) await expect(fetch(`http://${external.address}:${PORT}/`), "reachable from another interface").rejects.toThrow();
    } finally {
      server.stop();
    }
  }, 120_000);
});

describe("the writing loop", () => {
  // Three posts of this test's own, a day apart and sharing a tag: b's neighbours are a and c.
  const post = (title: string, day: number) => `---\ntitle: ${title}\ndate: 2020-01-0${day}\ndescription: Post ${title}.\ntags: [writing-loop]\n---\nText of ${title}.\n`;
  let dir: string;
  let server: DevServer;
  let base: string;
  const file = (slug: string) => path.join(dir, `posts/blog/${slug}.md`);
  const get = async (url: string) => {
    const response = await fetch(`${base}${url}`);
    return { status: response.status, text: await response.text(), quick: response.headers.has("x-quick-page") };
  };
  /** Polls until `url` satisfies `ready` (the rebuild is done), then returns its page. */
  async function until(url: string, ready: (page: { status: number; text: string }) => boolean) {
    for (let i = 0; i < 240; i++) {
      const page = await get(url);
      if (ready(page)) return page;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`${url} never became ready; the server printed:\n${server.output()}`);
  }

  beforeAll(async () => {
    dir = await smallProject({ posts: [], lessons: ["posts/rdma101/01-getting-started/01-why-rdma.md", "posts/rdma101/01-getting-started/02-landscape.md"] });
    await Promise.all([writeFile(file("loop-a"), post("Loop A", 1)), writeFile(file("loop-b"), post("Loop B", 2)), writeFile(file("loop-c"), post("Loop C", 3))]);
    const PORT = port();
    base = `http://127.0.0.1:${PORT}`;
    server = startDevServer("npm", ["start", "--", `--port=${PORT}`], dir);
    expect((await waitForServer(`${base}/posts/loop-b/`, server)).status, server.output()).toBe(200);
  }, 180_000);
  afterAll(async () => {
    server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** How many quick pages of a post (by slug) or other file the server has shown. */
  const shownCount = (slug: string) => server.output().split(`${slug.includes("/") ? slug : `posts/blog/${slug}.md`}: shown in`).length - 1;
  /**
   * The page, asked for as soon as the server says it showed a quick page of it: served from memory
   * (a small site's rebuild takes far longer than this takes to ask).
   */
  async function quickPage(slug: string, shown: number, url = `/posts/${slug}/`) {
    for (let i = 0; i < 6000 && shownCount(slug) === shown; i++) await new Promise((r) => setTimeout(r, 10));
    const page = await get(url);
    expect(page.quick, "the quick page, before the rebuild").toBe(true);
    return page;
  }

  it("shows an edited title on the post before the rebuild, as the rebuild writes it, then on its neighbours, the list, the tag page and the feeds", async () => {
    const shown = shownCount("loop-b");
    await writeFile(file("loop-b"), post("Loop B renamed", 2));
    const quick = await quickPage("loop-b", shown);
    expect(quick.text).toContain("<h1>Loop B renamed</h1>");
    // The neighbours wait for the rebuild: once they show it, the rebuild is done.
    for (const url of ["/posts/loop-a/", "/posts/loop-c/", "/posts/", "/tags/writing-loop/", "/feed.xml", "/index.xml", "/feed.json"]) {
      expect((await get(url)).text, url).toContain("Loop B renamed");
    }
    expect(shownCount("loop-b"), "the fast path showed it").toBe(shown + 1);
    expect((await get("/posts/loop-b/")).text).toBe(quick.text);
  }, 120_000);

  it("shows a lesson with a new title at once, as the rebuild writes it, in its own sidebar too; then in the next lesson's pager", async () => {
    const lesson = "posts/rdma101/01-getting-started/01-why-rdma.md";
    const source = await readFile(path.join(dir, lesson), "utf8");
    const shown = shownCount(lesson);
    await writeFile(path.join(dir, lesson), source.replace(/^title: .*$/m, "title: Why RDMA, renamed"));
    const quick = await quickPage(lesson, shown, "/rdma101/getting-started/why-rdma/");
    expect(quick.text).toContain("<h1>Why RDMA, renamed</h1>");
    expect(quick.text).toMatch(/aria-current="page"><span class="lesson-number">1\.1<\/span> Why RDMA, renamed</);
    expect((await get("/rdma101/getting-started/landscape/")).text).toMatch(/rel="prev"[^>]*>.*Why RDMA, renamed/);
    const rebuilt = await get("/rdma101/getting-started/why-rdma/");
    expect(rebuilt.quick).toBe(false);
    expect(rebuilt.text).toBe(quick.text);
  }, 120_000);

  it("shows a post with a new date at once, between its new neighbours, as the rebuild does", async () => {
    const shown = shownCount("loop-b");
    // Now the newest post: no newer neighbour, and Loop C the older one.
    await writeFile(file("loop-b"), post("Loop B renamed", 4));
    const quick = await quickPage("loop-b", shown);
    expect(quick.text).toContain('datetime="2020-01-04');
    expect(quick.text).toMatch(/rel="prev" href="\/posts\/loop-c\/"/);
    expect(quick.text).not.toContain('rel="next"');
    expect((await get("/posts/loop-c/")).text).toMatch(/rel="next" href="\/posts\/loop-b\/"/);
    expect(shownCount("loop-b"), "the fast path showed it").toBe(shown + 1);
    expect((await get("/posts/loop-b/")).text).toBe(quick.text);
    await writeFile(file("loop-b"), post("Loop B renamed", 2));
    await until("/posts/loop-c/", (page) => !page.text.includes('rel="next" href="/posts/loop-b/"'));
  }, 120_000);

  it("shows a saved body before the rebuild, as the rebuild writes it, and serves nothing staler meanwhile", async () => {
    // With the post's first formula: the page now needs the math stylesheet too.
    const edited = `${post("Loop B renamed", 2)}\nA paragraph saved just now, with $x^2$.\n`;
    await writeFile(file("loop-b"), edited);
    // Served from memory by the fast path (src/quick-edit.ts), then from the rebuilt site.
    const quick = await until("/posts/loop-b/", (page) => page.text.includes("A paragraph saved just now"));
    // The feed carries the body too: it waits for the rebuild rather than answer with the old one.
    expect((await get("/feed.xml")).text).toContain("A paragraph saved just now");
    expect(server.output()).toMatch(/posts\/blog\/loop-b\.md: shown in \d+ ms, before the rebuild/);
    expect(quick.text).toContain('class="katex"');
    expect((await get("/posts/loop-b/")).text).toBe(quick.text);
  }, 120_000);

  it("shows a body that changes the post's reading time with the new time at once, and in the list after the rebuild", async () => {
    const shown = shownCount("loop-b");
    const long = `${post("Loop B renamed", 2)}\n${"A sentence of eight words to lengthen the post. ".repeat(60)}\n`;
    await writeFile(file("loop-b"), long);
    const quick = await quickPage("loop-b", shown);
    expect(quick.text).toContain("2 min read");
    expect((await get("/posts/")).text).toContain("2 min read");
    expect(shownCount("loop-b"), "the fast path showed it").toBe(shown + 1);
    expect((await get("/posts/loop-b/")).text).toBe(quick.text);
  }, 120_000);

  it("drops a deleted post's page, and it leaves the list, the tag page, the feeds and its neighbour", async () => {
    await unlink(file("loop-c"));
    await until("/posts/loop-c/", (page) => page.status === 404);
    for (const url of ["/posts/", "/tags/writing-loop/", "/feed.xml", "/posts/loop-b/"]) {
      const page = await get(url);
      expect(page.status, url).toBe(200);
      expect(page.text, url).not.toContain("Loop C");
    }
  }, 120_000);

  it("puts a saved body into the open page without reloading it; shows a failed build's error over the page, and the fixed page once the file is fixed", async () => {
    const browser = await launch();
    try {
      const page = await browser.newPage();
      const problems = watch(page, base);
      await page.goto(`${base}/posts/loop-a/`);
      // Let the page's live-reload connections open before the change.
      await page.waitForLoadState("networkidle");
      const shown = shownCount("loop-a");
      await page.evaluate(() => Object.assign(window, { notReloaded: true }));
      await writeFile(file("loop-a"), `${post("Loop A", 1)}\nPushed to the page.\n`);
      await page.getByText("Pushed to the page.").waitFor({ timeout: 60_000 });
      await expect(page.evaluate(() => "notReloaded" in window)).resolves.toBe(true);
      expect(shownCount("loop-a"), "the fast path showed it").toBe(shown + 1);
      // A new title changes the page's structured data (a script) too, and Eleventy's client reloads
      // a page whose scripts change: not before the rebuild is written (the reload would wait for it).
      const written = () => server.output().split(" Wrote ").length;
      await until("/feed.xml", (feed) => feed.text.includes("Pushed to the page."));
      const wroteBefore = written();
      const earlyReloads: string[] = [];
      page.on("console", (message) => {
        if (/reload initiated/.test(message.text()) && written() === wroteBefore) earlyReloads.push(message.text());
      });
      const reloaded = page.waitForEvent("load", { timeout: 60_000 });
      await writeFile(file("loop-a"), `${post("Loop A retitled", 1)}\nPushed to the page.\n`);
      await page.getByRole("heading", { level: 1, name: "Loop A retitled" }).waitFor({ timeout: 60_000 });
      await until("/posts/loop-b/", (other) => other.text.includes("Loop A retitled"));
      expect(earlyReloads).toEqual([]);
      // The rebuild's own push brings the new structured data, and with it the reload: let it settle.
      await reloaded;
      await page.waitForLoadState("networkidle");
      await writeFile(file("loop-a"), post("Loop A", 1).replace("date: 2020-01-01", "date: 2020-13-01"));
      const dialog = page.getByRole("dialog");
      await dialog.waitFor({ state: "visible", timeout: 60_000 });
      await expect(dialog.textContent()).resolves.toMatch(/posts\/blog\/loop-a\.md: date: must be an ISO date/);
      await writeFile(file("loop-a"), post("Loop A fixed", 1));
      await page.getByRole("heading", { level: 1, name: "Loop A fixed" }).waitFor({ timeout: 60_000 });
      await expect(dialog.count()).resolves.toBe(0);
      // The overlay is the site's own script: no request leaves the dev server.
      expect(problems.filter((p) => p.startsWith("third-party"))).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 180_000);
});

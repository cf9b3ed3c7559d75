// The blog's feeds as subscribers' readers see them: valid structure, absolute URLs, full content.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { JSDOM } from "jsdom";
import { fileFor, loadPage, pageUrls } from "../support/site.ts";

const BASE = "https://renfeng.org";
const xml = (url: string) => new JSDOM(readFileSync(fileFor(url), "utf8"), { contentType: "text/xml" }).window.document;
const postUrls = () => [...loadPage("/archives/").querySelectorAll(".archive-list a")].map((a) => a.getAttribute("href")!);
const resolves = (absolute: string) => absolute.startsWith(`${BASE}/`) && existsSync(fileFor(absolute.slice(BASE.length)));
const relativeRefs = (html: string) => [...html.matchAll(/\s(?:href|src)="(\/[^"]*)"/g)].map((m) => m[1]);
/** What only the site's scripts or CSS hide or reveal: in a reader it would show as stray words or dead controls. */
const SITE_ONLY = "script, style, button, [hidden], .visually-hidden, .print-only";

describe("feeds", () => {
  /** Atom's required elements, exactly the entries expected (in order), and each entry's full content. */
  function checkAtom(feedUrl: string, pageUrls: string[], body: string) {
    const doc = xml(feedUrl);
    expect(doc.documentElement.namespaceURI).toBe("http://www.w3.org/2005/Atom");
    for (const selector of ["feed > title", "feed > id", "feed > updated", "feed > author > name", 'feed > link[rel="self"]']) {
      expect(doc.querySelector(selector), `${feedUrl}: ${selector}`).not.toBeNull();
    }
    const entries = [...doc.querySelectorAll("entry")];
    expect(entries.map((e) => e.querySelector(":scope > link")!.getAttribute("href"))).toEqual(pageUrls.map((u) => `${BASE}${u}`));
    for (const entry of entries) {
      for (const tag of ["title", "id", "updated", "published", "link", "content", "summary"]) {
        expect(entry.querySelector(`:scope > ${tag}`)?.textContent || entry.querySelector(`:scope > ${tag}`)?.getAttribute("href"), `${feedUrl}: ${tag}`).toBeTruthy();
      }
      const link = entry.querySelector(":scope > link")!.getAttribute("href")!;
      expect(resolves(link), link).toBe(true);
      const content = entry.querySelector(":scope > content")!.textContent!;
      expect(relativeRefs(content)).toEqual([]);
      const shown = new JSDOM(content).window.document;
      expect([...shown.querySelectorAll(SITE_ONLY)].map((el) => el.outerHTML), link).toEqual([]);
      const page = loadPage(link.slice(BASE.length));
      expect(content).toContain(page.querySelector(`${body} h2`)!.id);
      const lastParagraph = [...page.querySelectorAll(`${body} > p`)].at(-1)!.textContent!.trim().slice(-40);
      expect(shown.body.textContent, link).toContain(lastParagraph);
      // Dated as the page is: published on its day, updated on the day its `updated:` names (else published), with an offset.
      const dates = [...page.querySelectorAll('script[type="application/ld+json"]')].map((s) => JSON.parse(s.textContent!) as { datePublished?: string; dateModified?: string }).find((d) => d.datePublished)!;
      const [published, updated] = ["published", "updated"].map((tag) => entry.querySelector(`:scope > ${tag}`)!.textContent!);
      for (const date of [published, updated]) expect(date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);
      expect([published!.slice(0, 10), updated!.slice(0, 10)], link).toEqual([dates.datePublished!.slice(0, 10), (dates.dateModified ?? dates.datePublished)!.slice(0, 10)]);
    }
    // The feed's own date is its newest entry's.
    const newest = Math.max(...entries.map((e) => Date.parse(e.querySelector(":scope > updated")!.textContent!)));
    expect(Date.parse(doc.querySelector("feed > updated")!.textContent!)).toBe(newest);
  }

  it("Atom: required elements, absolute links that resolve, full content", () => {
    // The blog's newest posts; the course's feed carries every lesson.
    checkAtom("/feed.xml", postUrls().slice(0, 20), ".post-body");
  });

  it("every language has Atom, RSS and JSON feeds of its own posts, valid even before it has any", () => {
    for (const [prefix, lang] of [["/", "en"], ["/zh/", "zh-CN"]] as const) {
      const posts = [...loadPage(`${prefix}archives/`).querySelectorAll(".archive-list a")].map((a) => a.getAttribute("href")!);
      const atom = xml(`${prefix}feed.xml`);
      expect(atom.documentElement.getAttribute("xml:lang")).toBe(lang);
      for (const selector of ["feed > title", "feed > id", "feed > updated", "feed > author > name", 'feed > link[rel="self"]']) expect(atom.querySelector(selector)?.textContent || atom.querySelector(selector)?.getAttribute("href"), selector).toBeTruthy();
      expect([...atom.querySelectorAll("entry > link")].map((l) => l.getAttribute("href")!.slice(BASE.length))).toEqual(posts.slice(0, 20));
      expect(xml(`${prefix}index.xml`).querySelectorAll("item")).toHaveLength(Math.min(20, posts.length));
      expect(JSON.parse(readFileSync(fileFor(`${prefix}feed.json`), "utf8")).items).toHaveLength(Math.min(20, posts.length));
    }
  });

  it("the course's Atom feed: every lesson, in full", () => {
    const lessons = [...loadPage("/rdma101/").querySelectorAll(".syllabus-lessons a")].map((a) => a.getAttribute("href")!);
    expect(lessons.length).toBeGreaterThan(0);
    checkAtom("/rdma101/feed.xml", lessons, ".lesson-body");
  });

  it("RSS 2.0 at the old address: channel and items with absolute links", () => {
    const doc = xml("/index.xml");
    expect(doc.documentElement.getAttribute("version")).toBe("2.0");
    for (const selector of ["channel > title", "channel > link", "channel > description"]) expect(doc.querySelector(selector), selector).not.toBeNull();
    const items = [...doc.querySelectorAll("item")];
    expect(items.length).toBe(Math.min(20, postUrls().length));
    for (const item of items) {
      expect(resolves(item.querySelector("link")!.textContent!)).toBe(true);
      expect(item.querySelector("pubDate")!.textContent).toMatch(/^\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d [+-]\d{4}$/);
      expect(relativeRefs(item.querySelector("description")!.textContent!)).toEqual([]);
    }
  });

  it("JSON Feed 1.1: required fields, absolute URLs, full HTML", () => {
    const feed = JSON.parse(readFileSync(fileFor("/feed.json"), "utf8"));
    expect(feed.version).toBe("https://jsonfeed.org/version/1.1");
    expect(feed.title).toBeTruthy();
    expect(feed.items.length).toBe(Math.min(20, postUrls().length));
    for (const item of feed.items) {
      expect(item.id).toBe(item.url);
      expect(resolves(item.url)).toBe(true);
      expect(item.content_html.length).toBeGreaterThan(500);
      expect(relativeRefs(item.content_html)).toEqual([]);
      expect(new Date(item.date_published).toString()).not.toBe("Invalid Date");
    }
  });

  it("content reads without the site's CSS and scripts: MathML only, no buttons, figures as image files", () => {
    const items = JSON.parse(readFileSync(fileFor("/feed.json"), "utf8")).items as { url: string; content_html: string }[];
    const all = items.map((i) => i.content_html).join("\n");
    expect(all).toContain("<math");
    expect(all).not.toContain("katex-html");
    expect(all).not.toContain("<button");
    expect(all).not.toContain('class="token');
    // Figures: an image of a published, self-contained SVG with the figure's text alternative.
    expect(all).not.toContain("<svg");
    const figures = [...all.matchAll(/<img src="([^"]+\.svg)" alt="([^"]*)">/g)];
    expect(figures.length).toBeGreaterThan(0);
    for (const [, src, alt] of figures) {
      expect(resolves(src!), src).toBe(true);
      expect(alt!.length, src).toBeGreaterThan(20);
      const svg = readFileSync(fileFor(src!.slice(BASE.length)), "utf8");
      expect(svg, src).toMatch(/^<\?xml[^>]*>\n<svg width="\d+" height="\d+" xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(svg.match(/<[a-z]+ [^>]*class="soft"[^>]*>/g)?.filter((tag) => !tag.includes(" fill=")) ?? [], src).toEqual([]);
    }
    // Nothing else was cut: each item keeps the text of its post.
    for (const item of items) {
      const page = loadPage(item.url.slice(BASE.length));
      const lastParagraph = [...page.querySelectorAll(".post-body > p")].at(-1)!.textContent!.trim().slice(-40);
      expect(new JSDOM(item.content_html).window.document.body.textContent, item.url).toContain(lastParagraph);
    }
    for (const rssItem of xml("/index.xml").querySelectorAll("item")) {
      expect(rssItem.getElementsByTagNameNS("http://www.w3.org/2005/Atom", "updated")[0]?.textContent).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
  });

  it("every page offers the feeds for autodiscovery; sitemap and robots point the way", async () => {
    const feedsOf = (url: string) => [...loadPage(url).querySelectorAll('link[rel="alternate"][type]')].map((l) => l.getAttribute("href"));
    for (const url of ["/", "/posts/", postUrls()[0]!, "/subscribe/"]) expect(feedsOf(url)).toEqual(["/feed.xml", "/index.xml", "/feed.json"]);
    for (const url of ["/zh/", "/zh/posts/", "/zh/subscribe/"]) expect(feedsOf(url)).toEqual(["/zh/feed.xml", "/zh/index.xml", "/zh/feed.json"]);
    // Named with the format in the page's own punctuation: "Feng Ren (Atom)", "任峰（Atom）".
    const titlesOf = (url: string) => [...loadPage(url).querySelectorAll('link[rel="alternate"][type]')].map((l) => l.getAttribute("title"));
    expect(titlesOf("/")[0]).toBe("Feng Ren (Atom)");
    expect(titlesOf("/zh/")).toEqual(["任峰（Atom）", "任峰（RSS）", "任峰（JSON Feed）"]);
    // Course pages offer the course's own feed as well.
    for (const url of ["/rdma101/", "/rdma101/glossary/"]) expect(feedsOf(url)).toEqual(["/feed.xml", "/index.xml", "/feed.json", "/rdma101/feed.xml"]);
    // The subscribe page, linked from every footer, names every feed by its full address.
    const subscribe = loadPage("/subscribe/");
    expect(loadPage("/").querySelector('.site-footer a[href="/subscribe/"]')).not.toBeNull();
    for (const feed of ["/feed.xml", "/index.xml", "/feed.json", "/rdma101/feed.xml"]) expect(subscribe.querySelector(`a[href="${feed}"]`)?.textContent).toBe(`${BASE}${feed}`);
    // Each language punctuates a feed's label its own way: "Atom: https://…", "Atom：https://…".
    const lines = (url: string) => [...loadPage(url).querySelectorAll("main li")].map((li) => li.textContent!.replace(/\s+/g, " ").trim());
    expect(lines("/subscribe/")).toContain(`Atom: ${BASE}/feed.xml`);
    expect(lines("/zh/subscribe/")).toEqual([`Atom：${BASE}/zh/feed.xml`, `RSS：${BASE}/zh/index.xml`, `JSON Feed：${BASE}/zh/feed.json`, `Atom：${BASE}/rdma101/feed.xml`]);
    const locs = [...xml("/sitemap.xml").querySelectorAll("loc")].map((l) => l.textContent!);
    // Every page a search engine should know: all built pages but the 404 page, the redirects and
    // pages marked noindex (the course's print copy).
    const indexable = (u: string) => !readFileSync(fileFor(u), "utf8").includes('<meta name="robots" content="noindex">');
    const pages = (await pageUrls()).filter((u) => u.endsWith("/") && indexable(u)).map((u) => `${BASE}${u}`);
    expect(pages.length).toBeGreaterThan(20);
    expect([...locs].sort()).toEqual(pages.sort());
    expect(locs.every(resolves)).toBe(true);
    expect(readFileSync(fileFor("/robots.txt"), "utf8")).toContain(`Sitemap: ${BASE}/sitemap.xml`);
  });
});

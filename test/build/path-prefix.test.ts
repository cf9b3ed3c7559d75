// A build for a site served from a sub-path (a GitHub project page: https://user.github.io/repo/):
// every link, asset, feed address, canonical URL, alternate and sitemap entry stays inside it.
import { mkdtemp, rm } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JSDOM } from "jsdom";
import { build } from "../support/eleventy.ts";
import { checkReferences } from "../support/links.ts";
import { builtFiles, fileFor } from "../support/site.ts";

const site = { origin: "https://user.github.io", prefix: "/repo/", source: "https://github.com/user/repo" };
let out: string;

beforeAll(async () => {
  out = await mkdtemp(path.join(tmpdir(), "site-prefix-"));
  const result = await build({ outDir: out, args: [`--pathprefix=${site.prefix}`], env: { SITE_URL: site.origin, SITE_SOURCE: site.source } });
  if (result.code !== 0) throw new Error(result.output);
}, 180_000);
afterAll(() => rm(out, { recursive: true, force: true }));

describe(`a build under ${site.origin}${site.prefix}`, () => {
  it("keeps every reference of every file inside the site, and each resolves", async () => {
    const files = await builtFiles(out);
    const { broken, checked } = checkReferences(out, files, site);
    expect(checked).toBeGreaterThan(files.length);
    expect(broken).toEqual([]);
  });

  it("gives pages canonical URLs, alternates and feeds under the prefix", () => {
    const doc = new JSDOM(readFileSync(path.join(out, "zh/index.html"), "utf8")).window.document;
    expect(doc.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe("https://user.github.io/repo/zh/");
    expect(doc.querySelector('link[hreflang="x-default"]')?.getAttribute("href")).toBe("https://user.github.io/repo/");
    expect(doc.querySelector('link[type="application/atom+xml"]')?.getAttribute("href")).toBe("/repo/zh/feed.xml");
    const feed = readFileSync(path.join(out, "feed.xml"), "utf8");
    expect(feed).toContain('<link href="https://user.github.io/repo/feed.xml" rel="self"');
    expect(readFileSync(path.join(out, "robots.txt"), "utf8")).toContain("Sitemap: https://user.github.io/repo/sitemap.xml");
  });

  it("gives feeds the same ids as the site at its own origin, so a reader sees no post again as new", () => {
    // The same feed built for https://renfeng.org/ (the real site) and here, parsed as XML and JSON.
    const xml = (file: string) => new JSDOM(readFileSync(file, "utf8"), { contentType: "text/xml" }).window.document;
    const here = xml(path.join(out, "feed.xml"));
    const there = xml(fileFor("/feed.xml"));
    const ids = (doc: Document) => [...doc.querySelectorAll("feed > id, entry > id")].map((id) => id.textContent);
    expect(ids(there).length).toBeGreaterThan(1);
    expect(ids(here)).toEqual(ids(there));
    expect(here.querySelector("entry > link")?.getAttribute("href")).toMatch(/^https:\/\/user\.github\.io\/repo\/posts\//);
    const guids = (file: string) => [...xml(file).querySelectorAll("item > guid")];
    const rssHere = guids(path.join(out, "zh/index.xml"));
    const rssThere = guids(fileFor("/zh/index.xml"));
    expect(rssHere.map((g) => g.textContent)).toEqual(rssThere.map((g) => g.textContent));
    // There the guid is also the item's address; here it only names the item.
    expect(new Set(rssThere.map((g) => g.getAttribute("isPermaLink")))).toEqual(new Set(["true"]));
    expect(new Set(rssHere.map((g) => g.getAttribute("isPermaLink")))).toEqual(new Set(["false"]));
    const jsonIds = (file: string) => (JSON.parse(readFileSync(file, "utf8")) as { items: { id: string }[] }).items.map((i) => i.id);
    expect(jsonIds(path.join(out, "feed.json"))).toEqual(jsonIds(fileFor("/feed.json")));
  });

  it("links its source where the deploy names it: from the footer to the source page, and from there to the repository and the course's labs page", () => {
    const page = (file: string) => new JSDOM(readFileSync(path.join(out, file), "utf8")).window.document;
    for (const [file, lang] of [["index.html", ""], ["posts/index.html", ""], ["zh/index.html", "zh/"]] as const) {
      const footerLinks = [...page(file).querySelectorAll(".site-footer a")].map((a) => a.getAttribute("href"));
      expect(footerLinks, file).toContain(`/repo/${lang}source/`);
    }
    const links = [...page("source/index.html").querySelectorAll("main a")].map((a) => a.getAttribute("href"));
    expect(links).toEqual([site.source, "/repo/rdma101/labs/"]);
  });
});

// The search index as built: exactly the posts, lessons, glossary and paper pages, each under its
// section, one index per language; Pagefind's scripts are served, its ready-made interfaces are not.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { t } from "../../src/i18n.ts";
import { languageOf } from "../../src/urls.ts";
import { builtFiles, loadPage, pageUrls, siteDir } from "../support/site.ts";

/** What a reader searches for, by address: a post, a lesson, the glossary, a paper; and its section. */
function sectionOf(url: string): string | undefined {
  const path = url.replace(/^\/zh\//, "/");
  if (/^\/posts\/(?!page\/)[^/]+\/$/.test(path)) return "posts";
  if (/^\/rdma101\/glossary\/$/.test(path)) return "course";
  if (/^\/rdma101\/(?!examples\/)[^/]+\/[^/]+\/$/.test(path)) return "course";
  if (/^\/publications\/[^/]+\/$/.test(path)) return "publications";
  return undefined;
}

const pages = await pageUrls();
const indexed = pages.filter((url) => loadPage(url).querySelector("[data-pagefind-body]"));

describe("the search index", () => {
  it("takes in exactly the posts, lessons, glossary and paper pages, each under its section", () => {
    expect(indexed).toEqual(pages.filter((url) => sectionOf(url)));
    for (const url of indexed) {
      const bodies = loadPage(url).querySelectorAll("[data-pagefind-body]");
      expect(bodies, url).toHaveLength(1);
      expect(bodies[0]!.getAttribute("data-pagefind-filter"), url).toBe(`section:${t(languageOf(url), `nav.${sectionOf(url)}`)}`);
    }
  });

  it("has one index per language, each with exactly that language's indexed pages", () => {
    const entry = JSON.parse(readFileSync(path.join(siteDir(), "pagefind/pagefind-entry.json"), "utf8")) as { languages: Record<string, { page_count: number }> };
    const counts: Record<string, number> = {};
    for (const url of indexed) {
      const tag = loadPage(url).documentElement.lang.toLowerCase();
      counts[tag] = (counts[tag] ?? 0) + 1;
    }
    expect(Object.fromEntries(Object.entries(entry.languages).map(([lang, l]) => [lang, l.page_count]))).toEqual(counts);
  });

  it("ships Pagefind's search script and worker, not its ready-made interfaces", async () => {
    for (const file of ["pagefind.js", "pagefind-worker.js"]) expect(existsSync(path.join(siteDir(), "pagefind", file)), file).toBe(true);
    expect((await builtFiles()).filter((f) => /pagefind-(?:ui|component-ui|modular-ui|highlight)\./.test(f))).toEqual([]);
  });

  it("loads its script on the search pages only", () => {
    for (const url of pages) {
      const scripts = [...loadPage(url).querySelectorAll("script[src]")].map((s) => s.getAttribute("src")!);
      expect(scripts.some((src) => src.includes("/js/search.js")), url).toBe(/^\/(?:zh\/)?search\/$/.test(url));
    }
  });
});

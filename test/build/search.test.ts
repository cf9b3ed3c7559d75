// The search index as built: exactly the posts, lessons, glossary and paper pages, each under its
// section, one index per language; Pagefind's scripts are served, its ready-made interfaces are not.
// Searched with Pagefind's own script (in Node, over HTTP): excerpts come from a page's prose, never
// from its code, and every verbs or rdma_cm name a page's code uses still finds that page, as does
// a name its prose writes with break places in it.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHART_DATA_CLASS } from "../../src/charts.ts";
import { unescapeHtml } from "../../src/html.ts";
import { t } from "../../src/i18n.ts";
import { NOT_TEXT } from "../../src/search.ts";
import { languageOf, routes } from "../../src/urls.ts";
import { serve, type StaticServer } from "../support/server.ts";
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

  // Each indexed page's text as Pagefind stores it, spaces removed: a fragment is gzip of a signature, then JSON.
  const storedTexts = () => {
    const texts = new Map<string, string>();
    for (const file of readdirSync(path.join(siteDir(), "pagefind/fragment"))) {
      const raw = gunzipSync(readFileSync(path.join(siteDir(), "pagefind/fragment", file))).toString("utf8");
      const { url, content } = JSON.parse(raw.slice(raw.indexOf("{"))) as { url: string; content: string };
      texts.set(url, content.replace(/\s+/g, ""));
    }
    return texts;
  };

  it("holds each formula once, as a screen reader reads it: not also as drawn, nor as typed in TeX", () => {
    const texts = storedTexts();
    const wrong: string[] = [];
    let formulas = 0;
    for (const url of indexed) {
      for (const math of loadPage(url).querySelectorAll("[data-pagefind-body] .katex-mathml math")) {
        const typed = math.querySelector("annotation")?.textContent?.replace(/\s+/g, "") ?? "";
        const spoken = math.cloneNode(true) as Element;
        spoken.querySelector("annotation")?.remove();
        const heard = (spoken.textContent ?? "").replace(/\s+/g, "");
        formulas++;
        if (/[\\_^{}]/.test(typed) && texts.get(url)!.includes(typed)) wrong.push(`${url}: holds the TeX ${typed}`);
        if (heard.length >= 3 && texts.get(url)!.includes(heard + heard)) wrong.push(`${url}: holds ${heard} twice over`);
      }
    }
    expect(formulas).toBeGreaterThan(0);
    expect(wrong).toEqual([]);
  });

  it("holds no chart's data table: the numbers stay out of excerpts", () => {
    const texts = storedTexts();
    const tables = indexed.flatMap((url) => [...loadPage(url).querySelectorAll(`[data-pagefind-body] .${CHART_DATA_CLASS}`)].map((table) => ({ url, table })));
    expect(tables.length).toBeGreaterThan(0);
    for (const { url, table } of tables) {
      // The disclosure's label ("The data: …") is in the table's disclosure alone.
      expect(texts.get(url), url).not.toContain(table.querySelector("summary")!.textContent!.replace(/\s+/g, ""));
    }
  });

  it("holds no code block's caption: which file or lab run it is and how to build or run it again", () => {
    const texts = storedTexts();
    const captions = indexed.flatMap((url) => [...loadPage(url).querySelectorAll("[data-pagefind-body] figcaption.code-caption")].map((caption) => ({ url, caption })));
    expect(captions.some(({ caption }) => caption.closest(".transcript"))).toBe(true);
    expect(captions.filter(({ url, caption }) => texts.get(url)!.includes(caption.textContent!.replace(/\s+/g, ""))).map(({ url, caption }) => `${url}: ${caption.textContent}`)).toEqual([]);
  });

  it("holds neither an answer's button label nor what only paper shows: excerpts read \"Show answerAnswer 40 / 190\"", () => {
    const texts = storedTexts();
    const labels = indexed.flatMap((url) => [...loadPage(url).querySelectorAll("[data-pagefind-body] summary:has(.print-only)")].map((summary) => ({ url, summary })));
    expect(labels.length).toBeGreaterThan(0);
    const button = (url: string) => t(languageOf(url), "markdown.answer").replace(/\s+/g, "");
    expect(labels.filter(({ url }) => texts.get(url)!.includes(button(url))).map(({ url }) => url)).toEqual([]);
    const both = ({ url, summary }: { url: string; summary: Element }) => `${url}: ${summary.querySelector(".screen-only")!.textContent}${summary.querySelector(".print-only")!.textContent}`;
    expect(labels.filter((label) => texts.get(label.url)!.includes(both(label).slice(label.url.length + 2).replace(/\s+/g, ""))).map(both)).toEqual([]);
  });

  it("holds no post's tag list: \"#mooncake. #llm-serving. #kvcache. #rdma.\" began its excerpts", () => {
    const texts = storedTexts();
    const lists = indexed.flatMap((url) => [...loadPage(url).querySelectorAll("[data-pagefind-body] .tag-list")].map((list) => ({ url, list })));
    expect(lists.length).toBeGreaterThan(0);
    // Pagefind ends each tag with a full stop: look for each one.
    const kept = lists.flatMap(({ url, list }) => [...list.querySelectorAll("li")].map((li) => li.textContent!.trim()).filter((tag) => texts.get(url)!.includes(tag)).map((tag) => `${url}: ${tag}`));
    expect(kept).toEqual([]);
  });

  it("loads its script on the search pages only", () => {
    for (const url of pages) {
      const scripts = [...loadPage(url).querySelectorAll("script[src]")].map((s) => s.getAttribute("src")!);
      expect(scripts.some((src) => src.includes("/js/search.js")), url).toBe(/^\/(?:zh\/)?search\/$/.test(url));
    }
  });
});

/** What the search page gets from Pagefind for one result. */
interface Found {
  url: string;
  excerpt: string;
  plain_excerpt: string;
  sub_results: { url: string; title: string }[];
}
interface Pagefind {
  options(o: { basePath: string; baseUrl: string }): Promise<void>;
  init(language: string): Promise<void>;
  search(query: string): Promise<{ results: { data(): Promise<Found> }[] }>;
}

/** Runs of four words, for telling where a stretch of text comes from (Pagefind ends each block with a full stop). */
function runsOf(text: string): Set<string> {
  const words = text.split(/\s+/).filter(Boolean).map((w) => w.replace(/\.$/, ""));
  return new Set(words.slice(3).map((_, i) => words.slice(i, i + 4).join(" ")));
}

/** A page's code (listings, fragments, transcripts) and the rest of its indexed text, as runs of words. */
function textsOf(url: string): { code: Set<string>; prose: Set<string> } {
  const body = loadPage(url).querySelector("[data-pagefind-body]")!;
  const code = [...body.querySelectorAll("pre")].map((pre) => pre.textContent).join("\n");
  const rest = body.cloneNode(true) as Element;
  for (const el of rest.querySelectorAll(NOT_TEXT.join(","))) el.remove();
  return { code: runsOf(code), prose: runsOf(rest.textContent ?? "") };
}

describe("searching the course", () => {
  let server: StaticServer;
  let pagefind: Pagefind;
  beforeAll(async () => {
    server = await serve(siteDir());
    pagefind = (await import(pathToFileURL(path.join(siteDir(), "pagefind/pagefind.js")).href)) as Pagefind;
    await pagefind.options({ basePath: `${server.origin}/pagefind/`, baseUrl: "/" });
    await pagefind.init("en");
  });
  afterAll(() => server?.close());
  const found = async (query: string) => Promise.all((await pagefind.search(query)).results.map((r) => r.data()));

  it.each(["ibv_post_send", "ibv_poll_cq", "completion queue", "memory region", "rkey", "QP state", "IBV_WC_SUCCESS", "wr_id"])(
    "shows excerpts of prose, not of code, for “%s”",
    async (query) => {
      const results = await found(query);
      expect(results.length, query).toBeGreaterThan(0);
      for (const { url, excerpt, plain_excerpt } of results) {
        expect(excerpt, `${url}: a C comment`).not.toMatch(/(?:^|\s)(?:\/\*|\*\/|\*)(?:\s|$)/);
        const { code, prose } = textsOf(url);
        const fromCode = [...runsOf(unescapeHtml(plain_excerpt))].filter((run) => code.has(run) && !prose.has(run));
        expect(fromCode, `${url}: “${plain_excerpt}”`).toEqual([]);
      }
    },
  );

  it("finds every page by each verbs or rdma_cm name its code uses", async () => {
    const uses = new Map<string, string[]>();
    for (const url of indexed.filter((u) => languageOf(u) === "en")) {
      const code = [...loadPage(url).querySelectorAll("[data-pagefind-body] pre")].map((pre) => pre.textContent).join("\n");
      for (const name of new Set(code.match(/\b(?:ibv|rdma)_\w+/g))) uses.set(name, [...(uses.get(name) ?? []), url]);
    }
    expect(uses.size).toBeGreaterThan(50);
    const missed: string[] = [];
    for (const [name, urls] of uses) {
      const hits = new Set((await found(name)).map((r) => r.url));
      missed.push(...urls.filter((url) => !hits.has(url)).map((url) => `${name}: ${url}`));
    }
    expect(missed).toEqual([]);
  });

  it("holds each glossary term and each where-to-look name as an entry of its own, at its address, found by its name", async () => {
    // Pagefind makes an element with an id and a data-pagefind-title a sub-result of its own, under that title.
    const entries = [...loadPage(routes.glossary()).querySelectorAll("[data-pagefind-body] dt")];
    expect(entries.length).toBeGreaterThan(100);
    expect(entries.filter((dt) => !dt.id || dt.getAttribute("data-pagefind-title") !== dt.textContent).map((dt) => dt.textContent)).toEqual([]);
    expect(new Set(entries.map((dt) => dt.id)).size).toBe(entries.length);
    const missed: string[] = [];
    for (const dt of entries) {
      const glossary = (await found(dt.textContent!)).find((r) => r.url === routes.glossary());
      if (!glossary?.sub_results.some((sub) => sub.url === routes.glossary(dt.id) && sub.title === dt.textContent)) missed.push(dt.textContent!);
    }
    expect(missed).toEqual([]);
  });

  it("finds a page by a name its prose writes with break places in it (<wbr>), as one word", async () => {
    const written = new Map<string, string[]>();
    for (const url of indexed.filter((u) => languageOf(u) === "en")) {
      for (const code of loadPage(url).querySelectorAll("[data-pagefind-body] :not(pre) > code")) {
        const name = code.textContent ?? "";
        if (code.querySelector("wbr") && /^\w+$/.test(name)) written.set(name, [...new Set([...(written.get(name) ?? []), url])]);
      }
    }
    expect(written.size).toBeGreaterThan(0);
    const missed: string[] = [];
    for (const [name, urls] of written) {
      const results = await found(name);
      const hits = new Set(results.map((r) => r.url));
      missed.push(...urls.filter((url) => !hits.has(url)).map((url) => `${name}: ${url}`));
      // Where Pagefind marks the name in an excerpt, it marks it whole, not a piece of it.
      for (const { url, excerpt } of results) {
        const marked = [...excerpt.matchAll(/<mark>([\s\S]*?)<\/mark>/g)].map((m) => m[1]!);
        if (urls.includes(url) && marked.length > 0 && !marked.some((m) => m.includes(name))) missed.push(`${name}: ${url} marks ${marked.join(", ")}`);
      }
    }
    expect(missed).toEqual([]);
  });
});

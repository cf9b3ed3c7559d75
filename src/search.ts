// Site search with Pagefind: after a build (not on the dev server) the built pages are indexed into
// /pagefind/, one index per language (Pagefind splits by each page's <html lang>). Only what a
// reader looks for is indexed: posts, lessons, the glossary and the paper pages, each marked with
// its section; lists, tags and other pages are left out. A page's text is its prose: code (program
// listings, C blocks, lab transcripts, BibTeX) is left out of it, so that no result's excerpt is a
// stretch of code, and the names that code uses are indexed as the page's metadata instead, so that
// a search for an API name still finds the lessons that only use it in a program. The search page
// (src/pages/search.njk) loads public/js/search.js, the only page that does.
import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import type UserConfig from "@11ty/eleventy/UserConfig";
import { close, createIndex } from "pagefind";
import { CHART_DATA_CLASS } from "./charts.ts";
import { escapeHtml, linkHtml, unescapeHtml } from "./html.ts";
import { t, tHtml } from "./i18n.ts";
import type { Lang } from "./languages.ts";
import { href, routes } from "./urls.ts";

/** The sections a result belongs to, by the route of the section's home (its label is nav.<route>). */
const SEARCH_SECTIONS = ["posts", "course", "publications"] as const;
export type SearchSection = (typeof SEARCH_SECTIONS)[number];

/** Code as every page shows it (src/highlight.ts): its words are not the page's text; see codeNames. */
const CODE = "pre";

/**
 * A formula is indexed once, as a screen reader reads it (KaTeX's MathML), not also as it is drawn
 * (KaTeX's HTML, hidden from screen readers) and as it was typed (the TeX in MathML's annotation):
 * "each of the L layers", not "each of the LLL layers".
 */
const FORMULA_COPIES = [".katex-html", "annotation"];

/**
 * A chart's data table is the drawing's numbers, which the figure's caption and the page's prose
 * describe: as text it would only fill excerpts with columns of figures.
 */
const CHART_NUMBERS = `.${CHART_DATA_CLASS}`;

/**
 * A code block's caption says where the code comes from and how to build or run it again (a file's
 * path and gcc line; a lab run's title, its `npm run lab` command and, under a lesson's first
 * transcript, the same two sentences about Soft-RoCE): indexed, it filled excerpts, and a search for
 * "Soft-RoCE" found a score of lessons by that boilerplate alone.
 */
const CODE_CAPTION = ".code-caption";

/**
 * An answer's button label ("Show answer"), which is no more the page's text than a copy button,
 * and words only paper shows (the printed "Answer" beside it), not read on screen.
 */
const NOT_READ = ["details.answer > summary", ".print-only"];

/**
 * Parts of an indexed page that are not its text: navigation (a post's tag list among it), a code
 * block's label, copy button and caption, the code itself, a formula's extra copies, a chart's
 * numbers, an answer's button and what only paper shows (the benchmark indexes with them too).
 */
export const NOT_TEXT = [".breadcrumbs", ".pager", ".toc", ".series-box", ".tag-list", ".copy-button", ".course-nav", ".lesson-kicker", ".post-meta", ".code-head", CODE_CAPTION, CODE, ...FORMULA_COPIES, CHART_NUMBERS, ...NOT_READ];

/** The attribute that puts an element's text in the index; a page without one is not indexed. */
export const INDEXED_BODY = "data-pagefind-body";

/** The metadata field that holds the names a page's code uses (searched, never shown). */
const CODE_NAMES = "code";

/**
 * The names the code in `html` uses, sorted: every identifier of two characters or more written
 * with an underscore or a capital inside (ibv_post_send, IBV_WC_SUCCESS, wr_id, cudaMalloc),
 * called (`printf(`) or read as a member (`.rkey`, `->lkey`). Plain words, such as most of a
 * comment's or a printed message's, and C's keywords (int, struct, return; `sizeof(` reads as a
 * call) are not names.
 */
export function codeNames(html: string): string[] {
  const names = new Set<string>();
  for (const [, inner] of html.matchAll(new RegExp(`<${CODE}\\b[^>]*>([\\s\\S]*?)</${CODE}>`, "g"))) {
    const text = unescapeHtml(inner!.replace(/<[^>]*>/g, ""));
    for (const [, member, name, call] of text.matchAll(/(\.|->)?\b([A-Za-z_]\w*)(\()?/g)) {
      if (name!.length > 1 && /[A-Za-z]/.test(name!) && (member || call || /_|[a-z][A-Z]/.test(name!))) names.add(name!);
    }
  }
  return [...names].sort();
}

/**
 * The attributes that put a page's main element in the index, under its section, with the names
 * its code uses (`html`: the page's rendered content, where its code is).
 */
export function searchableAttributes(section: SearchSection, lang: Lang, html = ""): string {
  const names = codeNames(html);
  // Pagefind reads `key:value` here; a comma would start another field, and names have none.
  const meta = names.length > 0 ? ` data-pagefind-meta="${CODE_NAMES}:${names.join(" ")}"` : "";
  return ` ${INDEXED_BODY} data-pagefind-filter="section:${t(lang, `nav.${section}`)}"${meta}`;
}

/**
 * The metadata field that holds the terms a page defines (the glossary's, abbreviations included):
 * searched, never shown. Pagefind scores a page's text as one whole, its term counts saturating and
 * divided by its length, so the glossary (nearly four times an average page) ranked below lessons
 * that only use a term, weighted <dt> or not. A match in metadata is added to that score, as a
 * match in a page's title is.
 */
const DEFINED_TERMS = "terms";

/**
 * Pagefind's ranking on the search page: a defined term counts 3, under a title's 5 (Pagefind's
 * default), so a search for a term finds its definition among the first results and a search for a
 * lesson's title still finds that lesson above the glossary, which defines most of its words.
 */
export const SEARCH_RANKING = { metaWeights: { [DEFINED_TERMS]: 3 } } as const;

/** The attributes that give a page's index entry the terms it defines (see DEFINED_TERMS). */
export function definedTermsAttributes(terms: readonly { term: string }[]): string {
  // Read from an attribute: a term's comma would otherwise start another of Pagefind's fields.
  return ` data-pagefind-meta="${DEFINED_TERMS}[data-terms]" data-terms="${escapeHtml(terms.map((t) => t.term).join("; "))}"`;
}

/** What the search page says without JavaScript: where to browse instead, a link per section. */
export const noScriptHtml = (lang: Lang): string =>
  tHtml(lang, "search.noScript", Object.fromEntries(SEARCH_SECTIONS.map((s) => [s, linkHtml(href(routes[s](lang)), escapeHtml(t(lang, `nav.${s}`)))])));

const PREBUILT_UI = /^pagefind-(?:ui|component-ui|modular-ui|highlight)\.(?:js|css)$/;

/**
 * A glob of exactly these files, for Pagefind to read no page it would not index (it would parse
 * every page to find out: about a second at 1,000 posts, most of it the course's print page).
 */
export function globOf(files: Iterable<string>): string {
  const list = [...files].sort();
  // pageProblems() and the schemas keep addresses to these characters, none of which a glob reads.
  const odd = list.find((file) => !/^[A-Za-z0-9._/-]+$/.test(file));
  if (odd) throw new Error(`search index: ${odd}: has a character Pagefind's glob would read`);
  return `{${list.join(",")}}`;
}

/** Indexes the given pages (relative to `outDir`), writing the index and Pagefind's scripts beside them. */
async function writeSearchIndex(outDir: string, pages: Set<string>): Promise<void> {
  try {
    if (pages.size === 0) throw new Error("search index: no page is marked searchable");
    const { index, errors } = await createIndex({ excludeSelectors: NOT_TEXT });
    if (!index) throw new Error(`search index: ${errors.join("; ")}`);
    const added = await index.addDirectory({ path: outDir, glob: globOf(pages) });
    if (added.errors.length > 0) throw new Error(`search index: ${added.errors.join("; ")}`);
    if (added.page_count !== pages.size) throw new Error(`search index: ${added.page_count} of the ${pages.size} searchable pages were indexed`);
    const written = await index.writeFiles({ outputPath: path.join(outDir, routes.searchIndex()) });
    if (written.errors.length > 0) throw new Error(`search index: ${written.errors.join("; ")}`);
    // The search page has its own interface: Pagefind's ready-made ones are not shipped.
    for (const file of await readdir(written.outputPath)) if (PREBUILT_UI.test(file)) await rm(path.join(written.outputPath, file));
  } finally {
    await close();
  }
}

export default function search(config: UserConfig): void {
  /** The output files of the pages rendered as searchable in this build, relative to the output folder. */
  const searchablePages = new Set<string>();
  let outputDir = ".";
  config.on("eleventy.before", ({ directories }: { directories: { output: string } }) => {
    searchablePages.clear();
    outputDir = directories.output;
  });
  config.addFilter("searchable", function (this: { page: { outputPath: string | false } }, section: SearchSection, lang: Lang, html?: string) {
    if (this.page.outputPath) searchablePages.add(path.relative(outputDir, this.page.outputPath).split(path.sep).join("/"));
    return searchableAttributes(section, lang, html);
  });
  config.addFilter("searchNoScript", noScriptHtml);
  config.addFilter("definedTerms", definedTermsAttributes);
  config.addGlobalData("searchSections", SEARCH_SECTIONS);
  config.addGlobalData("searchRanking", SEARCH_RANKING);
  config.on("eleventy.after", async ({ directories, runMode }: { directories: { output: string }; runMode: string }) => {
    if (runMode !== "serve") await writeSearchIndex(directories.output, searchablePages);
  });
}

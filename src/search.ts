// Site search with Pagefind: after a build (not on the dev server) the built pages are indexed into
// /pagefind/, one index per language (Pagefind splits by each page's <html lang>). Only what a
// reader looks for is indexed: posts, lessons, the glossary and the paper pages, each marked with
// its section; lists, tags and other pages are left out. The search page (src/pages/search.njk)
// loads public/js/search.js, the only page that does.
import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import type UserConfig from "@11ty/eleventy/UserConfig";
import { close, createIndex } from "pagefind";
import { escapeHtml } from "./html.ts";
import { t, tHtml } from "./i18n.ts";
import type { Lang } from "./languages.ts";
import { href, routes } from "./urls.ts";

/** The sections a result belongs to, by the route of the section's home (its label is nav.<route>). */
const SEARCH_SECTIONS = ["posts", "course", "publications"] as const;
export type SearchSection = (typeof SEARCH_SECTIONS)[number];

/** Parts of an indexed page that are navigation, not its text (the benchmark indexes with them too). */
export const NOT_TEXT = [".breadcrumbs", ".pager", ".toc", ".series-box", ".copy-button", ".course-nav", ".lesson-kicker", ".post-meta"];

/** The attributes that put a page's main element in the index, under its section. */
export const searchableAttributes = (section: SearchSection, lang: Lang): string => ` data-pagefind-body data-pagefind-filter="section:${t(lang, `nav.${section}`)}"`;

/** What the search page says without JavaScript: where to browse instead, a link per section. */
export const noScriptHtml = (lang: Lang): string =>
  tHtml(lang, "search.noScript", Object.fromEntries(SEARCH_SECTIONS.map((s) => [s, `<a href="${escapeHtml(href(routes[s](lang)))}">${escapeHtml(t(lang, `nav.${s}`))}</a>`])));

const PREBUILT_UI = /^pagefind-(?:ui|component-ui|modular-ui|highlight)\.(?:js|css)$/;

/** Indexes the built site in `outDir`, writing the index and Pagefind's scripts beside the pages. */
async function writeSearchIndex(outDir: string): Promise<void> {
  try {
    const { index, errors } = await createIndex({ excludeSelectors: NOT_TEXT });
    if (!index) throw new Error(`search index: ${errors.join("; ")}`);
    const added = await index.addDirectory({ path: outDir });
    if (added.errors.length > 0) throw new Error(`search index: ${added.errors.join("; ")}`);
    if (added.page_count === 0) throw new Error("search index: no page is marked data-pagefind-body");
    const written = await index.writeFiles({ outputPath: path.join(outDir, routes.searchIndex()) });
    if (written.errors.length > 0) throw new Error(`search index: ${written.errors.join("; ")}`);
    // The search page has its own interface: Pagefind's ready-made ones are not shipped.
    for (const file of await readdir(written.outputPath)) if (PREBUILT_UI.test(file)) await rm(path.join(written.outputPath, file));
  } finally {
    await close();
  }
}

export default function search(config: UserConfig): void {
  config.addFilter("searchable", searchableAttributes);
  config.addFilter("searchNoScript", noScriptHtml);
  config.addGlobalData("searchSections", SEARCH_SECTIONS);
  config.on("eleventy.after", async ({ directories, runMode }: { directories: { output: string }; runMode: string }) => {
    if (runMode !== "serve") await writeSearchIndex(directories.output);
  });
}

// Math is rendered to HTML by KaTeX at build time (see ./markdown.ts). Its stylesheet is served from
// this site and linked only by pages that contain math; it names only woff2 fonts, and a browser
// downloads just the fonts a page's formulas use.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type UserConfig from "@11ty/eleventy/UserConfig";
import { href, routes } from "./urls.ts";

const require = createRequire(import.meta.url);
const katexDist = path.dirname(require.resolve("katex/dist/katex.min.css"));
const katexVersion = (require("katex/package.json") as { version: string }).version;

/**
 * KaTeX's stylesheet with every font source but woff2 removed, and each font's URL naming KaTeX's
 * version: the fonts are served under /css/, which _headers lets browsers keep for a year unasked,
 * so a newer KaTeX's fonts must come from new URLs, as its stylesheet does.
 */
export function woff2OnlyCss(css: string, version: string): string {
  return css.replace(/src:([^;}]+)/g, (_all, sources: string) => {
    const woff2 = sources.split(/,(?=url\()/).filter((s) => /format\(["']?woff2["']?\)/.test(s));
    return `src:${woff2.map((s) => s.replace(/url\((["']?)([^"')]+)\1\)/, (_url, quote: string, file: string) => `url(${quote}${file}?v=${version}${quote})`)).join(",")}`;
  });
}

interface Rendered {
  url: string | false;
  templateContent: string;
}

/** Each build's pages by address, for the layouts that ask about their own page. */
const byUrl = new WeakMap<Rendered[], Map<string | false, Rendered>>();

/**
 * Whether a page shows math: its own render (`templateContent`) holds KaTeX's HTML. A layout is
 * given its inner layout's output, built of many pieces; searching that copies the whole page once
 * more (V8 joins the pieces first), for each page. The post and lesson layouts add no math of their
 * own, so the render answers the same; a page outside the collections is searched as given.
 */
export function showsMath(content: string, url: string | false, all: Rendered[]): boolean {
  let pages = byUrl.get(all);
  if (!pages) byUrl.set(all, (pages = new Map(all.map((p) => [p.url, p]))));
  return (pages.get(url)?.templateContent ?? content).includes('class="katex"');
}

export default function math(config: UserConfig): void {
  config.addFilter("showsMath", showsMath);
  config.addPassthroughCopy({ [`${katexDist}/fonts/*.woff2`]: routes.katexFonts() });
  config.addFilter("mathCssUrl", (path: string) => `${href(path)}?v=${katexVersion}`);
  // Written by src/pages/katex-css.njk, so it lands wherever the build's output goes.
  config.addGlobalData("katexStylesheet", () => woff2OnlyCss(readFileSync(path.join(katexDist, "katex.min.css"), "utf8"), katexVersion));
}

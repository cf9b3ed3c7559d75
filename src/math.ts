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

/** KaTeX's stylesheet with every font source but woff2 removed. */
export function woff2OnlyCss(css: string): string {
  return css.replace(/src:([^;}]+)/g, (_all, sources: string) => {
    const woff2 = sources.split(/,(?=url\()/).filter((s) => /format\(["']?woff2["']?\)/.test(s));
    return `src:${woff2.join(",")}`;
  });
}

export default function math(config: UserConfig): void {
  config.addPassthroughCopy({ [`${katexDist}/fonts/*.woff2`]: routes.katexFonts() });
  config.addFilter("mathCssUrl", (path: string) => `${href(path)}?v=${katexVersion}`);
  // Written by src/pages/katex-css.njk, so it lands wherever the build's output goes.
  config.addGlobalData("katexStylesheet", () => woff2OnlyCss(readFileSync(path.join(katexDist, "katex.min.css"), "utf8")));
}

// Byte budgets (gzip; deterministic, so they are tests) and how pages load their scripts.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { INLINE_SCRIPTS } from "../../src/security.ts";
import { scriptsIn } from "../support/scripts.ts";
import { builtFiles, fileFor, loadPage } from "../support/site.ts";

const KB = 1024;
const gzipSize = (url: string) => gzipSync(readFileSync(fileFor(url)), { level: 9 }).length;

/** HTML plus every stylesheet, script and icon it references: what a first visit downloads. */
function firstView(url: string): { total: number; parts: Record<string, number> } {
  const doc = loadPage(url);
  const assets = [...doc.querySelectorAll("link[rel=stylesheet], script[src], link[rel~=icon]")].map((el) => el.getAttribute("href") ?? el.getAttribute("src")!);
  const parts: Record<string, number> = { [url]: gzipSize(url) };
  for (const asset of assets) parts[asset] = gzipSize(asset);
  return { total: Object.values(parts).reduce((a, b) => a + b, 0), parts };
}

const postWithCodeAndMath = () =>
  [...loadPage("/archives/").querySelectorAll(".archive-list a")]
    .map((a) => a.getAttribute("href")!)
    .find((url) => {
      const doc = loadPage(url);
      return doc.querySelector(".katex") && doc.querySelector(".code-block");
    });

describe("budgets", () => {
  it("homepage first view (HTML, CSS, JS, favicon) is at most 14 KB gzipped", () => {
    const view = firstView("/");
    expect(view.total, JSON.stringify(view.parts)).toBeLessThanOrEqual(14 * KB);
  });

  it("a post with code and math is at most 30 KB gzipped without images and fonts, and names only woff2 fonts", () => {
    const url = postWithCodeAndMath();
    expect(url, "a post with both code and math").toBeDefined();
    const view = firstView(url!);
    expect(Object.keys(view.parts).some((k) => k.startsWith("/css/katex.css"))).toBe(true);
    expect(view.total, JSON.stringify(view.parts)).toBeLessThanOrEqual(30 * KB);
    const fonts = [...readFileSync(fileFor("/css/katex.css"), "utf8").matchAll(/url\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(fonts.length).toBeGreaterThan(0);
    expect(fonts.every((f) => new URL(f, "http://site/css/").pathname.endsWith(".woff2"))).toBe(true);
    // Under /css/, which _headers marks immutable: a font's URL changes with KaTeX's version.
    const { version } = JSON.parse(readFileSync("node_modules/katex/package.json", "utf8")) as { version: string };
    expect(fonts.filter((f) => new URL(f, "http://site/css/").search !== `?v=${version}`)).toEqual([]);
  });

  it("has no render-blocking script: external scripts are modules or deferred, inline code is only the known scripts", async () => {
    // Whether the policy lets that code run is the browser's to say: the browser tests fail on any
    // CSP violation, and the theme tests need the inline script to have run.
    const known = new Set(INLINE_SCRIPTS.map((file) => readFileSync(file, "utf8")));
    const offenders: string[] = [];
    for (const file of (await builtFiles()).filter((f) => f.endsWith(".html"))) {
      for (const script of scriptsIn(readFileSync(file, "utf8"))) {
        if (script.data) continue;
        if (script.external && !/type="module"|\sdefer|\sasync/.test(script.attributes)) offenders.push(`${file}: blocking <script${script.attributes}>`);
        if (!script.external && !known.has(script.body)) offenders.push(`${file}: an inline script that is not one of ${INLINE_SCRIPTS.join(", ")}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("treats JSON-LD and JSON blocks as data, not as scripts to allow", () => {
    const page = '<script type="application/ld+json">{"@type":"Person"}</script><script type="module" src="/js/x.js"></script><script>run()</script>';
    expect(scriptsIn(page).map((s) => [s.data, s.external])).toEqual([
      [true, false],
      [false, true],
      [false, false],
    ]);
  });

  it("serves the math stylesheet only to pages with math, and to every one of them", async () => {
    const pages = (await builtFiles()).filter((f) => f.endsWith(".html"));
    const withMath = pages.filter((file) => readFileSync(file, "utf8").includes('class="katex"'));
    expect(withMath.length, "pages with math").toBeGreaterThan(0);
    expect(pages.filter((file) => /<link[^>]+href="\/css\/katex\.css/.test(readFileSync(file, "utf8")))).toEqual(withMath);
  });
});

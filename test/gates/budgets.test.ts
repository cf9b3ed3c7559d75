// Byte budgets (gzip; deterministic, so they are tests) and how pages load their scripts.
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { builtFiles, fileFor, loadPage, readPage } from "../support/site.ts";

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
    expect(fonts.every((f) => f.endsWith(".woff2"))).toBe(true);
  });

  it("has no render-blocking script: external scripts are modules or deferred, inline ones are allowed by hash", async () => {
    const pages = (await builtFiles()).filter((f) => f.endsWith(".html"));
    const offenders: string[] = [];
    for (const file of pages) {
      const html = readFileSync(file, "utf8");
      const csp = new JSDOM(html).window.document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute("content") ?? "";
      for (const [tag, attrs, body] of html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
        if (/\ssrc=/.test(attrs!)) {
          if (!/type="module"|\sdefer|\sasync/.test(attrs!)) offenders.push(`${file}: blocking ${tag.slice(0, 80)}`);
        } else {
          const hash = `'sha256-${createHash("sha256").update(body!).digest("base64")}'`;
          if (!csp.includes(hash)) offenders.push(`${file}: inline script not allowed by the page's CSP`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it("serves the math stylesheet only to pages with math", () => {
    expect(readPage("/")).not.toContain("katex.css");
  });
});

// The site as Netlify or Cloudflare Pages serve it, with what _headers asks for: the header's
// Content-Security-Policy (which a browser enforces together with each page's own <meta> policy,
// and from the first byte rather than from the <meta> on) lets every kind of page, the theme script
// and search's WebAssembly run, in real Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launch, viewports, watch } from "../support/browser.ts";
import { serve, type StaticServer } from "../support/server.ts";
import { loadPage, pageUrls, samplePages, siteDir } from "../support/site.ts";

let browser: Browser;
let server: StaticServer;
beforeAll(async () => {
  [browser, server] = await Promise.all([launch(), serve(siteDir(), { hostHeaders: true })]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A post with math, whose stylesheet and fonts come from /css/. */
const mathPost = () => [...loadPage("/archives/").querySelectorAll(".archive-list a")].map((a) => a.getAttribute("href")!).find((u) => loadPage(u).querySelector(".katex"));

describe("served with the site's _headers", () => {
  it("runs each kind of page, the theme script and search under the header's policy, without a violation", async () => {
    const context = await browser.newContext({ viewport: viewports.desktop });
    // A reader who chose the dark theme: the inline script, allowed by its hash, must apply it.
    await context.addInitScript(() => localStorage.setItem("theme", "dark"));
    try {
      const page = await context.newPage();
      const problems = watch(page, server.origin);
      for (const url of [...new Set([...samplePages(await pageUrls()), mathPost()!])]) {
        const response = await page.goto(`${server.origin}${url}`, { waitUntil: "load" });
        expect(response!.headers()["content-security-policy"], url).toContain("frame-ancestors 'none'");
        expect(await page.evaluate(() => document.documentElement.dataset.theme), url).toBe("dark");
        expect(problems, url).toEqual([]);
      }
      await page.goto(`${server.origin}/search/`, { waitUntil: "load" });
      await page.locator("#search-query").fill("queue pair");
      await expect.poll(() => page.locator(".search-results > li").count(), { timeout: 15_000 }).toBeGreaterThan(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

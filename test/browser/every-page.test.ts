// Built pages in real Chromium at phone width, where layouts wrap the most. Every page is checked
// for sideways scrolling, console errors and failed requests; axe's full WCAG check runs on one page
// of each kind in each language and theme (the kinds share templates), so the walk stays short as
// content grows.
import { describe, it } from "vitest";
import { languageOf } from "../../src/urls.ts";
import { axeViolations, browserOnSite, open, viewports, watch } from "../support/browser.ts";
import { pageUrls, samplePages } from "../support/site.ts";

const site = browserOnSite();

describe("pages in Chromium at phone width", () => {
  it("every page: no sideways scroll, no console error, no failed request", async ({ expect }) => {
    const urls = await pageUrls();
    expect(urls.length).toBeGreaterThan(10);
    const failures: string[] = [];
    // One tab walks the site, as a reader would: a fresh browser context per page costs more than the check.
    const context = await site.browser.newContext({ viewport: viewports.phone });
    const page = await context.newPage();
    const problems = watch(page, site.server.origin);
    for (const url of urls) {
      await page.goto(`${site.server.origin}${url}`, { waitUntil: "load" });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 0) failures.push(`${url}: overflows sideways by ${overflow}px`);
      failures.push(...problems.splice(0).map((p) => `${url}: ${p}`));
    }
    await context.close();
    expect(failures).toEqual([]);
  }, 600_000);

  for (const colorScheme of ["light", "dark"] as const) {
    it.concurrent(`each kind of page in each language, in ${colorScheme}: no axe violation`, async ({ expect }) => {
      const samples = samplePages(await pageUrls());
      // Every language has pages of its own, and no kind is sampled twice in one language.
      expect(new Set(samples.map(languageOf)).size).toBeGreaterThan(1);
      const failures: string[] = [];
      for (const url of samples) {
        const { page, context } = await open(site.browser, `${site.server.origin}${url}`, { viewport: viewports.phone, colorScheme });
        failures.push(...(await axeViolations(page)).map((v) => `${url}: ${v}`));
        await context.close();
      }
      expect(failures).toEqual([]);
    }, 600_000);
  }
});

// Built pages in real Chromium at phone width, where layouts wrap the most. Every page is checked
// for sideways scrolling, console errors and failed requests; axe's full WCAG check runs on one page
// of each kind in each language and theme (the kinds share templates), so the walk stays short as
// content grows.
import { describe, it } from "vitest";
import { languageOf } from "../../src/urls.ts";
import { axeViolations, browserOnSite, viewports, walk } from "../support/browser.ts";
import { pageUrls, samplePages } from "../support/site.ts";

const site = browserOnSite();

describe("pages in Chromium at phone width", () => {
  it("every page: no sideways scroll, no console error, no failed request", async ({ expect }) => {
    const urls = await pageUrls();
    expect(urls.length).toBeGreaterThan(10);
    const failures: string[] = [];
    await walk(site.browser, site.server.origin, urls, { viewport: viewports.phone }, async (page, url, problems) => {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 0) failures.push(`${url}: overflows sideways by ${overflow}px`);
      failures.push(...problems.map((p) => `${url}: ${p}`));
    });
    expect(failures).toEqual([]);
  }, 600_000);

  for (const colorScheme of ["light", "dark"] as const) {
    it.concurrent(`each kind of page in each language, in ${colorScheme}: no axe violation`, async ({ expect }) => {
      const samples = samplePages(await pageUrls());
      // Every language has pages of its own, and no kind is sampled twice in one language.
      expect(new Set(samples.map(languageOf)).size).toBeGreaterThan(1);
      const failures: string[] = [];
      await walk(site.browser, site.server.origin, samples, { viewport: viewports.phone, colorScheme }, async (page, url) => {
        failures.push(...(await axeViolations(page)).map((v) => `${url}: ${v}`));
      });
      expect(failures).toEqual([]);
    }, 600_000);
  }
});

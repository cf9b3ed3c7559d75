// Every built page (not just one of each type) in real Chromium at phone width, where layouts wrap
// the most, in both themes: no axe violation, no console error or failed request, no sideways scroll.
import { describe, it } from "vitest";
import { axeViolations, browserOnSite, open, viewports } from "../support/browser.ts";
import { builtFiles, urlOf } from "../support/site.ts";

const site = browserOnSite();

async function pageUrls(): Promise<string[]> {
  return (await builtFiles())
    .filter((f) => f.endsWith(".html"))
    .map((f) => urlOf(f))
    .filter((u) => !u.startsWith("/RDMA101/"))
    .sort();
}

describe("every page in Chromium", () => {
  for (const colorScheme of ["light", "dark"] as const) {
    // The two themes run side by side: each is a long walk through the site.
    it.concurrent(`at ${viewports.phone.width}px in ${colorScheme}`, async ({ expect }) => {
      const urls = await pageUrls();
      expect(urls.length).toBeGreaterThan(30);
      const failures: string[] = [];
      for (const url of urls) {
        const { page, context, problems } = await open(site.browser, `${site.server.origin}${url}`, { viewport: viewports.phone, colorScheme });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        if (overflow > 0) failures.push(`${url}: overflows sideways by ${overflow}px`);
        failures.push(...(await axeViolations(page)).map((v) => `${url}: ${v}`), ...problems.map((p) => `${url}: ${p}`));
        await context.close();
      }
      expect(failures).toEqual([]);
    }, 600_000);
  }
});

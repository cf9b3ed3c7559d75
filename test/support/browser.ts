// Debian's Chromium driven by playwright-core (never a downloaded browser), and axe for WCAG checks.
import { AxeBuilder } from "@axe-core/playwright";
import type { Browser, Locator, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll } from "vitest";
import { launch } from "./chromium.ts";
import { serve, type StaticServer } from "./server.ts";
import { siteDir } from "./site.ts";

export { launch };

export const viewports = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } } as const;


/** Opens a page and records console errors, failed requests and any request to another origin. */
export async function open(browser: Browser, url: string, options: { viewport: { width: number; height: number }; colorScheme?: "light" | "dark" }) {
  const context = await browser.newContext({ viewport: options.viewport, colorScheme: options.colorScheme ?? "light" });
  const page = await context.newPage();
  const problems = watch(page, new URL(url).origin);
  await page.goto(url, { waitUntil: "load" });
  return { page, context, problems };
}

/**
 * Visits `urls` one after another in one tab, as a reader follows links, and calls `check` on each
 * loaded page with the problems (see watch) it has had so far. A fresh browser context per page
 * would start a new renderer each time, which costs more than most checks.
 */
export async function walk(
  browser: Browser,
  origin: string,
  urls: string[],
  options: { viewport: { width: number; height: number }; colorScheme?: "light" | "dark" },
  check: (page: Page, url: string, problems: string[]) => Promise<void>,
): Promise<void> {
  // A walk over no pages checks nothing: the test that asked for it would pass on an empty list.
  if (urls.length === 0) throw new Error("walk: no pages to visit");
  const context = await browser.newContext({ viewport: options.viewport, colorScheme: options.colorScheme ?? "light" });
  try {
    const page = await context.newPage();
    const problems = watch(page, origin);
    for (const url of urls) {
      await page.goto(`${origin}${url}`, { waitUntil: "load" });
      await check(page, url, problems);
      problems.length = 0;
    }
  } finally {
    await context.close();
  }
}

/** Console errors, failed requests and any request to another origin on `page`, as they happen. */
export function watch(page: Page, origin: string): string[] {
  const problems: string[] = [];
  page.on("console", (msg) => msg.type() === "error" && problems.push(`console: ${msg.text()}`));
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("request", (req) => !req.url().startsWith(origin) && !req.url().startsWith("data:") && problems.push(`third-party request: ${req.url()}`));
  page.on("response", (res) => res.status() >= 400 && problems.push(`HTTP ${res.status()}: ${res.url()}`));
  return problems;
}

/**
 * WCAG 2.2 A and AA violations, as readable lines. axe runs in the page itself ("legacy mode"): its
 * default opens a second, blank page to merge results across cross-origin frames, which this site
 * never has, and that costs more than the check on most pages. Passes are not itemised (only
 * violations are read), which keeps the results small.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .options({ resultTypes: ["violations"] }) // first: options() replaces what withTags() sets
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
    .setLegacyMode()
    .analyze();
  return results.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")} — ${n.failureSummary ?? v.help}`));
}

/** A browser and a 127.0.0.1 server over the built site, shared by one test file. */
export function browserOnSite(): { browser: Browser; server: StaticServer } {
  const shared = {} as { browser: Browser; server: StaticServer };
  beforeAll(async () => {
    [shared.browser, shared.server] = await Promise.all([launch(), serve(siteDir())]);
  });
  afterAll(async () => {
    await shared.browser?.close();
    await shared.server?.close();
  });
  return shared;
}

/**
 * Which side edges of a scrolling box show a shade (or, in forced colours, a bar), in the light
 * theme: the lightest pixel of the middle third of the column 2px inside each edge is darker than
 * the page (a glyph or a line may cross that column, but never all of it). Animations run: the
 * forced-colours bars follow the scroll position by one, which "disabled" would cancel.
 */
export async function shadedEdges(box: Locator): Promise<{ left: boolean; right: boolean }> {
  const { data, info } = await sharp(await box.screenshot({ animations: "allow" })).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const lightest = (x: number) => {
    let max = 0;
    for (let y = Math.floor(info.height / 3); y < Math.ceil((2 * info.height) / 3); y++) {
      const i = (y * info.width + x) * info.channels;
      max = Math.max(max, (data[i]! + data[i + 1]! + data[i + 2]!) / 3);
    }
    return max;
  };
  const page = 250; // the light theme's page, #fdfdfb, is 252 on average
  return { left: lightest(2) < page - 10, right: lightest(info.width - 3) < page - 10 };
}

// Lessons and posts printed on A5, the narrowest paper a reader is likely to pick. Paper cannot
// scroll: a table wider than the page makes Chromium shrink every page of the print to fit it (other
// browsers cut its right side off). Print layout is emulated at the width of A5's page box, which is
// what the print stylesheet's width query sees when Chromium prints to A5 (page.pdf agrees).
import { describe, expect, it } from "vitest";
import { browserOnSite, walk } from "../support/browser.ts";
import { lessonUrls, pageUrls } from "../support/site.ts";

const site = browserOnSite();

/** CSS pixels (96 to the inch) in `mm` millimetres, rounded down. */
const px = (mm: number) => Math.floor((mm * 96) / 25.4);
/** A5 (148 × 210 mm) inside Chromium's default print margins, 1 cm on each side. */
const a5 = { width: px(148 - 20), height: px(210 - 20) };

describe("lessons and posts printed on A5", () => {
  it("no table is wider than the page box", async () => {
    const posts = (await pageUrls()).filter((url) => /^(\/zh)?\/posts\/[^/]+\/$/.test(url));
    expect(posts.length).toBeGreaterThan(1);
    const urls = [...lessonUrls(), "/rdma101/print/", ...posts];
    let tables = 0;
    const wide: string[] = [];
    await walk(site.browser, site.server.origin, urls, { viewport: a5 }, async (page, url) => {
      await page.emulateMedia({ media: "print" });
      const measured = await page.evaluate(async () => {
        await document.fonts.ready; // math in a cell is set in KaTeX's fonts
        return [...document.querySelectorAll("table")].map((table) => {
          // The text column the table sits in: its numbered box, else its parent.
          const box = table.closest(".table-scroll") ?? table.parentElement!;
          return {
            label: box.getAttribute("aria-label") ?? table.rows[0]?.textContent?.trim().slice(0, 40),
            width: table.getBoundingClientRect().width,
            column: box.getBoundingClientRect().width,
            page: document.documentElement.clientWidth,
          };
        });
      });
      tables += measured.length;
      // Half a pixel of slack for subpixel layout.
      for (const t of measured) {
        if (t.width > Math.min(t.column, t.page) + 0.5) wide.push(`${url} ${t.label}: ${Math.round(t.width)}px wide in a ${Math.round(t.column)}px column on a ${t.page}px page`);
      }
    });
    expect(tables, "tables measured").toBeGreaterThan(0);
    expect(wide).toEqual([]);
  }, 300_000);
});

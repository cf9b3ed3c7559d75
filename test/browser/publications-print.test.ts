// Lists of papers printed (the publications page and the homepage's list, in every language): they
// flow as a CV does, several papers to a page, each whole, with what a reader cites (title, authors,
// venue and year, award, every link's address) and no controls. A folded BibTeX stays folded on
// paper, where it took half a page a paper; each paper's own page prints it, and so does the list
// when the reader opened it.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { LANGUAGE_CODES } from "../../src/languages.ts";
import { routes } from "../../src/urls.ts";
import { browserOnSite, open } from "../support/browser.ts";
import { loadPage } from "../support/site.ts";

const site = browserOnSite();

/** CSS pixels (96 to the inch) in `mm` millimetres, rounded down. */
const px = (mm: number) => Math.floor((mm * 96) / 25.4);
/** Chromium's default print margins, 1 cm on each side. */
const margin = { top: "1cm", right: "1cm", bottom: "1cm", left: "1cm" };
/** A4's page box inside those margins: what the print stylesheet lays out on. */
const a4 = { width: px(210 - 20), height: px(297 - 20) };
/** The pages of a PDF Chromium wrote: it writes each page's object as it is, never packed in a stream. */
const pdfPages = (pdf: Buffer): number => pdf.toString("latin1").match(/\/Type\s*\/Page\b/g)?.length ?? 0;

const lists = LANGUAGE_CODES.flatMap((lang) => [routes.publications(lang), routes.home(lang)]);

/** Each paper in the list as print lays it out: its height, and what of it is printed. */
const printedEntries = (page: Page) =>
  page.evaluate(() => {
    const shown = (el: Element | null) => el !== null && el.checkVisibility({ visibilityProperty: true });
    return [...document.querySelectorAll(".publication")].map((entry) => ({
      id: entry.id,
      height: entry.getBoundingClientRect().height,
      breakInside: getComputedStyle(entry).breakInside,
      cited: [".pub-title a", ".pub-authors", ".pub-venue"].filter((s) => !shown(entry.querySelector(s))),
      award: entry.querySelector(".award") === null || shown(entry.querySelector(".award")),
      // Each link prints its address after its name, as the text's other links do, and no button's box.
      links: [...entry.querySelectorAll<HTMLAnchorElement>(".pub-links a")].map((a) => ({
        shown: shown(a),
        address: getComputedStyle(a, "::after").content.includes(`<${a.getAttribute("href")}>`),
        box: getComputedStyle(a).borderTopStyle !== "none" && parseFloat(getComputedStyle(a).borderTopWidth) > 0,
      })),
      controls: [...entry.querySelectorAll("summary, .copy-button, pre")].filter(shown).map((el) => el.localName),
    }));
  });

describe("lists of papers in print", () => {
  it("print several papers to a page on A4 and Letter, in every language", async () => {
    const { page, context } = await open(site.browser, `${site.server.origin}/`, { viewport: a4 });
    for (const lang of LANGUAGE_CODES) {
      const url = routes.publications(lang);
      await page.goto(`${site.server.origin}${url}`);
      const papers = await page.locator(".publication").count();
      expect(papers, url).toBeGreaterThan(0);
      for (const format of ["A4", "Letter"] as const) {
        const pages = pdfPages(await page.pdf({ format, margin }));
        expect(pages, `${url} on ${format}`).toBeGreaterThan(0);
        // Two papers a page at least, on average (the title and the introduction share the first).
        expect(pages, `${url} on ${format}: pages for ${papers} papers`).toBeLessThanOrEqual(Math.ceil(papers / 2));
      }
    }
    await context.close();
  });

  it("print each paper whole and small enough to share its page, with all that is cited and no controls", async () => {
    const { page, context } = await open(site.browser, `${site.server.origin}/`, { viewport: a4 });
    await page.emulateMedia({ media: "print" });
    for (const url of lists) {
      await page.goto(`${site.server.origin}${url}`);
      const entries = await printedEntries(page);
      expect(entries.length, url).toBe(loadPage(url).querySelectorAll(".publication").length);
      expect(entries.length, url).toBeGreaterThan(0);
      for (const e of entries) {
        const where = `${url}#${e.id}`;
        expect(e.breakInside, where).toBe("avoid");
        // A third of the page at most, so that a page holds several.
        expect(e.height, `${where}: height on an A4 page ${a4.height}px tall`).toBeLessThanOrEqual(a4.height / 3);
        expect(e.cited, `${where}: not printed`).toEqual([]);
        expect(e.award, `${where}: award`).toBe(true);
        expect(e.links.filter((l) => !l.shown || !l.address || l.box), `${where}: links`).toEqual([]);
        expect(e.controls, `${where}: controls or folded BibTeX printed`).toEqual([]);
      }
    }
    await context.close();
  });

  it("print a BibTeX the reader opened, without its triangle or copy button, and every paper's own page prints its BibTeX", async () => {
    const { page, context } = await open(site.browser, `${site.server.origin}${routes.publications()}`, { viewport: a4 });
    const bibtex = page.locator(".publication .bibtex").first();
    await bibtex.locator("summary").click();
    await page.emulateMedia({ media: "print" });
    await expect(bibtex.locator("pre").isVisible()).resolves.toBe(true);
    await expect(bibtex.locator(".copy-button").isVisible()).resolves.toBe(false);
    await expect(bibtex.locator("summary").evaluate((s) => getComputedStyle(s).listStyleType)).resolves.toBe("none");
    // The others stay folded.
    await expect(page.locator(".publication .bibtex pre").filter({ visible: true }).count()).resolves.toBe(1);
    const paper = loadPage(routes.publications()).querySelector<HTMLAnchorElement>(".pub-title a")!.getAttribute("href")!;
    await page.goto(`${site.server.origin}${paper}`);
    await expect(page.locator("pre code[id^='bibtex-']").isVisible()).resolves.toBe(true);
    await context.close();
  });
});

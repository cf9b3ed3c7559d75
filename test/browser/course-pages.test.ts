// RDMA 101's gathering pages in Chromium: the glossary's letter index jumps, the labs page passes axe,
// and the print page, printed from the dark theme, comes out light, open and without navigation. (axe
// over the whole course on one page takes minutes; its lessons and template parts are checked on
// their own pages.) Printed, every program and transcript comes out whole.
import { describe, expect, it } from "vitest";
import { axeViolations, browserOnSite, open, viewports } from "../support/browser.ts";

const site = browserOnSite();

describe("RDMA 101's glossary, labs and print pages in Chromium", () => {
  it("labs page: no axe violation, no error, in the dark theme", async () => {
    const { page, context, problems } = await open(site.browser, `${site.server.origin}/rdma101/labs/`, { viewport: viewports.desktop, colorScheme: "dark" });
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it("glossary: jumps from a letter of its index to that letter's first term, from the keyboard", async () => {
    const { page, context } = await open(site.browser, `${site.server.origin}/rdma101/glossary/`, { viewport: { width: 320, height: 640 } });
    await page.emulateMedia({ reducedMotion: "reduce" }); // the jump is then instant, not a smooth scroll
    const letters = page.locator(".letter-index a");
    const last = letters.last();
    const letter = (await last.textContent())!.trim();
    await last.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.evaluate(() => location.hash)).not.toBe("");
    const target = await page.evaluate(() => {
      const dt = document.getElementById(decodeURIComponent(location.hash.slice(1)))!;
      const before = dt.previousElementSibling?.previousElementSibling; // the dd, then the dt of the term before
      return { tag: dt.tagName, term: dt.textContent!.trim(), before: before?.textContent?.trim() ?? "", top: Math.round(dt.getBoundingClientRect().top) };
    });
    expect(target.tag).toBe("DT");
    expect(target.term[0]!.toUpperCase()).toBe(letter);
    expect(target.before[0]?.toUpperCase()).not.toBe(letter);
    expect(target.top).toBeLessThan(100); // scrolled to it
    await context.close();
  });

  it("prints the whole course light whatever the theme: figures in dark ink, answers open, no navigation, a page per lesson", async () => {
    const { page, context, problems } = await open(site.browser, `${site.server.origin}/rdma101/print/`, { viewport: viewports.desktop, colorScheme: "dark" });
    expect(problems).toEqual([]);
    await page.evaluate(() => (document.documentElement.dataset.theme = "dark"));
    const look = () =>
      page.evaluate(() => {
        const style = (selector: string) => getComputedStyle(document.querySelector(selector)!);
        const answers = [...document.querySelectorAll<HTMLDetailsElement>("details.answer")];
        return { figure: style(".figure svg").color, page: style("body").backgroundColor, nav: style(".site-header nav").display, answers: answers.length > 0 && answers.every((d) => d.open) };
      });
    // Long programs and transcripts scroll inside a box of limited height on screen; paper cannot
    // scroll, so there each one must come out whole.
    const cutCode = () =>
      page.evaluate(() => [...document.querySelectorAll("pre")].filter((pre) => pre.scrollHeight > pre.clientHeight + 1).map((pre) => pre.textContent!.trim().split("\n")[0]));
    expect((await cutCode()).length).toBeGreaterThan(0);
    const screen = await look();
    await page.emulateMedia({ media: "print" });
    expect(await cutCode()).toEqual([]);
    // Tables do not scroll on paper either: each fits the text column, or its right-hand columns are lost.
    const wideTables = await page.evaluate(() =>
      [...document.querySelectorAll(".table-scroll")].filter((box) => box.querySelector("table")!.getBoundingClientRect().right > box.getBoundingClientRect().right + 1).map((box) => box.getAttribute("aria-label")),
    );
    expect(wideTables).toEqual([]);
    const printed = await look();
    // On screen in the dark theme the figures are drawn in light ink; on paper, in dark ink on white.
    expect(screen.figure).not.toBe(printed.figure);
    expect(printed).toEqual({ figure: "rgb(27, 28, 30)", page: "rgb(255, 255, 255)", nav: "none", answers: true });
    // Each part starts a page, and so does each lesson after the first of its part.
    const starts = await page.evaluate(() =>
      [...document.querySelectorAll(".print-part, .print-lesson")]
        .filter((el) => el.classList.contains("print-part") || el.previousElementSibling?.classList.contains("print-lesson"))
        .map((el) => getComputedStyle(el).breakBefore),
    );
    expect(starts.length).toBeGreaterThan(1);
    expect(starts.filter((b) => b !== "page")).toEqual([]);
    const printOnly = await page.evaluate(() => [...document.querySelectorAll(".answer summary .print-only")].map((el) => getComputedStyle(el).display));
    expect(printOnly.length, "answers' print-only labels").toBeGreaterThan(0);
    expect(printOnly.filter((display) => display === "none")).toEqual([]);
    // A transcript's labels (which terminal printed it, its exit status) print; copy buttons do not.
    const transcriptLabels = page.locator(".transcript .code-lang");
    expect(await transcriptLabels.count()).toBeGreaterThan(0);
    expect(await transcriptLabels.evaluateAll((labels) => labels.filter((label) => !label.checkVisibility()).length)).toBe(0);
    expect(await page.locator(".copy-button").evaluateAll((buttons) => buttons.filter((button) => button.checkVisibility()).length)).toBe(0);
    // Nothing that introduces what follows ends a page alone: a lesson's headings (h4 and h5 here, under
    // the lesson's h3), a code block's label, a table's caption (whole, too), an answer's summary; a
    // transcript's caption does not start one. Neither a table row nor a part's lessons in the contents
    // are split across two pages.
    const breaks = await page.evaluate(() => {
      const count = (selector: string, ok: (style: CSSStyleDeclaration) => boolean, which = (_el: Element) => true) => {
        const all = [...document.querySelectorAll(selector)].filter(which);
        return { all: all.length, bad: all.filter((el) => !ok(getComputedStyle(el))).map((el) => `${el.tagName} ${el.textContent!.trim().slice(0, 40)}`) };
      };
      return {
        headings: count(".print-lesson :is(h3, h4, h5)", (s) => s.breakAfter === "avoid"),
        codeLabels: count(".code-head", (s) => s.breakAfter === "avoid"),
        tableCaptions: count(".table-figure > figcaption", (s) => s.breakAfter === "avoid" && s.breakInside === "avoid"),
        summaries: count("details.answer > summary", (s) => s.breakAfter === "avoid"),
        codeCaptions: count(".code-caption", (s) => s.breakBefore === "avoid"),
        rows: count("tr", (s) => s.breakInside === "avoid"),
        contentsParts: count(".print-contents > ol > li", (s) => s.breakInside === "avoid"),
        // A paragraph that leads into a list, a program, a transcript or a table ("…like this:").
        leadIns: count(".lesson-body p", (s) => s.breakAfter === "avoid", (p) => p.textContent!.trim().endsWith(":") && !p.nextElementSibling?.matches("h2, h3, h4, h5, h6")),
      };
    });
    for (const [what, { all, bad }] of Object.entries(breaks)) {
      expect(all, what).toBeGreaterThan(0);
      expect(bad, what).toEqual([]);
    }
    // Answers print open: no "closed" triangle before their summary.
    const markers = await page.evaluate(() => [...document.querySelectorAll("details.answer > summary")].filter((s) => getComputedStyle(s).listStyleType !== "none").length);
    expect(markers).toBe(0);
    // On paper narrower than the drawings' screen minimum (36rem: A5, say), they shrink to the page rather than lose their right side.
    await page.setViewportSize({ width: 480, height: 800 });
    const figures = await page.evaluate(() => {
      const boxes = [...document.querySelectorAll(".figure-scroll")];
      return { all: boxes.length, cut: boxes.filter((box) => box.querySelector("svg")!.getBoundingClientRect().right > box.getBoundingClientRect().right + 1).length };
    });
    expect(figures.all).toBeGreaterThan(0);
    expect(figures.cut).toBe(0);
    await context.close();
  }, 300_000);
});

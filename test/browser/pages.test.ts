// Each kind of page in real Chromium on a wide screen and a 320px one, the site header on a phone and its focus order, the language switch,
// the code copy button, and the course sidebar folding on small screens without JavaScript.
import { describe, expect, it } from "vitest";
import { t } from "../../src/i18n.ts";
import { languageOf } from "../../src/urls.ts";
import { axeViolations, open, shadedEdges, viewports, browserOnSite, walk } from "../support/browser.ts";
import { laidOut, lineStarts, runOf, type LaidOut } from "../support/lines.ts";
import { loadPage, pageUrls, samplePages } from "../support/site.ts";

const site = browserOnSite();

/** The first post that has an element matching `selector`, if one has. */
const postWith = (selector: string) =>
  [...loadPage("/archives/").querySelectorAll(".archive-list a")].map((a) => a.getAttribute("href")!).find((u) => loadPage(u).querySelector(selector));
/** The post with code and math if there is one: the heaviest page type. */
const richPost = () => postWith(".katex") ?? loadPage("/archives/").querySelector(".archive-list a")!.getAttribute("href")!;
const firstLesson = () => loadPage("/rdma101/").querySelector(".syllabus-lessons a")!.getAttribute("href")!;
const exampleLesson = () =>
  [...loadPage("/rdma101/").querySelectorAll(".syllabus-lessons a")].map((a) => a.getAttribute("href")!).find((u) => loadPage(u).querySelector("figure.example"))!;

/** One page of each kind in each language, and the heaviest pages: a post with math, a lesson with a program. */
const pages = async () => [...new Set([...samplePages(await pageUrls()), richPost(), exampleLesson()])];

describe("pages in Chromium", () => {
  // Phone width, in both themes, is covered in every-page.test.ts; here, each kind of page on a wide
  // screen (the themes differ in colour only, which the phone walk checks).
  it(`each kind of page at ${viewports.desktop.width}px: no errors, no overflow, no axe violations`, async () => {
    await walk(site.browser, site.server.origin, await pages(), { viewport: viewports.desktop }, async (page, url, problems) => {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${url} overflows sideways`).toBeLessThanOrEqual(0);
      expect(await axeViolations(page), url).toEqual([]);
      expect(problems, url).toEqual([]);
    });
  }, 300_000);

  it("fits each kind of page into a 320px-wide screen", async () => {
    await walk(site.browser, site.server.origin, await pages(), { viewport: { width: 320, height: 640 } }, async (page, url) => {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, url).toBeLessThanOrEqual(0);
    });
  }, 120_000);

  it("fits the site header into two rows on a phone, in both languages: the name and tools, then every section, each a target of 24×24px or more whose focus ring touches no other", async () => {
    const urls = await pages();
    expect(new Set(urls.map(languageOf))).toEqual(new Set(["en", "zh"]));
    const failures: string[] = [];
    for (const width of [390, 320]) {
      await walk(site.browser, site.server.origin, urls, { viewport: { width, height: 640 } }, async (page, url) => {
        const header = await page.evaluate(headerLayout);
        expect(header.sections, url).toBeGreaterThan(0);
        failures.push(...header.problems.map((p) => `${url} at ${width}px: ${p}`));
      });
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it("moves focus through the site header in reading order at desktop, tablet and phone widths, in both languages: each next control to the right on its row or on a lower row, each focus ring on the screen", async () => {
    // Each language's home and a post in each, and a lesson (no language switch). Not the search
    // page: its script moves focus to the search box once the index has loaded.
    const urls = ["/", "/zh/", richPost(), loadPage("/zh/archives/").querySelector(".archive-list a")!.getAttribute("href")!, firstLesson()];
    const failures: string[] = [];
    for (const width of [viewports.desktop.width, 768, 390, 320]) {
      await walk(site.browser, site.server.origin, urls, { viewport: { width, height: 640 } }, async (page, url) => {
        const controls = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>(".site-header :is(a, button)")].filter((el) => el.checkVisibility()).length);
        const stops: HeaderStop[] = [];
        // From the top of the page: Tab past what comes before the header (the skip link), then through it.
        for (let i = 0; i < controls + 5; i++) {
          await page.keyboard.press("Tab");
          const stop = await page.evaluate(headerStop);
          if (stop) stops.push(stop);
          else if (stops.length > 0) break;
        }
        expect(stops.length, `${url} at ${width}px: header controls reached by Tab`).toBe(controls);
        failures.push(...readingOrderBreaks(stops).map((p) => `${url} at ${width}px: ${p}`));
      });
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it("keeps the header as it is when the script shows the theme button, with or without a language switch: its height, the sections and the switch stay put", async () => {
    const urls = ["/", "/zh/", firstLesson()];
    const failures: string[] = [];
    for (const width of [viewports.desktop.width, 768, 390, 320]) {
      await walk(site.browser, site.server.origin, urls, { viewport: { width, height: 640 } }, async (page, url) => {
        const layouts = await page.evaluate(() => {
          const button = document.querySelector<HTMLElement>(".theme-toggle")!;
          const layout = () =>
            [".site-header", ".site-nav", ".language-switch"].map((selector) => {
              const box = document.querySelector(selector)?.getBoundingClientRect();
              return box ? `${selector} ${box.left},${box.top} ${box.width}×${box.height}` : `${selector} none`;
            });
          const shown = layout();
          button.hidden = true;
          const before = layout();
          button.hidden = false;
          return { shown, before };
        });
        layouts.before.forEach((box, i) => box !== layouts.shown[i] && failures.push(`${url} at ${width}px: ${box} before the button, ${layouts.shown[i]} with it`));
      });
    }
    expect(failures).toEqual([]);
  });

  it("puts a paper's award after its venue, or flush with the venue's text on a line of its own, in the lists and on the paper's page", async () => {
    const paper = [...loadPage("/publications/").querySelectorAll(".publication")].find((li) => li.querySelector(".award"))!.querySelector("a")!.getAttribute("href")!;
    const failures: string[] = [];
    for (const width of [viewports.desktop.width, 768, 390, 320]) {
      await walk(site.browser, site.server.origin, ["/", "/publications/", "/zh/", paper], { viewport: { width, height: 800 } }, async (page, url) => {
        const places = await page.locator(".award").evaluateAll((awards) =>
          awards.map((award) => {
            const venue = award.closest(".publication, main")!.querySelector(".pub-venue")!;
            const text = document.createRange();
            text.selectNodeContents(venue);
            if (venue.contains(award)) text.setEndBefore(award);
            const lines = [...text.getClientRects()];
            const last = lines.at(-1)!;
            const box = award.getBoundingClientRect();
            return { left: box.left, venueLeft: lines[0]!.left, afterVenue: box.top < last.bottom && box.left > last.right };
          }),
        );
        expect(places.length, url).toBeGreaterThan(0);
        for (const p of places) if (!p.afterVenue && Math.abs(p.left - p.venueLeft) > 0.5) failures.push(`${url} at ${width}px: the award starts ${(p.left - p.venueLeft).toFixed(1)}px from the venue's text`);
      });
    }
    expect(failures).toEqual([]);
  });

  it("switches language to the same page, or to the other language's section, from the keyboard", async () => {
    const { page, context } = await open(site.browser, `${site.server.origin}/subscribe/`, { viewport: viewports.phone });
    await page.locator(".language-switch").focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/zh\/subscribe\/$/);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("zh-CN");
    await page.locator(".language-switch").click();
    await page.waitForURL(/\/subscribe\/$/);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
    // The course is English only: it offers no switch that could lead nowhere.
    await page.goto(`${site.server.origin}${firstLesson()}`);
    await expect(page.locator(".language-switch").count()).resolves.toBe(0);
    await context.close();
  });

  it("speaks the page's language in what its script says", async () => {
    const { page, context } = await open(site.browser, `${site.server.origin}/zh/`, { viewport: viewports.desktop });
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const button = page.locator(".email .copy-button");
    await button.click();
    await expect.poll(() => button.textContent()).toBe(t("zh", "copy.done"));
    await expect(page.getByRole("status").textContent()).resolves.toBe(t("zh", "copy.doneStatus"));
    await context.close();
  });

  it("copies a post's code block with its button", async () => {
    const post = postWith(".post-body .code-block")!;
    const { page, context } = await open(site.browser, `${site.server.origin}${post}`, { viewport: viewports.phone });
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const button = page.locator(".post-body .code-block").first().locator(".copy-button");
    const label = await button.innerHTML();
    await button.click();
    // The button changes only after the asynchronous clipboard write: poll rather than race it.
    await expect.poll(() => button.textContent()).toBe("Copied");
    await expect(page.getByRole("status").textContent()).resolves.toBe("Copied to the clipboard");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await page.locator(".post-body .code-block pre code").first().textContent());
    // Then it gets its label back, hidden words and all.
    await expect.poll(() => button.innerHTML(), { timeout: 5000 }).toBe(label);
    await context.close();
  });

  it("copies a code block with its button", async () => {
    const { page, context } = await open(site.browser, `${site.server.origin}${exampleLesson()}`, { viewport: viewports.desktop });
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const block = page.locator("figure.example").first();
    await block.locator(".copy-button").click();
    const code = await block.locator("pre code").textContent();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    expect(code).toContain("#include <infiniband/verbs.h>");
    await context.close();
  });

  it("folds the lesson sidebar on a phone and opens it from the keyboard, without JavaScript", async () => {
    const context = await site.browser.newContext({ viewport: viewports.phone, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.server.origin}${firstLesson()}`);
    const current = page.locator('.course-nav a[aria-current="page"]');
    await expect(current.isVisible()).resolves.toBe(false);
    await page.locator(".course-nav summary").focus();
    await page.keyboard.press("Enter");
    await expect(current.isVisible()).resolves.toBe(true);
    await context.close();
  });

  it("prints what folded boxes hide (answers, a chart's data), keeps a listed post whole, and leaves out the sidebar and the links to other lessons", async () => {
    const { page, context } = await open(site.browser, `${site.server.origin}${firstLesson()}`, { viewport: viewports.desktop });
    await page.emulateMedia({ media: "print" });
    const answer = page.locator("details.answer > :not(summary)").first();
    await expect(answer.isVisible()).resolves.toBe(true);
    await expect(page.locator(".course-nav").isVisible()).resolves.toBe(false);
    await expect(page.locator(".pager").isVisible()).resolves.toBe(false);
    // (A list's folded BibTeX stays folded: publications-print.test.ts.)
    await page.goto(`${site.server.origin}/`);
    // A link to the other language's page means nothing on paper.
    await expect(page.locator(".language-switch").isVisible()).resolves.toBe(false);
    // A listed post's title, date and summary stay on one page.
    const posts = await page.evaluate(() => [...document.querySelectorAll(".post-list > li")].map((li) => getComputedStyle(li).breakInside));
    expect(posts.length).toBeGreaterThan(0);
    expect(posts.filter((b) => b !== "avoid")).toEqual([]);
    // What a folded box hides prints open, so no "closed" triangle marks its summary (answers, a
    // chart's data), and the summary does not end a page alone.
    const summaries = () =>
      page.evaluate(() => [...document.querySelectorAll("details > summary")].filter((s) => !s.closest(".course-nav")).map((s) => `${getComputedStyle(s).listStyleType} ${getComputedStyle(s).breakAfter}`));
    const chartPost = postWith("details.chart-data")!;
    for (const url of [firstLesson(), chartPost]) {
      await page.goto(`${site.server.origin}${url}`);
      const printed = await summaries();
      expect(printed.length, url).toBeGreaterThan(0);
      expect(printed.filter((s) => s !== "none avoid"), url).toEqual([]);
    }
    // A paragraph that leads into what follows ("…is at hand:") stays with it, display math included.
    await page.goto(`${site.server.origin}${postWith(".katex-block")!}`);
    const leadIns = await page.evaluate(() =>
      [...document.querySelectorAll(".post-body p")]
        .filter((p) => /[:：]$/.test(p.textContent!.trim()) && p.nextElementSibling && !p.nextElementSibling.matches("h2, h3, h4, h5, h6"))
        .map((p) => `${p.nextElementSibling?.className}: ${getComputedStyle(p).breakAfter}`),
    );
    expect(leadIns.length).toBeGreaterThan(0);
    expect(leadIns.filter((l) => !l.endsWith(": avoid"))).toEqual([]);
    await context.close();
  });

  it("scrolls a wide figure on a phone from the keyboard, shading the edge that hides more, and adds no tab stop where it fits", async () => {
    const url = firstLesson();
    const caption = loadPage(url).querySelector("figure.figure figcaption")!.textContent!.trim();
    const { page, context } = await open(site.browser, `${site.server.origin}${url}`, { viewport: viewports.phone });
    const region = page.locator(".figure-scroll").first();
    await expect(region.getAttribute("tabindex")).resolves.toBe("0");
    // A touch screen shows no scrollbar: the shade says the drawing goes on.
    expect(await shadedEdges(region)).toEqual({ left: false, right: true });
    await expect(page.getByRole("region", { name: caption, exact: true }).count()).resolves.toBe(1);
    await region.focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    await page.setViewportSize(viewports.desktop);
    await expect.poll(() => region.getAttribute("tabindex")).toBeNull();
    await context.close();
  });

  it("makes a paper page's BibTeX a tab stop only while it is too wide to show whole", async () => {
    const { page, context } = await open(site.browser, `${site.server.origin}/publications/ren2022libcrpm/`, { viewport: viewports.desktop });
    const bibtex = page.getByRole("region", { name: /^BibTeX for libcrpm/ });
    // Whether its longest line fits depends on the machine's monospace font: set the type's size so
    // that it fits, then so that it cannot, each followed by a resize, which the page listens for.
    const sized = async (size: string, viewport: { width: number; height: number }) => {
      await bibtex.evaluate((pre, value) => ((pre as HTMLElement).style.fontSize = value), size);
      await page.setViewportSize(viewport);
    };
    await sized("4px", { ...viewports.desktop, width: viewports.desktop.width - 1 });
    await expect.poll(() => bibtex.getAttribute("tabindex")).toBeNull();
    await sized("", viewports.phone);
    await expect.poll(() => bibtex.getAttribute("tabindex")).toBe("0");
    await context.close();
  });

  it("opens the wide sidebar at the current lesson, even the last, without moving the page", async () => {
    const last = [...loadPage("/rdma101/").querySelectorAll(".syllabus-lessons a")].at(-1)!.getAttribute("href")!;
    const { page, context } = await open(site.browser, `${site.server.origin}${last}`, { viewport: viewports.desktop });
    const view = await page.evaluate(() => {
      const list = document.querySelector(".course-nav nav")!.getBoundingClientRect();
      const current = document.querySelector('.course-nav a[aria-current="page"]')!.getBoundingClientRect();
      return { inside: current.top >= list.top && current.bottom <= list.bottom, pageScroll: scrollY };
    });
    expect(view).toEqual({ inside: true, pageScroll: 0 });
    await context.close();
  });

  it("wraps Chinese headings at spaces and punctuation, inside a word only when the word is wider than the line", async () => {
    const urls = (await pageUrls()).filter((url) => languageOf(url) === "zh");
    const failures: string[] = [];
    for (const width of [320, viewports.phone.width, viewports.desktop.width]) {
      await walk(site.browser, site.server.origin, urls, { viewport: { width, height: 800 } }, async (page, url) => {
        const headings = await page.evaluate(laidOut, { selector: "main :is(h1, h2, h3, h4)" });
        failures.push(...wordsSplitAcrossLines(headings).map((f) => `${url} at ${width}px: ${f}`));
      });
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it("keeps the previous and next lesson links side by side on a 320px screen", async () => {
    const lessons = [...loadPage("/rdma101/").querySelectorAll(".syllabus-lessons a")].map((a) => a.getAttribute("href")!);
    await walk(site.browser, site.server.origin, lessons, { viewport: { width: 320, height: 640 } }, async (page, url) => {
      const tops = await page.locator(".pager a").evaluateAll((links) => links.map((a) => Math.round(a.getBoundingClientRect().top)));
      expect(new Set(tops).size, url).toBe(1);
    });
  }, 120_000);

  it("marks the current page in the course sidebar with its bar clear of the text, on the course home, a lesson and a reference page", async () => {
    const urls = ["/rdma101/", firstLesson(), "/rdma101/glossary/"];
    for (const viewport of [viewports.desktop, viewports.phone]) {
      await walk(site.browser, site.server.origin, urls, { viewport }, async (page, url) => {
        await page.evaluate(() => document.querySelector<HTMLDetailsElement>(".course-nav")!.setAttribute("open", ""));
        const gap = await page.locator('.course-nav a[aria-current="page"]').evaluate((a) => {
          const range = document.createRange();
          range.selectNodeContents(a);
          // The bar is an inset shadow on the link's left edge: the text starts at least twice its width further in.
          return range.getClientRects()[0]!.left - a.getClientRects()[0]!.left;
        });
        expect(gap, `${url} at ${viewport.width}px`).toBeGreaterThanOrEqual(6);
      });
    }
  });

  it("always shows the lesson sidebar on a wide screen", async () => {
    const { page, context } = await open(site.browser, `${site.server.origin}${firstLesson()}`, { viewport: viewports.desktop });
    await expect(page.locator('.course-nav a[aria-current="page"]').isVisible()).resolves.toBe(true);
    await expect(page.locator(".course-nav summary").isVisible()).resolves.toBe(false);
    await context.close();
  });
});

/**
 * Each heading line that ends between two Han characters, unless the run of text around the break
 * (up to a space or punctuation) is wider than the heading, so it could not fit.
 */
function wordsSplitAcrossLines(headings: LaidOut[]): string[] {
  const han = /\p{Script=Han}/u;
  const breakable = /[\s\p{P}]/u;
  const failures: string[] = [];
  for (const heading of headings) {
    const { chars } = heading;
    for (const i of lineStarts(heading)) {
      const [before, after] = [chars[i - 1]!, chars[i]!];
      if (!han.test(before.char) || !han.test(after.char)) continue;
      let [start, end] = [i - 1, i];
      while (start > 0 && !breakable.test(chars[start - 1]!.char)) start--;
      while (end < chars.length - 1 && !breakable.test(chars[end + 1]!.char)) end++;
      const { run, width } = runOf(heading, start, end);
      if (width <= heading.line) failures.push(`"${heading.label}" breaks "${run}" after "${before.char}"`);
    }
  }
  return failures;
}

/**
 * In the page: the site header's controls as laid out (rows: controls whose boxes overlap
 * vertically), and what is wrong with them for a phone: more than two rows, a control outside the
 * screen or smaller than 24×24px (WCAG 2.5.8), a section's focus ring (outline and its offset)
 * off the screen or over another section.
 */
function headerLayout(): { sections: number; problems: string[] } {
  const controls = [...document.querySelectorAll<HTMLElement>(".site-header :is(a, button)")].filter((el) => el.checkVisibility());
  const name = (el: HTMLElement) => `"${el.textContent!.trim() || el.getAttribute("aria-label")}"`;
  const problems: string[] = [];
  const rows: { top: number; bottom: number }[] = [];
  for (const box of controls.map((el) => el.getBoundingClientRect()).sort((a, b) => a.top - b.top)) {
    const row = rows.find((r) => box.top < r.bottom && box.bottom > r.top);
    if (row) row.bottom = Math.max(row.bottom, box.bottom);
    else rows.push({ top: box.top, bottom: box.bottom });
  }
  if (rows.length > 2) problems.push(`${rows.length} rows`);
  const screen = document.documentElement.clientWidth;
  for (const el of controls) {
    const box = el.getBoundingClientRect();
    if (box.width < 24 || box.height < 24) problems.push(`${name(el)} is ${Math.round(box.width)}×${Math.round(box.height)}px`);
    if (box.left < 0 || box.right > screen) problems.push(`${name(el)} is off the screen`);
  }
  const sections = [...document.querySelectorAll<HTMLElement>(".site-nav a")];
  for (const el of sections) {
    el.focus();
    const style = getComputedStyle(el);
    const reach = parseFloat(style.outlineOffset) + parseFloat(style.outlineWidth);
    const box = el.getBoundingClientRect();
    const ring = { left: box.left - reach, right: box.right + reach, top: box.top - reach, bottom: box.bottom + reach };
    if (style.outlineStyle === "none" || reach <= 0) problems.push(`${name(el)} shows no focus ring`);
    if (ring.left < 0 || ring.right > screen) problems.push(`${name(el)}'s focus ring is cut off by the screen's edge`);
    for (const other of sections.filter((o) => o !== el).map((o) => o.getBoundingClientRect())) {
      if (ring.left < other.right && ring.right > other.left && ring.top < other.bottom && ring.bottom > other.top) problems.push(`${name(el)}'s focus ring covers a neighbour`);
    }
  }
  return { sections: sections.length, problems };
}

/** A control of the site header that has focus: its name, its box and how far its focus ring (outline and offset) reaches, in the viewport. */
interface HeaderStop {
  name: string;
  box: { left: number; right: number; top: number; bottom: number };
  ring: { left: number; right: number; top: number };
  screen: number;
}

/** In the page: the focused element, when it is a control of the site header. */
function headerStop(): HeaderStop | null {
  const el = document.activeElement as HTMLElement | null;
  if (!el?.closest(".site-header")) return null;
  const style = getComputedStyle(el);
  const reach = style.outlineStyle === "none" ? 0 : parseFloat(style.outlineOffset) + parseFloat(style.outlineWidth);
  const { left, right, top, bottom } = el.getBoundingClientRect();
  return {
    name: `"${el.textContent!.trim() || el.getAttribute("aria-label")}"`,
    box: { left, right, top, bottom },
    ring: { left: left - reach, right: right + reach, top: top - reach },
    screen: document.documentElement.clientWidth,
  };
}

/**
 * Where focus goes against reading order (left to right along a row, rows from the top): two
 * controls share a row when each one's middle is within the other's height; the next control must
 * then start at or right of where the last one ends, and otherwise be set lower, its middle below
 * the last one's bottom. Also each focus ring cut off by the screen's edges.
 */
function readingOrderBreaks(stops: HeaderStop[]): string[] {
  const middle = (b: HeaderStop["box"]) => (b.top + b.bottom) / 2;
  const within = (y: number, b: HeaderStop["box"]) => y > b.top && y < b.bottom;
  const problems: string[] = [];
  stops.forEach(({ name, box, ring, screen }, i) => {
    if (ring.left < 0 || ring.right > screen || ring.top < 0) problems.push(`${name}'s focus ring is cut off by the screen's edge`);
    const last = stops[i - 1];
    if (!last) return;
    const sameRow = within(middle(box), last.box) && within(middle(last.box), box);
    if (sameRow && box.left < last.box.right - 1) problems.push(`${last.name} then ${name}: back to the left on one row`);
    if (!sameRow && middle(box) < last.box.bottom) problems.push(`${last.name} then ${name}: back up to an earlier row`);
  });
  return problems;
}

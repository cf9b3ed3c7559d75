// Keyboard use: Tab reaches every interactive control on each kind of page, at phone and desktop widths,
// with a visible focus indicator; the skip link jumps to the main content (past the course's sidebar).
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { open, viewports, browserOnSite } from "../support/browser.ts";
import { loadPage } from "../support/site.ts";

const site = browserOnSite();

/** Every visible control a keyboard user must be able to reach, tagged so Tab can be checked against it. */
const tagControls = (page: Page) =>
  page.evaluate(() => {
    const controls = [...document.querySelectorAll<HTMLElement>("a[href], button, summary, [tabindex='0'], input, select, textarea")].filter((el) =>
      el.checkVisibility({ contentVisibilityAuto: true, visibilityProperty: true }),
    );
    controls.forEach((el, i) => (el.dataset.control = String(i)));
    return controls.length;
  });

async function tabThrough(page: Page, count: number) {
  const reached = new Set<string>();
  const unfocusedStyle: string[] = [];
  for (let i = 0; i < 2 * count + 10 && reached.size < count; i++) {
    await page.keyboard.press("Tab");
    const info = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const style = getComputedStyle(el);
      return { id: el.dataset.control ?? "", visible: style.outlineStyle !== "none" || style.boxShadow !== "none", label: el.outerHTML.slice(0, 80) };
    });
    if (!info) continue;
    if (info.id) reached.add(info.id);
    if (!info.visible) unfocusedStyle.push(info.label);
  }
  return { reached, unfocusedStyle };
}

describe("keyboard", () => {
  const pagesToCheck = () => ({
    home: "/",
    "Chinese home": "/zh/",
    "post list": "/posts/",
    post: loadPage("/archives/").querySelector(".archive-list a")!.getAttribute("href")!,
    "course home": "/rdma101/",
    lesson: loadPage("/rdma101/").querySelector(".syllabus-lessons a")!.getAttribute("href")!,
    glossary: "/rdma101/glossary/",
  });
  // Wide screens show the lesson sidebar; phones fold it behind a summary: both must work.
  const matrix = [
    ["home", "desktop"],
    ["Chinese home", "phone"],
    ["post list", "phone"],
    ["post", "desktop"],
    ["course home", "phone"],
    ["lesson", "desktop"],
    ["lesson", "phone"],
    ["glossary", "desktop"],
  ] as const;

  for (const [name, width] of matrix) {
    it(`reaches every control on the ${name} page (${width}) with Tab, each with a visible focus indicator`, async () => {
      const { page, context } = await open(site.browser, `${site.server.origin}${pagesToCheck()[name]}`, { viewport: viewports[width] });
      const count = await tagControls(page);
      // Every page has links at least; none found means the check below would compare nothing.
      expect(count, "visible controls").toBeGreaterThan(0);
      const { reached, unfocusedStyle } = await tabThrough(page, count);
      const missed = Array.from({ length: count }, (_, i) => String(i)).filter((i) => !reached.has(i));
      expect(missed, "controls Tab never reached").toEqual([]);
      expect(unfocusedStyle).toEqual([]);
      await context.close();
    }, 120_000);
  }

  it("skips to the main content from the first Tab", async () => {
    const { page, context } = await open(site.browser, `${site.server.origin}/`, { viewport: viewports.phone });
    await page.keyboard.press("Tab");
    await expect(page.evaluate(() => document.activeElement?.className)).resolves.toBe("skip-link");
    await page.keyboard.press("Enter");
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe("main");
    await context.close();
  });

  it("keeps a sidebar link's whole focus ring in view as Tab scrolls the wide sidebar, both ways", async () => {
    const { page, context } = await open(site.browser, `${site.server.origin}${pagesToCheck().lesson}`, { viewport: { width: 1280, height: 700 } });
    const cut: string[] = [];
    const links = await page.locator(".course-nav nav a").count();
    for (const key of ["Tab", "Shift+Tab"]) {
      for (let i = 0; i < links + 5; i++) {
        await page.keyboard.press(key);
        const label = await page.evaluate(() => {
          const link = document.activeElement!;
          const list = document.querySelector(".course-nav nav")!;
          if (!list.contains(link)) return null;
          // The ring is drawn outline-offset + outline-width outside the link; the list clips what is outside its box.
          const style = getComputedStyle(link);
          const ring = parseFloat(style.outlineOffset) + parseFloat(style.outlineWidth);
          const [l, box] = [link.getBoundingClientRect(), list.getBoundingClientRect()];
          const [top, bottom] = [box.top + list.clientTop, box.top + list.clientTop + list.clientHeight];
          return l.top - ring < top - 0.5 || l.bottom + ring > bottom + 0.5 ? link.textContent : null;
        });
        if (label) cut.push(`${key}: ${label}`);
      }
    }
    expect(cut).toEqual([]);
    await context.close();
  });

  it("skips past the course's sidebar too, on a wide screen where it shows all its lessons", async () => {
    for (const url of [pagesToCheck().lesson, "/rdma101/", "/rdma101/glossary/", "/rdma101/labs/"]) {
      const { page, context } = await open(site.browser, `${site.server.origin}${url}`, { viewport: viewports.desktop });
      await page.keyboard.press("Tab");
      await page.keyboard.press("Enter");
      // The next Tab reaches the page's own content, not the first of some forty lesson links.
      await page.keyboard.press("Tab");
      const next = await page.evaluate(() => ({ inSidebar: document.activeElement?.closest(".course-nav") !== null, inMain: document.activeElement?.closest("main") !== null }));
      expect(next, url).toEqual({ inSidebar: false, inMain: true });
      await context.close();
    }
  });
});

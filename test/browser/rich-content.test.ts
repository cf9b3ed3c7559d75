// What a phone reader sees of wide content the site's own posts may or may not have today: display
// math (a tab stop and a shaded edge where it scrolls) and numeric tables, on a fixture post that has both, so these checks never pass for want of
// a page to look at.
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launch, open, shadedEdges, viewports } from "../support/browser.ts";
import { build, smallProject } from "../support/eleventy.ts";
import { serve, type StaticServer } from "../support/server.ts";

const POST = "/posts/wide-content/";
// One formula wider than a phone but not a desktop, one that fits anywhere; numbers with units in narrow cells.
const BODY = `Some text.

$$
\\sum_{i=1}^{n} \\frac{\\mathrm{bytes\\ per\\ token}_i \\times \\mathrm{layers} \\times \\mathrm{heads}}{\\mathrm{link\\ bandwidth}} + \\mathrm{setup\\ time}
$$

$$
a + b
$$

| Setup | Round trip | Rate |
|---|---:|---:|
| One virtual machine on a shared host | 477.2 µs | 7,588 WRITEs/s |
| Two virtual machines on one emulated wire | 2,831.7 µs | 1,810.2 WRITEs/s |
`;

let root: string;
let browser: Browser;
let server: StaticServer;

beforeAll(async () => {
  root = await smallProject({ posts: [], lessons: ["posts/rdma101/01-getting-started/01-why-rdma.md"] });
  await mkdir(path.join(root, "posts/blog"), { recursive: true });
  await writeFile(
    path.join(root, "posts/blog/wide-content.md"),
    `---\ntitle: Wide content\ndate: 2020-01-01\ndescription: A formula and a table wider than a phone.\nmath: true\n---\n${BODY}`,
  );
  const out = path.join(root, "_site");
  const result = await build({ cwd: root, outDir: out });
  if (result.code !== 0) throw new Error(result.output);
  [browser, server] = await Promise.all([launch(), serve(out)]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

describe("wide content on a phone (fixture post)", () => {
  it("makes display math a tab stop where it scrolls sideways, and only there", async () => {
    const { page, context } = await open(browser, `${server.origin}${POST}`, { viewport: { width: 320, height: 640 } });
    const blocks = () =>
      page.evaluate(() => [...document.querySelectorAll(".katex-block")].map((el) => ({ scrolls: el.scrollWidth > el.clientWidth, stop: el.getAttribute("tabindex") === "0" })));
    expect(await blocks()).toEqual([
      { scrolls: true, stop: true },
      { scrolls: false, stop: false },
    ]);
    // The wide one scrolls from the keyboard.
    const wide = page.locator(".katex-block").first();
    await wide.focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => wide.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    // On a wide screen it fits, and stops being a tab stop.
    await page.setViewportSize(viewports.desktop);
    await expect.poll(blocks).toEqual([
      { scrolls: false, stop: false },
      { scrolls: false, stop: false },
    ]);
    await context.close();
  });

  it("shades the edge where a wide formula hides more, and only there", async () => {
    // Cut cleanly after a digit or a term, a formula would look whole; a touch screen shows no scrollbar.
    const { page, context } = await open(browser, `${server.origin}${POST}`, { viewport: { width: 320, height: 640 } });
    const [wide, narrow] = [page.locator(".katex-block").first(), page.locator(".katex-block").nth(1)];
    expect(await shadedEdges(wide)).toEqual({ left: false, right: true });
    expect(await shadedEdges(narrow)).toEqual({ left: false, right: false });
    await wide.evaluate((el) => (el.scrollLeft = el.scrollWidth));
    expect(await shadedEdges(wide)).toEqual({ left: true, right: false });
    await context.close();
  });

  it("in forced colours, which drop the shade, marks each edge where a wide formula hides more, and only there", async () => {
    // Tables and drawings share the rule; the fixture has formulas on both sides of the width.
    const { page, context } = await open(browser, `${server.origin}${POST}`, { viewport: { width: 320, height: 640 } });
    await page.emulateMedia({ forcedColors: "active" });
    const [wide, narrow] = [page.locator(".katex-block").first(), page.locator(".katex-block").nth(1)];
    expect(await shadedEdges(wide)).toEqual({ left: false, right: true });
    expect(await shadedEdges(narrow)).toEqual({ left: false, right: false });
    await wide.evaluate((el) => (el.scrollLeft = 20));
    await expect.poll(() => shadedEdges(wide)).toEqual({ left: true, right: true });
    await wide.evaluate((el) => (el.scrollLeft = el.scrollWidth));
    await expect.poll(() => shadedEdges(wide)).toEqual({ left: true, right: false });
    await context.close();
  });

  it("keeps a number and its unit on one line in a numeric table on a phone", async () => {
    const { page, context } = await open(browser, `${server.origin}${POST}`, { viewport: { width: 320, height: 640 } });
    const cells = await page.evaluate(() =>
      [...document.querySelectorAll('td[style*="text-align:right"]')].map((cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        const tops = [...range.getClientRects()].map((r) => Math.round(r.top));
        return { text: cell.textContent, lines: new Set(tops).size };
      }),
    );
    expect(cells).toEqual([
      { text: "477.2 µs", lines: 1 },
      { text: "7,588 WRITEs/s", lines: 1 },
      { text: "2,831.7 µs", lines: 1 },
      { text: "1,810.2 WRITEs/s", lines: 1 },
    ]);
    // The text column still wraps: only numeric cells are kept whole.
    const wrapped = await page.evaluate(() => {
      const cell = document.querySelector("tbody td")!;
      return cell.getBoundingClientRect().height > parseFloat(getComputedStyle(cell).lineHeight) * 1.5;
    });
    expect(wrapped).toBe(true);
    await context.close();
  });
});

// The homepage in real Chromium: renders cleanly at phone and desktop widths, the theme toggle works
// and persists, and axe finds no WCAG 2.2 A/AA violation in either theme.
import { describe, expect, it } from "vitest";
import { axeViolations, open, viewports, browserOnSite } from "../support/browser.ts";
import { loadPage } from "../support/site.ts";

const site = browserOnSite();

describe("homepage in Chromium", () => {
  for (const [name, viewport] of Object.entries(viewports)) {
    for (const colorScheme of ["light", "dark"] as const) {
      it(`renders at ${viewport.width}px in ${colorScheme} with no errors and no axe violations`, async () => {
        const { page, context, problems } = await open(site.browser, `${site.server.origin}/`, { viewport, colorScheme });
        await expect(page.locator("h1").textContent()).resolves.toContain("Feng Ren");
        // Nothing overflows sideways on a phone.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${name}: horizontal overflow`).toBeLessThanOrEqual(0);
        expect(await axeViolations(page)).toEqual([]);
        expect(problems).toEqual([]);
        await context.close();
      });
    }
  }

  it("keeps the theme button on the first row with the site's name on a phone and a tablet, in both languages", async () => {
    for (const [url, viewport] of [["/", viewports.phone], ["/zh/", viewports.phone], ["/", { width: 768, height: 1024 }]] as const) {
      const { page, context } = await open(site.browser, `${site.server.origin}${url}`, { viewport });
      const box = (selector: string) => page.locator(selector).boundingBox();
      const [name, toggle, language] = await Promise.all([box(".site-name"), box(".theme-toggle"), box(".language-switch")]);
      for (const control of [toggle, language]) {
        expect(control, `${url} at ${viewport.width}px`).not.toBeNull();
        // Vertically centred on the same row: their middles are within a few pixels.
        expect(Math.abs(control!.y + control!.height / 2 - (name!.y + name!.height / 2)), `${url} at ${viewport.width}px`).toBeLessThan(6);
      }
      await context.close();
    }
  });

  it("runs the inline theme script under the page's policy: a remembered theme applies before any other script", async () => {
    const context = await site.browser.newContext({ viewport: viewports.desktop, colorScheme: "light", javaScriptEnabled: true });
    await context.addInitScript(() => localStorage.setItem("theme", "dark"));
    const page = await context.newPage();
    const violations: string[] = [];
    page.on("console", (msg) => /Content Security Policy/i.test(msg.text()) && violations.push(msg.text()));
    await page.route(/enhance\.js/, (route) => route.abort());
    await page.goto(`${site.server.origin}/`);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    expect(violations).toEqual([]);
    await context.close();
  });

  it("toggles the theme and remembers it across a reload", async () => {
    const { page, context, problems } = await open(site.browser, `${site.server.origin}/`, { viewport: viewports.desktop, colorScheme: "light" });
    const toggle = page.locator(".theme-toggle");
    await expect(toggle.isVisible()).resolves.toBe(true);
    await expect(toggle.getAttribute("aria-pressed")).resolves.toBe("false");
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const lightBackground = await background();
    const buttonLook = () => toggle.evaluate((el) => getComputedStyle(el).backgroundColor);
    const unpressedLook = await buttonLook();

    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(toggle.getAttribute("aria-pressed")).resolves.toBe("true");
    expect(await background()).not.toBe(lightBackground);
    // Its label reads the same either way: the pressed state shows on the button itself.
    expect(await buttonLook()).not.toBe(unpressedLook);

    await page.reload();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    expect(await background()).not.toBe(lightBackground);
    await expect(page.locator(".theme-toggle").getAttribute("aria-pressed")).resolves.toBe("true");
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("copies the e-mail address and a paper's BibTeX with the keyboard", async () => {
    const { page, context } = await open(site.browser, `${site.server.origin}/`, { viewport: viewports.desktop });
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

    await page.locator(".email .copy-button").focus();
    await page.keyboard.press("Enter");
    // The clipboard write is asynchronous: poll rather than race it.
    await expect.poll(clipboard).toBe(["renfeng.chn", "outlook.com"].join("@"));

    const first = page.locator(".publication details").first();
    await first.locator("summary").focus();
    await page.keyboard.press("Enter");
    await expect(first.getAttribute("open")).resolves.toBe("");
    await first.locator(".copy-button").click();
    await expect.poll(clipboard).toBe(loadPage("/").querySelector(".publication pre code")!.textContent);
    await context.close();
  });

  it("names each paper's BibTeX button after its paper, and an opened BibTeX (which wraps) is no tab stop, in both languages", async () => {
    // Chromium puts a space between the visible words and the hidden ones (\s?).
    for (const [url, copy] of [["/", "Copy BibTeX\\s?for "], ["/zh/", "复制 BibTeX\\s?："]] as const) {
      const { page, context } = await open(site.browser, `${site.server.origin}${url}`, { viewport: viewports.desktop });
      const titles = loadPage(url).querySelectorAll(".publication .pub-title");
      for (const title of titles) {
        const name = new RegExp(`^${copy}${title.textContent!.trim().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
        await expect(page.getByRole("button", { name, includeHidden: true }).count(), `${url}: ${name}`).resolves.toBe(1);
      }
      const first = page.locator(".publication details").first();
      await first.locator("summary").focus();
      await page.keyboard.press("Enter");
      await page.keyboard.press("Tab");
      await expect(page.evaluate(() => document.activeElement?.className), url).resolves.toBe("copy-button");
      // The title in a Chinese page's hidden words is marked as English, as in the list above it.
      if (url === "/zh/") await expect(first.locator(".copy-button [lang=en]").count()).resolves.toBe(1);
      await context.close();
    }
  });

  it("reads completely without JavaScript", async () => {
    const context = await site.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.server.origin}/`);
    await expect(page.locator(".publication").count()).resolves.toBe(loadPage("/").querySelectorAll(".publication").length);
    await expect(page.locator(".theme-toggle").isVisible()).resolves.toBe(false);
    await expect(page.getByText("renfeng.chn AT outlook.com").isVisible()).resolves.toBe(true);
    await context.close();
  });
});

// Where lines break in what readers look up: a name in inline code (a function, a constant, a
// member, a path) on a 320px phone and on A5 paper, and the course's name in headings, the site's
// navigation, breadcrumbs and search results at any width a phone or tablet has.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { browserOnSite, walk } from "../support/browser.ts";
import { projectRoot } from "../support/eleventy.ts";
import { laidOut, lineStarts, runOf, type LaidOut } from "../support/lines.ts";
import { lessonUrls, loadPage, pageUrls } from "../support/site.ts";

const site = browserOnSite();

/** CSS pixels in `mm` millimetres (96 to the inch), rounded down; A5 less Chromium's 1 cm print margins. */
const px = (mm: number) => Math.floor((mm * 96) / 25.4);
const a5 = { width: px(148 - 20), height: px(210 - 20) };

/** Every page that shows inline code, by its built HTML. */
const pagesWithInlineCode = async () => (await pageUrls()).filter((url) => loadPage(url).querySelector("main :not(pre) > code"));

describe("line breaks", () => {
  it("breaks a name in inline code between its pieces (after _, before . -> :: / and a camelCase word), inside a piece only when the piece is wider than the line, never after an option's leading hyphen nor inside ->", async () => {
    const urls = await pagesWithInlineCode();
    expect(urls.length).toBeGreaterThan(0);
    const failures: string[] = [];
    let measured = 0;
    for (const [where, viewport, media] of [["320px screen", { width: 320, height: 640 }, "screen"], ["A5 paper", a5, "print"]] as const) {
      await walk(site.browser, site.server.origin, urls, { viewport }, async (page, url) => {
        await page.emulateMedia({ media });
        measured += await page.locator("main :not(pre) > code").count();
        const codes = await page.evaluate(laidOut, { selector: "main :not(pre) > code", wrapped: true });
        failures.push(...namesSplitInsidePieces(codes).map((f) => `${url} (${where}): ${f}`));
      });
    }
    expect(measured, "inline code measured").toBeGreaterThan(0);
    expect(failures).toEqual([]);
  }, 300_000);

  it("never splits the course's name across two lines: headings, the site's navigation, breadcrumbs, search results' titles", async () => {
    const name = (parse(readFileSync(path.join(projectRoot, "_data/course.yaml"), "utf8")) as { title: string }).title;
    const words = name.split(/\s+/);
    expect(words.length, "the course's name is more than one word").toBeGreaterThan(1);
    const spaced = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+"));
    const headings = "main :is(h1, h2, h3, h4)";
    const urls = (await pageUrls()).filter((url) => [...loadPage(url).querySelectorAll(headings)].some((h) => spaced.test(h.textContent ?? "")));
    // The course's home is titled with its name, whatever else mentions it.
    expect(urls).toContain("/rdma101/");
    // The navigation is the same on every page of a language, the course's crumb on every lesson;
    // search shows its results' titles once its script has searched (the query is in the address).
    const search = (lang: string) => `${lang === "en" ? "" : `/${lang}`}/search/?q=${encodeURIComponent(name)}`;
    const places = new Map<string, string>([
      ...urls.map((url): [string, string] => [url, headings]),
      [lessonUrls()[0]!, ".site-nav a, .breadcrumbs a"],
      ["/zh/", ".site-nav a"],
      [search("en"), ".search-results h2"],
      [search("zh"), ".search-results h2"],
    ]);
    const failures: string[] = [];
    const seen = new Set<string>();
    await walk(site.browser, site.server.origin, [...places.keys()], { viewport: { width: 320, height: 800 } }, async (page, url) => {
      const selector = places.get(url)!;
      if (url.includes("?q=")) await page.locator(selector).first().waitFor();
      // Every width from the narrowest phone to a small laptop, at the default text size and with
      // text enlarged (250%, as a reader with low vision may set it): where a line wraps depends on both.
      for (const text of ["100%", "250%"]) {
        await page.evaluate((size) => (document.documentElement.style.fontSize = size), text);
        for (let width = 320; width <= 1024; width += 32) {
          await page.setViewportSize({ width, height: 800 });
          const laid = await page.evaluate(laidOut, { selector, matching: spaced.source });
          if (laid.length) seen.add(url);
          failures.push(...nameSplitAcrossLines(laid, spaced).map((f) => `${url} at ${width}px, text ${text}: ${f}`));
        }
      }
    });
    expect([...places.keys()].filter((url) => !seen.has(url)), "places that show the name").toEqual([]);
    expect([...new Set(failures)]).toEqual([]);
  }, 300_000);
});

/**
 * Each line break inside a piece of a name in inline code (between two letters or digits, not
 * where a camelCase word starts), where the piece (with the `_` it ends with, or the `.`, `/`, `->`
 * or `::` it starts with) could have started a line (a space, `_` or `-` before it, a camelCase
 * word's start, or one of those places at an end) and would have fit on a line of its own: a
 * break at the piece's edge was the better one. Also each break after an option's leading hyphen
 * and inside a `->`.
 */
function namesSplitInsidePieces(codes: LaidOut[]): string[] {
  const inName = /[A-Za-z0-9]/;
  const failures: string[] = [];
  for (const code of codes) {
    const text = code.chars.map((c) => c.char).join("");
    // A camelCase word starts at `at` (`Dev` in `cudaDevAttr`; not a lone final capital, `uverbsN`).
    const wordStart = (at: number) => /[a-z]/.test(text[at - 1] ?? "") && /[A-Z][A-Za-z0-9]/.test(text.slice(at, at + 2));
    for (const i of lineStarts(code)) {
      // An option's leading hyphen left at a line's end (`-` | `d rxe0`).
      if (text[i - 1] === "-" && /^\s?$/.test(text[i - 2] ?? "") && text[i] !== "-") failures.push(`"${text}" breaks after the hyphen that starts "${text.slice(i - 1).split(/\s/)[0]}"`);
      // C's member arrow split (`dev-` | `>node_type`).
      if (text[i - 1] === "-" && text[i] === ">") failures.push(`"${text}" breaks inside "->"`);
      if (!inName.test(text[i - 1]!) || !inName.test(text[i]!) || wordStart(i)) continue;
      let [start, end] = [i - 1, i];
      while (start > 0 && inName.test(text[start - 1]!) && !wordStart(start)) start--;
      while (end < text.length - 1 && inName.test(text[end + 1]!) && !wordStart(end + 1)) end++;
      if (text[end + 1] === "_") end++;
      if (/^(?:->|::)$/.test(text.slice(start - 2, start))) start -= 2;
      else if (/^[./]$/.test(text[start - 1] ?? "")) start--;
      const { run: piece, width } = runOf(code, start, end);
      // A piece between two characters no line may break at ("Destination" in `","Destination","`)
      // has no better place to break.
      const edge = /[\s_-]/.test(text[start - 1] ?? "") || wordStart(start) || wordStart(end + 1) || /^(?:[./]|->|::)/.test(piece) || piece.endsWith("_") || /^(?:\s|[./]|->|::)/.test(text.slice(end + 1));
      if (edge && width + code.padding <= code.line) failures.push(`"${text}" breaks "${piece}" after "${text.slice(start, i)}", though the piece fits a ${Math.round(code.line)}px line`);
    }
  }
  return failures;
}

/** Each heading whose text puts the name (`spaced`: its words, any space between them) on more than one line. */
function nameSplitAcrossLines(headings: LaidOut[], spaced: RegExp): string[] {
  const name = new RegExp(spaced.source, "g");
  const failures: string[] = [];
  for (const heading of headings) {
    const text = heading.chars.map((c) => c.char).join("");
    const starts = lineStarts(heading);
    for (const match of text.matchAll(name)) {
      if (starts.some((i) => i > match.index && i < match.index + match[0].length)) failures.push(`"${heading.label}" puts "${match[0]}" on two lines`);
    }
  }
  return failures;
}

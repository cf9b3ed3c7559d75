// Every post, lesson and paper page has its social card, built: a 1200×630 PNG at the address its
// Open Graph and Twitter tags give; other pages have none, and no card is left over.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { builtFiles, fileFor, loadPage, pageUrls } from "../support/site.ts";

const ORIGIN = "https://renfeng.org";
const pages = await pageUrls();
const imageOf = (url: string) => loadPage(url).querySelector('meta[property="og:image"]')?.getAttribute("content") ?? undefined;
const hasCard = (url: string) => loadPage(url).querySelector("article.post, article.lesson, article.paper") !== null;

describe("social cards", () => {
  it("exist for exactly the posts, lessons and papers", () => {
    expect(pages.filter((url) => imageOf(url))).toEqual(pages.filter(hasCard));
    expect(pages.filter(hasCard).length).toBeGreaterThan(0);
  });

  it.each(pages.filter(hasCard))("%s: its card is a 1200×630 PNG, named in both tags", (url) => {
    const doc = loadPage(url);
    const image = imageOf(url)!;
    expect(image.startsWith(`${ORIGIN}/`)).toBe(true);
    expect(doc.querySelector('meta[name="twitter:image"]')?.getAttribute("content")).toBe(image);
    expect(doc.querySelector('meta[name="twitter:card"]')?.getAttribute("content")).toBe("summary_large_image");
    expect(doc.querySelector('meta[property="og:image:alt"]')?.getAttribute("content")).toBe(doc.querySelector('meta[property="og:title"]')?.getAttribute("content"));
    const png = readFileSync(fileFor(image.slice(ORIGIN.length)));
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    expect([doc.querySelector('meta[property="og:image:width"]')?.getAttribute("content"), doc.querySelector('meta[property="og:image:height"]')?.getAttribute("content")]).toEqual(["1200", "630"]);
  });

  it("are all used: no card without a page", async () => {
    const used = new Set(pages.flatMap((url) => imageOf(url) ?? []).map((image) => path.basename(image)));
    const built = (await builtFiles()).filter((f) => f.includes(`${path.sep}cards${path.sep}`)).map((f) => path.basename(f));
    expect(new Set(built)).toEqual(used);
  });
});

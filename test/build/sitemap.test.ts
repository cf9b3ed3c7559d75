// The sitemap's lastmod: every post and lesson has one (its last commit, or its own date without
// history), and every date given is a real day that has already happened.
import { readFileSync } from "node:fs";
import path from "node:path";
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { readPage, siteDir } from "../support/site.ts";

const ORIGIN = "https://renfeng.org";
const doc = new JSDOM(readFileSync(path.join(siteDir(), "sitemap.xml"), "utf8"), { contentType: "text/xml" }).window.document;
const entries = [...doc.getElementsByTagName("url")].map((u) => ({
  url: u.getElementsByTagName("loc")[0]!.textContent!.slice(ORIGIN.length),
  lastmod: u.getElementsByTagName("lastmod")[0]?.textContent ?? undefined,
}));

describe("sitemap lastmod", () => {
  it("dates every post and lesson", () => {
    // Read as text, not parsed: a post's or lesson's article says what it is in its first tag.
    const dated = entries.filter((e) => /<article class="[^"]*\b(?:post|lesson)\b/.test(readPage(e.url)));
    expect(dated.length).toBeGreaterThan(0);
    for (const e of dated) expect(e.lastmod, e.url).toBeDefined();
  });

  it("gives only real, past days", () => {
    for (const { url, lastmod } of entries.filter((e) => e.lastmod)) {
      expect(lastmod, url).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(new Date(`${lastmod}T00:00:00Z`).getTime(), url).toBeLessThanOrEqual(Date.now() + 24 * 3600 * 1000);
    }
  });
});

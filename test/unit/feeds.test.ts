import { describe, expect, it } from "vitest";
import katex from "katex";
import feeds, { FEED_SIZE, feedHtml } from "../../src/feeds.ts";
import { registeredFunction } from "../support/config.ts";

type Dated = { date: Date; updated?: Date };

describe("feed content", () => {
  it("keeps a formula's MathML and drops KaTeX's visual copy, however deeply it nests", () => {
    const formula = katex.renderToString("\\frac{a_1}{b^{2}}", { displayMode: true });
    const html = feedHtml(`<p>Before</p>${formula}<p>After</p>`);
    expect(html).toContain("<math");
    expect(html).not.toContain("katex-html");
    expect(html).toMatch(/^<p>Before<\/p><span class="katex-display"><span class="katex"><span class="katex-mathml"><math[\s\S]*<\/math><\/span><\/span><\/span><p>After<\/p>$/);
  });

  it("drops the copy buttons that only the site's script would reveal", () => {
    const block = '<div class="code-head"><span>C</span><button type="button" class="copy-button" hidden>Copy<span class="visually-hidden"> C code</span></button></div><pre>x</pre>';
    expect(feedHtml(block)).toBe('<div class="code-head"><span>C</span></div><pre>x</pre>');
  });
});

describe("feed filters", () => {
  it("takes the newest items, at most the feed size", () => {
    const newest = registeredFunction<(list: number[], n?: number) => number[]>(feeds, "newest");
    const list = Array.from({ length: FEED_SIZE + 5 }, (_, i) => i);
    expect(newest(list)).toEqual(list.slice(0, FEED_SIZE));
    expect(newest(list, 2)).toEqual([0, 1]);
  });

  it("dates a feed by its latest published or updated item", () => {
    const lastUpdated = registeredFunction<(items: Dated[]) => Date | undefined>(feeds, "lastUpdated");
    const items = [
      { date: new Date("2026-01-01T00:00:00Z") },
      { date: new Date("2025-06-01T00:00:00Z"), updated: new Date("2026-03-01T00:00:00Z") },
    ];
    expect(lastUpdated(items)?.toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(lastUpdated([])).toBeUndefined();
  });

  it("formats RSS dates as RFC 822", () => {
    const rfc822 = registeredFunction<(date: Date) => string>(feeds, "rfc822");
    expect(rfc822(new Date("2026-12-02T02:00:00Z"))).toMatch(/^Wed, 02 Dec 2026 02:00:00 [+-]0000$/);
  });
});

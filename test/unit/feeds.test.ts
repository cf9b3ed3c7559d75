import { describe, expect, it } from "vitest";
import katex from "katex";
import { JSDOM } from "jsdom";
import feeds, { absoluteLinks, FEED_SIZE, feedHtml, feedId, feedTitle, lastUpdated, type Feed } from "../../src/feeds.ts";
import { createMarkdown } from "../../src/markdown.ts";
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
  it("labels an answer once: the word only print shows would follow the screen's label without the site's CSS", () => {
    const answer = createMarkdown().render("1. Q?\n\n   ::: answer\n   A.\n   :::\n");
    const summary = new JSDOM(feedHtml(answer)).window.document.querySelector("details.answer > summary");
    expect(summary?.textContent).toBe("Show answer");
  });
  it("keeps code as plain text: the highlighter's spans need the site's CSS", () => {
    expect(feedHtml('<pre tabindex="0"><code class="language-c"><span class="token keyword">int</span> x<span class="token punctuation">;</span></code></pre><p><span lang="zh">字</span></p>')).toBe(
      '<pre tabindex="0"><code class="language-c">int x;</code></pre><p><span lang="zh">字</span></p>',
    );
  });

  it("shows a figure as an image of its published file, with its text alternative", () => {
    const figure = '<svg data-file="/figures/a-1234.svg" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" role="img" aria-label="Two boxes &amp; an arrow"><rect/></svg>';
    expect(feedHtml(`<figure>${figure}<figcaption>c</figcaption></figure>`)).toBe('<figure><img src="/figures/a-1234.svg" alt="Two boxes &amp; an arrow"><figcaption>c</figcaption></figure>');
    // An SVG that is not a published figure stays as it is.
    expect(feedHtml('<svg viewBox="0 0 1 1"><rect/></svg>')).toBe('<svg viewBox="0 0 1 1"><rect/></svg>');
  });

  it("makes links, images and media absolute against the entry's address, and leaves the rest as written", () => {
    const base = "https://example.org/blog/post/";
    expect(absoluteLinks('<p><a href="/rdma101/">c</a> <a href="#sc-x">x</a> <a href="../other/?a=1&amp;b=2">o</a></p>', base)).toBe(
      '<p><a href="https://example.org/rdma101/">c</a> <a href="https://example.org/blog/post/#sc-x">x</a> <a href="https://example.org/blog/other/?a=1&amp;b=2">o</a></p>',
    );
    expect(absoluteLinks('<picture><source srcset="/img/a.avif 400w, /img/b.avif 800w"><img src="/img/a.png" alt=""></picture>', base)).toBe(
      '<picture><source srcset="https://example.org/img/a.avif 400w, https://example.org/img/b.avif 800w"><img src="https://example.org/img/a.png" alt=""></picture>',
    );
    // Other sites, ids and an inline drawing's references to its own parts stay as they are.
    const kept = '<a href="https://github.com/x">g</a><h2 id="sc-a">A</h2><svg><use href="#arrow"/></svg>';
    expect(absoluteLinks(kept, base)).toBe(kept);
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
    const items: Dated[] = [
      { date: new Date("2026-01-01T00:00:00Z") },
      { date: new Date("2025-06-01T00:00:00Z"), updated: new Date("2026-03-01T00:00:00Z") },
    ];
    expect(lastUpdated(items)?.toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(lastUpdated([])).toBeUndefined();
  });

  it("names an entry by its path under the origin ids are minted in, whatever origin the build is for", () => {
    expect(feedId("/posts/a/", { url: "https://user.github.io", feedIds: "https://example.org" })).toBe("https://example.org/posts/a/");
    expect(feedId("/posts/a/", { url: "https://example.org" })).toBe("https://example.org/posts/a/");
  });

  it("titles the blog's feeds with the site's name and the course's with its own, in the feed's language", () => {
    const site = { title: { en: "Feng Ren", zh: "任峰" } } as never;
    const course = { title: "RDMA 101" } as never;
    const feed = (section: Feed["section"], lang: Feed["lang"]) => ({ section, lang }) as Feed;
    expect(feedTitle(feed("blog", "zh"), site, course)).toBe("任峰");
    expect(feedTitle(feed("course", "en"), site, course)).toBe("RDMA 101: new and updated lessons");
  });
});

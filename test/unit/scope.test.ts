import { describe, expect, it } from "vitest";
import { createMarkdown } from "../../src/markdown.ts";
import { inScope, OWN_PAGE, scopedRender } from "../../src/scope.ts";

const md = createMarkdown();
const LESSON = "posts/rdma101/01-part/02-lesson.md";
const SOURCE = "## Queue pairs\n\nSee [below](#queue-pairs).[^1]\n\n::: table Sizes\n| a |\n|---|\n| 1 |\n:::\n\n::: answer\nA.\n:::\n\n::: takeaways\n- one\n:::\n\n[^1]: Source.\n\n<p id=\"raw\">Raw <a href=\"#queue-pairs\">up</a>, <a href=\"#raw\">here</a>.</p>\n\n<label for=\"raw\">L</label> <span aria-labelledby=\"raw  queue-pairs\">x</span>\n";

describe("scope", () => {
  it("leaves no placeholder in a page of its own", () => {
    const html = md.render(SOURCE, { page: { inputPath: LESSON } });
    expect(html).not.toMatch(/[\uE000-\uE0FF]/);
    expect(html).toContain('<h2 id="queue-pairs"');
    expect(html).toContain('<a href="#queue-pairs">below</a>');
    expect(html).toContain('<p id="raw">Raw <a href="#queue-pairs">up</a>, <a href="#raw">here</a>.</p>');
    expect(html).toContain('<label for="raw">L</label> <span aria-labelledby="raw  queue-pairs">x</span>');
  });

  it("keeps a lesson's render, to be shown again with its ids, headings and answers changed", () => {
    const own = md.render(SOURCE, { page: { inputPath: LESSON } });
    const html = inScope(scopedRender(LESSON, own), { id: "l1-2-", label: "1.2 ", levels: 2, open: true });
    expect(html).toContain('<h4 id="l1-2-queue-pairs" tabindex="-1"><a class="heading-link" href="#l1-2-queue-pairs">');
    expect(html).toContain('<a href="#l1-2-queue-pairs">below</a>');
    // Raw HTML's ids and fragment links, scoped as Markdown's are.
    expect(html).toContain('<p id="l1-2-raw">Raw <a href="#l1-2-queue-pairs">up</a>, <a href="#l1-2-raw">here</a>.</p>');
    // And what names an id: a label's for, ARIA's lists of ids.
    expect(html).toContain('<label for="l1-2-raw">L</label> <span aria-labelledby="l1-2-raw  l1-2-queue-pairs">x</span>');
    expect(html).toContain('<h4 id="l1-2-key-takeaways">');
    expect(html).toContain('aria-labelledby="l1-2-key-takeaways"');
    expect(html).toContain('aria-label="1.2 Table 1"');
    expect(html).toContain('<details class="answer" open>');
    // Footnotes and their back-references, scoped alike.
    expect(html).toContain('id="fnl1-2-1"');
    expect(html).toContain('href="#fnl1-2-1"');
    expect(html).toContain('id="fnrefl1-2-1"');
    expect(html).not.toMatch(/[\uE000-\uE0FF]/);
  });

  it("refuses a render that is not the lesson's current one", () => {
    md.render(SOURCE, { page: { inputPath: LESSON } });
    expect(() => scopedRender(LESSON, "<p>stale</p>")).toThrow(/^posts\/rdma101\/01-part\/02-lesson\.md: \(file\): /);
    expect(() => scopedRender("posts/rdma101/01-part/09-never.md", "")).toThrow(/09-never\.md/);
  });

  it("keeps only lessons", () => {
    md.render(SOURCE, { page: { inputPath: "posts/blog/a.md" } });
    expect(() => scopedRender("posts/blog/a.md", md.render(SOURCE, { page: { inputPath: "posts/blog/a.md" } }))).toThrow();
  });
});

import { describe, expect, it } from "vitest";
import { createMarkdown, headingSlug } from "../../src/markdown.ts";
import { FIGURE_NUMBER } from "../../src/figures.ts";
import { tableOfContents } from "../../src/toc.ts";
import { setPathPrefix } from "../../src/urls.ts";

const md = createMarkdown();

describe("markdown", () => {
  it("gives headings ids and self-links at Markdown time, for English and Chinese", () => {
    expect(headingSlug("Why RDMA? (Part 1)")).toBe("why-rdma-part-1");
    expect(headingSlug("内核旁路 kernel bypass")).toBe("内核旁路-kernel-bypass");
    const html = md.render("## Queue pairs\n\n### RC & UD\n");
    expect(html).toContain('<h2 id="queue-pairs" tabindex="-1"><a class="heading-link" href="#queue-pairs">');
    expect(tableOfContents(html).map((e) => [e.level, e.id, e.text])).toEqual([
      [2, "queue-pairs", "Queue pairs"],
      [3, "rc-ud", "RC &amp; UD"],
    ]);
  });

  it("highlights known languages at build time and escapes unknown ones without failing", () => {
    const c = md.render("```c\nint x = 1;\n```\n");
    expect(c).toContain('<span class="code-lang">C</span>');
    expect(c).toContain('<span class="token keyword">int</span>');
    expect(c).toMatch(/<pre tabindex="0" role="region" aria-label="C code">/);
    const unknown = md.render("```brainfudge\n<b>++</b>\n```\n");
    expect(unknown).toContain("&lt;b&gt;++&lt;/b&gt;");
    expect(unknown).toContain('<span class="code-lang">Text</span>');
  });

  it("renders TeX to HTML and MathML at build time", () => {
    const html = md.render("Energy: $E = mc^2$\n\n$$\\frac{a}{b}$$\n");
    expect(html).toContain('<span class="katex">');
    expect(html).toContain("<math");
    expect(html).toContain('class="katex-display"');
  });

  it("fails on broken TeX rather than printing it", () => {
    expect(() => md.render("$\\frac{a}$", { page: { inputPath: "posts/blog/x.md" } })).toThrow(/^posts\/blog\/x\.md: math: cannot render \$\\frac\{a\}\$/);
  });

  it("renders callouts, takeaways and hidden answers", () => {
    const html = md.render("::: warning Pinned memory\nBody **bold**.\n:::\n\n::: takeaways\n- one\n:::\n\n1. Q?\n\n   ::: answer\n   A.\n   :::\n");
    expect(html).toContain('<div class="callout callout-warning" role="note">\n<p class="callout-title">Warning: Pinned memory</p>');
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain('<section class="takeaways" aria-labelledby="key-takeaways">');
    expect(html).toMatch(/<details class="answer">\n<summary>Show answer<\/summary>\n<p>A\.<\/p>\n<\/details>/);
  });

  it("numbers tables and figures in page order, per page", () => {
    const source = `::: table First.\n| a |\n|---|\n| 1 |\n:::\n\n<figure>${FIGURE_NUMBER} One</figure>\n\n::: table Second.\n| b |\n|---|\n| 2 |\n:::\n\n<figure>${FIGURE_NUMBER} Two</figure>\n`;
    const html = md.render(source);
    expect(html.match(/Table \d\./g)).toEqual(["Table 1.", "Table 2."]);
    expect(html.match(/Figure \d\./g)).toEqual(["Figure 1.", "Figure 2."]);
    expect(md.render(source).match(/Table \d\./g)).toEqual(["Table 1.", "Table 2."]);
  });

  it("labels callouts, takeaways, answers, tables and figures in the page's language", () => {
    const source = `::: note\nText.\n:::\n\n::: tip 标题\nText.\n:::\n\n::: takeaways\n- one\n:::\n\n::: answer\nA.\n:::\n\n::: table 说明\n| a |\n|---|\n| 1 |\n:::\n\n<figure>${FIGURE_NUMBER} 图</figure>\n`;
    const zh = md.render(source, { lang: "zh" });
    expect(zh).toContain('<p class="callout-title">注意</p>');
    expect(zh).toContain('<p class="callout-title">提示：标题</p>');
    expect(zh).toContain("<h2 id=\"key-takeaways\">要点</h2>");
    expect(zh).toContain("<summary>显示答案</summary>");
    expect(zh).toContain('<span class="caption-number">表 1</span>');
    expect(zh).toContain('<span class="caption-number">图 1</span>');
    expect(md.render(source)).toContain('<p class="callout-title">Note</p>');
  });

  it("puts links within the site under the path prefix, and leaves others alone", () => {
    setPathPrefix("/repo/");
    try {
      const html = md.render("[a](/posts/a/) [b](https://example.org/) [c](#here) [d](other/)\n");
      expect(html).toContain('<a href="/repo/posts/a/">a</a>');
      expect(html).toContain('<a href="https://example.org/" rel="noopener">b</a>');
      expect(html).toContain('<a href="#here">c</a>');
      expect(html).toContain('<a href="other/">d</a>');
    } finally {
      setPathPrefix("/");
    }
  });

  it("joins lines of Chinese without a space, and keeps the space a line break makes beside Latin words", () => {
    const html = md.render("中文一行，\n下一行接着写\n中文，然后是\nRDMA 和 `ibv_post_send`\n（[链接](https://example.org/)）。\n\nEnglish\nwords\n");
    expect(html).toContain("<p>中文一行，下一行接着写中文，然后是\nRDMA 和 <code>ibv_post_send</code>（<a");
    expect(html).toContain("<p>English\nwords</p>");
  });

  it("keeps emphasis on Latin text italic on a Chinese page, and dots only Chinese emphasis", () => {
    const source = "论文 *Scaling Up Memory Disaggregated Applications*，*强调*，*RDMA 网卡*。\n";
    const zh = md.render(source, { lang: "zh" });
    expect(zh).toContain('<em lang="en">Scaling Up Memory Disaggregated Applications</em>');
    expect(zh).toContain("<em>强调</em>");
    expect(zh).toContain("<em>RDMA 网卡</em>");
    expect(md.render(source, { lang: "en" })).not.toContain("lang=");
  });

  it("renders footnotes", () => {
    expect(md.render("Claim.[^1]\n\n[^1]: Source.\n")).toContain('class="footnotes"');
  });
});

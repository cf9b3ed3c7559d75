import { describe, expect, it } from "vitest";
import { codeBlockHtml, fenceLabels, highlightCode } from "../../src/highlight.ts";

describe("highlightCode", () => {
  it("marks tokens with Prism classes only (the palettes live in CSS) and labels the language", () => {
    const { html, label } = highlightCode("int main(void) { return 0; }", "c");
    expect(label).toBe("C");
    expect(html).toContain('<span class="token keyword">int</span>');
    expect(html).not.toContain("style=");
  });

  it("shares a grammar between aliases", () => {
    expect(highlightCode("x = 1", "py")).toEqual({ ...highlightCode("x = 1", "python"), label: "Python" });
  });

  it("leaves an IPv4 address in a shell command or transcript whole, not half a number", () => {
    for (const lang of ["bash", "console"]) {
      const { html } = highlightCode("$ ping -c 3 169.254.101.1 && sleep 0.5", lang);
      expect(html, lang).toContain(" 169.254.101.1 ");
      expect(html, lang).toContain('<span class="token number">3</span>');
      expect(html, lang).toContain('<span class="token number">0.5</span>');
    }
  });

  it("shows an unknown language as escaped plain text instead of failing", () => {
    expect(highlightCode("<a & b>", "brainfuck")).toEqual({ html: "&lt;a &amp; b&gt;", label: "" });
  });
});

describe("codeBlockHtml", () => {
  it("builds the block every page shows: label, hidden copy button, code scrolling in a named region", () => {
    const html = codeBlockHtml({ html: "x", label: "C", name: 'C code "a"', lang: "c" }, "en");
    expect(html).toBe(
      '<div class="code-block" data-copy-scope><div class="code-head"><span class="code-lang">C</span>' +
        '<button type="button" class="copy-button" hidden>Copy<span class="visually-hidden"> C code &quot;a&quot;</span></button></div>' +
        '<pre tabindex="0" role="region" aria-label="C code &quot;a&quot;"><code class="language-c">x</code></pre></div>\n',
    );
  });

  it("speaks the page's language", () => {
    const { name } = fenceLabels("C", "zh");
    const html = codeBlockHtml({ html: "x", label: "C", name }, "zh");
    expect(html).toContain(">复制<");
    expect(html).toContain('aria-label="C 代码"');
    expect(fenceLabels("", "en")).toEqual({ label: "Text", name: "Code" });
  });

  it("can be a captioned figure", () => {
    const html = codeBlockHtml({ html: "x", label: "C program", name: "n", element: "figure", className: "example", caption: "<figcaption>f.c</figcaption>" }, "en");
    expect(html).toMatch(/^<figure class="code-block example" data-copy-scope>[\s\S]*<\/pre><figcaption>f\.c<\/figcaption><\/figure>\n$/);
  });
});

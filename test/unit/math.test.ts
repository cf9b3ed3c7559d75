import { describe, expect, it } from "vitest";
import { showsMath, woff2OnlyCss } from "../../src/math.ts";

describe("math stylesheet", () => {
  it("keeps only woff2 font sources, each named with KaTeX's version", () => {
    const css = '@font-face{font-family:KaTeX_Main;src:url(fonts/KaTeX_Main-Regular.woff2) format("woff2"),url(fonts/KaTeX_Main-Regular.woff) format("woff"),url(fonts/KaTeX_Main-Regular.ttf) format("truetype")}';
    expect(woff2OnlyCss(css, "0.16.47")).toBe('@font-face{font-family:KaTeX_Main;src:url(fonts/KaTeX_Main-Regular.woff2?v=0.16.47) format("woff2")}');
  });

  it("versions a quoted font URL inside its quotes", () => {
    const css = "@font-face{src:url('fonts/KaTeX_Size1-Regular.woff2') format('woff2')}";
    expect(woff2OnlyCss(css, "1.0.0")).toBe("@font-face{src:url('fonts/KaTeX_Size1-Regular.woff2?v=1.0.0') format('woff2')}");
  });
});

describe("which pages link the math stylesheet", () => {
  const formula = '<p><span class="katex">x</span></p>';
  const all = [
    { url: "/with-math/", templateContent: formula },
    { url: "/without-math/", templateContent: "<p>Prose.</p>" },
  ];

  it("asks a page's own render, whatever its layout wraps around it", () => {
    expect(showsMath(`<main>${formula}</main>`, "/with-math/", all)).toBe(true);
    expect(showsMath('<main><span class="katex">a stray copy</span></main>', "/without-math/", all)).toBe(false);
  });

  it("searches the HTML given for a page outside the collections", () => {
    expect(showsMath(formula, "/feed.xml", all)).toBe(true);
    expect(showsMath("<p>Prose.</p>", false, all)).toBe(false);
  });
});

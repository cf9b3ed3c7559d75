import { describe, expect, it } from "vitest";
import { woff2OnlyCss } from "../../src/math.ts";

describe("math stylesheet", () => {
  it("keeps only woff2 font sources", () => {
    const css = '@font-face{font-family:KaTeX_Main;src:url(fonts/KaTeX_Main-Regular.woff2) format("woff2"),url(fonts/KaTeX_Main-Regular.woff) format("woff"),url(fonts/KaTeX_Main-Regular.ttf) format("truetype")}';
    expect(woff2OnlyCss(css)).toBe('@font-face{font-family:KaTeX_Main;src:url(fonts/KaTeX_Main-Regular.woff2) format("woff2")}');
  });
});

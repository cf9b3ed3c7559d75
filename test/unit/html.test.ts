import { describe, expect, it } from "vitest";
import { escapeHtml, markCjk } from "../../src/html.ts";

describe("html helpers", () => {
  it("escapes every character that could open markup", () => {
    expect(escapeHtml(`<script>alert("x") & 'y'</script>`)).toBe("&lt;script&gt;alert(&quot;x&quot;) &amp; &#39;y&#39;&lt;/script&gt;");
  });

  it("marks Chinese runs with their language", () => {
    expect(markCjk("I'm Feng Ren (任峰), <hi>")).toBe(`I&#39;m Feng Ren (<span lang="zh-Hans">任峰</span>), &lt;hi&gt;`);
  });
});

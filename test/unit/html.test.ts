import { describe, expect, it } from "vitest";
import { escapeHtml, keepTogether, langAttribute, langText, markLanguages, textWithCode, unescapeHtml } from "../../src/html.ts";

describe("html helpers", () => {
  it("escapes every character that could open markup", () => {
    expect(escapeHtml(`<script>alert("x") & 'y'</script>`)).toBe("&lt;script&gt;alert(&quot;x&quot;) &amp; &#39;y&#39;&lt;/script&gt;");
  });

  it("reads escaped text back as it was, an escaped entity included", () => {
    for (const text of [`<script>alert("x") & 'y'</script>`, "p->rkey &lt; &amp;x"]) expect(unescapeHtml(escapeHtml(text))).toBe(text);
  });

  it("shows a data file's backticked spans as code, escaping the rest", () => {
    expect(textWithCode("Run `npm run lab` & <see>; `a<b>`.")).toBe("Run <code>npm run lab</code> &amp; &lt;see&gt;; <code>a&lt;b&gt;</code>.");
    expect(textWithCode("no code")).toBe("no code");
  });

  it("marks Han text by the page's language: as Chinese on an English page, not at all on a Chinese one", () => {
    expect(markLanguages("I'm Feng Ren (任峰), <hi>", "en")).toBe(`I&#39;m Feng Ren (<span lang="zh-CN">任峰</span>), &lt;hi&gt;`);
    expect(markLanguages("我是任峰（Feng Ren）", "zh")).toBe("我是任峰（Feng Ren）");
  });

  it("keeps a name of several words on one line in a title, escaping the rest, the text unchanged", () => {
    expect(keepTogether("The lab behind RDMA 101 & its <VMs>", "RDMA 101")).toBe('The lab behind <span class="unbroken">RDMA 101</span> &amp; its &lt;VMs&gt;');
    expect(keepTogether("RDMA 101 术语表", "RDMA 101")).toBe('<span class="unbroken">RDMA 101</span> 术语表');
    expect(keepTogether("RDMA\n101: RDMA 101", "RDMA 101")).toBe('<span class="unbroken">RDMA\n101</span>: <span class="unbroken">RDMA 101</span>');
    // Only the name itself, not a longer word that starts or ends like it.
    expect(keepTogether("XRDMA 1010", "RDMA 101")).toBe("XRDMA 1010");
    expect(keepTogether("Queue pairs", "RDMA 101")).toBe("Queue pairs");
  });

  it("names a text's language only where it differs from the page's", () => {
    expect(langAttribute("en", "zh")).toBe(' lang="en"');
    expect(langAttribute("en", "en")).toBe("");
    expect(langText("Why <RDMA>", "en", "zh")).toBe('<span lang="en">Why &lt;RDMA&gt;</span>');
    expect(langText("Why <RDMA>", "en", "en")).toBe("Why &lt;RDMA&gt;");
  });
});

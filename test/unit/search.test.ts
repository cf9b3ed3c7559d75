import { JSDOM } from "jsdom";
import { afterEach, describe, expect, it } from "vitest";
import { pluralForms } from "../../src/i18n.ts";
import { codeNames, definedTermsAttributes, globOf, noScriptHtml, searchableAttributes } from "../../src/search.ts";
import { highlightCode } from "../../src/highlight.ts";
import { setPathPrefix } from "../../src/urls.ts";
import { errorOf } from "../support/errors.ts";

afterEach(() => setPathPrefix("/"));

describe("search", () => {
  it("marks a page for the index under its section, labelled in the page's language", () => {
    const el = JSDOM.fragment(`<article${searchableAttributes("publications", "zh")}></article>`).firstElementChild!;
    expect(el.hasAttribute("data-pagefind-body")).toBe(true);
    expect(el.getAttribute("data-pagefind-filter")).toBe("section:论文");
    expect(el.hasAttribute("data-pagefind-meta")).toBe(false);
  });

  it("indexes the names a page's code uses, not its comments, printed text or C's own words", () => {
    const c = [
      "/* Post one WRITE: see ibv_post_send(3). */",
      "struct ibv_send_wr wr = { .wr_id = 7, .opcode = IBV_WR_RDMA_WRITE };",
      'if (ibv_post_send(qp, &wr, &bad)) printf("failed: %s\\n", strerror(errno));',
      "wr.wr.rdma.rkey = peer->rkey; cudaMalloc(&p, 4096); x.b = 1;",
    ].join("\n");
    const html = `<p>Prose names ibv_reg_mr.</p><pre tabindex="0"><code class="language-c">${highlightCode(c, "c").html}</code></pre>`;
    expect(codeNames(html)).toEqual(["IBV_WR_RDMA_WRITE", "cudaMalloc", "ibv_post_send", "ibv_send_wr", "opcode", "printf", "rdma", "rkey", "strerror", "wr", "wr_id"]);
    const el = JSDOM.fragment(`<article${searchableAttributes("course", "en", html)}></article>`).firstElementChild!;
    expect(el.getAttribute("data-pagefind-meta")).toBe("code:IBV_WR_RDMA_WRITE cudaMalloc ibv_post_send ibv_send_wr opcode printf rdma rkey strerror wr wr_id");
  });

  it("gives a page the terms it defines as metadata, each whole, read from an attribute", () => {
    // Pagefind's data-pagefind-meta="key:value" would end the value at a term's comma.
    const el = JSDOM.fragment(`<dl${definedTermsAttributes([{ term: "Queue pair (QP)" }, { term: 'Fence, "strong" & <weak>' }])}></dl>`).firstElementChild!;
    expect(el.getAttribute("data-pagefind-meta")).toBe("terms[data-terms]");
    expect(el.getAttribute("data-terms")).toBe('Queue pair (QP); Fence, "strong" & <weak>');
  });

  it("says without JavaScript where to browse instead, linking each section under the path prefix", () => {
    setPathPrefix("/repo/");
    const links = [...JSDOM.fragment(`<p>${noScriptHtml("zh")}</p>`).querySelectorAll("a")].map((a) => [a.textContent, a.getAttribute("href")]);
    expect(links).toEqual([
      ["博客", "/repo/zh/posts/"],
      ["RDMA 101", "/repo/rdma101/"],
      ["论文", "/repo/zh/publications/"],
    ]);
  });

  it("spaces a section's Latin name from the Chinese around it, as the rest of the Chinese interface does", () => {
    // A link's text meets the sentence's own characters at its edges: "RDMA 101或论文" reads as one run.
    const text = JSDOM.fragment(`<p>${noScriptHtml("zh")}</p>`).textContent!;
    expect(text).not.toMatch(/\p{Script=Han}[A-Za-z0-9]|[A-Za-z0-9]\p{Script=Han}/u);
  });

  it("hands Pagefind a glob of exactly the searchable pages, refusing a path a glob would misread", () => {
    expect(globOf(["zh/posts/b/index.html", "posts/a/index.html"])).toBe("{posts/a/index.html,zh/posts/b/index.html}");
    expect(errorOf(() => globOf(["posts/a/index.html", "posts/{b,c}/index.html"]))).toBe("search index: posts/{b,c}/index.html: has a character Pagefind's glob would read");
  });

  it("hands the browser a plural string's forms for the page's language, placeholders unfilled", () => {
    expect(pluralForms("en", "search.results")).toEqual({ one: "{count} result for “{query}”", other: "{count} results for “{query}”" });
    expect(Object.keys(pluralForms("zh", "search.results"))).toEqual(["other"]);
    expect(errorOf(() => pluralForms("en", "search.none"))).toBe("src/i18n/en.yaml: search.none: is not a plural string");
  });
});

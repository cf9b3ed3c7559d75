import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { brokenLinks, isSitePath, writtenSite } from "../../src/links.ts";

const out = mkdtempSync(path.join(tmpdir(), "links-"));
const page = (url: string, html: string) => {
  mkdirSync(path.join(out, url), { recursive: true });
  writeFileSync(path.join(out, url, "index.html"), html);
};
page("/rdma101/glossary/", '<dl><dt id="qp">QP</dt><dt id="cq">CQ</dt></dl>');
page("/posts/a/", '<h2 id="intro">Intro</h2><a href="#intro">x</a>');
page("/posts/中文/", "<p>x</p>");
writeFileSync(path.join(out, "posts/a/data.csv"), "a\n1\n");

const link = (target: string, from = "/posts/a/") => ({ at: "posts/blog/a.md:7", from, target });

describe("links within the site", () => {
  it("leave other sites, mail and protocol-relative hosts to the reader", () => {
    expect(["https://example.org/", "mailto:x", "//example.org/a"].map(isSitePath)).toEqual([false, false, false]);
    expect(["/posts/", "#intro", "data.csv", "../b/"].map(isSitePath)).toEqual([true, true, true, true]);
  });

  it("pass when they lead to a written page, file or id, however written", () => {
    const good = ["/rdma101/glossary/#qp", "/posts/a/", "/posts/a/index.html", "#intro", "data.csv", "../a/#intro", "/posts/%E4%B8%AD%E6%96%87/", "/posts/a/?utm=x"];
    expect(brokenLinks(good.map((t) => link(t)), writtenSite(out))).toEqual([]);
  });

  it("name the file and line of a link to no page, no file or no id", () => {
    expect(brokenLinks([link("/posts/b/"), link("/rdma101/glossary/#qps"), link("#outro"), link("missing.csv")], writtenSite(out))).toEqual([
      "posts/blog/a.md:7: (link): /posts/b/ is no page or file of the site",
      "posts/blog/a.md:7: (link): /rdma101/glossary/#qps: the page /rdma101/glossary/ has no id 'qps'",
      "posts/blog/a.md:7: (link): #outro: the page /posts/a/ has no id 'outro'",
      "posts/blog/a.md:7: (link): missing.csv is no page or file of the site; a file beside a page is published only when a Markdown image (![alt](file)) or a directive uses it",
    ]);
  });
});

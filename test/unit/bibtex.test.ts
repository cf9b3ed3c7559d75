import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { authorListHtml, authorName, parsePublications } from "../../src/bibtex.ts";
import { errorOf } from "../support/errors.ts";

const file = "_data/publications.bib";
const real = () => parsePublications(readFileSync(file, "utf8"), file);

const entry = (key: string, fields: string) => `@inproceedings{${key},\n  title = {T},\n  author = {Ren, Feng},\n  booktitle = {B},\n${fields}}\n`;

describe("parsePublications", () => {
  it("lists the real file's papers newest first, keeping file order within a year", () => {
    const source = readFileSync(file, "utf8");
    const papers = real();
    expect(papers.length).toBeGreaterThan(0);
    const fileOrder = (key: string) => source.indexOf(`{${key},`);
    papers.forEach((p, i) => {
      const next = papers[i + 1];
      if (next) expect(p.year > next.year || (p.year === next.year && fileOrder(p.key) < fileOrder(next.key)), `${p.key} before ${next.key}`).toBe(true);
    });
  });

  it("orders any file by year, newest first, then by position in the file", () => {
    const source = entry("old", "  year = {2020},\n") + entry("newB", "  year = {2024},\n") + entry("newA", "  year = {2024},\n");
    expect(parsePublications(source, "f.bib").map((p) => p.key)).toEqual(["newB", "newA", "old"]);
  });

  it("turns TeX into text: braces, dashes and page ranges", () => {
    const [paper] = parsePublications(
      "@inproceedings{k,\n  title = {{KVCache}-centric Serving---in {LLM} Chatbots},\n  author = {Ren, Feng},\n  booktitle = {B},\n  year = {2025},\n  pages = {155--170},\n  award = {Best Paper award}\n}\n",
      "f.bib",
    );
    expect(paper!.title).toBe("KVCache-centric Serving—in LLM Chatbots");
    expect(paper!.pages).toBe("155–170");
    expect(paper!.award).toBe("Best Paper award");
  });

  it("offers each entry for copying without the site's own fields, still parseable", () => {
    for (const paper of real()) {
      expect(paper.bibtex, paper.key).not.toMatch(/^\s*(code|award)\s*=/m);
      expect(paper.bibtex, paper.key).toMatch(new RegExp(`^@\\w+\\{${paper.key},[\\s\\S]*[^,\\s]\\s*\\}$`));
      expect(parsePublications(paper.bibtex, "copied.bib")[0]!.title).toBe(paper.title);
    }
    const [copied] = parsePublications(entry("k", "  year = {2020},\n  pages = {1--2},\n  code = {https://example.org/c},\n  award = {Award}\n"), "f.bib");
    expect(copied!.bibtex).toContain("pages = {1--2}");
    expect(copied!.bibtex).not.toMatch(/code|award/i);
  });

  it("keeps an abstract's paragraphs and names the link it was copied from", () => {
    const [paper] = parsePublications(entry("k", "  year = {2020},\n  url = {https://example.org/p},\n  abstracturl = {https://example.org/p},\n  abstract = {First {LLM} paragraph.\n\n     Second, 59\\%.}\n"), "f.bib");
    expect(paper!.abstract).toEqual(["First LLM paragraph.", "Second, 59%."]);
    expect(paper!.abstractSource).toEqual({ kind: "paper", url: "https://example.org/p" });
    expect(paper!.bibtex).not.toMatch(/abstract/i);
    expect(paper!.bibtex).toMatch(/url = \{https:\/\/example.org\/p\}\n\}$/);
  });

  it("gives each paper an address from its key, and splits its pages for citation tags", () => {
    const [paper] = parsePublications(entry("Ren2024:SMART", "  year = {2020},\n  pages = {351--367},\n"), "f.bib");
    expect(paper!.slug).toBe("ren2024-smart");
    expect([paper!.firstPage, paper!.lastPage]).toEqual(["351", "367"]);
  });

  it("keeps full author lists in order", () => {
    const [paper] = parsePublications(entry("k", "  year = {2020},\n").replace("author = {Ren, Feng}", "author = {Ren, Feng and Qin, Ruoyu and Zhang, Mingxing}"), "f.bib");
    expect(paper!.authors.map(authorName)).toEqual(["Feng Ren", "Ruoyu Qin", "Mingxing Zhang"]);
  });

  it("makes link buttons only from the fields that exist, in a fixed order", () => {
    const [all] = parsePublications(entry("k", "  year = {2020},\n  code = {https://example.org/c},\n  doi = {10.1145/1.2},\n  eprint = {2407.00079},\n  archiveprefix = {arXiv},\n  url = {https://example.org/p},\n"), "f.bib");
    expect(all!.links).toEqual([
      { kind: "paper", url: "https://example.org/p" },
      { kind: "arxiv", url: "https://arxiv.org/abs/2407.00079" },
      { kind: "doi", url: "https://doi.org/10.1145/1.2" },
      { kind: "code", url: "https://example.org/c" },
    ]);
    // arXiv's PDF is the paper only where the arXiv record is its venue; else it is a preprint's.
    const preprint = "@article{p,\n  title = {T},\n  author = {Ren, Feng},\n  journal = {arXiv preprint arXiv:2604.00368},\n  year = {2026},\n  eprint = {2604.00368},\n  archiveprefix = {arXiv}\n}\n";
    expect(parsePublications(preprint, "f.bib")[0]!.links).toEqual([
      { kind: "pdf", url: "https://arxiv.org/pdf/2604.00368" },
      { kind: "arxiv", url: "https://arxiv.org/abs/2604.00368" },
    ]);
    expect(parsePublications(entry("k", "  year = {2020},\n"), "f.bib")[0]!.links).toEqual([]);
    for (const paper of real()) for (const link of paper.links) expect(link.url, paper.key).toMatch(/^https:\/\//);
  });

  it.each([
    ["@article{k, author={A, B}, journal={J}, year={2020}}", "pubs.bib: k.title: is required"],
    ["@article{k, title={T}, author={A, B}, journal={J}}", "pubs.bib: k.year: is required"],
    ["@article{k, title={T}, author={A, B}, journal={J}, year={20x0}}", "pubs.bib: k.year: must be a four-digit year"],
    ["@article{k, title={T}, author={A, B}, year={2020}}", "pubs.bib: k.journal: a journal or booktitle is required"],
    ["@article{k, title={T}, author={A, B}, journal={J}, year={2020}, poster={https://x.org}}", "pubs.bib: k.poster: unknown field"],
    ["@article{k, title={T}, author={A, B}, journal={J}, year={2020}, doi={https://doi.org/10.1/x}}", "pubs.bib: k.doi: must be a bare DOI"],
    ["@article{k, title={T}, author={A, B}, journal={J}, year={2020}}\n@article{k, title={T}, author={A, B}, journal={J}, year={2021}}", "pubs.bib: k: duplicate citation key"],
    ["@article{Ren:K, title={T}, author={A, B}, journal={J}, year={2020}}\n@article{ren-k, title={T}, author={A, B}, journal={J}, year={2021}}", "pubs.bib: ren-k: has the same address as Ren:K"],
    ["@article{k, title={T}, author={A, B}, journal={J}, year={2020}, abstract={Text.}}", "pubs.bib: k.abstracturl: abstract and abstracturl go together"],
    ["@article{k, title={T}, author={A, B}, journal={J}, year={2020}, url={https://x.org/p}, abstract={Text.}, abstracturl={https://x.org/other}}", "pubs.bib: k.abstracturl: must be the entry's url, arXiv page or DOI (https://x.org/p)"],
    ["@article{k, title={T}, author={A, B}, journal={J}, year={2020}, code={https://x.org/c}, abstract={Text.}, abstracturl={https://x.org/c}}", "pubs.bib: k.abstracturl: must be the entry's url, arXiv page or DOI (it has none)"],
    ["", "pubs.bib: (file): holds no entries"],
  ])("rejects %j", (source, message) => {
    expect(errorOf(() => parsePublications(source, "pubs.bib"))).toContain(message);
  });
});

describe("authorListHtml", () => {
  it("emphasises the owner's name and escapes the rest", () => {
    const html = authorListHtml(
      [
        { given: "Ruoyu", family: "Qin" },
        { given: "Feng", family: "Ren" },
        { given: "<b>", family: "O'Neil" },
      ],
      "Feng Ren",
    );
    expect(html).toBe('Ruoyu Qin, <strong class="self">Feng Ren</strong>, &lt;b&gt; O&#39;Neil');
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { authorListHtml, authorName, parsePublications } from "../../src/bibtex.ts";
import { errorOf } from "../support/errors.ts";

const file = "_data/publications.bib";
const real = () => parsePublications(readFileSync(file, "utf8"), file);

describe("parsePublications", () => {
  it("reads all five papers, newest first, keeping file order within a year", () => {
    expect(real().map((p) => `${p.year} ${p.key}`)).toEqual([
      "2026 ren2026tent",
      "2025 qin2025mooncaketos",
      "2025 qin2025mooncake",
      "2024 ren2024smart",
      "2022 ren2022libcrpm",
    ]);
  });

  it("turns TeX into text: braces, dashes and page ranges", () => {
    const fast = real().find((p) => p.key === "qin2025mooncake")!;
    expect(fast.title).toBe("Mooncake: Trading More Storage for Less Computation — A KVCache-centric Architecture for Serving LLM Chatbot");
    expect(fast.pages).toBe("155–170");
    expect(fast.award).toBe("Best Paper award");
  });

  it("offers each entry for copying without the site's own fields, still parseable", () => {
    for (const paper of real()) {
      expect(paper.bibtex, paper.key).not.toMatch(/^\s*(code|award)\s*=/m);
      expect(paper.bibtex, paper.key).toMatch(new RegExp(`^@\\w+\\{${paper.key},[\\s\\S]*[^,\\s]\\s*\\}$`));
      expect(parsePublications(paper.bibtex, "copied.bib")[0]!.title).toBe(paper.title);
    }
    expect(real().find((p) => p.key === "qin2025mooncake")!.bibtex).toContain("pages         = {155--170},");
  });

  it("keeps full author lists in order", () => {
    const tent = real()[0]!;
    expect(tent.authors).toHaveLength(19);
    expect(authorName(tent.authors[0]!)).toBe("Feng Ren");
    expect(authorName(tent.authors[18]!)).toBe("Mingxing Zhang");
  });

  it("makes link buttons only from the fields that exist", () => {
    const links = Object.fromEntries(real().map((p) => [p.key, p.links.map((l) => `${l.label} ${l.url}`)]));
    expect(links).toEqual({
      ren2026tent: ["arXiv https://arxiv.org/abs/2604.00368"],
      qin2025mooncaketos: ["arXiv https://arxiv.org/abs/2407.00079", "Code https://github.com/kvcache-ai/Mooncake"],
      qin2025mooncake: ["Paper https://www.usenix.org/conference/fast25/presentation/qin", "Code https://github.com/kvcache-ai/Mooncake"],
      ren2024smart: ["DOI https://doi.org/10.1145/3617232.3624857", "Code https://github.com/madsys-dev/smart"],
      ren2022libcrpm: ["Code https://github.com/alogfans/libcrpm"],
    });
  });

  it("keeps each entry's BibTeX source for readers to copy", () => {
    const smart = real().find((p) => p.key === "ren2024smart")!;
    expect(smart.bibtex).toMatch(/^@inproceedings\{ren2024smart,/);
    expect(smart.bibtex).toMatch(/\}$/);
  });

  it.each([
    ["@article{k, author={A, B}, journal={J}, year={2020}}", "pubs.bib: k.title: is required"],
    ["@article{k, title={T}, author={A, B}, journal={J}}", "pubs.bib: k.year: is required"],
    ["@article{k, title={T}, author={A, B}, journal={J}, year={20x0}}", "pubs.bib: k.year: must be a four-digit year"],
    ["@article{k, title={T}, author={A, B}, year={2020}}", "pubs.bib: k.journal: a journal or booktitle is required"],
    ["@article{k, title={T}, author={A, B}, journal={J}, year={2020}, slides={https://x.org}}", "pubs.bib: k.slides: unknown field"],
    ["@article{k, title={T}, author={A, B}, journal={J}, year={2020}, doi={https://doi.org/10.1/x}}", "pubs.bib: k.doi: must be a bare DOI"],
    ["@article{k, title={T}, author={A, B}, journal={J}, year={2020}}\n@article{k, title={T}, author={A, B}, journal={J}, year={2021}}", "pubs.bib: k: duplicate citation key"],
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

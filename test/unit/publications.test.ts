import { describe, expect, it } from "vitest";
import { parsePublications } from "../../src/bibtex.ts";
import { pageHead } from "../../src/pages.ts";
import { byYear, citationTags, publicationPages } from "../../src/publications.ts";

const bib = `
@article{j2024, title={Journal Paper}, author={Ren, Feng and Qin, Ruoyu}, journal={ACM Transactions on Storage}, year={2024}, eprint={2407.00079}, archiveprefix={arXiv}}
@inproceedings{c2024, title={Conference Paper}, author={Ren, Feng}, booktitle={Proc. of Somewhere}, year={2024}, volume={1}, pages={351--367}, doi={10.1145/3617232.3624857}}
@inproceedings{c2022, title={Old Paper}, author={Ren, Feng}, booktitle={DAC}, year={2022}}
`;
const [journal, conference, old] = parsePublications(bib, "f.bib") as [never, never, never];
const tags = (paper: never) => citationTags(paper).map((tag) => `${tag.name}=${tag.content}`);

describe("citationTags", () => {
  it("gives Scholar the title, each author as Family, Given, the year and a journal's title", () => {
    expect(tags(journal)).toEqual([
      "citation_title=Journal Paper",
      "citation_author=Ren, Feng",
      "citation_author=Qin, Ruoyu",
      "citation_publication_date=2024",
      "citation_journal_title=ACM Transactions on Storage",
      "citation_arxiv_id=2407.00079",
    ]);
  });

  it("names a conference as one, with volume, first and last page and DOI, and leaves out what the entry lacks", () => {
    expect(tags(conference)).toEqual([
      "citation_title=Conference Paper",
      "citation_author=Ren, Feng",
      "citation_publication_date=2024",
      "citation_conference_title=Proc. of Somewhere",
      "citation_volume=1",
      "citation_firstpage=351",
      "citation_lastpage=367",
      "citation_doi=10.1145/3617232.3624857",
    ]);
    expect(tags(old).filter((t) => /pdf|doi|arxiv|page|volume/.test(t))).toEqual([]);
  });
});

describe("paper pages", () => {
  it("exist for every paper in every language, at the paper's address", () => {
    expect(publicationPages([journal, old]).map((p) => p.url)).toEqual(["/publications/j2024/", "/publications/c2022/", "/zh/publications/j2024/", "/zh/publications/c2022/"]);
  });

  it("group papers by year, newest first, keeping the list's order within a year", () => {
    expect(byYear([old, journal, conference]).map((g) => [g.year, g.publications.map((p: { key: string }) => p.key)])).toEqual([
      [2024, ["j2024", "c2024"]],
      [2022, ["c2022"]],
    ]);
  });

  it("are titled by the paper and described by venue, year and authors, in the page's language", () => {
    const site = { description: { en: "", zh: "" } } as never;
    const course = { title: "RDMA 101", description: "" } as never;
    const [, zhPage] = publicationPages([conference]);
    expect(pageHead("publication", { lang: "zh", site, course, paperPage: zhPage })).toEqual({
      title: "Conference Paper",
      description: "Proc. of Somewhere，2024。作者：Feng Ren。",
      type: "article",
    });
  });
});

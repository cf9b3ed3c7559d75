// The papers' pages as built: one per paper in every language, the BibTeX file's facts and nothing
// else, and the citation tags Google Scholar reads.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { authorName, parsePublications } from "../../src/bibtex.ts";
import { loadPage, pageUrls } from "../support/site.ts";

const papers = parsePublications(readFileSync("_data/publications.bib", "utf8"), "_data/publications.bib");
const text = (el: Element | null | undefined) => (el?.textContent ?? "").replace(/\s+/g, " ").trim();
const roots = ["/", "/zh/"];
const meta = (doc: Document, name: string) => [...doc.querySelectorAll(`meta[name="${name}"]`)].map((m) => m.getAttribute("content"));

describe("the list of papers", () => {
  it.each(roots)("(%s) lists every paper once, under its year, newest year first, each linking to its page", (root) => {
    const doc = loadPage(`${root}publications/`);
    const years = [...doc.querySelectorAll("main h2")].map((h) => Number(text(h)));
    expect(years).toEqual([...new Set(papers.map((p) => p.year))].sort((a, b) => b - a));
    for (const h2 of doc.querySelectorAll("main h2")) {
      const listed = [...h2.closest("section")!.querySelectorAll(".publication")].map((li) => li.id);
      expect(listed).toEqual(papers.filter((p) => String(p.year) === text(h2)).map((p) => p.key));
    }
    const links = [...doc.querySelectorAll(".pub-title a")].map((a) => a.getAttribute("href"));
    expect(links).toEqual(papers.map((p) => `${root}publications/${p.slug}/`));
  });
});

describe("the paper pages", () => {
  it("are exactly one per paper in each language (and the lists)", async () => {
    const built = (await pageUrls()).filter((u) => /^\/(?:zh\/)?publications\//.test(u));
    expect(built.sort()).toEqual(roots.flatMap((root) => [`${root}publications/`, ...papers.map((p) => `${root}publications/${p.slug}/`)]).sort());
  });

  describe.each(roots.flatMap((root) => papers.map((paper) => [`${root}publications/${paper.slug}/`, paper] as const)))("%s", (url, paper) => {
    const doc = loadPage(url);

    it("shows the paper as the BibTeX file has it: title, every author (the owner highlighted), venue, year, links", () => {
      expect(text(doc.querySelector("h1"))).toBe(paper.title);
      expect(doc.querySelector("h1")!.closest("[lang]")!.getAttribute("lang")).toBe("en");
      expect(text(doc.querySelector("main .pub-authors"))).toBe(paper.authors.map(authorName).join(", "));
      expect([...doc.querySelectorAll("main .pub-authors strong.self")].map(text)).toEqual(["Feng Ren"]);
      const venue = text(doc.querySelector("main .pub-venue"));
      expect(venue.startsWith(paper.venue)).toBe(true);
      expect(venue.endsWith(String(paper.year))).toBe(true);
      if (paper.pages) expect(venue).toContain(paper.pages);
      expect([...doc.querySelectorAll("main .pub-links a")].map((a) => a.getAttribute("href"))).toEqual(paper.links.map((l) => l.url));
    });

    it("tells machines (JSON-LD sameAs) of the paper's own records only: its page, DOI, and arXiv where the venue is that record", () => {
      const things = [...doc.querySelectorAll('script[type="application/ld+json"]')].map((s) => JSON.parse(s.textContent!) as { "@type": string; sameAs?: string[] });
      const article = things.find((t) => t["@type"] === "ScholarlyArticle")!;
      // A preprint of a paper published elsewhere is another record (its authors may differ).
      const own = paper.links.filter((l) => l.kind === "paper" || l.kind === "doi" || (l.kind === "arxiv" && paper.venue.includes(`arXiv:${paper.arxiv}`)));
      expect(article.sameAs ?? []).toEqual(own.map((l) => l.url));
    });

    it("shows the public abstract only where the file has one, with the page it came from", () => {
      const section = doc.getElementById("abstract")?.closest("section");
      if (!paper.abstract) return expect(section).toBeUndefined();
      expect([...section!.querySelectorAll(".abstract p")].map(text)).toEqual(paper.abstract);
      expect(section!.querySelector(".abstract")!.closest("[lang]")!.getAttribute("lang")).toBe("en");
      const source = section!.querySelector(".abstract-source a");
      expect(source?.getAttribute("href")).toBe(paper.abstractSource!.url);
      // A preprint's abstract says so: the journal's own may differ.
      expect(text(source).includes("arXiv")).toBe(paper.abstractSource!.kind === "arxiv");
    });

    it("offers the BibTeX to copy, which parses back to this paper", () => {
      const code = doc.querySelector("#cite ~ pre code")!;
      expect(parsePublications(code.textContent!, "copied.bib")[0]).toMatchObject({ key: paper.key, title: paper.title, year: paper.year });
      expect(doc.querySelector(`button.copy-button[data-copy-from="${code.id}"]`)).not.toBeNull();
      // The code is English; the block's name ("… 的 BibTeX") is read in the page's language.
      expect(code.getAttribute("lang")).toBe("en");
      expect(code.parentElement!.closest("[lang]")!.getAttribute("lang")).toBe(doc.documentElement.getAttribute("lang"));
    });

    it("carries the Highwire citation tags Google Scholar needs, in one language for every page", () => {
      expect(meta(doc, "citation_title")).toEqual([paper.title]);
      expect(meta(doc, "citation_author").map((a) => a!.split(", ").reverse().join(" "))).toEqual(paper.authors.map(authorName));
      expect(meta(doc, "citation_publication_date")).toEqual([String(paper.year)]);
      expect([...meta(doc, "citation_journal_title"), ...meta(doc, "citation_conference_title")]).toEqual([paper.venue]);
      expect(meta(doc, "citation_firstpage").concat(meta(doc, "citation_lastpage")).join("–")).toBe(paper.pages ?? "");
      expect(meta(doc, "citation_doi")).toEqual(paper.doi ? [paper.doi] : []);
      expect(meta(doc, "citation_arxiv_id")).toEqual(paper.arxiv ? [paper.arxiv] : []);
      const pdf = meta(doc, "citation_pdf_url");
      // The page's PDF is the one the data gives (arXiv's only where that record is the paper: test/unit/bibtex.test.ts).
      expect(pdf).toEqual(paper.pdf ? [paper.pdf] : []);
      if (pdf.length) expect(paper.links.map((l) => l.url)).toContain(pdf[0]);
    });
  });
});

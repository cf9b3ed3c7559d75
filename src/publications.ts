// The papers' own pages: the list of papers (by year) and a page per paper, in every language. A
// paper is shown as published, in English; only the page around it follows the page's language.
import type UserConfig from "@11ty/eleventy/UserConfig";
import { authorName, PAPER_LANGUAGE, type Publication } from "./bibtex.ts";
import { groupByYear } from "./dates.ts";
import { LANGUAGE_CODES, type Lang } from "./languages.ts";
import { routes } from "./urls.ts";

/** One paper's page in one language (what src/pages/publication.njk paginates over). */
export interface PublicationPage {
  paper: Publication;
  lang: Lang;
  url: string;
}

export const publicationPages = (publications: readonly Publication[]): PublicationPage[] =>
  LANGUAGE_CODES.flatMap((lang) => publications.map((paper) => ({ paper, lang, url: routes.publication(lang, paper.slug) })));

/** Papers by year, newest year first (the list keeps its order within a year). */
export const byYear = (publications: readonly Publication[]): { year: number; publications: Publication[] }[] =>
  groupByYear(publications, (pub) => pub.year).map(([year, list]) => ({ year, publications: list }));

/** A Highwire Press meta tag, as Google Scholar reads them. */
export interface CitationTag {
  name: string;
  content: string;
}

/**
 * The `citation_*` tags Google Scholar indexes a paper by: one per author (as "Family, Given"), the
 * venue as a journal or a conference, and only the fields the BibTeX entry has.
 */
export function citationTags(paper: Publication): CitationTag[] {
  const tags: CitationTag[] = [{ name: "citation_title", content: paper.title }];
  for (const author of paper.authors) tags.push({ name: "citation_author", content: author.given ? `${author.family}, ${author.given}` : author.family });
  tags.push({ name: "citation_publication_date", content: String(paper.year) });
  tags.push({ name: paper.venueKind === "journal" ? "citation_journal_title" : "citation_conference_title", content: paper.venue });
  const optional: [string, string | undefined][] = [
    ["citation_volume", paper.volume],
    ["citation_firstpage", paper.firstPage],
    ["citation_lastpage", paper.lastPage],
    ["citation_doi", paper.doi],
    ["citation_arxiv_id", paper.arxiv],
    ["citation_pdf_url", paper.pdf],
  ];
  for (const [name, content] of optional) if (content) tags.push({ name, content });
  return tags;
}

/** The author list as plain text, for a page's description. */
export const authorsText = (paper: Publication): string => paper.authors.map(authorName).join(", ");

export default function publications(config: UserConfig): void {
  // The paper pages come from the publications data (the BibTeX file), which every template sees.
  config.addCollection("publicationPages", (api: { getAll(): { data: { publications?: Publication[] } }[] }) =>
    publicationPages(api.getAll()[0]?.data.publications ?? []),
  );
  config.addGlobalData("paperLanguage", PAPER_LANGUAGE);
  config.addFilter("byYear", byYear);
  config.addFilter("citationTags", citationTags);
}

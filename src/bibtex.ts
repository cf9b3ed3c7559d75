// Publications come from a BibTeX file (what researchers keep and export from Scholar or DBLP).
// The maintained @retorquere/bibtex-parser turns TeX into text; this module validates each entry and
// shapes it for the homepage.
import { parse } from "@retorquere/bibtex-parser";
import { publicationFields } from "./schemas.ts";
import { escapeHtml } from "./html.ts";
import { contentError, formatIssues } from "./validation.ts";

export interface Author {
  given: string;
  family: string;
}

/** A link button; its label is the UI string publication.links.<kind>. */
export interface PublicationLink {
  kind: "paper" | "arxiv" | "doi" | "code";
  url: string;
}

export interface Publication {
  key: string;
  title: string;
  authors: Author[];
  venue: string;
  year: number;
  pages?: string;
  award?: string;
  links: PublicationLink[];
  /** The entry as written in the file, without this site's own fields, for readers to copy. */
  bibtex: string;
}

/** Fields this site adds to BibTeX for its own use; a reader's reference manager needs none of them. */
const SITE_ONLY_FIELDS = ["code", "award"];
const siteOnlyField = new RegExp(`^[ \\t]*(?:${SITE_ONLY_FIELDS.join("|")})[ \\t]*=[ \\t]*(?:\\{[^{}]*\\}|"[^"]*")[ \\t]*,?[ \\t]*\\r?\\n`, "gim");

/** The entry as a reader would cite it: the file's text without the site-only fields. */
export const citableBibtex = (input: string): string =>
  input
    .replace(siteOnlyField, "")
    .trim()
    .replace(/,(\s*\})$/, "$1");

function linksOf(fields: ReturnType<typeof publicationFields.parse>): PublicationLink[] {
  const links: PublicationLink[] = [];
  if (fields.url) links.push({ kind: "paper", url: fields.url });
  if (fields.eprint) links.push({ kind: "arxiv", url: `https://arxiv.org/abs/${fields.eprint}` });
  if (fields.doi) links.push({ kind: "doi", url: `https://doi.org/${fields.doi}` });
  if (fields.code) links.push({ kind: "code", url: fields.code });
  return links;
}

/** Parses and validates a BibTeX file; returns publications newest first (file order within a year). */
export function parsePublications(source: string, file: string): Publication[] {
  const library = parse(source, { sentenceCase: false, english: false });
  const problems: string[] = library.errors.map((e) => `${file}: (syntax): ${e.error}`);
  const publications: Publication[] = [];
  const seen = new Set<string>();

  for (const entry of library.entries) {
    if (seen.has(entry.key)) problems.push(`${file}: ${entry.key}: duplicate citation key`);
    seen.add(entry.key);
    const raw = {
      ...entry.fields,
      author: entry.fields.author?.map((a) => ({ given: a.firstName ?? "", family: a.lastName ?? a.name ?? "" })),
    };
    const result = publicationFields.safeParse(raw);
    if (!result.success) {
      problems.push(...formatIssues(file, result.error.issues, entry.key));
      continue;
    }
    const fields = result.data;
    const venue = fields.journal ?? fields.booktitle;
    if (!venue) {
      problems.push(`${file}: ${entry.key}.journal: a journal or booktitle is required`);
      continue;
    }
    publications.push({
      key: entry.key,
      title: fields.title,
      authors: fields.author,
      venue,
      year: fields.year,
      pages: fields.pages,
      award: fields.award,
      links: linksOf(fields),
      bibtex: citableBibtex(entry.input),
    });
  }
  if (library.entries.length === 0 && problems.length === 0) problems.push(`${file}: (file): holds no entries`);
  if (problems.length > 0) throw contentError(problems);
  return publications.map((p, i) => [p, i] as const).sort(([a, i], [b, j]) => b.year - a.year || i - j).map(([p]) => p);
}

export const authorName = (a: Author): string => (a.given ? `${a.given} ${a.family}` : a.family);

/** The author list as HTML, with the site owner's name emphasised wherever it appears. */
export function authorListHtml(authors: Author[], ownerName: string): string {
  return authors
    .map((author) => {
      const name = escapeHtml(authorName(author));
      return authorName(author) === ownerName ? `<strong class="self">${name}</strong>` : name;
    })
    .join(", ");
}

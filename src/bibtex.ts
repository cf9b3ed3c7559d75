// Publications come from a BibTeX file (what researchers keep and export from Scholar or DBLP).
// The maintained @retorquere/bibtex-parser turns TeX into text; this module validates each entry and
// shapes it for the homepage, the list of papers and each paper's own page.
import { parse } from "@retorquere/bibtex-parser";
import { publicationFields } from "./schemas.ts";
import { escapeHtml } from "./html.ts";
import type { Lang } from "./languages.ts";
import { latinSlug } from "./urls.ts";
import { contentError, formatIssues } from "./validation.ts";

/** Papers are shown as published, in English, whatever the page's language. */
export const PAPER_LANGUAGE: Lang = "en";

export interface Author {
  given: string;
  family: string;
}

/** A link button; its label is the UI string publication.link.<kind>. */
export interface PublicationLink {
  kind: "paper" | "pdf" | "arxiv" | "doi" | "code" | "slides" | "video";
  url: string;
}

export interface Publication {
  key: string;
  /** Names the paper's page (routes.publication), made from the citation key. */
  slug: string;
  title: string;
  authors: Author[];
  /** A journal article or a paper in conference proceedings. */
  venueKind: "journal" | "conference";
  venue: string;
  year: number;
  volume?: string;
  /** As printed ("155–170"), and split for citation tags. */
  pages?: string;
  firstPage?: string;
  lastPage?: string;
  address?: string;
  award?: string;
  doi?: string;
  arxiv?: string;
  /**
   * The arXiv record is only the preprint of a paper published elsewhere (the venue is not
   * "arXiv preprint arXiv:<eprint>"): its title, authors and abstract may differ from the paper's.
   */
  arxivIsPreprint?: boolean;
  /** A PDF anyone can read: arXiv's, when the arXiv record is the paper itself. */
  pdf?: string;
  /** The public abstract's paragraphs, and the page (one of `links`) it was copied from. */
  abstract?: string[];
  abstractSource?: PublicationLink;
  links: PublicationLink[];
  /** The entry as written in the file, without this site's own fields, for readers to copy. */
  bibtex: string;
}

/**
 * Fields a reader's reference manager has no use for: links and notes this site adds for its own
 * pages, and the abstract (shown on the paper's page, and long).
 */
const SITE_ONLY_FIELDS = new Set(["code", "slides", "video", "award", "abstract", "abstracturl"]);

/**
 * The entry without the named fields. Values may hold nested braces (an abstract's `{LLM}`), so
 * each value is read to its matching brace or quote rather than matched by a pattern.
 */
function withoutFields(input: string, names: ReadonlySet<string>): string {
  const field = /^[ \t]*([A-Za-z][\w-]*)[ \t]*=[ \t]*/gm;
  let out = "";
  let kept = 0;
  for (let match = field.exec(input); match; match = field.exec(input)) {
    let end = match.index + match[0].length;
    if (input[end] === "{" || input[end] === '"') {
      const close = input[end] === "{" ? "}" : '"';
      let depth = 0;
      for (end += 1; end < input.length && !(depth === 0 && input[end] === close); end++) {
        if (input[end] === "{") depth++;
        else if (input[end] === "}") depth--;
      }
      end += 1;
    } else {
      while (end < input.length && /[\w.-]/.test(input[end]!)) end++;
    }
    field.lastIndex = end;
    if (!names.has(match[1]!.toLowerCase())) continue;
    // The field, its comma and the rest of its line.
    const rest = /^[ \t]*,?[ \t]*\r?\n?/.exec(input.slice(end))![0];
    out += input.slice(kept, match.index);
    kept = end + rest.length;
  }
  return out + input.slice(kept);
}

/** The entry as a reader would cite it: the file's text without the site-only fields. */
const citableBibtex = (input: string): string =>
  withoutFields(input, SITE_ONLY_FIELDS)
    .trim()
    .replace(/,(\s*\})$/, "$1");

type Fields = ReturnType<typeof publicationFields.parse>;

function linksOf(fields: Fields, pdf: string | undefined): PublicationLink[] {
  const links: PublicationLink[] = [];
  if (fields.url) links.push({ kind: "paper", url: fields.url });
  if (pdf) links.push({ kind: "pdf", url: pdf });
  if (fields.eprint) links.push({ kind: "arxiv", url: `https://arxiv.org/abs/${fields.eprint}` });
  if (fields.doi) links.push({ kind: "doi", url: `https://doi.org/${fields.doi}` });
  for (const kind of ["code", "slides", "video"] as const) {
    const url = fields[kind];
    if (url) links.push({ kind, url });
  }
  return links;
}

/** The links an abstract may be copied from: pages that publish the paper (the page says which). */
const ABSTRACT_SOURCES = new Set<PublicationLink["kind"]>(["paper", "arxiv", "doi"]);

/** Parses and validates a BibTeX file; returns publications newest first (file order within a year). */
export function parsePublications(source: string, file: string): Publication[] {
  // The abstract keeps its paragraphs (a blank line), which the parser marks with <p>.
  const library = parse(source, { sentenceCase: false, english: false, fieldMode: { abstract: "richtext" } });
  const problems: string[] = library.errors.map((e) => `${file}: (syntax): ${e.error}`);
  const publications: Publication[] = [];
  const seen = new Map<string, string>();

  for (const entry of library.entries) {
    const slug = latinSlug(entry.key); // Ren2024:SMART → ren2024-smart, the paper's address
    const twin = seen.get(slug);
    if (twin !== undefined) problems.push(`${file}: ${entry.key}: ${twin === entry.key ? "duplicate citation key" : `has the same address as ${twin} (/${slug}/)`}`);
    seen.set(slug, entry.key);
    const raw = {
      ...entry.fields,
      author: entry.fields.author?.map((a) => ({ given: a.firstName ?? "", family: a.lastName ?? a.name ?? "" })),
      abstract: entry.fields.abstract?.split("<p>").map((paragraph) => paragraph.trim()),
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
    const arxivIsPreprint = fields.eprint !== undefined && !venue.includes(`arXiv:${fields.eprint}`);
    const pdf = fields.eprint && !arxivIsPreprint ? `https://arxiv.org/pdf/${fields.eprint}` : undefined;
    const links = linksOf(fields, pdf);
    const sourcePages = links.filter((l) => ABSTRACT_SOURCES.has(l.kind));
    const abstractSource = fields.abstracturl ? sourcePages.find((l) => l.url === fields.abstracturl) : undefined;
    if (fields.abstracturl && !abstractSource) {
      problems.push(`${file}: ${entry.key}.abstracturl: must be the entry's url, arXiv page or DOI (${sourcePages.map((l) => l.url).join(", ") || "it has none"}): an abstract comes from the paper's page`);
      continue;
    }
    const [firstPage, lastPage] = fields.pages?.split(/\s*[–-]+\s*/) ?? [];
    publications.push({
      key: entry.key,
      slug,
      title: fields.title,
      authors: fields.author,
      venueKind: fields.journal ? "journal" : "conference",
      venue,
      year: fields.year,
      volume: fields.volume,
      pages: fields.pages,
      firstPage,
      lastPage,
      address: fields.address,
      award: fields.award,
      doi: fields.doi,
      arxiv: fields.eprint,
      ...(arxivIsPreprint && { arxivIsPreprint }),
      pdf,
      abstract: fields.abstract,
      abstractSource,
      links,
      bibtex: citableBibtex(entry.input),
    });
  }
  if (library.entries.length === 0 && problems.length === 0) problems.push(`${file}: (file): holds no entries`);
  if (problems.length > 0) throw contentError(problems);
  // Array sort is stable: papers of one year keep the file's order.
  return publications.sort((a, b) => b.year - a.year);
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

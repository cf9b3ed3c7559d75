// What a page tells machines about itself beyond its <title>: breadcrumbs (shown on the page and
// given as BreadcrumbList), and schema.org JSON-LD for the homepage (Person), posts (BlogPosting),
// the course home (Course), lessons (LearningResource) and papers (ScholarlyArticle). JSON-LD is
// data, not script: a browser never runs it, so the Content-Security-Policy needs no exception.
import type UserConfig from "@11ty/eleventy/UserConfig";
import { authorName, PAPER_LANGUAGE, type Publication } from "./bibtex.ts";
import type { Post } from "./blog.ts";
import type { Lesson } from "./course.ts";
import type { Head } from "./content.ts";
import { isoDate } from "./dates.ts";
import { t } from "./i18n.ts";
import { languageTag, type Lang } from "./languages.ts";
import type { CourseData, Site } from "./schemas.ts";
import { absoluteUrl, routes, type RouteName } from "./urls.ts";

/** What base.njk knows about the page it lays out. */
export interface PageFacts {
  url: string;
  lang: Lang;
  head: Head;
  /** A page template's route (src/pages/). */
  route?: RouteName;
  post?: Post;
  lesson?: Lesson;
  paper?: Publication;
  /** The page's social card (see ./cards.ts), a site path. */
  image?: string;
}

export interface SiteFacts {
  site: Site;
  profile: { names: Record<Lang, string>; headline: Record<Lang, string>; links: { url?: string }[] };
  course: CourseData;
}

export interface Crumb {
  name: string;
  url: string;
  /** The language of the name, where it is not the page's (a paper's title). */
  lang?: Lang;
}

/** The trail from the homepage to this page, where the page shows one (lessons and papers). */
export function breadcrumbs(facts: PageFacts, course: CourseData): Crumb[] {
  const home = { name: t(facts.lang, "nav.home"), url: routes.home(facts.lang) };
  if (facts.lesson) {
    const { part, number, title } = facts.lesson;
    return [home, { name: course.title, url: routes.course() }, { name: t(facts.lang, "course.part", { number: part.number, title: part.title }), url: part.url }, { name: `${number} ${title}`, url: facts.url }];
  }
  const here = { name: facts.head.title ?? "", url: facts.url };
  if (facts.paper) return [home, { name: t(facts.lang, "pages.publications.title"), url: routes.publications(facts.lang) }, { ...here, lang: PAPER_LANGUAGE }];
  return [];
}

type Thing = Record<string, unknown>;

export function structuredData(facts: PageFacts, { site, profile, course }: SiteFacts): Thing[] {
  const abs = (path: string) => absoluteUrl(path, site.url);
  const date = (d: Date) => isoDate(d, site.timezone);
  const inLanguage = languageTag(facts.lang);
  const person: Thing = { "@type": "Person", name: profile.names.en, url: abs(routes.home()) };
  const image = facts.image ? abs(facts.image) : undefined;
  const things: Thing[] = [];
  /** What a post and a lesson both say: their summary, dates, author, address and card. */
  const written = (entry: { description: string; date: Date; updated?: Date }): Thing => ({
    description: entry.description,
    datePublished: date(entry.date),
    dateModified: date(entry.updated ?? entry.date),
    author: person,
    url: abs(facts.url),
    ...(image && { image }),
  });

  if (facts.route === "home") {
    things.push({
      "@type": "Person",
      name: profile.names[facts.lang],
      alternateName: Object.values(profile.names).filter((n) => n !== profile.names[facts.lang]),
      description: profile.headline[facts.lang],
      url: abs(facts.url),
      sameAs: profile.links.flatMap((l) => (l.url ? [l.url] : [])),
    });
  } else if (facts.post) {
    const post = facts.post;
    things.push({
      "@type": "BlogPosting",
      headline: post.title,
      ...written(post),
      inLanguage,
      mainEntityOfPage: abs(facts.url),
      ...(post.tags.length > 0 && { keywords: post.tags.join(", ") }),
    });
  } else if (facts.route === "course") {
    things.push({ "@type": "Course", name: course.title, description: course.description, url: abs(facts.url), inLanguage, provider: person, isAccessibleForFree: true });
  } else if (facts.lesson) {
    const lesson = facts.lesson;
    things.push({
      "@type": "LearningResource",
      name: lesson.title,
      ...written(lesson),
      learningResourceType: "lesson",
      teaches: lesson.objectives,
      timeRequired: `PT${lesson.minutes}M`,
      inLanguage: languageTag(lesson.lang),
      isPartOf: { "@type": "Course", name: course.title, url: abs(routes.course()) },
      isAccessibleForFree: true,
    });
  } else if (facts.paper) {
    things.push(scholarlyArticle(facts.paper, abs(facts.url), image));
  }

  const trail = breadcrumbs(facts, course);
  if (trail.length > 0) {
    things.push({
      "@type": "BreadcrumbList",
      itemListElement: trail.map((crumb, i) => ({ "@type": "ListItem", position: i + 1, name: crumb.name, item: abs(crumb.url) })),
    });
  }
  return things.map((thing) => ({ "@context": "https://schema.org", ...thing }));
}

/** A paper as schema.org describes one: as published (in English), with the links it has. */
function scholarlyArticle(paper: Publication, url: string, image: string | undefined): Thing {
  // sameAs says "this very paper": an arXiv record that is only a preprint of it is not (the TOS
  // Mooncake preprint lists fewer authors than the journal paper), so only the paper's own records.
  const sameAs = paper.links.filter((l) => l.kind === "paper" || l.kind === "doi" || (l.kind === "arxiv" && !paper.arxivIsPreprint)).map((l) => l.url);
  // An abstract copied from the arXiv preprint of a paper published elsewhere is the preprint's: the
  // page says so, and the data claims it for no paper.
  const ownAbstract = paper.abstractSource?.kind !== "arxiv" || !paper.arxivIsPreprint;
  return {
    "@type": "ScholarlyArticle",
    headline: paper.title,
    name: paper.title,
    author: paper.authors.map((a) => ({ "@type": "Person", name: authorName(a) })),
    datePublished: String(paper.year),
    isPartOf: { "@type": paper.venueKind === "journal" ? "Periodical" : "Book", name: paper.venue },
    inLanguage: languageTag(PAPER_LANGUAGE),
    url,
    ...(paper.firstPage && { pageStart: paper.firstPage }),
    ...(paper.lastPage && { pageEnd: paper.lastPage }),
    ...(paper.abstract && ownAbstract && { abstract: paper.abstract.join("\n\n") }),
    ...(paper.award && { award: paper.award }),
    ...(paper.doi && { identifier: { "@type": "PropertyValue", propertyID: "DOI", value: paper.doi } }),
    ...(sameAs.length > 0 && { sameAs }),
    ...(image && { image }),
  };
}

/** JSON-LD blocks as HTML: `<` is escaped so no value can close the element. */
export const jsonLdHtml = (things: Thing[]): string =>
  things.map((thing) => `<script type="application/ld+json">${JSON.stringify(thing).replace(/</g, "\\u003c")}</script>`).join("\n");

export default function metadata(config: UserConfig): void {
  config.addFilter("breadcrumbs", (facts: PageFacts, course: CourseData) => breadcrumbs(facts, course));
  config.addFilter("structuredData", (facts: PageFacts, siteFacts: SiteFacts) => jsonLdHtml(structuredData(facts, siteFacts)));
}

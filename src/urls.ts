// Every address on the site, in one place. A route gives a page's site path: where it is written in
// the output, without the path prefix. Links go through `href` (the path prefix, for a site served
// from a sub-path such as https://user.github.io/repo/) and `absoluteUrl` (the site's origin, the
// prefix and the path), so templates and modules never write a path of their own.
import type UserConfig from "@11ty/eleventy/UserConfig";
import { DEFAULT_LANGUAGE, isLang, type Lang } from "./languages.ts";

/** "Why RDMA? (Part 2)" → why-rdma-part-2: an address segment of Latin letters (accents dropped) and digits only. */
export const latinSlug = (text: string): string =>
  text
    .normalize("NFKD")
    .replace(/\p{Mark}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");

/** `/` for the default language, `/zh/` for Chinese. */
const root = (lang: Lang): string => (lang === DEFAULT_LANGUAGE ? "/" : `/${lang}/`);
const paged = (first: string, n: number): string => (n > 1 ? `${first}page/${n}/` : first);

export type FeedFormat = "atom" | "rss" | "json";
/** The feed files; RSS keeps the earlier site's address, index.xml. */
const FEED_FILES: Record<FeedFormat, string> = { atom: "feed.xml", rss: "index.xml", json: "feed.json" };
export const FEED_FORMATS = Object.keys(FEED_FILES) as FeedFormat[];

const COURSE = "/rdma101/";
/** The upper-case address others have linked publicly; every course page answers there too. */
const LEGACY_COURSE = "/RDMA101/";

/** The id of a lab run's entry on the labs page. */
export const labAnchor = (id: string): string => `lab-${id}`;

/** The id of a part's heading on the course home's syllabus (and on the print page). */
export const partAnchor = (slug: string): string => `part-${slug}`;

export const routes = {
  home: (lang: Lang = DEFAULT_LANGUAGE) => root(lang),
  posts: (lang: Lang = DEFAULT_LANGUAGE, page = 1) => paged(`${root(lang)}posts/`, page),
  post: (lang: Lang, slug: string) => `${root(lang)}posts/${slug}/`,
  tags: (lang: Lang = DEFAULT_LANGUAGE) => `${root(lang)}tags/`,
  tag: (lang: Lang, tag: string, page = 1) => paged(`${root(lang)}tags/${tag}/`, page),
  archives: (lang: Lang = DEFAULT_LANGUAGE) => `${root(lang)}archives/`,
  subscribe: (lang: Lang = DEFAULT_LANGUAGE) => `${root(lang)}subscribe/`,
  /** Where the site's source is, RDMA 101's lab with it. */
  source: (lang: Lang = DEFAULT_LANGUAGE) => `${root(lang)}source/`,
  search: (lang: Lang = DEFAULT_LANGUAGE) => `${root(lang)}search/`,
  publications: (lang: Lang = DEFAULT_LANGUAGE) => `${root(lang)}publications/`,
  publication: (lang: Lang, slug: string) => `${root(lang)}publications/${slug}/`,
  feed: (lang: Lang = DEFAULT_LANGUAGE, format: FeedFormat = "atom") => `${root(lang)}${FEED_FILES[format]}`,
  course: () => COURSE,
  /** A part of the course: its place in the syllabus (a part has no page of its own). */
  coursePart: (slug: string) => `${COURSE}#${partAnchor(slug)}`,
  lesson: (part: string, lesson: string) => `${COURSE}${part}/${lesson}/`,
  glossary: (id?: string) => `${COURSE}glossary/${id ? `#${id}` : ""}`,
  /** Every lesson on one page, for print. */
  coursePrint: () => `${COURSE}print/`,
  /** Every lab run of the course, with what it needs and prints. */
  courseLabs: () => `${COURSE}labs/`,
  /** One lab run's entry on that page. */
  courseLab: (id: string) => `${routes.courseLabs()}#${labAnchor(id)}`,
  courseFeed: () => `${COURSE}feed.xml`,
  examples: () => `${COURSE}examples/`,
  example: (file: string) => `${COURSE}examples/${file}`,
  /** The same course address in upper case. */
  legacyCourse: (path: string) => path.replace(COURSE, LEGACY_COURSE),
  legacyCourseRoot: () => LEGACY_COURSE,
  figures: () => "/figures/",
  images: () => "/img/",
  /** Social cards (see ./cards.ts), each named by the hash of what it shows. */
  cards: () => "/img/cards/",
  card: (hash: string) => `/img/cards/${hash}.png`,
  /** Pagefind's index and scripts, written after the build (see ./search.ts). */
  searchIndex: () => "/pagefind/",
  /** Folders whose files change their URL when their content changes, so hosts may cache them for good. */
  immutable: () => ["/css/", "/js/", "/img/", "/figures/"],
  /** A file from public/ (see ./assets.ts for cache busting). */
  asset: (file: string) => `/${file}`,
  katexCss: () => "/css/katex.css",
  katexFonts: () => "/css/fonts/",
  notFound: () => "/404.html",
  sitemap: () => "/sitemap.xml",
  robots: () => "/robots.txt",
  headers: () => "/_headers",
  redirects: () => "/_redirects",
  /** The dev server's build-error overlay (never in a production build). */
  devBuildErrors: () => "/dev-server/build-errors.js",
  /** Eleventy's dev server's DOM-diffing module, which its live-reload client imports on a change (at the root, under any prefix). */
  devServerDiff: () => "/.11ty/morphdom.js",
};
export type RouteName = keyof typeof routes;

/** Routes of single pages, by the page's language alone: what a page template's route gives it. */
export const pageRoutes: Partial<Record<RouteName, (lang: Lang) => string>> = {
  home: routes.home,
  tags: routes.tags,
  archives: routes.archives,
  subscribe: routes.subscribe,
  source: routes.source,
  search: routes.search,
  publications: routes.publications,
  course: () => routes.course(),
  glossary: () => routes.glossary(),
  coursePrint: () => routes.coursePrint(),
  courseLabs: () => routes.courseLabs(),
  notFound: routes.notFound,
  sitemap: routes.sitemap,
  robots: routes.robots,
  headers: routes.headers,
  redirects: routes.redirects,
  katexCss: routes.katexCss,
};

/** The sections whose pages exist in every language; a language switch elsewhere has no target. */
const TRANSLATED_SECTIONS: { test: RegExp; home: (lang: Lang) => string }[] = [
  { test: /^\/(?:posts|tags|archives)\//, home: routes.posts },
  // A paper's page exists once, in English as published; the list of papers exists in every language.
  { test: /^\/publications\//, home: routes.publications },
  { test: /^\/(?:$|subscribe\/|source\/|search\/)/, home: routes.home },
];

/** The language a site path belongs to, by its first segment. */
export function languageOf(path: string): Lang {
  const first = path.split("/")[1];
  return isLang(first) && first !== DEFAULT_LANGUAGE ? first : DEFAULT_LANGUAGE;
}

/** A site path without its language: `/zh/posts/a/` → `/posts/a/`. Translations share it. */
export const neutralPath = (path: string): string => {
  const lang = languageOf(path);
  return lang === DEFAULT_LANGUAGE ? path : path.slice(lang.length + 1);
};

/** The same page in another language (which may not exist; see ./translations.ts). */
export const inLanguage = (path: string, lang: Lang): string => `${root(lang).slice(0, -1)}${neutralPath(path)}`;

/** Where a reader lands in `lang` when this page has no translation: its section's home, if any. */
export function sectionHome(path: string, lang: Lang): string | undefined {
  return TRANSLATED_SECTIONS.find((s) => s.test.test(neutralPath(path)))?.home(lang);
}

let prefix = "/";

/** Eleventy's path prefix, as `/` or `/repo/`. */
export function setPathPrefix(pathPrefix: string | undefined): void {
  const trimmed = (pathPrefix ?? "").replace(/^\/+|\/+$/g, "");
  prefix = trimmed ? `/${trimmed}/` : "/";
}
export const pathPrefix = (): string => prefix;

/** A site path as a link: under the path prefix. Links to other sites and fragments pass through. */
export function href(path: string): string {
  if (!path.startsWith("/") || path.startsWith("//")) return path;
  return `${prefix}${path.slice(1)}`;
}

/** The full address of a site path: the site's origin, the path prefix, the path. */
export function absoluteUrl(path: string, siteUrl: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return path;
  return `${siteUrl.replace(/\/+$/, "")}${href(path)}`;
}

export default function urls(config: UserConfig): void {
  setPathPrefix((config as unknown as { pathPrefix?: string }).pathPrefix);
  config.addNunjucksGlobal("urls", routes);
  config.addFilter("href", href);
  config.addFilter("absoluteUrl", absoluteUrl);
}

// Feeds for subscribers: the blog's in each language (Atom, RSS 2.0 at the earlier site's index.xml,
// JSON Feed) and the course's (Atom). Sections add their feeds here; one template writes them all
// (src/pages/feed.njk). Content is the full post or lesson with absolute URLs.
import type UserConfig from "@11ty/eleventy/UserConfig";
import { rewriteLinks } from "./content-safety.ts";
import type { CollectionApi, CollectionItem } from "./content.ts";
import { t } from "./i18n.ts";
import type { Lang } from "./languages.ts";
import type { CourseData, Site } from "./schemas.ts";
import type { FeedFormat } from "./urls.ts";

export const FEED_SIZE = 20;

export const MEDIA_TYPES: Record<FeedFormat, string> = {
  atom: "application/atom+xml",
  rss: "application/rss+xml",
  json: "application/feed+json",
};

export interface FeedEntry {
  title: string;
  url: string;
  date: Date;
  updated?: Date;
  summary: string;
  tags: string[];
  /** The Eleventy item, for its rendered content. */
  item?: CollectionItem;
}

export interface Feed {
  section: "blog" | "course";
  lang: Lang;
  format: FeedFormat;
  url: string;
  mediaType: string;
  /** The HTML page the feed follows. */
  home: string;
  /** The feed's own date: its newest entry's, or the site's newest content's when it has none yet. */
  updated: Date;
  entries: FeedEntry[];
}

/** Each section's feeds, by section: registered by the section's module. */
const sections = new Map<Feed["section"], (api: CollectionApi) => Feed[]>();
export const addFeeds = (section: Feed["section"], feeds: (api: CollectionApi) => Feed[]): void => void sections.set(section, feeds);

/** A feed's title, in its own language. */
export const feedTitle = (feed: Feed, site: Site, course: CourseData): string =>
  feed.section === "blog" ? site.title[feed.lang] : t(feed.lang, "feeds.courseTitle", { course: course.title });

/**
 * The permanent id of a feed or entry: the page's path under the origin ids are minted in, without
 * the path prefix. A build for another address (SITE_URL, a project page) gives the same ids, so
 * readers never see a post again as new (RFC 4287 4.2.6; JSON Feed 1.1's id; RSS's guid).
 */
export const feedId = (path: string, site: Pick<Site, "url" | "feedIds">): string => `${site.feedIds ?? site.url}${path}`;

/** The newest date among items (published or updated), for a feed's own updated field. */
export const lastUpdated = (items: { date: Date; updated?: Date }[]): Date | undefined =>
  items.reduce<Date | undefined>((max, i) => {
    const d = i.updated ?? i.date;
    return !max || d > max ? d : max;
  }, undefined);

/** The end of the element that opens at `start`, counting nested tags of the same name. */
function elementEnd(html: string, start: number, tag: string): number {
  const tags = new RegExp(`<(/?)${tag}\\b[^>]*>`, "g");
  tags.lastIndex = start;
  let depth = 0;
  for (let m = tags.exec(html); m; m = tags.exec(html)) {
    depth += m[1] ? -1 : 1;
    if (depth === 0) return tags.lastIndex;
  }
  return html.length;
}

/** Where KaTeX's visual copy of a formula starts (its MathML copy precedes it). */
const KATEX_HTML = '<span class="katex-html"';

/** An attribute's value in an opening tag, or "". */
const attribute = (tag: string, name: string) => tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1] ?? "";

/**
 * A post's HTML as a feed reader shows it, without the site's CSS and scripts: KaTeX's visual copy
 * of each formula is dropped (readers would show it beside the MathML, flattened), and so are the
 * copy buttons that only the site's script reveals, the words only print shows (an answer's
 * "Answer" beside "Show answer") and the highlighter's spans, which only the site's CSS colours.
 * Figures become images of their published files, since many readers drop inline SVG.
 */
export function feedHtml(html: string): string {
  const out = html
    .replace(/<button\b[^>]*>[\s\S]*?<\/button>/g, "")
    .replace(/<span class="print-only">[^<]*<\/span>/g, "")
    .replace(/<pre\b[^>]*>[\s\S]*?<\/pre>/g, (pre) => pre.replace(/<\/?span\b[^>]*>/g, ""))
    .replace(/(<svg\b[^>]*>)[\s\S]*?<\/svg>/g, (svg, open: string) => {
      const file = attribute(open, "data-file");
      return file ? `<img src="${file}" alt="${attribute(open, "aria-label")}">` : svg;
    });
  // The text between the visual copies, joined once (cutting them out one by one copies a lesson per formula).
  const kept: string[] = [];
  let done = 0;
  for (let at = out.indexOf(KATEX_HTML); at !== -1; at = out.indexOf(KATEX_HTML, done)) {
    kept.push(out.slice(done, at));
    done = elementEnd(out, at, "span");
  }
  return kept.length ? [...kept, out.slice(done)].join("") : out;
}

/** Elements whose address a feed reader follows or loads; others (an inline SVG's <use>) point within the entry. */
const ADDRESS_ELEMENTS = new Set(["a", "area", "img", "source", "audio", "video", "track"]);

/** `url` read against `base`, as a browser reads it, or as written if it is no URL at all. */
function resolved(url: string, base: string): string {
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}

/**
 * An entry's HTML with the addresses of its links, images and media made absolute against the
 * entry's own URL: feed readers show it away from the page, where a site path or a fragment
 * alone would lead nowhere.
 */
export const absoluteLinks = (html: string, base: string): string =>
  rewriteLinks(html, { url: (url, element) => (ADDRESS_ELEMENTS.has(element) ? resolved(url, base) : url), id: (id) => id });

export default function feeds(config: UserConfig): void {
  config.addCollection("feedList", (api: CollectionApi) => [...sections.values()].flatMap((feedsOf) => feedsOf(api)));
  // A section's feeds (in one language), and those a page offers for autodiscovery.
  config.addFilter("feedsOf", (all: Feed[], section: Feed["section"], lang?: Lang) => all.filter((f) => f.section === section && (!lang || f.lang === lang)));
  config.addFilter("feedsFor", (all: Feed[], path: string, lang: Lang) => all.filter((f) => (f.section === "blog" && f.lang === lang) || (f.section === "course" && path.startsWith(f.home))));
  config.addFilter("feedTitle", feedTitle);
  config.addFilter("feedId", feedId);
  // Atom, RSS and JSON Feed carry the same posts: convert each post's HTML once per build.
  const converted = new Map<string, string>();
  config.on("eleventy.before", () => converted.clear());
  config.addFilter("absoluteHtml", (html: string, base: string) => {
    if (!converted.has(base)) converted.set(base, absoluteLinks(feedHtml(html), base));
    return converted.get(base)!;
  });
  config.addFilter("newest", <T>(list: T[], n = FEED_SIZE) => list.slice(0, n));
  config.addGlobalData("feedSize", FEED_SIZE);
  config.addFilter("lastUpdated", lastUpdated);
}

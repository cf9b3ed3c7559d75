// The blog: posts are Markdown files, posts/blog/<slug>.md or posts/blog/<slug>/index.md (with its
// images beside it), and their translations the same under posts/blog/<lang>/: a post and its
// translation share the slug. Everything else derives from the files: the newest-first lists, tags,
// series, archives and each post's neighbours, per language. Nothing here is maintained by hand.
import type UserConfig from "@11ty/eleventy/UserConfig";
import { contentCollection, Index, type CollectionApi, type CollectionItem, type Entry, type Kind } from "./content.ts";
import { groupByYear, isoDate } from "./dates.ts";
import { addFeeds, FEED_SIZE, lastUpdated, MEDIA_TYPES, type Feed } from "./feeds.ts";
import { DEFAULT_LANGUAGE, LANGUAGE_CODES, type Lang } from "./languages.ts";
import { postSchema, type PostData } from "./schemas.ts";
import { FEED_FORMATS, routes } from "./urls.ts";
import { contentError } from "./validation.ts";

export const POSTS_DIR = "posts/blog";
const POSTS_PER_PAGE = 10;

/** posts/blog for the default language, posts/blog/<lang> for each other. */
const postsDir = (lang: Lang): string => (lang === DEFAULT_LANGUAGE ? POSTS_DIR : `${POSTS_DIR}/${lang}`);
const postLanguage = (file: string): Lang => LANGUAGE_CODES.find((l) => l !== DEFAULT_LANGUAGE && file.startsWith(`${postsDir(l)}/`)) ?? DEFAULT_LANGUAGE;
/** A post's slug: its file's name, or its folder's for <slug>/index.md (what Eleventy calls fileSlug). */
export function postSlug(file: string): string {
  const [name = "", folder = ""] = file.replace(/\.md$/, "").split("/").reverse();
  return name === "index" ? folder : name;
}
export const postUrl = (file: string): string => routes.post(postLanguage(file), postSlug(file));
/** The file a translation translates (posts/blog/zh/a.md → posts/blog/a.md); none for a post in the default language. */
export function originalFile(file: string): string | undefined {
  const lang = postLanguage(file);
  return lang === DEFAULT_LANGUAGE ? undefined : `${POSTS_DIR}${file.slice(postsDir(lang).length)}`;
}

export interface SeriesEntry {
  title: string;
  posts: Post[];
}

export interface Post extends PostData, Entry {
  slug: string;
  minutes: number;
  /** The Eleventy item, for its rendered content in feeds. */
  item: CollectionItem;
  /** Set when the index is arranged: the older and newer post in the same language, the series. */
  previous?: Post;
  next?: Post;
  inSeries?: SeriesEntry;
}

/** Reading time in minutes: English at ~230 words a minute, Chinese at ~400 characters a minute. */
export function readingMinutes(markdown: string): number {
  const prose = markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, " ").replace(/<[^>]+>/g, " ");
  const cjk = prose.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu)?.length ?? 0;
  const words = prose.replace(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu, " ").match(/[\p{Letter}\p{Number}][\p{Letter}\p{Number}'’_-]*/gu)?.length ?? 0;
  return Math.max(1, Math.round(words / 230 + cjk / 400));
}

export const postKind: Kind<typeof postSchema, Post> = {
  collection: "blogIndex",
  dataKey: "post",
  files: LANGUAGE_CODES.flatMap((lang) => [`${postsDir(lang)}/*.md`, `${postsDir(lang)}/*/index.md`]),
  placement: `a post is ${POSTS_DIR}/<slug>.md or ${POSTS_DIR}/<slug>/index.md, a translation the same under ${POSTS_DIR}/<language>/`,
  schema: postSchema,
  entry: (data, item, file) => ({
    ...data,
    file,
    url: item.url,
    lang: postLanguage(file),
    key: item.fileSlug,
    slug: item.fileSlug,
    minutes: readingMinutes(item.rawInput ?? ""),
    item,
  }),
  head: (post) => ({ title: post.title, description: post.description, type: "article" }),
};

/** Newest first; a post's position never depends on file order. */
const byNewest = (a: Post, b: Post): number => b.date.getTime() - a.date.getTime() || a.slug.localeCompare(b.slug);

/** Tag slug → its posts (in the given order), tags in alphabetical order. */
export function tagIndex(posts: Post[]): Map<string, Post[]> {
  const tags = new Map<string, Post[]>();
  for (const post of posts) for (const tag of post.tags) tags.set(tag, [...(tags.get(tag) ?? []), post]);
  return new Map([...tags].sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * Tags that translate each other under different names (大模型推理 for llm-serving), between a
 * language A and a language B: `pairs` holds the tags of each post in A that has a translation in B,
 * with its translation's. A tag of A and a tag of B that the other language has no tag of that name
 * for are twins when they mark exactly the same of these pairs; a tag that shares that pattern with
 * another of its language has no twin (which two go together is then anybody's guess).
 */
export function tagTwins(pairs: readonly (readonly [readonly string[], readonly string[]])[], tagsA: ReadonlySet<string>, tagsB: ReadonlySet<string>): Map<string, string> {
  const bySide = (side: 0 | 1, other: ReadonlySet<string>) => {
    const byPattern = new Map<string, string[]>();
    for (const tag of new Set(pairs.flatMap((pair) => pair[side]))) {
      if (other.has(tag)) continue; // the same name in both languages: one tag, translated by its address
      const pattern = pairs.map((pair) => (pair[side].includes(tag) ? 1 : 0)).join("");
      byPattern.set(pattern, [...(byPattern.get(pattern) ?? []), tag]);
    }
    return byPattern;
  };
  const inB = bySide(1, tagsA);
  const twins = new Map<string, string>();
  for (const [pattern, [tag, ...more]] of bySide(0, tagsB)) {
    const match = inB.get(pattern);
    if (tag && more.length === 0 && match?.length === 1) twins.set(tag, match[0]!);
  }
  return twins;
}

/** Each series with its parts in order; two posts claiming one part stop the build. */
export function seriesIndex(posts: Post[]): Map<string, SeriesEntry> {
  const series = new Map<string, SeriesEntry>();
  for (const post of posts) {
    if (!post.series) continue;
    const entry = series.get(post.series) ?? { title: post.series, posts: [] };
    entry.posts.push(post);
    series.set(post.series, entry);
  }
  const problems: string[] = [];
  for (const entry of series.values()) {
    entry.posts.sort((a, b) => (a.part ?? 0) - (b.part ?? 0));
    entry.posts.forEach((post, i) => {
      const previous = entry.posts[i - 1];
      if (previous && previous.part === post.part) {
        problems.push(`${post.file}: part: part ${post.part} of series '${entry.title}' is also ${previous.file}`);
      }
    });
  }
  if (problems.length) throw contentError(problems);
  return series;
}

/** Posts by the year of their date in the site's time zone, newest year first. */
export const archiveByYear = (posts: Post[], zone: string): { year: number; posts: Post[] }[] =>
  groupByYear(posts, (post) => Number(isoDate(post.date, zone).slice(0, 4))).map(([year, list]) => ({ year, posts: list }));

export interface ListPage<T> {
  lang: Lang;
  items: T[];
  pageNumber: number;
  pageCount: number;
  url: string;
  previousUrl?: string;
  nextUrl?: string;
}

/** Pages of `size` items, each knowing its number and URL; an empty list still has its first page. */
export function paginate<T>(items: T[], size: number, lang: Lang, urlOf: (pageNumber: number) => string): ListPage<T>[] {
  const count = Math.max(1, Math.ceil(items.length / size));
  return Array.from({ length: count }, (_, i) => ({
    lang,
    items: items.slice(i * size, (i + 1) * size),
    pageNumber: i + 1,
    pageCount: count,
    url: urlOf(i + 1),
    previousUrl: i > 0 ? urlOf(i) : undefined,
    nextUrl: i + 1 < count ? urlOf(i + 2) : undefined,
  }));
}

/** Every post, newest first, linked to its neighbours and series within its language. */
export class Blog extends Index<Post> {
  readonly #byLanguage = new Map<Lang, Post[]>();
  readonly #tags = new Map<Lang, Map<string, Post[]>>();
  /** Language → other language → a tag of the first → its twin in the other (see tagTwins). */
  readonly #tagTwins = new Map<Lang, Map<Lang, Map<string, string>>>();

  constructor(posts: Post[]) {
    super("post", [...posts].sort(byNewest));
    for (const lang of LANGUAGE_CODES) {
      const list = super.inLanguage(lang);
      list.forEach((post, i) => {
        // The list is newest first: the previous (older) post is the next one in it.
        post.previous = list[i + 1];
        post.next = list[i - 1];
      });
      for (const series of seriesIndex(list).values()) for (const post of series.posts) post.inSeries = series;
      this.#byLanguage.set(lang, list);
      this.#tags.set(lang, tagIndex(list));
    }
    for (const lang of LANGUAGE_CODES) {
      const twins = new Map<Lang, Map<string, string>>();
      for (const other of LANGUAGE_CODES.filter((l) => l !== lang)) {
        const translated = new Map(this.inLanguage(other).map((post) => [post.key, post]));
        const pairs = this.inLanguage(lang).flatMap((post) => {
          const translation = translated.get(post.key);
          return translation ? [[post.tags, translation.tags] as const] : [];
        });
        twins.set(other, tagTwins(pairs, new Set(this.#tags.get(lang)!.keys()), new Set(this.#tags.get(other)!.keys())));
      }
      this.#tagTwins.set(lang, twins);
    }
  }

  override inLanguage(lang: Lang): Post[] {
    return this.#byLanguage.get(lang) ?? [];
  }

  /** A language's tags, alphabetically, with their post counts. */
  tags(lang: Lang): { tag: string; count: number }[] {
    return [...(this.#tags.get(lang) ?? [])].map(([tag, posts]) => ({ tag, count: posts.length }));
  }

  archive(lang: Lang, zone: string) {
    return archiveByYear(this.inLanguage(lang), zone);
  }

  /** Every page of the newest-first list, in every language. */
  listPages(): ListPage<Post>[] {
    return LANGUAGE_CODES.flatMap((lang) => paginate(this.inLanguage(lang), POSTS_PER_PAGE, lang, (n) => routes.posts(lang, n)));
  }

  /** The blog's feeds: the newest posts of each language, in each format. */
  feeds(): Feed[] {
    return LANGUAGE_CODES.flatMap((lang) => {
      const posts = this.inLanguage(lang).slice(0, FEED_SIZE);
      const entries = posts.map((p) => ({ title: p.title, url: p.url, date: p.date, updated: p.updated, summary: p.description, tags: p.tags, item: p.item }));
      const updated = lastUpdated(posts) ?? lastUpdated([...this.all]) ?? new Date(0);
      return FEED_FORMATS.map((format) => ({ section: "blog", lang, format, url: routes.feed(lang, format), mediaType: MEDIA_TYPES[format], home: routes.posts(lang), updated, entries }) as const);
    });
  }

  /**
   * Every page of every tag's list, in every language; a page of a tag whose twin in another
   * language (see tagTwins) has that many pages names the twin's page as its translation.
   */
  tagPages(): (ListPage<Post> & { tag: string; total: number; translations: string[] })[] {
    return LANGUAGE_CODES.flatMap((lang) =>
      [...(this.#tags.get(lang) ?? [])].flatMap(([tag, posts]) =>
        paginate(posts, POSTS_PER_PAGE, lang, (n) => routes.tag(lang, tag, n)).map((page) => {
          const translations = [...(this.#tagTwins.get(lang) ?? [])].flatMap(([other, twins]) => {
            const twin = twins.get(tag);
            const pages = twin ? Math.ceil(this.#tags.get(other)!.get(twin)!.length / POSTS_PER_PAGE) : 0;
            return twin && page.pageNumber <= pages ? [routes.tag(other, twin, page.pageNumber)] : [];
          });
          return { ...page, tag, total: posts.length, translations };
        }),
      ),
    );
  }
}

export default function blog(config: UserConfig): void {
  const blogOf = contentCollection(config, postKind, (posts) => new Blog(posts));
  config.addCollection("postPages", (api: CollectionApi) => blogOf(api).listPages());
  config.addCollection("tagPages", (api: CollectionApi) => blogOf(api).tagPages());
  addFeeds("blog", (api) => blogOf(api).feeds());
}

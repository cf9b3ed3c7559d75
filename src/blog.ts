// The blog: posts are Markdown files in posts/blog/. This module validates their front matter and
// derives everything else from the files: the newest-first list, tags, series, archives, and each
// post's neighbours. Nothing here is maintained by hand.
import type UserConfig from "@11ty/eleventy/UserConfig";
import { showDrafts } from "./drafts.ts";
import { frontMatterOf, readingMinutes, type CollectionItem } from "./front-matter.ts";
import { postSchema, type PostData } from "./schemas.ts";
import { contentError, relativeFile } from "./validation.ts";

// A post is posts/blog/<slug>.md, or posts/blog/<slug>/index.md with its images beside it.
export const POSTS_GLOB = "posts/blog/**/*.md";
export const POSTS_PER_PAGE = 10;

export interface Post extends PostData {
  url: string;
  slug: string;
  file: string;
  minutes: number;
  /** The Eleventy item, for its rendered content in feeds. */
  item: CollectionItem;
}

export interface SeriesEntry {
  title: string;
  posts: Post[];
}

/** Newest first; a post's position never depends on file order. */
export const byNewest = (a: Post, b: Post): number => b.date.getTime() - a.date.getTime() || a.slug.localeCompare(b.slug);

export function publishedPosts(posts: Post[], includeDrafts: boolean): Post[] {
  return posts.filter((p) => includeDrafts || !p.draft).sort(byNewest);
}

export function checkUniqueSlugs(posts: Post[]): void {
  const seen = new Map<string, string>();
  const problems = posts.flatMap((p) => {
    const other = seen.get(p.slug);
    seen.set(p.slug, p.file);
    return other ? [`${p.file}: slug: '${p.slug}' is also the slug of ${other}`] : [];
  });
  if (problems.length) throw contentError(problems);
}

/** Tag slug → its posts (newest first), tags in alphabetical order. */
export function tagIndex(posts: Post[]): Map<string, Post[]> {
  const tags = new Map<string, Post[]>();
  for (const post of posts) for (const tag of post.tags) tags.set(tag, [...(tags.get(tag) ?? []), post]);
  return new Map([...tags].sort(([a], [b]) => a.localeCompare(b)));
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

export function archiveByYear(posts: Post[], zone: string): { year: number; posts: Post[] }[] {
  const years = new Map<number, Post[]>();
  const yearOf = new Intl.DateTimeFormat("en", { year: "numeric", timeZone: zone });
  for (const post of posts) {
    const year = Number(yearOf.format(post.date));
    years.set(year, [...(years.get(year) ?? []), post]);
  }
  return [...years].sort(([a], [b]) => b - a).map(([year, list]) => ({ year, posts: list }));
}

/** Pages of `size` items, each knowing its number and URL, for paginated lists. */
export function paginate<T>(items: T[], size: number, urlOf: (pageNumber: number) => string) {
  const count = Math.max(1, Math.ceil(items.length / size));
  return Array.from({ length: count }, (_, i) => ({
    items: items.slice(i * size, (i + 1) * size),
    pageNumber: i + 1,
    pageCount: count,
    url: urlOf(i + 1),
    previousUrl: i > 0 ? urlOf(i) : undefined,
    nextUrl: i + 1 < count ? urlOf(i + 2) : undefined,
  }));
}

export const postUrl = (slug: string): string => `/posts/${slug}/`;
export const postsPageUrl = (n: number): string => (n === 1 ? "/posts/" : `/posts/page/${n}/`);
export const tagPageUrl = (tag: string) => (n: number): string => (n === 1 ? `/tags/${tag}/` : `/tags/${tag}/page/${n}/`);

async function loadPost(item: CollectionItem): Promise<Post> {
  const data = await frontMatterOf(item, postSchema);
  return { ...data, url: item.url, slug: item.fileSlug, file: relativeFile(item.inputPath), minutes: readingMinutes(item.rawInput ?? ""), item };
}

export default function blog(config: UserConfig): void {
  // Every blog collection derives from one validated list, loaded once per build.
  type Api = { getFilteredByGlob(glob: string): CollectionItem[] };
  let loading: Promise<Post[]> | undefined;
  config.on("eleventy.before", () => (loading = undefined));
  const postsOf = (api: Api) =>
    (loading ??= Promise.all(api.getFilteredByGlob(POSTS_GLOB).map(loadPost)).then((all) => {
      checkUniqueSlugs(all);
      const posts = publishedPosts(all, showDrafts());
      seriesIndex(posts);
      return posts;
    }));

  config.addCollection("posts", postsOf);
  config.addCollection("postPages", async (api: Api) => paginate(await postsOf(api), POSTS_PER_PAGE, postsPageUrl));
  config.addCollection("tagList", async (api: Api) => [...tagIndex(await postsOf(api))].map(([tag, list]) => ({ tag, count: list.length })));
  config.addCollection("tagPages", async (api: Api) =>
    [...tagIndex(await postsOf(api))].flatMap(([tag, list]) =>
      paginate(list, POSTS_PER_PAGE, tagPageUrl(tag)).map((page) => ({ ...page, tag, total: list.length })),
    ),
  );

  config.addFilter("postFor", (all: Post[], url: string) => all.find((p) => p.url === url));
  config.addFilter("postNeighbours", (all: Post[], url: string) => {
    const i = all.findIndex((p) => p.url === url);
    // The list is newest first: the previous (older) post is the next one in it.
    return { previous: all[i + 1], next: i > 0 ? all[i - 1] : undefined };
  });
  // Every post page asks for its series: index the list once, not once per page.
  const seriesByList = new WeakMap<Post[], Map<string, SeriesEntry>>();
  config.addFilter("seriesOf", (all: Post[], post: Post) => {
    if (!post.series) return undefined;
    if (!seriesByList.has(all)) seriesByList.set(all, seriesIndex(all));
    return seriesByList.get(all)!.get(post.series);
  });
  config.addFilter("archiveByYear", archiveByYear);
}

// Feeds for subscribers (Atom at /feed.xml, RSS 2.0 at /index.xml, JSON Feed at /feed.json) share
// these filters; the templates are in src/pages/feeds/. Content is the full post with absolute URLs.
import type UserConfig from "@11ty/eleventy/UserConfig";
import { convertHtmlToAbsoluteUrls } from "@11ty/eleventy-plugin-rss";

export const FEED_SIZE = 20;

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

/** An attribute's value in an opening tag, or "". */
const attribute = (tag: string, name: string) => tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1] ?? "";

/**
 * A post's HTML as a feed reader shows it, without the site's CSS and scripts: KaTeX's visual copy
 * of each formula is dropped (readers would show it beside the MathML, flattened), and so are the
 * copy buttons that only the site's script reveals and the highlighter's spans, which only the
 * site's CSS colours. Figures become images of their published files, since many readers drop
 * inline SVG.
 */
export function feedHtml(html: string): string {
  let out = html
    .replace(/<button\b[^>]*>[\s\S]*?<\/button>/g, "")
    .replace(/<pre\b[^>]*>[\s\S]*?<\/pre>/g, (pre) => pre.replace(/<\/?span\b[^>]*>/g, ""))
    .replace(/(<svg\b[^>]*>)[\s\S]*?<\/svg>/g, (svg, open: string) => {
      const file = attribute(open, "data-file");
      return file ? `<img src="${file}" alt="${attribute(open, "aria-label")}">` : svg;
    });
  for (let at = out.indexOf('<span class="katex-html"'); at !== -1; at = out.indexOf('<span class="katex-html"', at)) {
    out = out.slice(0, at) + out.slice(elementEnd(out, at, "span"));
  }
  return out;
}

export default function feeds(config: UserConfig): void {
  // Atom, RSS and JSON Feed carry the same posts: convert each post's HTML once per build.
  const converted = new Map<string, Promise<string>>();
  config.on("eleventy.before", () => converted.clear());
  config.addNunjucksAsyncFilter("absoluteHtml", (html: string, base: string, done: (e: unknown, out?: string) => void) => {
    if (!converted.has(base)) converted.set(base, convertHtmlToAbsoluteUrls(feedHtml(html), base));
    converted.get(base)!.then((out) => done(null, out), done);
  });
  config.addFilter("newest", <T>(list: T[], n = FEED_SIZE) => list.slice(0, n));
  config.addGlobalData("feedSize", FEED_SIZE);
  /** The newest date among items (published or updated), for a feed's own updated field. */
  config.addFilter("lastUpdated", (items: { date: Date; updated?: Date }[]) =>
    items.reduce<Date | undefined>((max, i) => {
      const d = i.updated ?? i.date;
      return !max || d > max ? d : max;
    }, undefined),
  );
}

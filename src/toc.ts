// A post's table of contents, read from the headings Markdown gave ids and self-links to.
import type UserConfig from "@11ty/eleventy/UserConfig";

export interface TocEntry {
  id: string;
  text: string;
  level: number;
}

/** The class of the link Markdown wraps each heading's text in, to the heading's own id. */
export const HEADING_LINK_CLASS = "heading-link";

const HEADING = new RegExp(`<h([23]) id="([^"]+)"[^>]*><a class="${HEADING_LINK_CLASS}" href="#[^"]+">([\\s\\S]*?)</a></h\\1>`, "g");

export function tableOfContents(html: string): TocEntry[] {
  return [...html.matchAll(HEADING)].map(([, level, id, inner]) => ({
    id: id!,
    level: Number(level),
    text: inner!.replace(/<[^>]+>/g, "").trim(),
  }));
}

export const TOC_MIN_HEADINGS = 3;

export default function toc(config: UserConfig): void {
  config.addFilter("toc", (html: string) => {
    const entries = tableOfContents(html ?? "");
    return entries.length >= TOC_MIN_HEADINGS ? entries : [];
  });
}

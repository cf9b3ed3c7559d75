// The Markdown renderer for posts and lessons. Heading ids are made here, at Markdown time, because
// an HTML transform over every page costs most of a large build.
import MarkdownIt from "markdown-it";
import anchor from "markdown-it-anchor";
import type UserConfig from "@11ty/eleventy/UserConfig";

/** Heading ids: lower-case words joined by hyphens; CJK characters are kept as they are. */
export const headingSlug = (text: string): string =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{Letter}\p{Number}\s-]/gu, "")
    .trim()
    .replace(/[\s-]+/g, "-");

export function createMarkdown(): MarkdownIt {
  const md = new MarkdownIt({ html: true, linkify: false, typographer: true });
  md.use(anchor, {
    level: [2, 3, 4],
    slugify: headingSlug,
    permalink: anchor.permalink.headerLink({ safariReaderFix: true, class: "heading-link" }),
  });
  return md;
}

export default function markdown(config: UserConfig): void {
  config.setLibrary("md", createMarkdown());
}

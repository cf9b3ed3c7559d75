// Figures (the `figure` directive): an SVG beside the Markdown file (see ./page-files.ts), inlined so it follows the
// page's light and dark themes, with a text alternative and a caption that Markdown numbers (see
// ./markdown.ts). A copy is
// also published as a file, which feeds show instead (see ./feeds.ts).
import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type UserConfig from "@11ty/eleventy/UserConfig";
import { lineAt, readText, tagsOf, unsafeTag, type Tag } from "./content-safety.ts";
import type { Directive } from "./directives.ts";
import { escapeHtml } from "./html.ts";
import { pageFile } from "./page-files.ts";
import { figureSchema } from "./schemas.ts";
import { href, routes } from "./urls.ts";
import { contentError, relativeFile } from "./validation.ts";

/** Placeholder the Markdown renderer replaces with "Figure N." in page order. */
export const FIGURE_NUMBER = "<!--figure-number-->";

/**
 * What a figure may not hold beyond what no content may (./content-safety.ts: scripts, event
 * handlers, resources from other origins): it is inlined into pages that hold other figures, and
 * takes its colours and text alternative from the site.
 */
function figureRule(tag: Tag): string | undefined {
  if (tag.name === "style") return "must not contain <style>; use the classes accent, accent-fill, muted and soft";
  if (tag.name === "title") return "must not contain <title>; the text alternative is the directive's alt";
  for (const { name, value } of tag.attributes) {
    if (name === "id") return "must not contain id attributes (they would clash once inlined)";
    if ((name === "href" || name === "xlink:href") && !value.trim().startsWith("#")) return `must not reference other files (${name}="${value}"); only #fragments within the drawing`;
  }
  return undefined;
}

/**
 * Fills for shapes that take their colour from the site's CSS classes, so a figure still reads
 * where that CSS is absent (feed readers). The page's CSS overrides them in both themes; the
 * values are the light theme's --accent-soft and the text colour.
 */
export const FALLBACK_FILLS: Record<string, string> = { soft: "#e5eefb", "accent-fill": "currentColor" };

function withFallbackFills(svg: string): string {
  return svg.replace(/<(\w+)(\s[^>]*?)(\/?)>/g, (tag, name: string, attrs: string, close: string) => {
    if (/\sfill=/.test(attrs)) return tag;
    const classes = attrs.match(/\sclass="([^"]*)"/)?.[1]?.split(/\s+/) ?? [];
    const fill = classes.map((c) => FALLBACK_FILLS[c]).find(Boolean);
    return fill ? `<${name}${attrs} fill="${fill}"${close}>` : tag;
  });
}

const figureError = (where: string, name: string) => (reason: string) => contentError([`${where}: figure ${name}: ${reason}`]);

/** Reads an SVG for inlining: checks it, drops comments, the XML prolog and fixed sizes. */
export function inlineSvg(svgPath: string, alt: string, file: string): string {
  const fail = figureError(file, path.basename(svgPath));
  if (!alt.trim()) throw fail("needs a text alternative (alt)");
  const source = readText(svgPath);
  for (const tag of tagsOf(source)) {
    const unsafe = unsafeTag(tag);
    const reason = unsafe ? `must not contain ${unsafe}` : figureRule(tag);
    // Named by the drawing's own file and line, where the author fixes it.
    if (reason) throw contentError([`${relativeFile(svgPath)}:${lineAt(source, tag.offset)}: figure: ${reason} (the figure at ${file})`]);
  }
  const svg = source
    .replace(/<\?xml[^>]*>\s*/, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/\n\s*\n/g, "\n")
    .trim();
  if (!/^<svg\b[^>]*\bviewBox=/.test(svg)) throw fail("must start with <svg …> and have a viewBox");
  return withFallbackFills(svg).replace(/^<svg\b([^>]*)>/, (_tag, attrs: string) => {
    const kept = attrs.replace(/\s(width|height|role|aria-[a-z]+)="[^"]*"/g, "");
    return `<svg${kept} role="img" aria-label="${escapeHtml(alt.trim())}" focusable="false">`;
  });
}

/** The drawing as a file of its own: an `<img>` needs its intrinsic size, taken from the viewBox. */
export function standaloneSvg(svg: string): string {
  const [, , width, height] = svg.match(/\bviewBox="([^"]*)"/)![1]!.trim().split(/[\s,]+/);
  return `<?xml version="1.0" encoding="utf-8"?>\n${svg.replace(/^<svg\b/, `<svg width="${width}" height="${height}"`)}\n`;
}

/** Standalone copies of this build's figures, by site path; written when the build ends (feed readers that drop inline SVG show these). */
const published = new Map<string, string>();

/**
 * A drawing as a numbered figure: its standalone copy is published under `name`, and the page gets
 * the inline SVG in a scroller, with the caption.
 */
export function figureHtml(svg: string, name: string, caption: string): string {
  const hash = createHash("sha256").update(svg).digest("hex").slice(0, 8);
  const url = `${routes.figures()}${name}-${hash}.svg`;
  published.set(url, standaloneSvg(svg));
  // The scroller keeps labels legible on phones: the drawing keeps a minimum width and scrolls,
  // named by its caption.
  const captionId = `figure-${name}-${hash}`;
  const scroller = `<div class="figure-scroll" tabindex="0" role="region" aria-labelledby="${captionId}">`;
  const inline = svg.replace(/^<svg\b/, `<svg data-file="${escapeHtml(href(url))}"`).replace(/\n\s*/g, " ");
  return `<figure class="figure">${scroller}${inline}</div><figcaption id="${captionId}">${FIGURE_NUMBER} ${escapeHtml(caption)}</figcaption></figure>\n`;
}

export const figureDirective: Directive<typeof figureSchema> = {
  schema: figureSchema,
  render({ file: name, alt, caption }, { file, line }) {
    const where = `${file}:${line}`;
    const svg = inlineSvg(pageFile(file, name, figureError(where, name)), alt, where);
    return figureHtml(svg, path.basename(name, ".svg"), caption);
  },
};

export default function figures(config: UserConfig): void {
  config.on("eleventy.before", () => published.clear());
  config.on("eleventy.after", async ({ directories }: { directories: { output: string } }) => {
    if (published.size === 0) return;
    await mkdir(path.join(directories.output, routes.figures()), { recursive: true });
    await Promise.all([...published].map(([url, svg]) => writeFile(path.join(directories.output, url), svg)));
  });
}

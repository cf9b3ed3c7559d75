// Markdown images become responsive <picture> elements (AVIF, WebP and the original format, with
// width and height), generated at build time by eleventy-img. The Markdown renderer is synchronous,
// so sizes are read synchronously and the files are written before the build finishes. An image
// without alt text stops the build unless its title says "decorative"; so does one the image library
// cannot read (corrupt, or too large), named with its page.
import { createRequire } from "node:module";
import path from "node:path";
import type MarkdownIt from "markdown-it";
import type UserConfig from "@11ty/eleventy/UserConfig";
import { renderedFile } from "./markdown.ts";
import { pageFile } from "./page-files.ts";
import { href, routes } from "./urls.ts";
import { contentError, errorMessage } from "./validation.ts";

type ImageLibrary = typeof import("@11ty/eleventy-img");
let library: ImageLibrary | undefined;
/**
 * eleventy-img, loaded at the first Markdown image: importing it loads sharp, about 10 MB of a
 * build's memory, and most builds have no Markdown image. It is CommonJS, so the synchronous
 * renderer can require it.
 */
const imageLibrary = (): ImageLibrary => (library ??= createRequire(import.meta.url)("@11ty/eleventy-img") as ImageLibrary);

const WIDTHS = [480, 960, 1440];
const SIZES = "(min-width: 48rem) 44rem, 100vw";
export const DECORATIVE = "decorative";

export interface ImageSettings {
  outputDir: () => string;
  pending: Promise<unknown>[];
}

const optionsFor = (settings: ImageSettings) => ({
  widths: WIDTHS,
  formats: ["avif", "webp", "auto"],
  outputDir: path.join(settings.outputDir(), routes.images()),
  urlPath: href(routes.images()),
  svgShortCircuit: true,
});

const imageError = (file: string, src: string, reason: string) => contentError([`${file}: image ${src}: ${reason}`]);

/** The file a Markdown image shows, beside its page; one from another origin or without alt text is refused. */
export function imageSource(src: string, alt: string, title: string, file: string): string {
  const fail = (reason: string) => imageError(file, src, reason);
  if (/^[a-z]+:|^\/\//i.test(src)) throw fail("must be a file beside the page (the site loads nothing from other origins)");
  if (!alt.trim() && title !== DECORATIVE) throw fail(`needs alt text, or the title "${DECORATIVE}" if it carries no information`);
  return pageFile(file, decodeURI(src), fail);
}

export function pictureHtml(src: string, alt: string, title: string, file: string, settings: ImageSettings): string {
  const fail = (reason: string) => imageError(file, src, reason);
  const source = imageSource(src, alt, title, file);
  const options = optionsFor(settings);
  const unreadable = (error: unknown) => fail(`cannot be read as an image (${errorMessage(error)}); is it corrupt, or too large?`);
  const Image = imageLibrary();
  const { generateHTML, statsSync } = Image;
  let stats: ReturnType<typeof statsSync>;
  try {
    stats = statsSync(source, options);
  } catch (error) {
    throw unreadable(error);
  }
  // The files are made while the build goes on; a failure there still names the image and page.
  settings.pending.push(
    Image(source, options).catch((error: unknown) => {
      throw unreadable(error);
    }),
  );
  return generateHTML(stats, { alt: alt.trim(), sizes: SIZES, loading: "lazy", decoding: "async" });
}

/** Renders each Markdown image with `render`, given its source, alt text, title and page. */
function renderImages(md: MarkdownIt, render: (src: string, alt: string, title: string, file: string) => string): void {
  md.renderer.rules.image = (tokens, idx, _options, env: { page?: { inputPath?: string } }) => {
    const token = tokens[idx]!;
    const alt = token.children ? token.children.map((t) => t.content).join("") : token.content;
    return render(token.attrGet("src") ?? "", alt, token.attrGet("title") ?? "", renderedFile(env));
  };
}

export function addPictures(md: MarkdownIt, settings: ImageSettings): void {
  renderImages(md, (src, alt, title, file) => pictureHtml(src, alt, title, file, settings));
}

/**
 * For `npm run check`: each image is checked as the build checks it, inside `attempt`, which keeps
 * a refusal as a problem so that the page renders on; no file is made, and the image renders as nothing.
 */
export function addImageChecks(md: MarkdownIt, attempt: (check: () => void) => void): void {
  renderImages(md, (src, alt, title, file) => (attempt(() => void imageSource(src, alt, title, file)), ""));
}

export default function images(config: UserConfig): void {
  const settings: ImageSettings = { outputDir: () => (config as unknown as { directories: { output: string } }).directories.output, pending: [] };
  config.amendLibrary("md", (md: MarkdownIt) => addPictures(md, settings));
  // The build is done only when every image file is written.
  config.on("eleventy.after", async () => {
    await Promise.all(settings.pending.splice(0));
  });
}

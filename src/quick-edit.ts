// The writing loop's fast path (`npm start`). When a saved post or lesson differs from the last
// build only in its body, and that body changes nothing another page shows, its page is rendered at
// once with the last build's data and layout, sent to the open browser and served from memory while
// the site rebuilds. Every other request waits for the rebuild, so nothing a change touches (lists,
// feeds, the print page, a new image) is ever served stale. scripts/serve.ts wires it to Eleventy.
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { bodyChangeIsLocal, splitFrontMatter } from "./content.ts";
import { href } from "./urls.ts";
import { errorMessage, relativeFile } from "./validation.ts";

/** The parts of Eleventy 3.1's page entries (its template map) the fast path reads. */
export interface BuiltPage {
  inputPath: string;
  url: string | false;
  rawInput: string;
  data: { layout?: string; page: { fileSlug: string }; collections?: { all: { url: string | false; templateContent: string }[] } } & Record<string, unknown>;
  template: {
    /** The text the build read. */
    inputContent?: string | Promise<string>;
    renderDirect(body: string, data: BuiltPage["data"]): Promise<string>;
    getLayout(name: string): { renderPageEntry(page: BuiltPage & { templateContent: string }): Promise<string> };
    runTransforms(html: string, page: BuiltPage): Promise<string>;
  };
}

export interface QuickPage {
  inputPath: string;
  /** The page's address as the browser sees it (under the path prefix). */
  url: string;
  html: string;
}

/**
 * The page `inputPath` shows now, rendered from the last build, or why it cannot be: the front
 * matter changed, the body changes what other pages show, or it does not render.
 */
export async function renderQuickPage(pages: readonly BuiltPage[], inputPath: string): Promise<QuickPage | string> {
  const file = relativeFile(inputPath);
  if (!file.endsWith(".md")) return `${file} is not a page's Markdown`;
  const [page, ...more] = pages.filter((p) => relativeFile(p.inputPath) === file);
  if (!page || more.length || !page.url) return `${file} is not one page of the last build`;
  const saved = await readFile(inputPath, "utf8").catch(() => undefined);
  if (saved === undefined) return `${file} is gone`;
  const before = splitFrontMatter((await page.template.inputContent) ?? "");
  const now = splitFrontMatter(saved);
  // The built body must be the one this split finds, or the comparison below means nothing.
  if (!before || !now || before.body !== page.rawInput) return `${file}: cannot compare it with the last build`;
  if (before.frontMatter !== now.frontMatter) return `${file}: front matter changed`;
  if (!bodyChangeIsLocal({ url: page.url, inputPath: page.inputPath, fileSlug: page.data.page.fileSlug, rawInput: page.rawInput, data: page.data }, now.body)) {
    return `${file}: the body changes what other pages show, or the build would refuse it`;
  }
  try {
    const templateContent = await page.template.renderDirect(now.body, page.data);
    // Layouts may ask about the page's own render through the collections (src/math.ts: showsMath).
    for (const item of page.data.collections?.all ?? []) if (item.url === page.url) item.templateContent = templateContent;
    const laidOut = page.data.layout ? await page.template.getLayout(page.data.layout).renderPageEntry({ ...page, templateContent }) : templateContent;
    return { inputPath, url: href(page.url), html: await page.template.runTransforms(laidOut, page) };
  } catch (error) {
    return `${file}: ${errorMessage(error)}`;
  }
}

/** A request's path without its query, `index.html` as its folder. */
const pathOf = (url: string): string => decodeURI(new URL(url, "http://localhost").pathname).replace(/\/index\.html$/, "/");

/**
 * What the dev server may serve: nothing built before the last change, except pages rendered by the
 * fast path. Changes are counted as the watcher reports them; a build covers those seen when it began.
 */
export class Freshness {
  #changes = 0;
  #coveredByBuild: number | undefined;
  #built = 0;
  #quick = new Map<string, QuickPage>();
  #waiting: (() => void)[] = [];

  /** A watched file changed: what was built may be stale, and so is a quick page of that file. */
  changed(inputPath: string): void {
    this.#changes++;
    for (const [url, page] of this.#quick) if (relativeFile(page.inputPath) === relativeFile(inputPath)) this.#quick.delete(url);
  }

  buildStarted(): void {
    this.#coveredByBuild = this.#changes;
  }

  /** A build ended, or failed (then the last good build is what there is, with its error shown). */
  buildEnded(): void {
    this.#built = this.#coveredByBuild ?? this.#changes;
    this.#coveredByBuild = undefined;
    if (!this.isFresh()) return;
    this.#quick.clear();
    this.#wake();
  }

  /** Eleventy is between builds with nothing queued (a change it could not build, such as a broken config, ends here too). */
  settled(): void {
    if (this.#coveredByBuild !== undefined) return;
    this.#coveredByBuild = this.#changes;
    this.buildEnded();
  }

  isFresh(): boolean {
    return this.#coveredByBuild === undefined && this.#built >= this.#changes;
  }

  show(page: QuickPage): void {
    this.#quick.set(pathOf(page.url), page);
    this.#wake();
  }

  /** Held requests look again: their page may be a quick one now, or everything fresh. */
  #wake(): void {
    for (const resume of this.#waiting.splice(0)) resume();
  }

  /** Eleventy's dev server middleware: a quick page from memory, anything else once fresh. */
  readonly middleware = async (request: IncomingMessage, response: ServerResponse, next: () => void): Promise<void> => {
    const path = pathOf(request.url ?? "/");
    for (;;) {
      const quick = this.#quick.get(path);
      if (quick) {
        response.setHeader("Content-Type", "text/html; charset=utf-8");
        response.end(quick.html);
        return;
      }
      if (this.isFresh()) return next();
      await new Promise<void>((resume) => this.#waiting.push(resume));
    }
  };
}

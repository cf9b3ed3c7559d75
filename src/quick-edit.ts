// The writing loop's fast path (`npm start`). When the saved files are posts or lessons the build
// would accept, their pages are rendered at once: with their new front matter and body, the last
// build's template, layout and data, and their kinds' indexes arranged again with their new entries
// (src/content.ts: savedPagesData). They are sent to the open browser and served from memory while
// the site rebuilds. Every other request waits for the rebuild, so nothing else a change touches
// (neighbours, lists, feeds, the print page, a new image) is served from an older build.
// scripts/serve.ts wires it to Eleventy.
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { savedPagesData, splitFrontMatter, type BuiltItem } from "./content.ts";
import { href } from "./urls.ts";
import { errorMessage, relativeFile } from "./validation.ts";

/** The parts of Eleventy 3.1's page entries (its template map) the fast path reads. */
export interface BuiltPage extends Omit<BuiltItem, "url" | "data"> {
  url: string | false;
  /** The file the build wrote the page to. */
  outputPath: string | false;
  data: BuiltItem["data"] & { layout?: string; collections: { all?: { url: string | false; templateContent: string }[] } };
  template: {
    /** The text the build read. */
    inputContent?: string | Promise<string>;
    renderDirect(body: string, data: BuiltPage["data"]): Promise<string>;
    getLayout(name: string): { renderPageEntry(page: BuiltPage & { templateContent: string }): Promise<string> };
    runTransforms(html: string, page: BuiltPage): Promise<string>;
  };
}

type Layout = ReturnType<BuiltPage["template"]["getLayout"]>;

const isWritten = (page: BuiltPage): page is BuiltPage & { url: string } => page.url !== false;

/**
 * The last good build's pages, each with the layout it was laid out with: looked up as the build
 * ends, while Eleventy's layout cache holds that build's layouts (asking later would put layouts
 * of this build's engines into the cache the rebuild reads).
 */
export class LastBuild {
  readonly #layouts = new Map<BuiltPage, Layout>();

  constructor(readonly pages: readonly BuiltPage[]) {
    for (const page of pages) if (page.data.layout) this.#layouts.set(page, page.template.getLayout(page.data.layout));
  }

  layoutOf(page: BuiltPage): Layout | undefined {
    return this.#layouts.get(page);
  }
}

/** More changed files than this at once (a checkout, say) take the rebuild. */
const MAX_QUICK_PAGES = 5;

/**
 * The pages of a rebuild's changed files rendered from the last build, or why not: only when every
 * changed file is a post or lesson, read without a mistake. Each gets its new front matter and
 * body, and the indexes it reads (its neighbours, its part, its series) are arranged again with
 * them; any other change (a data file, a template) may change what those pages show.
 */
export async function renderQuickPages(last: LastBuild, queue: readonly string[]): Promise<QuickPage[] | string> {
  if (queue.length > MAX_QUICK_PAGES) return `${queue.length} files changed`;
  const saved: { page: BuiltPage & { url: string }; fields: string; body: string }[] = [];
  for (const inputPath of queue) {
    const file = relativeFile(inputPath);
    if (!file.endsWith(".md")) return `${file} is not a page's Markdown`;
    const [page, ...more] = last.pages.filter((p) => relativeFile(p.inputPath) === file);
    if (!page || more.length || !isWritten(page)) return `${file} is not one page of the last build`;
    const source = await readFile(inputPath, "utf8").catch(() => undefined);
    if (source === undefined) return `${file} is gone`;
    const before = splitFrontMatter((await page.template.inputContent) ?? "");
    const now = splitFrontMatter(source);
    // The built body must be the one this split finds, or the page's source is not what it seems.
    if (!before || !now || before.body !== page.rawInput) return `${file}: cannot compare it with the last build`;
    saved.push({ page, fields: now.fields, body: now.body });
  }
  const data = savedPagesData(saved);
  if (typeof data === "string") return data;
  const pages: QuickPage[] = [];
  for (const { page, body } of saved) {
    try {
      pages.push(await renderQuickPage(last, page, data.get(page)!, body));
    } catch (error) {
      return `${relativeFile(page.inputPath)}: ${errorMessage(error)}`;
    }
  }
  return pages;
}

export interface QuickPage {
  inputPath: string;
  /** The page's address as the browser sees it (under the path prefix). */
  url: string;
  html: string;
  /** The file the last build wrote the page to. */
  outputPath: string | false;
}

/** Structured data (JSON-LD), the one kind of script whose text differs when a page's fields do. */
const STRUCTURED_DATA = /<script type="application\/ld\+json">[\s\S]*?<\/script>/g;

/**
 * The HTML to push to a browser that shows `shown` (the last build's page): the quick page with
 * the structured data `shown` has, since Eleventy's live-reload client reloads the whole page when
 * a script's text changes, and the reload would then wait for the rebuild (its stylesheet among
 * the requests held). The rebuild's own push brings the new structured data; what is served to a
 * request stays the quick page itself.
 */
export function pushedHtml(html: string, shown: string): string {
  const before = shown.match(STRUCTURED_DATA) ?? [];
  if ((html.match(STRUCTURED_DATA) ?? []).length !== before.length) return html;
  let i = 0;
  return html.replace(STRUCTURED_DATA, () => before[i++]!);
}

/** A page of the last build rendered with new data and body, with that build's template and layout. */
async function renderQuickPage(last: LastBuild, built: BuiltPage & { url: string }, data: BuiltPage["data"], body: string): Promise<QuickPage> {
  const page = { ...built, data };
  const templateContent = await page.template.renderDirect(body, data);
  // Layouts may ask about the page's own render through the collections (src/math.ts: showsMath).
  for (const item of page.data.collections.all ?? []) if (item.url === page.url) item.templateContent = templateContent;
  const layout = last.layoutOf(built);
  const laidOut = layout ? await layout.renderPageEntry({ ...page, templateContent }) : templateContent;
  return { inputPath: page.inputPath, url: href(page.url), html: await page.template.runTransforms(laidOut, page), outputPath: built.outputPath };
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

  /**
   * A watched file changed: what was built may be stale, and so is every quick page, since a page
   * shows more than its own file (its neighbours' titles, its part, data files, layouts).
   */
  changed(): void {
    this.#changes++;
    this.#quick.clear();
  }

  /** How many changes the watcher has seen: a quick page is of the files as they were at this count. */
  get changes(): number {
    return this.#changes;
  }

  /** A rebuild begins (Eleventy has taken its queue): it covers the changes seen so far. */
  buildStarted(): void {
    this.#coveredByBuild = this.#changes;
  }

  /** A build ended, or failed (then the last good build is what there is, with its error shown). */
  buildEnded(): void {
    this.#built = this.#coveredByBuild ?? this.#changes;
    this.#coveredByBuild = undefined;
    // Quick pages were of the build before: after this one they may differ from it.
    this.#quick.clear();
    if (this.isFresh()) this.#wake();
  }

  /** Eleventy is idle with nothing queued: a rebuild that stopped before writing (a configuration that failed to load) ends here. */
  settled(): void {
    this.#coveredByBuild ??= this.#changes;
    this.buildEnded();
  }

  isFresh(): boolean {
    return this.#coveredByBuild === undefined && this.#built >= this.#changes;
  }

  /** Serves `page` until the rebuild ends, unless any file changed after its files were read (at `read` changes). */
  show(page: QuickPage, read: number): boolean {
    if (this.#changes !== read) return false;
    this.#quick.set(pathOf(page.url), page);
    this.#wake();
    return true;
  }

  /** Held requests look again: their page may be a quick one now, or everything fresh. */
  #wake(): void {
    for (const resume of this.#waiting.splice(0)) resume();
  }

  /** Eleventy's dev server middleware: a quick page from memory, anything else once fresh. */
  readonly middleware = async (request: IncomingMessage, response: ServerResponse, next: () => void): Promise<void> => {
    let path: string;
    try {
      path = pathOf(request.url ?? "/");
    } catch {
      response.statusCode = 400;
      response.end();
      return;
    }
    for (;;) {
      const quick = this.#quick.get(path);
      if (quick) {
        response.setHeader("Content-Type", "text/html; charset=utf-8");
        // Says which answers came before the rebuild (the dev-server test checks it).
        response.setHeader("X-Quick-Page", "before the rebuild");
        response.end(quick.html);
        return;
      }
      if (this.isFresh()) return next();
      await new Promise<void>((resume) => this.#waiting.push(resume));
    }
  };
}

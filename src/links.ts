// Links within the site, checked by the build: each Markdown link to a page of this site, and each
// address raw HTML in Markdown links to or loads (href, src, srcset, poster), is recorded as the page
// renders (file, line, target), and when the build ends every target must be a file it wrote and
// every #fragment an id in that file (heading self-links excepted: Markdown makes them from the
// id itself). Only linked pages are read, once each, for their ids: no transform parses every page.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type UserConfig from "@11ty/eleventy/UserConfig";
import { contentError } from "./validation.ts";

export interface Link {
  /** Where it is written: `file:line`. */
  at: string;
  /** The address of the page that holds it, for relative targets. */
  from: string;
  target: string;
}

/** This build's links, by the file that holds them (a page that renders again replaces its own). */
const links = new Map<string, Link[]>();

/** Whether a target is a path of this site: no scheme, not `//host`. */
export const isSitePath = (target: string): boolean => !/^[a-z][a-z\d+.-]*:/i.test(target) && !target.startsWith("//");

/** Forgets a file's links: called as its Markdown starts to render. */
export const startLinks = (file: string): void => void links.set(file, []);

export function recordLink(file: string, line: number, from: string, target: string): void {
  if (!isSitePath(target) || !target) return;
  const list = links.get(file) ?? [];
  list.push({ at: `${file}:${line}`, from, target });
  links.set(file, list);
}

/** The ids in an HTML page (the site writes attributes in double quotes). */
export const idsIn = (html: string): Set<string> => new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&")));

/** What a link may lead to: a page or file of the site, with the page's ids where they can be known. */
export interface LinkTarget {
  ids?: () => Set<string>;
}

/** The written file a site path is served from, or undefined. */
function servedFile(output: string, sitePath: string): string | undefined {
  const file = path.join(output, sitePath);
  if (existsSync(file) && statSync(file).isFile()) return file;
  const index = path.join(file, "index.html");
  return existsSync(index) ? index : undefined;
}

/** Targets in a written site: its files, and each HTML file's ids, read once. */
export function writtenSite(output: string): (sitePath: string) => LinkTarget | undefined {
  const ids = new Map<string, Set<string>>();
  return (sitePath) => {
    const file = servedFile(output, sitePath);
    if (!file) return undefined;
    if (!file.endsWith(".html")) return {};
    return { ids: () => ids.get(file) ?? ids.set(file, idsIn(readFileSync(file, "utf8"))).get(file)! };
  };
}

/** A relative address of a file (not a page): one the author put beside the page, most likely. */
const besidePage = (target: string, sitePath: string): boolean => !target.startsWith("/") && !target.startsWith("#") && /\.\w+$/.test(sitePath) && !sitePath.endsWith(".html");
const BESIDE_PAGE = "; a file beside a page is published only when a Markdown image (![alt](file)) or a directive uses it";

/** This build's links, every page's. */
export const recordedLinks = (): Link[] => [...links.values()].flat();

/**
 * Every recorded link that leads nowhere, as `file:line: (link): reason`: to the written site when
 * the build ends, or to the pages `npm run check` knows without building (src/check.ts).
 */
export function brokenLinks(recorded: Iterable<Link>, resolve: (sitePath: string) => LinkTarget | undefined): string[] {
  const problems: string[] = [];
  for (const { at, from, target } of recorded) {
    const url = new URL(target, `https://site.invalid${from}`);
    let sitePath: string;
    try {
      sitePath = decodeURIComponent(url.pathname);
    } catch {
      problems.push(`${at}: (link): ${target} is not a valid address`);
      continue;
    }
    const found = resolve(sitePath);
    if (!found) {
      problems.push(`${at}: (link): ${target} is no page or file of the site${besidePage(target, sitePath) ? BESIDE_PAGE : ""}`);
      continue;
    }
    const fragment = decodeURIComponent(url.hash.slice(1));
    if (fragment && found.ids && !found.ids().has(fragment)) problems.push(`${at}: (link): ${target}: the page ${sitePath} has no id '${fragment}'`);
  }
  return problems;
}

export default function linkCheck(config: UserConfig): void {
  config.on("eleventy.before", ({ incremental }: { incremental?: boolean }) => {
    if (!incremental) links.clear();
  });
  config.on("eleventy.after", ({ directories }: { directories: { output: string } }) => {
    const problems = brokenLinks(recordedLinks(), writtenSite(directories.output));
    if (problems.length) throw contentError(problems);
  });
}

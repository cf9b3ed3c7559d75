// Reading the built site: pages as parsed documents, and every built HTML file.
import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { inject } from "vitest";
import { JSDOM } from "jsdom";
import { languageOf, neutralPath } from "../../src/urls.ts";

export const siteDir = (): string => inject("siteDir");

/** The file a site URL is served from. */
export function fileFor(url: string, root = siteDir()): string {
  const clean = decodeURIComponent(url.split(/[?#]/)[0] ?? "/");
  return path.join(root, clean.endsWith("/") ? `${clean}index.html` : clean);
}

/** The address a built file is served at: `<root>/posts/a/index.html` → `/posts/a/`. */
export const urlOf = (file: string, root = siteDir()): string => `/${path.relative(root, file).split(path.sep).join("/")}`.replace(/index\.html$/, "");

export const readPage = (url: string): string => readFileSync(fileFor(url), "utf8");
/** A built page as a document; each page is parsed once per test file (tests only read them). */
const parsed = new Map<string, Document>();
export const loadPage = (url: string): Document => {
  const file = fileFor(url);
  let doc = parsed.get(file);
  if (!doc) parsed.set(file, (doc = new JSDOM(readFileSync(file, "utf8")).window.document));
  return doc;
};

export async function builtFiles(root = siteDir()): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** Every page a reader can land on: the built HTML, without the redirect pages at old addresses. */
export async function pageUrls(root = siteDir()): Promise<string[]> {
  return (await builtFiles(root))
    .filter((f) => f.endsWith(".html") && !readFileSync(f, "utf8").includes('<meta http-equiv="refresh"'))
    .map((f) => urlOf(f, root))
    .sort();
}

/** A page's kind: its language-neutral address with every segment after the first generalised. */
const kindOf = (url: string): string => neutralPath(url).replace(/^(\/[^/]+\/)(.+)$/, (_all, first: string, rest: string) => first + rest.replace(/[^/]+/g, "*"));

/** The first page of each kind in each language: what template-level checks need to see. */
export function samplePages(urls: string[]): string[] {
  const seen = new Set<string>();
  return urls.filter((url) => {
    const key = `${languageOf(url)} ${kindOf(url)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The course's lessons in order, as its syllabus links them. Never empty: a check that loops over
 * them must not pass because a changed template left nothing to loop over.
 */
export function lessonUrls(): string[] {
  const urls = [...loadPage("/rdma101/").querySelectorAll(".syllabus-lessons a")].map((a) => a.getAttribute("href")!);
  if (urls.length === 0) throw new Error("/rdma101/ links no lesson (.syllabus-lessons a): nothing to check");
  return urls;
}

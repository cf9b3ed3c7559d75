// Reading the built site: pages as parsed documents, and every built HTML file.
import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { inject } from "vitest";
import { JSDOM } from "jsdom";

export const siteDir = (): string => inject("siteDir");

/** The file a site URL is served from. */
export function fileFor(url: string, root = siteDir()): string {
  const clean = decodeURIComponent(url.split(/[?#]/)[0] ?? "/");
  return path.join(root, clean.endsWith("/") ? `${clean}index.html` : clean);
}

/** The address a built file is served at: `<root>/posts/a/index.html` → `/posts/a/`. */
export const urlOf = (file: string, root = siteDir()): string => `/${path.relative(root, file).split(path.sep).join("/")}`.replace(/index\.html$/, "");

export const readPage = (url: string): string => readFileSync(fileFor(url), "utf8");
export const loadPage = (url: string): Document => new JSDOM(readPage(url)).window.document;

export async function builtFiles(root = siteDir()): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

// Static files (public/ → site root) and cache-busting URLs for them: `/css/site.css?v=<hash>` lets
// hosts cache assets for a long time while every change still reaches readers at once.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type UserConfig from "@11ty/eleventy/UserConfig";

const PUBLIC_DIR = "public";
const hashes = new Map<string, string>();

export function assetUrl(url: string): string {
  let hash = hashes.get(url);
  if (hash === undefined) {
    hash = createHash("sha256").update(readFileSync(`${PUBLIC_DIR}${url}`)).digest("hex").slice(0, 10);
    hashes.set(url, hash);
  }
  return `${url}?v=${hash}`;
}

export default function assets(config: UserConfig): void {
  config.addPassthroughCopy({ [PUBLIC_DIR]: "/" });
  config.addFilter("assetUrl", assetUrl);
  // The dev server rebuilds on change: forget the hashes so edited CSS gets a new URL.
  config.on("eleventy.before", () => hashes.clear());
}

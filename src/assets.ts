// Static files (public/ → site root) and cache-busting URLs for them: `/css/site.css?v=<hash>` lets
// hosts cache assets for a long time while every change still reaches readers at once.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type UserConfig from "@11ty/eleventy/UserConfig";
import { href, routes } from "./urls.ts";

export const PUBLIC_DIR = "public";
const hashes = new Map<string, string>();

/** The link to a file of public/ (`css/site.css`), under the path prefix, with its content hash. */
export function assetUrl(file: string, dir = PUBLIC_DIR): string {
  const source = `${dir}/${file}`;
  let hash = hashes.get(source);
  if (hash === undefined) {
    hash = createHash("sha256").update(readFileSync(source)).digest("hex").slice(0, 10);
    hashes.set(source, hash);
  }
  return `${href(routes.asset(file))}?v=${hash}`;
}

/** Forgets the hashes, so an edited file gets a new URL (the dev server rebuilds on change). */
export const forgetAssetHashes = (): void => hashes.clear();

export default function assets(config: UserConfig): void {
  config.addPassthroughCopy({ [PUBLIC_DIR]: routes.asset("") });
  config.addFilter("asset", (file: string) => assetUrl(file));
  config.on("eleventy.before", forgetAssetHashes);
}

// Static files (public/ → site root) and cache-busting URLs for them: `/css/site.css?v=<hash>` lets
// hosts cache assets for a long time while every change still reaches readers at once. Stylesheets
// are copied without their comments: they explain the source, and every reader would download them.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { Transform } from "node:stream";
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

/** A stylesheet without its comments (a comment's text inside a string stays), and the blank lines they leave. */
export const withoutComments = (css: string): string =>
  css.replace(/("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')|\/\*[\s\S]*?\*\//g, (_, string?: string) => string ?? "").replace(/\n(?:[ \t]*\n)+/g, "\n").trimStart();

/** What the copy of a file of public/ passes through: for a stylesheet, withoutComments. */
function copied(source: string): Transform | null {
  if (!source.endsWith(".css")) return null;
  const chunks: Buffer[] = [];
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
    flush(done) {
      done(null, withoutComments(Buffer.concat(chunks).toString("utf8")));
    },
  });
}

export default function assets(config: UserConfig): void {
  config.addPassthroughCopy({ [PUBLIC_DIR]: routes.asset("") }, { transform: copied });
  config.addFilter("asset", (file: string) => assetUrl(file));
  config.on("eleventy.before", forgetAssetHashes);
}

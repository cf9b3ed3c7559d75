// Files a page names (images, figure drawings, chart data) sit beside it. A translation shares its
// original's: a name it does not find beside itself is taken from beside the page it translates, so
// one drawing or data file serves every language, and a file of that name beside the translation
// (a drawing with translated labels) takes its place.
import { existsSync } from "node:fs";
import path from "node:path";
import { originalFile } from "./blog.ts";

/** The file `page` means by `name`; when there is none, `fail` says where it looked. */
export function pageFile(page: string, name: string, fail: (reason: string) => Error): string {
  const places = [page, originalFile(page)].flatMap((file) => (file ? [path.posix.join(path.posix.dirname(file), name)] : []));
  const found = places.find((file) => existsSync(file));
  if (found) return found;
  throw fail(`no such file beside the page (${places[0]})${places[1] ? ` or beside its original (${places[1]})` : ""}`);
}

// When each page last changed, for the sitemap's <lastmod>: the date of the last commit that touched
// the page's source (its template or Markdown file, and the data file a page is made from). Without
// git history (a copy of the sources), a post's or lesson's own front-matter date stands in, and
// other pages go without. Commit dates, unlike file times, are the same in every checkout.
//
// A shallow clone (CI checkouts often are) has history only down to its oldest commits, which git
// shows as adding every file: a file last touched there is left undated, not dated by that commit.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type UserConfig from "@11ty/eleventy/UserConfig";
import type { RouteName } from "./urls.ts";

/** Pages made from a data file change when it does. */
const DATA_SOURCES: Partial<Record<RouteName, string[]>> = {
  home: ["_data/profile.yaml", "_data/experience.yaml", "_data/education.yaml", "_data/publications.bib"],
  publications: ["_data/publications.bib"],
  publication: ["_data/publications.bib"],
  course: ["_data/course.yaml"],
  glossary: ["_data/glossary.yaml"],
};

const git = (cwd: string, args: string[]): string =>
  execFileSync("git", args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, stdio: ["ignore", "pipe", "ignore"] });

/** The commits a shallow clone's history stops at (their parents are not fetched); none in a full clone. */
function shallowBoundary(cwd: string): Set<string> {
  const file = path.resolve(cwd, git(cwd, ["rev-parse", "--git-path", "shallow"]).trim());
  return new Set(existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : []);
}

/** Each file's last commit date, from one walk of the history (newest first); empty without git. */
export function commitDates(cwd = process.cwd()): Map<string, Date> {
  const dates = new Map<string, Date>();
  let log: string;
  let boundary: Set<string>;
  try {
    log = git(cwd, ["log", "--format=%x00%H %cI", "--name-only", "--no-renames", "HEAD"]);
    boundary = shallowBoundary(cwd);
  } catch {
    return dates;
  }
  for (const commit of log.split("\0").slice(1)) {
    const [head, ...files] = commit.split("\n").filter(Boolean);
    const [hash, date] = head!.split(" ");
    if (boundary.has(hash!)) continue;
    for (const file of files) if (!dates.has(file)) dates.set(file, new Date(date!));
  }
  return dates;
}

interface SitemapItem {
  inputPath: string;
  data: { route?: RouteName; post?: { date: Date; updated?: Date }; lesson?: { date: Date; updated?: Date } };
}

/** A page's last change: its newest source commit, else its entry's own date, else none. */
export function lastModified(item: SitemapItem, dates: ReadonlyMap<string, Date>): Date | undefined {
  const sources = [item.inputPath.replace(/^\.\//, ""), ...(item.data.route ? (DATA_SOURCES[item.data.route] ?? []) : [])];
  const committed = sources.flatMap((file) => dates.get(file) ?? []);
  if (committed.length > 0) return new Date(Math.max(...committed.map((d) => d.getTime())));
  const entry = item.data.post ?? item.data.lesson;
  return entry ? (entry.updated ?? entry.date) : undefined;
}

export default function lastmod(config: UserConfig): void {
  let dates: Map<string, Date> | undefined;
  config.on("eleventy.before", () => (dates = undefined));
  config.addFilter("lastModified", (item: SitemapItem) => lastModified(item, (dates ??= commitDates())));
}

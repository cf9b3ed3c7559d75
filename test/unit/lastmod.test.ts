import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commitDates, lastModified } from "../../src/lastmod.ts";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/** A repository whose commits touch the named files at the given dates. */
async function repository(commits: [string, string[]][]): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "lastmod-"));
  dirs.push(dir);
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@example.org", ...args], { cwd: dir, stdio: "ignore" });
  git("init", "-q");
  for (const [date, files] of commits) {
    for (const file of files) await writeFile(path.join(dir, file), `${date}\n`);
    git("add", ".");
    execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@example.org", "commit", "-q", "-m", date], { cwd: dir, env: { ...process.env, GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date } });
  }
  return dir;
}

describe("lastmod", () => {
  it("dates each file by the last commit that touched it", async () => {
    const dir = await repository([
      ["2026-01-01T10:00:00+08:00", ["a.md", "b.md"]],
      ["2026-02-01T10:00:00+08:00", ["a.md"]],
    ]);
    const dates = commitDates(dir);
    expect(dates.get("a.md")?.toISOString()).toBe("2026-02-01T02:00:00.000Z");
    expect(dates.get("b.md")?.toISOString()).toBe("2026-01-01T02:00:00.000Z");
  });

  it("in a shallow clone, leaves undated what its oldest commit shows (git lists every file there)", async () => {
    const dir = await repository([
      ["2026-01-01T10:00:00+08:00", ["a.md", "b.md", "c.md"]],
      ["2026-02-01T10:00:00+08:00", ["b.md"]],
      ["2026-03-01T10:00:00+08:00", ["c.md"]],
    ]);
    const clone = `${dir}-shallow`;
    dirs.push(clone);
    execFileSync("git", ["clone", "-q", "--depth=2", `file://${dir}`, clone]);
    const dates = commitDates(clone);
    expect(dates.get("c.md")?.toISOString()).toBe("2026-03-01T02:00:00.000Z");
    expect([...dates.keys()]).toEqual(["c.md"]);
    // The full history dates every file.
    expect(commitDates(dir).get("a.md")?.toISOString()).toBe("2026-01-01T02:00:00.000Z");
  });

  it("has no dates outside a repository", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "no-git-"));
    dirs.push(dir);
    expect(commitDates(dir).size).toBe(0);
  });

  it("takes the newest of a page's template and its data file", () => {
    const dates = new Map([
      ["src/pages/publication.njk", new Date("2026-01-01")],
      ["_data/publications.bib", new Date("2026-03-01")],
    ]);
    expect(lastModified({ inputPath: "./src/pages/publication.njk", data: { route: "publication" } }, dates)).toEqual(new Date("2026-03-01"));
  });

  it("without history, dates a post or lesson by its own front matter, and other pages not at all", () => {
    const none = new Map<string, Date>();
    const post = { date: new Date("2026-01-01"), updated: new Date("2026-02-01") };
    expect(lastModified({ inputPath: "./posts/blog/a.md", data: { post } }, none)).toEqual(post.updated);
    expect(lastModified({ inputPath: "./posts/rdma101/x/y.md", data: { lesson: { date: post.date } } }, none)).toEqual(post.date);
    expect(lastModified({ inputPath: "./src/pages/tags.njk", data: { route: "tags" } }, none)).toBeUndefined();
  });
});

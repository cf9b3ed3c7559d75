// Two production builds of the same sources are byte-identical: no build timestamps anywhere, and
// nothing that depends on a checkout's file times (Eleventy dates an undated page by its file) or
// on the build machine's time zone.
import { createHash } from "node:crypto";
import { readFile, readdir, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { build, copyProject, projectRoot } from "../support/eleventy.ts";
import { builtFiles, siteDir } from "../support/site.ts";

async function fingerprint(root: string): Promise<Record<string, string>> {
  const files = await builtFiles(root);
  const entries = await Promise.all(files.map(async (f) => [path.relative(root, f), createHash("sha256").update(await readFile(f)).digest("hex")] as const));
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}

/** Re-creates files newest-first, so their creation times run against the order they had. */
async function recreateInReverse(dir: string): Promise<void> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  for (const file of files.sort().reverse()) {
    const bytes = await readFile(file);
    await rm(file);
    await writeFile(file, bytes);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("reproducible output", () => {
  it("builds a byte-identical site from another checkout of the same sources", async () => {
    const copy = await copyProject();
    try {
      await recreateInReverse(path.join(copy, "src/pages"));
      // The same history: the sitemap dates pages by their last commit.
      await symlink(path.join(projectRoot, ".git"), path.join(copy, ".git"));
      // Another machine, too: a time zone far from the first build's.
      const result = await build({ cwd: copy, outDir: path.join(copy, "_site"), env: { TZ: "Pacific/Kiritimati" } });
      expect(result.code, result.output).toBe(0);
      expect(await fingerprint(path.join(copy, "_site"))).toEqual(await fingerprint(siteDir()));
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
    // A whole build from a fresh checkout: every social card is drawn, and the index written.
  }, 300_000);
});

// Two production builds of the same sources are byte-identical: no build timestamps anywhere.
import { createHash } from "node:crypto";
import { readFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { build } from "../support/eleventy.ts";
import { builtFiles, siteDir } from "../support/site.ts";

async function fingerprint(root: string): Promise<Record<string, string>> {
  const files = await builtFiles(root);
  const entries = await Promise.all(files.map(async (f) => [path.relative(root, f), createHash("sha256").update(await readFile(f)).digest("hex")] as const));
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}

describe("reproducible output", () => {
  it("builds byte-identical sites twice", async () => {
    const again = await mkdtemp(path.join(tmpdir(), "site-again-"));
    try {
      const result = await build({ outDir: again });
      expect(result.code, result.output).toBe(0);
      expect(await fingerprint(again)).toEqual(await fingerprint(siteDir()));
    } finally {
      await rm(again, { recursive: true, force: true });
    }
  });
});

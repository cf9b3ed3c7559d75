import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { frontMatterOf, type CollectionItem } from "../../src/front-matter.ts";
import { postSchema } from "../../src/schemas.ts";

const dir = mkdtempSync(path.join(tmpdir(), "front-matter-"));
const item = (name: string, source: string): CollectionItem => {
  const inputPath = path.join(dir, name);
  writeFileSync(inputPath, source);
  return { url: "/x/", inputPath, fileSlug: name, data: {} };
};

describe("front matter", () => {
  it("validates what the author wrote, keeping dates as written", async () => {
    const post = await frontMatterOf(item("ok.md", "---\ntitle: T\ndate: 2026-12-02T10:00:00+08:00\ndescription: D\n---\nBody\n"), postSchema);
    expect(post.date.toISOString()).toBe("2026-12-02T02:00:00.000Z");
  });

  it("reports an impossible date instead of rolling it over", async () => {
    await expect(frontMatterOf(item("bad.md", "---\ntitle: T\ndate: 2026-13-45\ndescription: D\n---\n"), postSchema)).rejects.toThrow(/bad\.md: date: must be an ISO date/);
  });

  it("reports YAML errors with the file", async () => {
    await expect(frontMatterOf(item("yaml.md", "---\ntitle: [unclosed\n---\n"), postSchema)).rejects.toThrow(/yaml\.md: \(front matter\): /);
  });
});

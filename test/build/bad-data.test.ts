// A broken data file stops the real build with `file: field: reason` and a non-zero exit.
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build, copyProject } from "../support/eleventy.ts";

let copy: string;
beforeAll(async () => {
  copy = await copyProject();
});
afterAll(() => rm(copy, { recursive: true, force: true }));

/** Applies one edit to a copy of the project, builds it, then restores the file. */
async function buildWith(file: string, edit: (source: string) => string) {
  const target = path.join(copy, file);
  const original = await readFile(target, "utf8");
  const broken = edit(original);
  expect(broken, "the edit must change the file").not.toBe(original);
  await writeFile(target, broken);
  try {
    return await build({ cwd: copy, outDir: path.join(copy, "_site") });
  } finally {
    await writeFile(target, original);
  }
}

describe("bad data stops the build", () => {
  it.each([
    ["a missing name", "_data/profile.yaml", (s: string) => s.replace(/^name: .*\n/m, ""), "_data/profile.yaml: name: is required"],
    ["an unknown link type", "_data/profile.yaml", (s: string) => s.replace("type: github", "type: myspace"), "_data/profile.yaml: links[0].type: must be one of"],
    ["a malformed year", "_data/experience.yaml", (s: string) => s.replace("start: 2023", "start: twenty"), "_data/experience.yaml: [1].start: must be a four-digit year"],
    ["a paper without year", "_data/publications.bib", (s: string) => s.replace(/ {2}year\s+= \{2022\},?\n/, ""), "_data/publications.bib: ren2022libcrpm.year: is required"],
    ["a paper without title", "_data/publications.bib", (s: string) => s.replace("title         = {Scaling Up", "titel         = {Scaling Up"), "_data/publications.bib: ren2024smart.title: is required"],
  ])("%s", async (_name, file, edit, message) => {
    const result = await buildWith(file, edit);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain(message);
  });
});

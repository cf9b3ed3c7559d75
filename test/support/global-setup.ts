// Builds the real site once for all build and browser tests, into a temporary folder.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { build } from "./eleventy.ts";

declare module "vitest" {
  export interface ProvidedContext {
    siteDir: string;
  }
}

export default async function setup(project: TestProject) {
  const outDir = await mkdtemp(path.join(tmpdir(), "site-build-"));
  const result = await build({ outDir });
  if (result.code !== 0) throw new Error(`The site did not build:\n${result.output}`);
  project.provide("siteDir", outDir);
  return () => rm(outDir, { recursive: true, force: true });
}

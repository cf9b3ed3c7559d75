// The GitHub Pages workflow: `npm ci`, then `npm run build` for the address GitHub serves the site at
// (configure-pages' outputs, as its action.yml documents them), publishing Eleventy's output folder.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { config } from "../../.eleventy.ts";
import { siteSchema } from "../../src/schemas.ts";
import { pathPrefix, setPathPrefix } from "../../src/urls.ts";

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
const workflow = parse(readFileSync(".github/workflows/pages.yml", "utf8")) as { jobs: Record<string, { steps: Step[] }> };
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
const runs = steps.flatMap((s) => (s.run ? [s.run] : []));
const buildStep = steps.find((s) => s.run?.startsWith("npm run build"))!;

/** A step's text with configure-pages' outputs filled in. */
const withOutputs = (text: string, outputs: { base_path: string; origin: string }) =>
  text.replace(/\$\{\{\s*steps\.pages\.outputs\.(\w+)\s*\}\}/g, (_all, name: string) => outputs[name as keyof typeof outputs]);

describe("the GitHub Pages workflow", () => {
  it("installs from the lock file, then builds", () => {
    expect(runs.findIndex((r) => r.startsWith("npm ci"))).toBeGreaterThanOrEqual(0);
    expect(runs.findIndex((r) => r.startsWith("npm ci"))).toBeLessThan(runs.indexOf(buildStep.run!));
  });

  it("checks out the whole history, which the sitemap's dates come from", () => {
    const checkout = steps.find((s) => s.uses?.startsWith("actions/checkout@"))!;
    expect(Number(checkout.with?.["fetch-depth"])).toBe(0);
  });

  it.each([
    { base_path: "", origin: "https://renfeng.github.io", prefix: "/" },
    { base_path: "/my-repo", origin: "https://octocat.github.io", prefix: "/my-repo/" },
  ])("builds for $origin with the path prefix $prefix", ({ prefix, ...outputs }) => {
    const argument = withOutputs(buildStep.run!, outputs).match(/--pathprefix=([^"\s]*)/)![1];
    setPathPrefix(argument);
    expect(pathPrefix()).toBe(prefix);
    setPathPrefix("/");
    const siteUrl = withOutputs(buildStep.env!.SITE_URL!, outputs);
    expect(siteSchema.shape.url.safeParse(siteUrl).success).toBe(true);
  });

  it("names the repository as the site's source, unless it is private", () => {
    const source = buildStep.env!.SITE_SOURCE!;
    expect(source).toMatch(/!\s*github\.event\.repository\.private\s*&&/);
    expect(source).toMatch(/github\.server_url\b.*github\.repository\b/);
  });

  it("publishes the build's output folder", () => {
    const upload = steps.find((s) => s.uses?.startsWith("actions/upload-pages-artifact@"))!;
    expect(upload.with!.path!.replace(/\/$/, "")).toBe(config.dir.output);
    expect(steps.some((s) => s.uses?.startsWith("actions/deploy-pages@"))).toBe(true);
  });
});

// The GitHub Pages workflow: `npm ci`, then `npm run build` for the address GitHub serves the site at
// (configure-pages' outputs, as its action.yml documents them), publishing Eleventy's output folder;
// on a maintained Node line, with current actions, and the right to deploy only where no package runs.
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
  with?: Record<string, string | number | boolean>;
}
type Permissions = Record<string, string>;
interface Job {
  permissions?: Permissions;
  steps: Step[];
}
const workflow = parse(readFileSync(".github/workflows/pages.yml", "utf8")) as { permissions?: Permissions; jobs: Record<string, Job> };
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
const jobWith = (action: string) => Object.values(workflow.jobs).find((job) => job.steps.some((s) => s.uses?.startsWith(`${action}@`)))!;
const stepOf = (action: string) => steps.find((s) => s.uses?.startsWith(`${action}@`))!;
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
    const checkout = stepOf("actions/checkout");
    expect(Number(checkout.with?.["fetch-depth"])).toBe(0);
  });

  it("runs npm ci and the build in a job that can read and nothing more; only the job that runs no code of ours deploys", () => {
    // Package install scripts run in the build job: a compromised package must find no token there
    // that deploys (pages: write) or proves the workflow's identity (id-token: write).
    expect(workflow.permissions ?? {}).toEqual({});
    const build = Object.values(workflow.jobs).find((job) => job.steps.some((s) => s.run?.startsWith("npm ci")))!;
    expect(Object.entries(build.permissions!).filter(([, level]) => level !== "read")).toEqual([]);
    expect(stepOf("actions/checkout").with?.["persist-credentials"]).toBe(false);
    const deploy = jobWith("actions/deploy-pages");
    expect(deploy).not.toBe(build);
    expect(deploy.permissions).toEqual({ pages: "write", "id-token": "write" });
    expect(deploy.steps.filter((s) => s.run !== undefined)).toEqual([]);
  });

  it("builds on a Node line that package.json allows and that is still maintained", () => {
    const major = Number(stepOf("actions/setup-node").with?.["node-version"]);
    const engines = (JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string } }).engines.node;
    const allowed = engines.split("||").some((range) => {
      const [, op, min] = /^\s*(\^|>=)(\d+)\./.exec(range)!;
      return op === "^" ? major === Number(min) : major >= Number(min);
    });
    expect(allowed, engines).toBe(true);
    // End of life of each LTS line, from the Node.js release schedule.
    const endOfLife: Record<number, string> = { 20: "2026-04-30", 22: "2027-04-30", 24: "2028-04-30" };
    expect(endOfLife[major], `Node ${major}`).toBeDefined();
    expect(new Date(endOfLife[major]!).getTime()).toBeGreaterThan(Date.now());
  });

  it("uses majors of GitHub's actions that run on Node 24, not the Node 20 runtime the runners dropped", () => {
    // The first major of each whose action.yml says `using: node24` (upload-pages-artifact is a
    // composite action: v5 is the first to call upload-artifact v7, which does).
    const firstOnNode24: Record<string, number> = {
      "actions/checkout": 5,
      "actions/setup-node": 5,
      "actions/configure-pages": 6,
      "actions/upload-pages-artifact": 5,
      "actions/deploy-pages": 5,
    };
    for (const [action, first] of Object.entries(firstOnNode24)) {
      const major = Number(/@v(\d+)$/.exec(stepOf(action).uses!)?.[1]);
      expect(major, action).toBeGreaterThanOrEqual(first);
    }
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
    const upload = stepOf("actions/upload-pages-artifact");
    expect(String(upload.with!.path).replace(/\/$/, "")).toBe(config.dir.output);
    expect(steps.some((s) => s.uses?.startsWith("actions/deploy-pages@"))).toBe(true);
  });
});

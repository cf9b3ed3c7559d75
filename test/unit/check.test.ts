// `npm run check` on the real project and on a copy with one mistake of each kind: every mistake is
// reported as `file: field: reason`, all in one run, and the command fails.
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { copyProject, projectRoot } from "../support/eleventy.ts";

const check = (cwd: string) => spawnSync(process.execPath, ["--import", "tsx", path.join(projectRoot, "scripts/check.ts")], { cwd, encoding: "utf8" });

let copy: string | undefined;
afterAll(() => copy && rmSync(copy, { recursive: true, force: true }));

describe("npm run check", () => {
  it("finds nothing wrong in the project as it is", () => {
    const run = check(projectRoot);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("reports each mistake with its file and field, all in one run", async () => {
    copy = await copyProject();
    const at = (file: string) => path.join(copy!, file);
    const [post, other] = readdirSync(at("posts/blog")).filter((name) => name.endsWith(".md"));
    const lessonDir = readdirSync(at("posts/rdma101")).find((name) => /^\d+-/.test(name))!;
    const lesson = `posts/rdma101/${lessonDir}/${readdirSync(at(`posts/rdma101/${lessonDir}`)).find((name) => /^\d+-.*\.md$/.test(name))!}`;
    writeFileSync(at("posts/blog/bad-date.md"), "---\ntitle: T\ndate: 2026-02-30\ndescription: D\n---\nText.\n");
    mkdirSync(at("posts/blog/folder"));
    writeFileSync(at("posts/blog/folder/stray.md"), "---\ntitle: T\n---\nText.\n");
    appendFileSync(at(`posts/blog/${post}`), "\n[a missing post](/posts/no-such-post/) and [a missing heading](#no-such-heading)\n");
    appendFileSync(at(`posts/blog/${other}`), "\n```figure\nfile: x.svg\nalt: A\ncaption: C\ncolour: red\n```\n");
    appendFileSync(at(`posts/blog/${post}`), "\n![A drawing](no-such-image.png)\n");
    writeFileSync(at("posts/blog/no-alt.md"), "---\ntitle: T\ndate: 2026-02-01\ndescription: D\n---\n![](no-alt.png)\n");
    // A translation shares its original's images, as in the build (src/page-files.ts).
    const translation = readdirSync(at("posts/blog/zh")).find((name) => name.endsWith(".md"))!;
    writeFileSync(at("posts/blog/shared-image.png"), "");
    appendFileSync(at(`posts/blog/zh/${translation}`), "\n![示意](shared-image.png)\n");
    appendFileSync(at(lesson), "\nA [missing term](/rdma101/glossary/#no-such-term).\n");
    appendFileSync(at("_data/glossary.yaml"), "- id: zz-new-term\n  term: Term\n  definition: A definition.\n  lesson: no-part/no-lesson\n");
    writeFileSync(at("_data/site.yaml"), readFileSync(at("_data/site.yaml"), "utf8").replace(/^timezone: .*$/m, "timezone: Mars/Olympus"));
    const lookup = readFileSync(at("_data/lookup.yaml"), "utf8");
    writeFileSync(at("_data/lookup.yaml"), lookup.replace(/, heading: [\w-]+ }/, ", heading: no-such-heading }"));

    const run = check(copy);
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split("\n");
    for (const expected of [
      /^posts\/blog\/bad-date\.md: date: must be an ISO date/,
      /^posts\/blog\/folder\/stray\.md: \(file\): not a post or lesson: a post is posts\/blog\/<slug>\.md/,
      new RegExp(`^posts/blog/${post}:\\d+: \\(link\\): /posts/no-such-post/ is no page or file of the site$`),
      new RegExp(`^posts/blog/${post}:\\d+: \\(link\\): #no-such-heading: the page /posts/[a-z0-9-]+/ has no id 'no-such-heading'$`),
      new RegExp(`^posts/blog/${post}: image no-such-image\\.png: no such file beside the page \\(posts/blog/no-such-image\\.png\\)$`),
      /^posts\/blog\/no-alt\.md: image no-alt\.png: needs alt text/,
      new RegExp(`^posts/blog/${other}:\\d+: figure\\.colour: unknown field$`),
      new RegExp(`^${lesson}:\\d+: \\(link\\): /rdma101/glossary/#no-such-term: the page /rdma101/glossary/ has no id 'no-such-term'$`),
      /^_data\/glossary\.yaml: \[\d+\]\.lesson: no lesson 'no-part\/no-lesson' \(term 'zz-new-term'\)$/,
      /^_data\/site\.yaml: timezone: must be an IANA time zone/,
      /^_data\/lookup\.yaml: \w+\[\d+\]\.heading: lesson '[\w/-]+' has no heading 'no-such-heading'$/,
    ]) {
      expect(lines.some((line) => expected.test(line)), `${expected} in:\n${run.stderr}`).toBe(true);
    }
    expect(run.stderr).not.toContain("shared-image.png");
  });

  it("reports a course that cannot be arranged once, not again as a broken link to each lesson", async () => {
    const dir = await copyProject();
    try {
      const courseFile = path.join(dir, "_data/course.yaml");
      const course = readFileSync(courseFile, "utf8");
      const [, part] = course.match(/\n {2}- slug: (\S+)\n/)!;
      writeFileSync(courseFile, course.replace(new RegExp(`\n {2}- slug: ${part}\n[\\s\\S]*?(?=\n {2}- slug:)`), ""));
      const run = check(dir);
      expect(run.status).toBe(1);
      const lines = run.stderr.trim().split("\n").slice(0, -1);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).toMatch(new RegExp(`^posts/rdma101/\\d+-${part}/[^:]+\\.md: part: no part '${part}' in _data/course\\.yaml$`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

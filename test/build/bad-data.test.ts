// Bad input stops the real build with `file: field: reason` and a non-zero exit: one broken thing
// at a time, in a copy of the project.
import { mkdir, readFile, rm, writeFile, unlink } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build, copyProject } from "../support/eleventy.ts";

let copy: string;
beforeAll(async () => {
  copy = await copyProject();
});
afterAll(() => rm(copy, { recursive: true, force: true }));

const FIRST_LESSON = "posts/rdma101/01-getting-started/01-why-rdma.md";
const SECOND_LESSON = "posts/rdma101/01-getting-started/02-landscape.md";
const A_POST = "posts/blog/mooncake-kvcache-centric-serving.md";
const BAD_CSV = "posts/blog/bad.csv";

type Edit = { file: string; change: (source: string) => string } | { file: string; create: string };

/** Applies edits to the copy, builds it, and restores every file. */
async function buildWith(edits: Edit[]) {
  const originals = new Map<string, string | null>();
  try {
    for (const edit of edits) {
      const target = path.join(copy, edit.file);
      const original = await readFile(target, "utf8").catch(() => null);
      originals.set(target, original);
      const next = "create" in edit ? edit.create : edit.change(original ?? "");
      expect(next, `the edit must change ${edit.file}`).not.toBe(original);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, next);
    }
    return await build({ cwd: copy, outDir: path.join(copy, "_site") });
  } finally {
    for (const [target, original] of originals) {
      if (original === null) await unlink(target);
      else await writeFile(target, original);
    }
  }
}

const frontMatter = (change: (fm: string) => string) => (source: string) => source.replace(/^---\n([\s\S]*?)\n---\n/, (_all, fm: string) => `---\n${change(fm)}\n---\n`);
const appendBody = (text: string) => (source: string) => `${source}\n${text}\n`;

const cases: [string, Edit[], string | RegExp][] = [
  ["profile: a missing name", [{ file: "_data/profile.yaml", change: (s) => s.replace(/^name: .*\n/m, "") }], "_data/profile.yaml: name: is required"],
  ["profile: an unknown link type", [{ file: "_data/profile.yaml", change: (s) => s.replace("type: github", "type: myspace") }], "_data/profile.yaml: links[0].type: must be one of"],
  ["experience: a malformed year", [{ file: "_data/experience.yaml", change: (s) => s.replace("start: 2023", "start: twenty") }], "_data/experience.yaml: [1].start: must be a four-digit year"],
  ["BibTeX: a paper without year", [{ file: "_data/publications.bib", change: (s) => s.replace(/ {2}year\s+= \{2022\},?\n/, "") }], "_data/publications.bib: ren2022libcrpm.year: is required"],
  ["BibTeX: a paper without title", [{ file: "_data/publications.bib", change: (s) => s.replace("title         = {Scaling Up", "titel         = {Scaling Up") }], "_data/publications.bib: ren2024smart.title: is required"],
  ["post: no description", [{ file: A_POST, change: frontMatter((fm) => fm.replace(/^description: .*$/m, "")) }], `${A_POST}: description: is required`],
  ["post: an invalid date", [{ file: A_POST, change: frontMatter((fm) => fm.replace(/^date: .*$/m, "date: 2026-13-45")) }], `${A_POST}: date: must be an ISO date`],
  ["post: an unknown field", [{ file: A_POST, change: frontMatter((fm) => `${fm}\nautor: Someone`) }], `${A_POST}: autor: unknown field`],
  ["post: a tag case clash", [{ file: A_POST, change: frontMatter((fm) => `${fm.replace(/^tags: .*$/m, "")}\ntags: [RDMA, rdma]`) }], `${A_POST}: tags: 'RDMA' and 'rdma' are the same tag`],
  ["post: a duplicate slug", [{ file: "posts/blog/mooncake-kvcache-centric-serving/index.md", create: "---\ntitle: Copy\ndate: 2026-12-01\ndescription: A copy.\n---\nText.\n" }], "slug: 'mooncake-kvcache-centric-serving' is also the slug of"],
  ["post: a missing image", [{ file: A_POST, change: appendBody("![A chart](no-such-chart.png)") }], `${A_POST}: image no-such-chart.png: no such file`],
  ["post: an image without alt text", [{ file: A_POST, change: appendBody("![](mooncake-architecture.svg)") }], `${A_POST}: image mooncake-architecture.svg: needs alt text`],
  ["post: broken math", [{ file: A_POST, change: appendBody("$\\frac{1}$") }], `${A_POST}: math: cannot render`],
  ["lesson: duplicate name in a part", [{ file: "posts/rdma101/01-getting-started/09-why-rdma.md", create: "---\ntitle: Copy\ndescription: d\nobjectives: [o]\nminutes: 5\ndate: 2026-12-02\n---\nText.\n" }], "posts/rdma101/01-getting-started/09-why-rdma.md: lesson: name 'why-rdma' is also used by posts/rdma101/01-getting-started/01-why-rdma.md"],
  ["lesson: duplicate order", [{ file: "posts/rdma101/01-getting-started/01-copy.md", create: "---\ntitle: Copy\ndescription: d\nobjectives: [o]\nminutes: 5\ndate: 2026-12-02\n---\nText.\n" }], "posts/rdma101/01-getting-started/01-why-rdma.md: lesson: order 1 is also used by posts/rdma101/01-getting-started/01-copy.md"],
  ["lesson: no objectives", [{ file: FIRST_LESSON, change: frontMatter((fm) => fm.replace(/^objectives:\n(?:\s+- .*\n?)+/m, "")) }], `${FIRST_LESSON}: objectives: is required`],
  ["lesson: an unknown prerequisite", [{ file: SECOND_LESSON, change: frontMatter((fm) => `${fm.replace(/^prerequisites: .*$/m, "")}\nprerequisites: [getting-started/no-such-lesson]`) }], `${SECOND_LESSON}: prerequisites[0]: no lesson 'getting-started/no-such-lesson'`],
  ["lesson: a missing figure", [{ file: FIRST_LESSON, change: appendBody("```figure\nfile: no-such.svg\nalt: Alt.\ncaption: Caption.\n```") }], new RegExp(`${FIRST_LESSON}:\\d+: figure no-such.svg: no such file`)],
  ["lesson: a directive field misspelt", [{ file: FIRST_LESSON, change: appendBody("```example\nfile: list_devices.c\nfiel: x\n```") }], new RegExp(`${FIRST_LESSON}:\\d+: example.fiel: unknown field`)],
  ["chart: a missing data file", [{ file: A_POST, change: appendBody("```chart\ndata: no-such.csv\nx: a\ny: b\ntitle: T\ncaption: C.\n```") }], new RegExp(`${A_POST}:\\d+: chart.data: no such file beside the page \\(posts/blog/no-such.csv\\)`)],
  ["chart: a missing column", [{ file: BAD_CSV, create: "a,b\n1,2\n" }, { file: A_POST, change: appendBody("```chart\ndata: bad.csv\nx: a\ny: c\ntitle: T\ncaption: C.\n```") }], new RegExp(`${A_POST}:\\d+: chart.y: no column 'c' in bad.csv \\(its columns: a, b\\)`)],
  ["chart: a value that is not a number", [{ file: BAD_CSV, create: "a,b\n1,2\n2,n/a\n" }, { file: A_POST, change: appendBody("```chart\ndata: bad.csv\nx: a\ny: b\ntitle: T\ncaption: C.\n```") }], `${BAD_CSV}: line 3, b: must be a number (found "n/a")`],
  ["chart: an empty data file", [{ file: BAD_CSV, create: "\n" }, { file: A_POST, change: appendBody("```chart\ndata: bad.csv\nx: a\ny: b\ntitle: T\ncaption: C.\n```") }], `${BAD_CSV}: (file): is empty`],
  ["chart: a ragged row", [{ file: BAD_CSV, create: "a,b\n1,2\n3\n" }, { file: A_POST, change: appendBody("```chart\ndata: bad.csv\nx: a\ny: b\ntitle: T\ncaption: C.\n```") }], `${BAD_CSV}: line 3: has 1 fields, the header has 2`],
  ["glossary: a term pointing at no lesson", [{ file: "_data/glossary.yaml", change: (s) => s.replace(/lesson: [a-z-]+\/[a-z-]+/, "lesson: getting-started/nowhere") }], "_data/glossary.yaml: [0].lesson: no lesson 'getting-started/nowhere'"],
];

describe("bad input stops the build", () => {
  it.each(cases)("%s", async (_name, edits, message) => {
    const result = await buildWith(edits);
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(message);
  });
});

describe("content is taken literally", () => {
  it("publishes template syntax in prose and code exactly as written", async () => {
    const text = "Nunjucks {{ page.url }} and {% raw %} stay text; so does {# this #}.";
    const result = await buildWith([{ file: A_POST, change: appendBody(`${text}\n\n\`\`\`bash\necho "\${#ARR[@]}" {{x}}\n\`\`\``) }]);
    expect(result.code, result.output).toBe(0);
    const html = await readFile(path.join(copy, "_site/posts/mooncake-kvcache-centric-serving/index.html"), "utf8");
    expect(html).toContain(text);
    expect(html.replace(/<[^>]+>/g, "")).toContain('echo "${#ARR[@]}" {{x}}');
  });
});

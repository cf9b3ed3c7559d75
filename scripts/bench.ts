// `npm run bench`: how long the real site takes to build with 1,000 extra posts, against a minimal
// Eleventy build of the same 1,000 Markdown files (no config at all). The goal is at most 2x.
// Timing depends on the machine, so this is a benchmark to read, not a test.
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { copyProject, projectRoot } from "../test/support/eleventy.ts";

const POSTS = Number(process.env.BENCH_POSTS ?? 1000);
const GOAL = 2;

const body = (i: number) =>
  `## Section one\n\n${"Words about moving data between machines with RDMA. ".repeat(40)}\n\n` +
  "```c\nint main(void) { return 0; }\n```\n\n" +
  `## Section two\n\nPost ${i} with a formula $a^2 + b^2 = c^2$ and a [link](/posts/).\n\n## Section three\n\nThe end.\n`;

async function writePosts(dir: string, frontMatter: (i: number) => string) {
  await mkdir(dir, { recursive: true });
  await Promise.all(
    Array.from({ length: POSTS }, (_, i) => writeFile(path.join(dir, `bench-${i}.md`), `---\n${frontMatter(i)}---\n${body(i)}`)),
  );
}

function timeBuild(cwd: string, args: string[]): number {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, { cwd, encoding: "utf8", env: { ...process.env, ELEVENTY_ENV: "production" } });
  if (run.status !== 0) throw new Error(`build failed in ${cwd}:\n${run.stdout}${run.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e9;
}

const site = await copyProject();
const minimal = await mkdtemp(path.join(tmpdir(), "bench-minimal-"));
try {
  const date = (i: number) => new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString();
  await writePosts(path.join(site, "posts/blog"), (i) => `title: Bench ${i}\ndate: ${date(i)}\ndescription: Benchmark post ${i}.\ntags: [bench, t${i % 20}]\n`);
  await writePosts(path.join(minimal, "posts"), (i) => `title: Bench ${i}\n`);
  await symlink(path.join(projectRoot, "node_modules"), path.join(minimal, "node_modules"), "dir");

  const eleventy = "node_modules/@11ty/eleventy/cmd.cjs";
  const siteSeconds = timeBuild(site, ["--import", "tsx", eleventy, "--config=.eleventy.ts", "--quiet"]);
  const minimalSeconds = timeBuild(minimal, [eleventy, "--quiet"]);
  const ratio = siteSeconds / minimalSeconds;
  console.log(`${POSTS} posts: site ${siteSeconds.toFixed(1)} s, minimal Eleventy ${minimalSeconds.toFixed(1)} s, ratio ${ratio.toFixed(2)} (goal ≤ ${GOAL})`);
} finally {
  await rm(site, { recursive: true, force: true });
  await rm(minimal, { recursive: true, force: true });
}

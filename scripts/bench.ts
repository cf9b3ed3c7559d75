// `npm run bench`: the cost of building the site as it grows. For each size N, a temporary copy of
// the project gets N synthetic posts and 100 lessons (./bench-corpus.ts: the same text on every run),
// and is built with the real configuration, exactly as `npm run build`; a minimal Eleventy site (the
// same Markdown files, one Nunjucks layout, no configuration or plugins, plain node) is built in
// alternation with it, several rounds. It prints wall and CPU time, pages per second and peak memory
// (GNU time), the medians of the ratios ours/minimal, the share of our build that is the search index
// (Pagefind run alone on our output), the minimal build's cost with a search index of its own pages,
// and the real site's own cost (built without a synthetic post), and, on the largest copy, the time from saving a post on the dev server to Chromium showing it.
// Timing depends on the machine and its load: a benchmark to read (docs/performance.md), not a test.
//
//   npm run bench                          N = 250, 500, 1000; 3 rounds; the dev-server measure
//   npm run bench -- --posts=100 --rounds=1 --no-serve     a quick run
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { mkdtemp, readdir, readFile, rename, symlink, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { copyProject, projectRoot, scriptArgs } from "../test/support/eleventy.ts";
import { launch } from "../test/support/chromium.ts";
import { startDevServer, waitForServer } from "../test/support/dev-server.ts";
import { globOf, INDEXED_BODY, NOT_TEXT } from "../src/search.ts";
import { addCorpus, minimalSite, post, postFile } from "./bench-corpus.ts";

const option = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const SIZES = (option("posts") ?? "250,500,1000").split(",").map(Number);
const ROUNDS = Number(option("rounds") ?? 3);
const LESSONS = Number(option("lessons") ?? 100);
const SERVE = !process.argv.includes("--no-serve");
const EDITS = 5;
const TARGET = { ratio: 2, peakMiB: 350, editMs: 300 };
const TIME = "/usr/bin/time";

// Output and copies are set aside, not deleted, until the bench ends. On ext4 without a journal
// (this machine's disk), making a file scans past every inode freed in the last minute or more
// (`recently_deleted()` in the kernel's fs/ext4/ialloc.c), so a build that follows `rm -rf` of its
// last output spends seconds in that scan: 3.4 s of CPU for our N = 1000 build, 0.1 s for the
// minimal one. A fresh clone, as CI builds it, has nothing freshly deleted.
const trash = await mkdtemp(path.join(tmpdir(), "bench-trash-"));
process.once("exit", () => rmSync(trash, { recursive: true, force: true }));
let discarded = 0;
/** Moves `dir` (if it exists) into the trash. */
async function discard(dir: string): Promise<void> {
  await rename(dir, path.join(trash, String(discarded++))).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  });
}

interface Run {
  wall: number;
  cpu: number;
  peakMiB: number;
  pages: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};


/** `argv` run in `cwd` by node under GNU time: wall, CPU (user + system, waited-for children included) and peak memory. */
function timed(cwd: string, argv: string[]): Omit<Run, "pages"> {
  const run = spawnSync(TIME, ["-f", "BENCH %e %U %S %M", process.execPath, ...argv], { cwd, encoding: "utf8", maxBuffer: 1 << 28, env: { ...process.env, ELEVENTY_ENV: "production" } });
  const usage = run.stderr.match(/^BENCH (\S+) (\S+) (\S+) (\d+)$/m);
  if (run.status !== 0 || !usage) throw new Error(`${argv.join(" ")} failed in ${cwd}:\n${run.stdout.slice(-4000)}${run.stderr.slice(-4000)}`);
  return { wall: Number(usage[1]), cpu: Number(usage[2]) + Number(usage[3]), peakMiB: Number(usage[4]) / 1024 };
}

/** One clean build in `cwd` (its last _site set aside first). */
async function build(cwd: string, args: string[]): Promise<Run> {
  await discard(path.join(cwd, "_site"));
  const usage = timed(cwd, args);
  const pages = (await readdir(path.join(cwd, "_site"), { recursive: true })).filter((f) => f.endsWith(".html")).length;
  return { ...usage, pages };
}

/**
 * Pagefind alone on the pages a build of `cwd` wrote, with our build's settings, into a throwaway
 * folder: for our copy, the share of the build that is the search index. Like the build, it reads
 * only the pages marked for the index; the minimal site marks none, so all of its pages.
 */
async function searchIndexAlone(cwd: string): Promise<Omit<Run, "pages">> {
  const out = path.join(cwd, ".cache", "bench-search-index");
  const site = path.join(cwd, "_site");
  const marked = [];
  for (const file of (await readdir(site, { recursive: true })).filter((f) => f.endsWith(".html"))) {
    if ((await readFile(path.join(site, file), "utf8")).includes(INDEXED_BODY)) marked.push(file.split(path.sep).join("/"));
  }
  const only = marked.length > 0 ? ["--glob", globOf(marked)] : [];
  try {
    return timed(cwd, [path.join(projectRoot, "node_modules/pagefind/lib/runner/bin.cjs"), "--site", "_site", ...only, "--output-path", out, ...NOT_TEXT.flatMap((selector) => ["--exclude-selectors", selector])]);
  } finally {
    await discard(out);
  }
}

/** The Markdown files of the corpus, as the minimal site receives them. */
async function corpusFiles(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const file of (await readdir(path.join(dir, "posts"), { recursive: true })).map((f) => `posts/${f.split(path.sep).join("/")}`)) {
    if (/\/bench-[^/]*\.md$|-bench-part-\d+\/.*\.md$/.test(file)) files.set(file, await readFile(path.join(dir, file), "utf8"));
  }
  return files;
}

/** How long saves of post 0 take to reach a browser showing it on the dev server, and to the end of the rebuild. */
interface EditTimes {
  shown: number[];
  rebuilt: number[];
}

/**
 * Saves post 0 `EDITS` times each way on the dev server, the post open in Chromium: a new paragraph
 * and a new title (front matter), both through the fast path of src/quick-edit.ts.
 */
async function timeEdits(dir: string): Promise<{ body: EditTimes; title: EditTimes }> {
  const port = 19_000 + Math.floor(Math.random() * 1000);
  const server = startDevServer(process.execPath, [...scriptArgs("start"), `--port=${port}`], dir);
  const browser = await launch();
  try {
    const url = `http://127.0.0.1:${port}/posts/bench-0000/`;
    await waitForServer(url, server, 600);
    const page = await browser.newPage();
    await page.goto(url);
    const file = path.join(dir, postFile(0));
    const shows = (marker: string) => page.evaluate((text) => document.body.innerText.includes(text), marker).catch(() => false);
    const time = async (edit: (marker: string) => string, times: EditTimes, n: number) => {
      const builds = server.output().split("Watching").length;
      const marker = `Edited ${n} times`;
      const start = performance.now();
      await writeFile(file, edit(marker));
      let shownAt: number | undefined;
      while (shownAt === undefined || server.output().split("Watching").length === builds) {
        if (shownAt === undefined && (await shows(marker))) shownAt = performance.now();
        if (server.child.exitCode !== null) throw new Error(server.output());
        await new Promise((r) => setTimeout(r, 2));
      }
      times.shown.push(shownAt - start);
      times.rebuilt.push(performance.now() - start);
      await new Promise((r) => setTimeout(r, 500));
    };
    const body = { shown: [], rebuilt: [] };
    const title = { shown: [], rebuilt: [] };
    for (let n = 1; n <= EDITS; n++) await time((marker) => `${post(0)}\n${marker}.\n`, body, n);
    for (let n = 1; n <= EDITS; n++) await time((marker) => post(0).replace(/^title: .*$/m, `title: "${marker}"`), title, EDITS + n);
    // A save that was not shown before its rebuild: the dev server says why.
    for (const line of server.output().split("\n")) if (line.includes("the rebuild first")) console.log(line);
    return { body, title };
  } finally {
    await browser.close();
    server.stop();
  }
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);
const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");

if (!existsSync(TIME)) throw new Error(`${TIME} is missing: install GNU time (Debian: apt-get install time)`);
console.log(`npm run bench: N = ${SIZES.join(", ")} posts + ${LESSONS} lessons, ${ROUNDS} rounds, node ${process.version}, load average ${load()}`);
const ours = scriptArgs("build");
const minimalArgs = ["node_modules/@11ty/eleventy/cmd.cjs"];
const rows: string[] = [];
/** Median CPU seconds of our build, by size: the cost of each further post is the slope between sizes. */
const cpuBySize = new Map<number, number>();
/** What the search index and the site's own pages take of the target's budget, by size. */
const shares: string[] = [];
let largest: string | undefined;
for (const size of SIZES) {
  const site = await copyProject();
  const minimal = await mkdtemp(path.join(tmpdir(), "bench-minimal-"));
  try {
    await addCorpus(site, size, LESSONS);
    await minimalSite(minimal, await corpusFiles(site));
    await symlink(path.join(projectRoot, "node_modules"), path.join(minimal, "node_modules"), "dir");
    // A first build of each warms the disk cache and tsx's cache of compiled TypeScript.
    await build(site, ours);
    await build(minimal, minimalArgs);
    const runs = { ours: [] as Run[], minimal: [] as Run[] };
    const search: Omit<Run, "pages">[] = [];
    // Pagefind on the minimal build's own pages (no data-pagefind-body there, so every page's body is
    // indexed: the same posts and lessons): what any site with search pays beyond the minimal build.
    const minimalSearch: Omit<Run, "pages">[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating, and in turn first, so that neither always runs on a warmer machine.
      const order = round % 2 ? (["minimal", "ours"] as const) : (["ours", "minimal"] as const);
      for (const which of order) {
        runs[which].push(await build(which === "ours" ? site : minimal, which === "ours" ? ours : minimalArgs));
        if (which === "ours") search.push(await searchIndexAlone(site));
        else minimalSearch.push(await searchIndexAlone(minimal));
      }
      const [a, b, s] = [runs.ours.at(-1)!, runs.minimal.at(-1)!, search.at(-1)!];
      console.log(`  N=${size} round ${round + 1}: ours ${fmt(a.wall)} s (${fmt(a.cpu)} s CPU, ${fmt(a.peakMiB, 0)} MiB; its search index alone ${fmt(s.wall)} s, ${fmt(s.cpu)} s CPU), minimal ${fmt(b.wall)} s (${fmt(b.cpu)} s CPU, ${fmt(b.peakMiB, 0)} MiB); load ${load()}`);
    }
    const m = (which: keyof typeof runs, key: keyof Run) => median(runs[which].map((r) => r[key]));
    const ratio = (key: "wall" | "cpu") => median(runs.ours.map((r, i) => r[key] / runs.minimal[i]![key]));
    rows.push(
      `| ${size} | ${runs.ours[0]!.pages} / ${runs.minimal[0]!.pages} | ${fmt(m("ours", "wall"))} / ${fmt(m("minimal", "wall"))} | ${fmt(ratio("wall"))}× | ${fmt(m("ours", "cpu"))} / ${fmt(m("minimal", "cpu"))} | ${fmt(ratio("cpu"))}× | ` +
        `${fmt(median(runs.ours.map((r) => r.pages / r.wall)), 0)} / ${fmt(median(runs.minimal.map((r) => r.pages / r.wall)), 0)} | ${fmt(m("ours", "peakMiB"), 0)} / ${fmt(m("minimal", "peakMiB"), 0)} |`,
    );
    cpuBySize.set(size, m("ours", "cpu"));
    const budget = TARGET.ratio * m("minimal", "wall");
    const index = median(search.map((r) => r.wall));
    shares.push(`N=${size}: the search index alone (Pagefind on our output) ${fmt(index)} s wall, ${fmt(median(search.map((r) => r.cpu)))} s CPU: ${fmt((100 * index) / budget, 0)}% of the ${fmt(budget)} s that ${TARGET.ratio}× the minimal build allows.`);
    const floor = median(runs.minimal.map((r, i) => (r.wall + minimalSearch[i]!.wall) / r.wall));
    shares.push(`N=${size}: the minimal build followed by a search index of its own pages (Pagefind on the minimal output, ${fmt(median(minimalSearch.map((r) => r.wall)))} s wall, ${fmt(median(minimalSearch.map((r) => r.cpu)))} s CPU): ${fmt(floor)}× the minimal build.`);
  } finally {
    await discard(minimal);
    if (size === Math.max(...SIZES) && SERVE) largest = site;
    else await discard(site);
  }
}

console.log(`\nMedians of ${ROUNDS} rounds (ours / minimal); ratios are medians of the per-round ratios. Load average at the end: ${load()}.\n`);
console.log("| N posts | pages | wall s | wall ratio | CPU s | CPU ratio | pages/s | peak MiB |");
console.log("|---|---|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
// Linear growth shows as the same CPU cost per further post between every two sizes.
const sizes = [...cpuBySize.keys()].sort((a, b) => a - b);
for (let i = 1; i < sizes.length; i++) {
  const [a, b] = [sizes[i - 1]!, sizes[i]!];
  console.log(`Our CPU per further post, N ${a} → ${b}: ${fmt(((cpuBySize.get(b)! - cpuBySize.get(a)!) / (b - a)) * 1000, 1)} ms`);
}

for (const share of shares) console.log(share);
// The fixed cost: the real site without a synthetic post, the same command.
{
  const site = await copyProject();
  try {
    await build(site, ours);
    const runs: Run[] = [];
    for (let round = 0; round < ROUNDS; round++) runs.push(await build(site, ours));
    console.log(`The real site alone (no synthetic post, ${runs[0]!.pages} pages): ${fmt(median(runs.map((r) => r.wall)))} s wall, ${fmt(median(runs.map((r) => r.cpu)))} s CPU, ${fmt(median(runs.map((r) => r.peakMiB)), 0)} MiB; load ${load()}.`);
  } finally {
    await discard(site);
  }
}

if (largest) {
  try {
    const { body, title } = await timeEdits(largest);
    const ms = (values: number[]) => `${values.map((v) => fmt(v, 0)).join(", ")} ms (median ${fmt(median(values), 0)})`;
    console.log(`\nDev server at N=${Math.max(...SIZES)}, the post open in Chromium. Load ${load()}.`);
    console.log(`A new paragraph: save → shown ${ms(body.shown)}; save → rebuild done ${ms(body.rebuilt)}. Target: shown ≤ ${TARGET.editMs} ms.`);
    console.log(`A new title (front matter): save → shown ${ms(title.shown)}; save → rebuild done ${ms(title.rebuilt)}. Target: shown ≤ ${TARGET.editMs} ms.`);
  } finally {
    await discard(largest);
  }
}
console.log(`\nTargets at N = 1000: wall ratio ≤ ${TARGET.ratio}×, peak memory ≤ ${TARGET.peakMiB} MiB, save to browser ≤ ${TARGET.editMs} ms.`);

// Runs the real Eleventy build (the command of `npm run build`) from a given project folder.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { cp, mkdtemp, readFile, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse, stringify } from "yaml";
import { SITE_OVERRIDES } from "../../src/data.ts";

export const projectRoot = path.resolve(import.meta.dirname, "../..");

/** The command of an npm script, run with this node: `node --import tsx x.ts …` → [`--import`, `tsx`, `x.ts`, …]. */
export function scriptArgs(name: string): string[] {
  const command = (JSON.parse(readFileSync(path.join(projectRoot, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts[name]!;
  const [program, ...args] = command.split(/\s+/);
  if (program !== "node") throw new Error(`npm run ${name} does not start with node: ${command}`);
  return args;
}

export interface BuildResult {
  code: number;
  output: string;
  outDir: string;
}

export function build(options: { cwd?: string; outDir: string; env?: Record<string, string>; args?: string[] }): Promise<BuildResult> {
  const cwd = options.cwd ?? projectRoot;
  // A deployment's settings in the shell that runs the tests must not reach a build they did not ask for.
  const deployment: string[] = Object.values(SITE_OVERRIDES);
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !deployment.includes(name)));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...scriptArgs("build"), `--output=${options.outDir}`, "--quiet", ...(options.args ?? [])], {
      cwd,
      env: { ...inherited, ELEVENTY_ENV: "production", ...options.env },
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, output, outDir: options.outDir }));
  });
}

/** A throw-away copy of the project (sources only; node_modules linked) for tests that break it. */
export async function copyProject(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "site-copy-"));
  const skip = new Set(["node_modules", "_site", ".git", ".cache", "test"]);
  await cp(projectRoot, dir, {
    recursive: true,
    filter: (src) => !skip.has(path.relative(projectRoot, src).split(path.sep)[0] ?? ""),
  });
  await symlink(path.join(projectRoot, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

/**
 * A copy of the project with little content: only the posts and lessons named (the course data and
 * glossary cut down to them). A build of it takes the same few seconds however much the real site
 * grows, so tests that build many times (one mistake each) stay fast as content doubles. Its pages
 * link to none of the site's other pages.
 */
export async function smallProject(keep: { posts: string[]; lessons: string[] }): Promise<string> {
  const dir = await copyProject();
  const kept = new Set([...keep.posts, ...keep.lessons]);
  for (const folder of ["posts/blog", "posts/rdma101"]) {
    for (const entry of await readdir(path.join(dir, folder), { recursive: true, withFileTypes: true })) {
      const file = path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/");
      if (entry.isFile() && file.endsWith(".md") && !file.startsWith("posts/rdma101/labs/") && !kept.has(file)) await rm(path.join(dir, file));
    }
  }
  // <NN>-<part>/<NN>-<lesson>.md → part and lesson slugs, as the course names them.
  const refs = keep.lessons.map((file) => file.split("/").slice(-2).map((name) => name.replace(/^\d+-|\.md$/g, "")).join("/"));
  const edit = async (file: string, change: (data: never) => unknown) => writeFile(path.join(dir, file), stringify(change(parse(await readFile(path.join(dir, file), "utf8")) as never)));
  await edit("_data/course.yaml", (course: { parts: { slug: string }[] }) => ({ ...course, parts: course.parts.filter((p) => refs.some((r) => r.startsWith(`${p.slug}/`))) }));
  await edit("_data/glossary.yaml", (terms: { lesson: string }[]) => terms.filter((t) => refs.includes(t.lesson)));
  type Places = { lesson: string }[];
  await edit("_data/lookup.yaml", (index: Record<string, Places>) => Object.fromEntries(Object.entries(index).map(([list, places]) => [list, places.filter((p) => refs.includes(p.lesson))])));
  // Lab runs of the lessons left out go too (the labs page lists every run, each under its lesson).
  const labs = path.join(dir, "posts/rdma101/labs");
  for (const file of (await readdir(labs)).filter((f) => f.endsWith(".yaml"))) {
    if (refs.includes((parse(await readFile(path.join(labs, file), "utf8")) as { lesson: string }).lesson)) continue;
    await rm(path.join(labs, file));
    await rm(path.join(labs, file.replace(/\.yaml$/, ".out")), { force: true });
  }
  // The build checks every link within the site, and most targets are left out: such links in the
  // files kept become their text.
  for (const file of kept) {
    const target = path.join(dir, file);
    await writeFile(target, (await readFile(target, "utf8")).replace(/\[([^\]]*)\]\(\/[^)\s]*\)/g, "$1"));
  }
  return dir;
}

// @ts-check
// `npm run build`: Eleventy in plain node, with the site's TypeScript compiled ahead of time by
// esbuild. Loading it through tsx instead costs each production build about a second of CPU and
// 30 MB (docs/performance.md); the dev server keeps tsx, which recompiles a module when it is saved.
// This one file is JavaScript because it is what makes the TypeScript runnable.
//
// The configuration and the data files in TypeScript (template and directory data, *.11tydata.ts,
// and global data in _data/) import the same modules, so they are bundled together: shared modules
// go into common chunks, one copy of each module's state. src/data.ts imports a data file's
// compiled twin from SITE_COMPILED_DIR. A watching build (--serve, --watch) is `npm start`'s job.
//
// package.json starts it with two V8 flags that trade about a sixth more CPU for a smaller peak
// (docs/performance.md): young-generation halves of 4 MB instead of 16, and an old generation
// let grow by 20% over what survived its last collection, where V8 would choose 1.1 to 4 times.
// A build keeps every page until it ends, so that slack is what took it over issue 14's 350 MiB.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Every path below is the project's, wherever the build is started from.
process.chdir(fileURLToPath(new URL("..", import.meta.url)));

const ROOT = ".cache/compiled";
/** Top-level folders that hold no source: installed packages, git's, caches, the default output. */
const NOT_SOURCE = new Set(["node_modules", ".git", ".cache", "_site"]);
/** Older compiled copies are removed after this long: a build started before may still read its own. */
const KEEP_MS = 60 * 60 * 1000;

/** Every file Eleventy may read as TypeScript data: any *.11tydata.ts, and any .ts under _data/. */
async function dataFiles(dir = ".") {
  /** @type {string[]} */
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory() && !(dir === "." && NOT_SOURCE.has(entry.name))) found.push(...(await dataFiles(file)));
    else if (entry.isFile() && (entry.name.endsWith(".11tydata.ts") || (file.startsWith(`_data${path.sep}`) && entry.name.endsWith(".ts")))) found.push(file);
  }
  return found;
}

/**
 * Compiles into a folder named by the output's hash, written under a temporary name and renamed, so
 * that builds running at once (the tests run several) never read each other's half-written files.
 */
async function compile() {
  const placeholder = path.resolve(ROOT, "_");
  const { outputFiles } = await build({
    absWorkingDir: process.cwd(),
    entryPoints: [".eleventy.ts", ...(await dataFiles())],
    outdir: placeholder,
    outbase: ".",
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    packages: "external",
    format: "esm",
    platform: "node",
    target: "node20",
    sourcemap: "linked",
    write: false,
    logLevel: "warning",
  });
  const hash = createHash("sha256");
  for (const file of outputFiles) hash.update(path.relative(placeholder, file.path)).update("\0").update(file.contents);
  const dir = path.resolve(ROOT, hash.digest("hex").slice(0, 16));
  if (!existsSync(dir)) {
    const temporary = `${dir}.${process.pid}`;
    for (const file of outputFiles) {
      const target = path.join(temporary, path.relative(placeholder, file.path));
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, file.contents);
    }
    // A build running at once may have put the same copy there first; any other failure is one.
    await rename(temporary, dir).catch(async (error) => {
      await rm(temporary, { recursive: true, force: true });
      if (!existsSync(dir)) throw error;
    });
  } else {
    const now = new Date();
    await utimes(dir, now, now); // in use: not an old copy
  }
  await removeOldCopies(dir);
  return dir;
}

/** @param {string} current */
async function removeOldCopies(current) {
  for (const name of await readdir(ROOT)) {
    const dir = path.resolve(ROOT, name);
    if (dir === current) continue;
    const { mtimeMs } = await stat(dir).catch(() => ({ mtimeMs: Date.now() }));
    if (Date.now() - mtimeMs > KEEP_MS) await rm(dir, { recursive: true, force: true });
  }
}

const watching = process.argv.find((arg) => /^--(serve|watch)\b/.test(arg));
if (watching) {
  console.error(`npm run build: ${watching} is npm start's (it rebuilds what you save, TypeScript included)`);
  process.exit(2);
}
const dir = await compile();
process.env.SITE_COMPILED_DIR = dir;
// Eleventy's ESM resolver only busts the import cache for modules saved during a watch; on Node 20
// it runs in a loader thread that every import waits for (about 15 MB of peak memory at N = 1000).
process.env.ELEVENTY_SKIP_ESM_RESOLVER = "1";
process.setSourceMapsEnabled(true);
// Eleventy's command line, as if started with the compiled configuration.
const cli = path.resolve("node_modules/@11ty/eleventy/cmd.cjs");
process.argv = [process.argv[0] ?? "node", cli, `--config=${path.join(dir, ".eleventy.mjs")}`, ...process.argv.slice(2)];
await import(cli);

// Runs the real Eleventy build (the same command as `npm run build`) from a given project folder.
import { spawn } from "node:child_process";
import { cp, mkdtemp, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

export const projectRoot = path.resolve(import.meta.dirname, "../..");

export interface BuildResult {
  code: number;
  output: string;
  outDir: string;
}

export function build(options: { cwd?: string; outDir: string; env?: Record<string, string>; args?: string[] }): Promise<BuildResult> {
  const cwd = options.cwd ?? projectRoot;
  const eleventy = path.join(cwd, "node_modules/@11ty/eleventy/cmd.cjs");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", eleventy, "--config=.eleventy.ts", `--output=${options.outDir}`, "--quiet", ...(options.args ?? [])], {
      cwd,
      env: { ...process.env, ELEVENTY_ENV: "production", ...options.env },
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

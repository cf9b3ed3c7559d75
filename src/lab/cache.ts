// The lab's build artefacts live under .cache/lab/ (git-ignored). Each is a folder rebuilt only
// when what it was built from changes: a stamp file inside holds the key of its inputs.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

export const LAB_CACHE = path.resolve(".cache/lab");

const STAMP = ".inputs";

/** A short, stable key for a list of inputs (file contents, versions, settings). */
export const inputsKey = (...parts: (string | Buffer)[]): string => {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(createHash("sha256").update(part).digest());
  return hash.digest("hex").slice(0, 16);
};

/**
 * `dir`, built by `build` into a fresh folder when its stamp does not hold `key`. The folder is
 * renamed into place only once complete, so an interrupted build is never mistaken for a good one.
 */
export function cachedDir(dir: string, key: string, build: (into: string) => void): string {
  if (existsSync(path.join(dir, STAMP)) && readFileSync(path.join(dir, STAMP), "utf8") === key) return dir;
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  try {
    build(partial);
    writeFileSync(path.join(partial, STAMP), key);
    rmSync(dir, { recursive: true, force: true });
    renameSync(partial, dir);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  }
  return dir;
}

/** Runs a program to completion and returns what it printed; a failure says what and why. */
export function runTool(program: string, args: string[], options: { cwd?: string; input?: string } = {}): string {
  const result = spawnSync(program, args, { cwd: options.cwd, input: options.input, encoding: "utf8", maxBuffer: 64 << 20 });
  if (result.error) throw new Error(`${program}: ${result.error.message}`);
  if (result.status !== 0) {
    const said = `${result.stderr}${result.stdout}`.trim().split("\n").slice(-15).join("\n");
    throw new Error(`${program} ${args.join(" ")} failed (${result.signal ?? `exit ${result.status}`}):\n${said}`);
  }
  return result.stdout;
}

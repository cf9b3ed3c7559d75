// The course's complete programs (posts/rdma101/examples/*.c), compiled on the host into the cache
// exactly as the tests compile them, and put first on PATH inside the lab VM (which runs the
// host's binaries over 9p). A program is recompiled only when its source or the compiler changes.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { compileArgs, EXAMPLES_DIR, HELPERS, isLabProgram } from "../examples.ts";
import { inputsKey, LAB_CACHE, runTool } from "./cache.ts";

export const LAB_BIN = path.join(LAB_CACHE, "bin");

export interface CompileFailure {
  program: string;
  message: string;
}

/** Compiles what changed; returns the programs that do not compile (the others are usable). */
export function compilePrograms(): CompileFailure[] {
  mkdirSync(LAB_BIN, { recursive: true });
  const compiler = runTool("gcc", ["--version"]);
  const sources = readdirSync(EXAMPLES_DIR).filter(isLabProgram).sort();
  // Every program may be built with the helpers: a change to them rebuilds it.
  const helpers = [HELPERS, HELPERS.replace(/\.c$/, ".h")].map((f) => readFileSync(path.join(EXAMPLES_DIR, f)));
  const failures: CompileFailure[] = [];
  // A program whose source is gone is gone from PATH too.
  const names = new Set(sources.map((s) => s.replace(/\.c$/, "")));
  for (const file of readdirSync(LAB_BIN)) {
    if (!names.has(file.replace(/^\.(.*)\.inputs$/, "$1"))) rmSync(path.join(LAB_BIN, file), { force: true });
  }
  for (const source of sources) {
    const file = path.join(EXAMPLES_DIR, source);
    const binary = path.join(LAB_BIN, source.replace(/\.c$/, ""));
    const stamp = path.join(LAB_BIN, `.${path.basename(binary)}.inputs`);
    const args = compileArgs(file, binary);
    const key = inputsKey(readFileSync(file), ...helpers, compiler, args.join(" "));
    if (existsSync(binary) && existsSync(stamp) && readFileSync(stamp, "utf8") === key) continue;
    rmSync(stamp, { force: true });
    const result = spawnSync("gcc", args, { encoding: "utf8" });
    if (result.status === 0) writeFileSync(stamp, key);
    else {
      rmSync(binary, { force: true });
      failures.push({ program: source, message: `${result.stderr}${result.error?.message ?? ""}`.trim() });
    }
  }
  return failures;
}

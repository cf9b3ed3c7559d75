// A production build writes exactly the site. The output folder is emptied first: the dev server
// writes drafts into it, and pages of deleted posts or tags would otherwise stay. A build that fails
// leaves it empty, never half a site whose pages point at images that were not made.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import type UserConfig from "@11ty/eleventy/UserConfig";

/** Whether `inner` is `outer` or lies inside it. */
const within = (inner: string, outer: string): boolean => {
  const relative = path.relative(outer, inner);
  return !relative.startsWith("..") && !path.isAbsolute(relative);
};

/**
 * Why the output folder may not be emptied, or undefined: when it is the input or holds it, or is,
 * holds or lies inside a folder the build reads (`sources`: layouts, data, copied files).
 */
export function whyNotDisposable(output: string, input: string, sources: readonly string[] = []): string | undefined {
  const out = path.resolve(output);
  const root = path.resolve(input);
  if (within(root, out)) return "the output folder holds the sources";
  // A copy from the input's root (a glob such as *.png) names files, not the folder that holds everything.
  const source = sources.map((s) => path.resolve(s)).find((s) => s !== root && (within(s, out) || within(out, s)));
  if (source === undefined) return undefined;
  const relation = out === source ? "is" : within(out, source) ? "lies inside" : "holds";
  return `the output folder ${relation} ${path.relative(root, source)}, which the build reads`;
}

/** Why the output folder holds sources by git's account (files under version control), or undefined. */
function trackedFilesIn(output: string, input: string): string | undefined {
  let tracked: string[];
  try {
    tracked = execFileSync("git", ["ls-files", "--", path.resolve(output)], { cwd: input, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).split("\n").filter(Boolean);
  } catch {
    return undefined; // not a git work tree, or no git: the folder check stands alone
  }
  return tracked.length > 0 ? `the output folder holds files under version control (${tracked.slice(0, 3).join(", ")}${tracked.length > 3 ? ", …" : ""})` : undefined;
}

/** The folder a path or glob names before its first wildcard: where a copy reads from. */
const staticPrefix = (glob: string): string => {
  const parts = glob.split("/");
  const wildcard = parts.findIndex((part) => /[*?{[]/.test(part));
  return (wildcard === -1 ? parts : parts.slice(0, wildcard)).join("/") || ".";
};

interface BuildEvent {
  directories: { input: string; output: string; includes: string; data: string; layouts?: string };
  runMode: "build" | "watch" | "serve";
  outputMode: string;
}

/** The folder this process's last production build wrote, removed if the process fails. */
let written: string | undefined;

export default function output(config: UserConfig): void {
  config.on("eleventy.before", ({ directories, runMode, outputMode }: BuildEvent) => {
    if (runMode !== "build" || outputMode !== "fs") return;
    const out = path.resolve(directories.output);
    const sources = [directories.includes, directories.data, directories.layouts, ...Object.keys(config.passthroughCopies ?? {}).map(staticPrefix)].filter((d): d is string => Boolean(d));
    const reason = whyNotDisposable(out, directories.input, sources) ?? trackedFilesIn(out, directories.input);
    if (reason) throw new Error(`--output=${directories.output}: ${reason}; it is emptied before each build: choose another folder, such as _site`);
    rmSync(out, { recursive: true, force: true });
    // Eleventy reports a failed build by the exit code, after it has stopped writing.
    if (written === undefined) {
      process.once("exit", (code) => {
        if (written && (code !== 0 || process.exitCode)) rmSync(written, { recursive: true, force: true });
      });
    }
    written = out;
  });
}

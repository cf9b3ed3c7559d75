// A production build writes exactly the site. The output folder is emptied first: the dev server
// writes drafts into it, and pages of deleted posts or tags would otherwise stay. A build that fails
// leaves it empty, never half a site whose pages point at images that were not made.
import { rmSync } from "node:fs";
import path from "node:path";
import type UserConfig from "@11ty/eleventy/UserConfig";

/** Whether the output folder may be emptied: never when it is, or holds, the sources. */
export function disposableOutput(output: string, input: string): boolean {
  const inside = path.relative(path.resolve(output), path.resolve(input));
  return inside.startsWith("..") || path.isAbsolute(inside);
}

interface BuildEvent {
  directories: { input: string; output: string };
  runMode: "build" | "watch" | "serve";
  outputMode: string;
}

/** The folder this process's last production build wrote, removed if the process fails. */
let written: string | undefined;

export default function output(config: UserConfig): void {
  config.on("eleventy.before", ({ directories, runMode, outputMode }: BuildEvent) => {
    if (runMode !== "build" || outputMode !== "fs") return;
    const out = path.resolve(directories.output);
    if (!disposableOutput(out, directories.input)) throw new Error(`--output=${directories.output}: the output folder holds the sources; it is emptied before each build`);
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

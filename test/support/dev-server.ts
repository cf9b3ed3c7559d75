// Starting Eleventy's dev server (the same preload as `npm start`) and waiting until it answers.
import { spawn, type ChildProcess } from "node:child_process";

export interface DevServer {
  child: ChildProcess;
  output: () => string;
  stop: () => void;
}

export function startDevServer(command: string, args: string[], cwd?: string): DevServer {
  const child = spawn(command, args, { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  return { child, output: () => output, stop: () => process.kill(-child.pid!, "SIGTERM") };
}

/**
 * Waits until the first build is done (Eleventy prints "Watching") and `url` answers, then returns
 * that answer; fails with what the server printed.
 */
export async function waitForServer(url: string, server: DevServer, seconds = 90): Promise<Response> {
  let lastError = "";
  for (let i = 0; i < seconds * 4; i++) {
    if (server.child.exitCode !== null) break;
    if (!server.output().includes("Watching")) {
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    try {
      return await fetch(url);
    } catch (error) {
      lastError = (error as Error).message;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`no answer from ${url} (${lastError}); exit ${server.child.exitCode}; output:\n${server.output()}`);
}

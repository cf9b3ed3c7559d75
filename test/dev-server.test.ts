// `npm start` builds the site and serves it with live reload on 127.0.0.1 only.
import { spawn } from "node:child_process";
import { networkInterfaces } from "node:os";
import { describe, expect, it } from "vitest";

const PORT = 18_080 + Math.floor(Math.random() * 1000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("dev server", () => {
  it("serves the built homepage on 127.0.0.1 and not on other interfaces", async () => {
    const child = spawn("npm", ["start", "--", `--port=${PORT}`], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let exited: number | null = null;
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => (exited = code));
    try {
      // Ready once the first build is done and Eleventy watches for changes.
      for (let i = 0; i < 180 && exited === null && !output.includes("Watching"); i++) await sleep(500);
      const response = await fetch(`http://127.0.0.1:${PORT}/`).catch((e: Error) => e);
      const report = `exit ${exited}; output:\n${output}`;
      expect(response instanceof Response ? response.status : String(response), report).toBe(200);
      expect(await (response as Response).text()).toContain("Feng Ren");
      // Live reload: the dev server serves the client it injects into pages.
      expect((await fetch(`http://127.0.0.1:${PORT}/.11ty/reload-client.js`)).status, report).toBe(200);
      const external = Object.values(networkInterfaces()).flat().find((a) => a && a.family === "IPv4" && !a.internal);
      if (external) await expect(fetch(`http://${external.address}:${PORT}/`), "reachable from another interface").rejects.toThrow();
    } finally {
      process.kill(-child.pid!, "SIGTERM");
    }
  }, 120_000);
});

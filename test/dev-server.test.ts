// `npm start` builds the site and serves it with live reload on 127.0.0.1 only.
import { spawn } from "node:child_process";
import { networkInterfaces } from "node:os";
import { describe, expect, it } from "vitest";

const PORT = 18_080 + Math.floor(Math.random() * 1000);

describe("dev server", () => {
  it("serves the built homepage on 127.0.0.1 and not on other interfaces", async () => {
    const child = spawn("npm", ["start", "--", `--port=${PORT}`], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    try {
      let response: Response | undefined;
      // Ready once the first build is done and Eleventy watches for changes.
      for (let i = 0; i < 120 && !output.includes("Watching"); i++) await new Promise((r) => setTimeout(r, 500));
      response = await fetch(`http://127.0.0.1:${PORT}/`).catch(() => undefined);
      expect(response?.status, output).toBe(200);
      const html = await response!.text();
      expect(html).toContain("Feng Ren");
      // Live reload: the dev server serves the client it injects into pages.
      const reload = await fetch(`http://127.0.0.1:${PORT}/.11ty/reload-client.js`);
      expect(reload.status).toBe(200);
      const external = Object.values(networkInterfaces()).flat().find((a) => a && a.family === "IPv4" && !a.internal);
      if (external) await expect(fetch(`http://${external.address}:${PORT}/`)).rejects.toThrow();
    } finally {
      process.kill(-child.pid!, "SIGTERM");
    }
  }, 90_000);
});

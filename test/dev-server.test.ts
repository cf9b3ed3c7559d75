// `npm start` builds the site and serves it with live reload on 127.0.0.1 only.
import { networkInterfaces } from "node:os";
import { describe, expect, it } from "vitest";
import { startDevServer, waitForServer } from "./support/dev-server.ts";

const PORT = 18_080 + Math.floor(Math.random() * 1000);

describe("dev server", () => {
  it("serves the built homepage on 127.0.0.1 and not on other interfaces", async () => {
    const server = startDevServer("npm", ["start", "--", `--port=${PORT}`]);
    try {
      const response = await waitForServer(`http://127.0.0.1:${PORT}/`, server);
      expect(response.status, server.output()).toBe(200);
      expect(await response.text()).toContain("Feng Ren");
      // Live reload: the dev server serves the client it injects into pages.
      expect((await fetch(`http://127.0.0.1:${PORT}/.11ty/reload-client.js`)).status).toBe(200);
      const external = Object.values(networkInterfaces()).flat().find((a) => a && a.family === "IPv4" && !a.internal);
      if (external) await expect(fetch(`http://${external.address}:${PORT}/`), "reachable from another interface").rejects.toThrow();
    } finally {
      server.stop();
    }
  }, 120_000);
});

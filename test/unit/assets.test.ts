import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { assetUrl } from "../../src/assets.ts";

describe("asset URLs", () => {
  it("carry a hash of the file's content, so a changed file gets a new URL", () => {
    const hash = createHash("sha256").update(readFileSync("public/css/site.css")).digest("hex").slice(0, 10);
    expect(assetUrl("/css/site.css")).toBe(`/css/site.css?v=${hash}`);
    expect(assetUrl("/js/enhance.js")).toMatch(/^\/js\/enhance\.js\?v=[0-9a-f]{10}$/);
  });
});

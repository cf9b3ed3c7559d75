import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { assetUrl, forgetAssetHashes, withoutComments } from "../../src/assets.ts";
import { setPathPrefix } from "../../src/urls.ts";

const dir = mkdtempSync(path.join(tmpdir(), "assets-"));
afterEach(() => setPathPrefix("/"));

describe("asset URLs", () => {
  it("carry a short hash of the file's content: the same content, the same URL; new content, a new URL", () => {
    writeFileSync(path.join(dir, "a.css"), "a {}");
    writeFileSync(path.join(dir, "b.css"), "b {}");
    const first = assetUrl("a.css", dir);
    expect(first).toMatch(/^\/a\.css\?v=[0-9a-f]{10}$/);
    expect(assetUrl("a.css", dir)).toBe(first);
    expect(assetUrl("b.css", dir)).not.toBe(first.replace("a.css", "b.css"));
    writeFileSync(path.join(dir, "a.css"), "a { color: red }");
    forgetAssetHashes();
    expect(assetUrl("a.css", dir)).not.toBe(first);
  });

  it("live under the path prefix", () => {
    setPathPrefix("/repo/");
    expect(assetUrl("css/site.css")).toMatch(/^\/repo\/css\/site\.css\?v=[0-9a-f]{10}$/);
  });
});

describe("stylesheets as copied", () => {
  it("lose their comments and the blank lines those leave, but not a comment's marks inside a string", () => {
    const css = '/* why the colours */\n:root { --a: 1; } /* after */\n\n/* a\n   block */\na::after { content: "/* kept */"; }\nb::before { content: \'*/ \\\' /*\'; }\n';
    expect(withoutComments(css)).toBe(':root { --a: 1; } \na::after { content: "/* kept */"; }\nb::before { content: \'*/ \\\' /*\'; }\n');
  });
});

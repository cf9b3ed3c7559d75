import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { devServerTags, removeStalePages } from "../../src/dev-server.ts";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe("pages no build wrote", () => {
  it("are removed with the folders they leave empty; written pages and other files stay", async () => {
    const out = await mkdtemp(path.join(tmpdir(), "dev-out-"));
    dirs.push(out);
    const files = ["index.html", "posts/kept/index.html", "posts/gone/index.html", "tags/old/page/2/index.html", "css/site.css", "posts/kept/figure.svg"];
    for (const file of files) {
      await mkdir(path.dirname(path.join(out, file)), { recursive: true });
      await writeFile(path.join(out, file), "x");
    }
    const written = new Set(["index.html", "posts/kept/index.html"].map((f) => path.join(out, f)));
    const removed = await removeStalePages(out, written);
    expect(removed.map((f) => path.relative(out, f)).sort()).toEqual(["posts/gone/index.html", "tags/old/page/2/index.html"]);
    const left = (await readdir(out, { recursive: true })).map((f) => f.split(path.sep).join("/")).sort();
    expect(left).toEqual(["css", "css/site.css", "index.html", "posts", "posts/kept", "posts/kept/figure.svg", "posts/kept/index.html"]);
  });
});

describe("the build-error overlay's script tag", () => {
  it("carries its words in the page's language", () => {
    expect(devServerTags("/posts/a/")).toContain('data-title="The build failed"');
    expect(devServerTags("/zh/posts/a/")).toContain('data-title="构建失败"');
  });
});

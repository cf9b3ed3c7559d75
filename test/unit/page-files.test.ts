import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { originalFile } from "../../src/blog.ts";
import { pageFile } from "../../src/page-files.ts";
import { errorOf } from "../support/errors.ts";

// Page paths are project-relative, as the build gives them: the test works in a project of its own.
const home = process.cwd();
beforeAll(() => {
  process.chdir(mkdtempSync(path.join(tmpdir(), "page-files-")));
  mkdirSync("posts/blog/zh/folder", { recursive: true });
  mkdirSync("posts/blog/folder", { recursive: true });
  for (const file of ["posts/blog/shared.csv", "posts/blog/drawing.svg", "posts/blog/zh/drawing.svg", "posts/blog/folder/photo.png"]) writeFileSync(file, "x");
});
afterAll(() => process.chdir(home));

const fail = (reason: string) => new Error(`page: ${reason}`);

describe("files a page names", () => {
  it("knows which file a translation translates", () => {
    expect(originalFile("posts/blog/zh/a.md")).toBe("posts/blog/a.md");
    expect(originalFile("posts/blog/zh/a/index.md")).toBe("posts/blog/a/index.md");
    expect(originalFile("posts/blog/a.md")).toBeUndefined();
  });

  it("finds a file beside the page", () => {
    expect(pageFile("posts/blog/a.md", "shared.csv", fail)).toBe("posts/blog/shared.csv");
  });

  it("gives a translation its original's files, unless it has its own of that name", () => {
    expect(pageFile("posts/blog/zh/a.md", "shared.csv", fail)).toBe("posts/blog/shared.csv");
    expect(pageFile("posts/blog/zh/folder/index.md", "photo.png", fail)).toBe("posts/blog/folder/photo.png");
    expect(pageFile("posts/blog/zh/a.md", "drawing.svg", fail)).toBe("posts/blog/zh/drawing.svg");
  });

  it("says where it looked when the file is nowhere", () => {
    expect(errorOf(() => pageFile("posts/blog/a.md", "none.csv", fail))).toBe("page: no such file beside the page (posts/blog/none.csv)");
    expect(errorOf(() => pageFile("posts/blog/zh/a.md", "none.csv", fail))).toBe(
      "page: no such file beside the page (posts/blog/zh/none.csv) or beside its original (posts/blog/none.csv)",
    );
    // A lesson translates nothing: it looks beside itself only.
    expect(errorOf(() => pageFile("posts/rdma101/01-a/01-b.md", "shared.csv", fail))).toBe("page: no such file beside the page (posts/rdma101/01-a/shared.csv)");
  });
});

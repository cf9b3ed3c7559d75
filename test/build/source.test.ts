// The source page, in a build that was not told where the source is (as a local build is not):
// it says so, and no footer sends readers to it. A deploy that names it: test/build/path-prefix.test.ts.
import { describe, expect, it } from "vitest";
import { loadPage } from "../support/site.ts";

describe("a build without the source's address", () => {
  it.each(["/source/", "/zh/source/"])("says on %s that this copy names no source, with no link", (url) => {
    const main = loadPage(url).querySelector("main")!;
    expect(main.querySelectorAll("a")).toHaveLength(0);
    expect(main.textContent).toMatch(url.startsWith("/zh/") ? "没有给出源代码的地址" : "built without the address of its source");
  });

  it("leaves the source page out of the footer", () => {
    for (const url of ["/", "/posts/", "/zh/"]) {
      const root = url.startsWith("/zh/") ? "/zh/" : "/";
      const links = [...loadPage(url).querySelectorAll(".site-footer a")].map((a) => a.getAttribute("href"));
      expect(links, url).toContain(`${root}subscribe/`);
      expect(links, url).not.toContain(`${root}source/`);
    }
  });
});

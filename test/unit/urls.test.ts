import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { absoluteUrl, href, inLanguage, languageOf, neutralPath, pageRoutes, routes, sectionHome, setPathPrefix } from "../../src/urls.ts";

afterEach(() => setPathPrefix("/"));

describe("routes", () => {
  it("give each page its site path, per language", () => {
    expect([routes.home("en"), routes.home("zh")]).toEqual(["/", "/zh/"]);
    expect([routes.post("en", "a"), routes.post("zh", "a")]).toEqual(["/posts/a/", "/zh/posts/a/"]);
    expect([routes.posts("en", 1), routes.posts("en", 2), routes.tag("zh", "rdma", 3)]).toEqual(["/posts/", "/posts/page/2/", "/zh/tags/rdma/page/3/"]);
    expect([routes.feed("en", "atom"), routes.feed("en", "rss"), routes.feed("zh", "json")]).toEqual(["/feed.xml", "/index.xml", "/zh/feed.json"]);
    expect([routes.lesson("getting-started", "why-rdma"), routes.glossary("qp"), routes.legacyCourse(routes.lesson("a", "b"))]).toEqual([
      "/rdma101/getting-started/why-rdma/",
      "/rdma101/glossary/#qp",
      "/RDMA101/a/b/",
    ]);
    expect([routes.search("zh"), routes.publications("en"), routes.publication("en", "smart")]).toEqual(["/zh/search/", "/publications/", "/publications/smart/"]);
  });

  it("every page route is a site path that ends in / or names a file", () => {
    for (const [name, route] of Object.entries(pageRoutes)) {
      for (const lang of ["en", "zh"] as const) expect(route!(lang), name).toMatch(/^\/(?:[^/\s]+\/)*(?:[^/\s]+\.[a-z]+|_\w+)?$/);
    }
  });
});

describe("the path prefix", () => {
  it("puts every link under it, and leaves other sites, fragments and relative links alone", () => {
    setPathPrefix("repo");
    expect(href("/posts/a/")).toBe("/repo/posts/a/");
    expect(href("/")).toBe("/repo/");
    for (const other of ["https://example.org/x", "//cdn.example/x", "#top", "other/"]) expect(href(other)).toBe(other);
  });

  it("joins origin, prefix and path for absolute URLs", () => {
    setPathPrefix("/repo/");
    expect(absoluteUrl("/posts/a/", "https://user.github.io")).toBe("https://user.github.io/repo/posts/a/");
    expect(absoluteUrl("/", "https://user.github.io/")).toBe("https://user.github.io/repo/");
    setPathPrefix("/");
    expect(absoluteUrl("/feed.xml", "https://renfeng.org")).toBe("https://renfeng.org/feed.xml");
    expect(absoluteUrl("https://example.org/x", "https://renfeng.org")).toBe("https://example.org/x");
  });
});

describe("languages in paths", () => {
  it("read a page's language and its language-neutral path from its address", () => {
    expect([languageOf("/zh/posts/a/"), languageOf("/posts/a/"), languageOf("/rdma101/")]).toEqual(["zh", "en", "en"]);
    expect([neutralPath("/zh/posts/a/"), neutralPath("/zh/"), neutralPath("/tags/")]).toEqual(["/posts/a/", "/", "/tags/"]);
    expect([inLanguage("/posts/a/", "zh"), inLanguage("/zh/tags/x/", "en"), inLanguage("/zh/", "zh")]).toEqual(["/zh/posts/a/", "/tags/x/", "/zh/"]);
  });

  it("send a reader without a translation to the section's home in the other language, and nowhere from the course", () => {
    expect(sectionHome("/posts/a/", "zh")).toBe("/zh/posts/");
    expect(sectionHome("/zh/tags/x/", "en")).toBe("/posts/");
    expect(sectionHome("/subscribe/", "zh")).toBe("/zh/");
    expect(sectionHome("/rdma101/getting-started/why-rdma/", "zh")).toBeUndefined();
  });
});

describe("one owner for every address", () => {
  // A site path written anywhere but src/urls.ts: in a string, an attribute or a data file.
  const SITE_PATH = /["'`(\s:=]\/(?:posts|tags|archives|subscribe|search|publications|rdma101|RDMA101|zh|css|js|img|figures|feed\.xml|feed\.json|index\.xml|sitemap\.xml|favicon\.svg)\b/;
  const files = (dir: string, ext: RegExp): string[] =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && ext.test(e.name))
      .map((e) => path.join(e.parentPath, e.name));

  it("is src/urls.ts: no template, module, script or data file writes a site path", () => {
    const sources = [
      ...files("src", /\.(ts|njk)$/).filter((f) => f !== path.join("src", "urls.ts")),
      ...files("_includes", /\.(njk|js)$/),
      ...files("public/js", /\.js$/),
      ...files("_data", /\.ya?ml$/),
      ...files("posts", /\.11tydata\.ts$/),
      ".eleventy.ts",
    ];
    expect(sources.length).toBeGreaterThan(20);
    const offenders = sources.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, i) => (SITE_PATH.test(line) && !/^\s*(\/\/|\*|#|\{#)/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });
});

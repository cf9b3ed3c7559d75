import { describe, expect, it } from "vitest";
import { parseFrontMatter } from "../../src/content.ts";
import { pageDataHook, pageHead, pagePath } from "../../src/pages.ts";
import { errorOf } from "../support/errors.ts";

const site = { description: { en: "About Feng Ren.", zh: "关于任峰。" } } as never;
const course = { title: "RDMA 101", description: "A course." } as never;

describe("page templates", () => {
  it("live at their route's address in their language, or their list page's own", () => {
    const template = (name: string, frontMatter: string) => {
      parseFrontMatter(`\n${frontMatter}`, { filePath: `./src/pages/${name}.njk` });
      return { inputPath: `./src/pages/${name}.njk` };
    };
    expect(pagePath({ page: template("subscribe", "route: subscribe"), lang: "zh" })).toBe("/zh/subscribe/");
    expect(pagePath({ page: template("sitemap", "route: sitemap") })).toBe("/sitemap.xml");
    const list = template("list", "route: posts\npagination:\n  data: collections.postPages\n  size: 1\n  alias: listPage");
    expect(pagePath({ page: list, listPage: { url: "/zh/posts/page/2/" } })).toBe("/zh/posts/page/2/");
    expect(errorOf(() => pagePath({ page: template("post", "route: post") }))).toBe("src/pages/post.njk: route: 'post' is not a single page; paginate over items with a url");
    expect(errorOf(() => pagePath({ page: template("typo", "route: tagz") }))).toMatch(/^src\/pages\/typo\.njk: route: must be one of home, posts/);
  });

  it("take their title and description from the UI strings of their language", () => {
    expect(pageHead("tags", { lang: "zh", site, course })).toEqual({ title: "标签", description: "博客用到的所有标签，以及每个标签下的文章数。", type: "website" });
    expect(pageHead("home", { lang: "zh", site, course })).toEqual({ description: "关于任峰。", type: "website" });
    expect(pageHead("tag", { lang: "en", site, course, listPage: { pageNumber: 2, tag: "rdma", total: 12 } })).toMatchObject({ title: "Posts tagged #rdma, page 2", description: "12 posts tagged rdma." });
    expect(pageHead("glossary", { lang: "en", site, course }).title).toBe("RDMA 101 glossary");
  });

  it("validate what their front matter says, and take a list page's language", () => {
    parseFrontMatter("\nroute: posts\nlayout: layouts/base.njk\npagination:\n  data: collections.postPages\n  size: 1\n  alias: listPage", { filePath: "./src/pages/list.njk" });
    const data: Record<string, unknown> & { page: { inputPath: string } } = { page: { inputPath: "./src/pages/list.njk" }, lang: "en", site, course, listPage: { lang: "zh", pageNumber: 1 } };
    pageDataHook(data);
    expect([data.lang, (data.head as { title: string }).title]).toEqual(["zh", "博客"]);
    parseFrontMatter("\nroute: posts\npermalink: /elsewhere/", { filePath: "./src/pages/bad.njk" });
    expect(errorOf(() => pageDataHook({ page: { inputPath: "./src/pages/bad.njk" } }))).toBe("src/pages/bad.njk: permalink: unknown field");
  });
});

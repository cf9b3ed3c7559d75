import { describe, expect, it } from "vitest";
import { Translations } from "../../src/translations.ts";
import { errorOf } from "../support/errors.ts";

const pages = new Translations(["/", "/zh/", "/posts/", "/zh/posts/", "/posts/a/", "/zh/posts/a/", "/posts/b/", "/zh/posts/c/", "/rdma101/"]);

describe("translations", () => {
  it("list a page in every language it exists in, reciprocally, with the default language as x-default", () => {
    expect(pages.alternates("/posts/a/")).toEqual([
      { hreflang: "en", url: "/posts/a/" },
      { hreflang: "zh-CN", url: "/zh/posts/a/" },
      { hreflang: "x-default", url: "/posts/a/" },
    ]);
    expect(pages.alternates("/zh/posts/a/")).toEqual(pages.alternates("/posts/a/"));
  });

  it("make a page without translation its own x-default", () => {
    expect(pages.alternates("/zh/posts/c/")).toEqual([
      { hreflang: "zh-CN", url: "/zh/posts/c/" },
      { hreflang: "x-default", url: "/zh/posts/c/" },
    ]);
    expect(errorOf(() => pages.alternates("/nowhere/"))).toBe("/nowhere/: not a page of this build, so it has no translations");
  });

  it("switch to the translation, else to the other language's section home, and offer no switch from the course", () => {
    expect(pages.languageSwitch("/posts/a/", "en").map((l) => [l.lang, l.url])).toEqual([["zh", "/zh/posts/a/"]]);
    expect(pages.languageSwitch("/posts/b/", "en").map((l) => l.url)).toEqual(["/zh/posts/"]);
    expect(pages.languageSwitch("/zh/posts/c/", "zh").map((l) => [l.lang, l.tag, l.name, l.url])).toEqual([["en", "en", "English", "/posts/"]]);
    expect(pages.languageSwitch("/rdma101/", "en")).toEqual([]);
  });

  it("take a translation a page names at another address, both ways, when the other language has none at its own", () => {
    const tags = new Translations(["/posts/", "/zh/posts/", "/tags/llm-serving/", "/zh/tags/大模型推理/", "/tags/rdma/", "/zh/tags/rdma/"], [["/tags/llm-serving/", ["/zh/tags/大模型推理/"]]]);
    const pair = [
      { hreflang: "en", url: "/tags/llm-serving/" },
      { hreflang: "zh-CN", url: "/zh/tags/大模型推理/" },
      { hreflang: "x-default", url: "/tags/llm-serving/" },
    ];
    expect(tags.alternates("/tags/llm-serving/")).toEqual(pair);
    expect(tags.alternates("/zh/tags/大模型推理/")).toEqual(pair);
    expect(tags.languageSwitch("/zh/tags/大模型推理/", "zh").map((l) => l.url)).toEqual(["/tags/llm-serving/"]);
    expect(tags.languageSwitch("/tags/rdma/", "en").map((l) => l.url)).toEqual(["/zh/tags/rdma/"]);
  });
});

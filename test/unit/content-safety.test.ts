import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkControlCharacters, readText, tagsOf, unsafeTag } from "../../src/content-safety.ts";
import { parseFrontMatter } from "../../src/content.ts";
import { readYaml } from "../../src/yaml.ts";
import { errorOf } from "../support/errors.ts";

// Control characters are refused, not stripped: text pasted from a PDF that carries one has often
// lost something visible too (a ligature, a dash), which only the author can see and put back.
describe("control characters", () => {
  it("names the file's line and the character", () => {
    expect(errorOf(() => checkControlCharacters("a\nb\nc\u000cd", "posts/blog/x.md", 5))).toBe(
      "posts/blog/x.md:7: (text): contains the invisible control character U+000C (text pasted from a PDF often does); delete it",
    );
  });

  it("refuses them in any YAML text, naming the field: front matter, data, directives", () => {
    expect(errorOf(() => readYaml('title: "Ring \\x08buffer"\ntags: [a, "b\\u0001"]', "posts/blog/x.md"))).toBe(
      "posts/blog/x.md: title: contains the invisible control character U+0008 (text pasted from a PDF often does); delete it",
    );
    expect(errorOf(() => parseFrontMatter("\ntitle: T\ntags: [a, \"b\\u0001\"]", { filePath: "posts/blog/y.md" }))).toMatch(/^posts\/blog\/y\.md: tags\[1\]: contains the invisible control character U\+0001/);
    // A raw one in plain YAML text: the YAML reader's own refusal or ours, either names the file.
    expect(errorOf(() => readYaml("name: Feng\u0002 Ren\n", "_data/profile.yaml"))).toMatch(/^_data\/profile\.yaml: /);
  });

  it("refuses them in files published beside pages (programs, data, transcripts, figures)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "safety-"));
    writeFileSync(path.join(dir, "data.csv"), "a,b\n1,\u001b[0m2\n");
    expect(errorOf(() => readText(path.join(dir, "data.csv")))).toMatch(/data\.csv:2: \(text\): contains the invisible control character U\+001B/);
    writeFileSync(path.join(dir, "ok.c"), "int\tx;\r\n");
    expect(readText(path.join(dir, "ok.c"))).toBe("int\tx;\r\n");
  });
});

describe("markup", () => {
  const unsafeMarkup = (html: string) => [...tagsOf(html)].map(unsafeTag).find(Boolean);

  it("reads tags as a browser would: any quoting, unclosed, comments skipped", () => {
    const tags = [...tagsOf("<!-- <script> --><A HREF='x' title=\"a>b\" data-x=y disabled><img src=a.png")];
    expect(tags.map((t) => [t.name, t.attributes.map((a) => `${a.name}=${a.value}`)])).toEqual([
      ["a", ["href=x", "title=a>b", "data-x=y", "disabled="]],
      ["img", ["src=a.png"]],
    ]);
  });

  it.each([
    ['<img src="HTTPS://example.org/a.png">', "from another origin"],
    ['<video poster="http://example.org/p.jpg"></video>', "poster on <video>"],
    ["<object data=x.swf></object>", "<object>"],
    ['<a href=" java\nscript:x()">', "javascript: URLs"],
    ['<svg><use xlink:href="https://example.org/s.svg#a"/></svg>', "xlink:href on <use>"],
    ['<div style="background:url(//example.org/a.png)">', "style on <div>"],
    ["<link rel=stylesheet href=a.css>", "<link>"],
    ["<p onClick=x()>", "onclick on <p>"],
  ])("refuses %s", (html, reason) => {
    expect(unsafeMarkup(html)).toContain(reason);
  });

  it.each(['<a href="https://example.org/">', '<img src="a.png" alt="">', '<img src="data:image/png;base64,AA==">', "<kbd>x</kbd>", '<a href="mailto:x">', "<details><summary>s</summary></details>"])("keeps %s", (html) => {
    expect(unsafeMarkup(html)).toBeUndefined();
  });
});

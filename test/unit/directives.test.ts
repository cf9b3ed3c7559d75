import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readContentFile } from "../../src/content.ts";
import { createMarkdown } from "../../src/markdown.ts";

const md = createMarkdown();
const dir = mkdtempSync(path.join(tmpdir(), "directives-"));
/** A page on disk whose front matter has been read as the build reads it, so errors can name its real lines. */
function page(body: string): { page: { inputPath: string } } {
  const inputPath = path.join(dir, "page.md");
  readContentFile("---\ntitle: T\ndate: 2026-01-01\n---\n", inputPath);
  writeFileSync(path.join(dir, "box.svg"), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect class="soft" width="5" height="5"/></svg>');
  return { page: { inputPath } };
}
const errorOf = (body: string): string => {
  try {
    md.render(body, page(body));
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected the render to fail");
};
const at = (line: number) => `${path.relative(process.cwd(), path.join(dir, "page.md"))}:${line}`;

describe("directives", () => {
  it("renders a figure from its YAML body, numbered and captioned", () => {
    const body = "Text.\n\n```figure\nfile: box.svg\nalt: A box.\ncaption: >-\n  One box,\n  folded.\n```\n";
    const html = md.render(body, page(body));
    expect(html).toContain('role="img" aria-label="A box."');
    expect(html).toContain('<span class="caption-number">Figure 1.</span> One box, folded.</figcaption>');
  });

  it("names the file's own line and the field for every mistake", () => {
    // The fence opens on line 7 of the file: four front-matter lines, then "Intro.", a blank line.
    expect(errorOf("Intro.\n\n```figure\nfile: box.svg\ncaption: C\n```\n")).toBe(`${at(7)}: figure.alt: is required`);
    expect(errorOf("Intro.\n\n```figure\nfile: box.svg\nalt: A\ncaption: C\ncolour: red\n```\n")).toBe(`${at(7)}: figure.colour: unknown field`);
    expect(errorOf("```figure\nfile: box.png\nalt: A\ncaption: C\n```\n")).toMatch(new RegExp(`^${at(5)}: figure.file: must be the name of an SVG file`));
    expect(errorOf("```figure\nfile: none.svg\nalt: A\ncaption: C\n```\n")).toMatch(new RegExp(`^${at(5)}: figure none.svg: no such file beside the page`));
    expect(errorOf("```example\nfile: [x\n```\n")).toMatch(new RegExp(`^${at(5)}: example: `));
  });
});

import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { errorOf } from "../support/errors.ts";
import { FALLBACK_FILLS, inlineSvg, standaloneSvg } from "../../src/figures.ts";

const dir = mkdtempSync(path.join(tmpdir(), "figures-"));
const svg = (name: string, body: string) => {
  writeFileSync(path.join(dir, name), body);
  return path.join(dir, name);
};

describe("figures", () => {
  it("inlines an SVG with its text alternative, without fixed size or comments", () => {
    const file = svg("ok.svg", '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="10" height="10">\n<!-- note -->\n\n<rect class="soft" width="5" height="5"/>\n</svg>\n');
    const html = inlineSvg(file, 'Box & "arrow"', "posts/a.md");
    expect(html).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 10 10" role="img" aria-label="Box &amp; &quot;arrow&quot;" focusable="false">/);
    expect(html).not.toContain("note");
    expect(html).not.toMatch(/\n\s*\n/);
  });

  it("gives class-coloured shapes a fill of their own for readers without the site's CSS", () => {
    const file = svg("fills.svg", '<svg viewBox="0 0 10 10"><rect class="soft" width="5" height="5"/><rect class="soft" fill="none"/><polygon class="accent-fill" points="0,0 1,1"/><line class="muted"/></svg>');
    const html = inlineSvg(file, "alt", "posts/a.md");
    expect(html).toContain('<rect class="soft" width="5" height="5" fill="#e5eefb"/>');
    expect(html).toContain('<rect class="soft" fill="none"/>');
    expect(html).toContain('<polygon class="accent-fill" points="0,0 1,1" fill="currentColor"/>');
    expect(html).toContain('<line class="muted"/>');
    // The fallback is the light theme's own colour, so feeds and pages agree.
    const css = readFileSync("public/css/site.css", "utf8");
    expect(css).toContain(`--accent-soft: light-dark(${FALLBACK_FILLS.soft},`);
  });

  it("publishes a figure as a file with the intrinsic size an <img> needs", () => {
    expect(standaloneSvg('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 720 500"><rect/></svg>')).toBe(
      '<?xml version="1.0" encoding="utf-8"?>\n<svg width="720" height="500" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 720 500"><rect/></svg>\n',
    );
  });

  it.each([
    ["alt.svg", '<svg viewBox="0 0 1 1"></svg>', " ", "posts/a.md: figure alt.svg: needs a text alternative"],
  ])("refuses %s", (name, body, alt, message) => {
    expect(() => inlineSvg(svg(name, body), alt, "posts/a.md")).toThrow(message);
  });

  // What is wrong inside a drawing is named by the drawing's file and line, and the page that shows it.
  it.each([
    ["script.svg", "<script>x()</script>", "must not contain <script>: content may not run scripts"],
    ["handler.svg", '<rect width="1"\n  onclick="x()"/>', "must not contain onclick on <rect>: content may not carry event handlers"],
    ["remote.svg", '<image xlink:href="https://example.org/a.png"/>', "must not contain xlink:href on <image>: loads https://example.org/a.png from another origin"],
    ["protocol-relative.svg", "<use href='//example.org/s.svg#a'/>", "loads //example.org/s.svg#a from another origin"],
    ["css.svg", '<rect style="fill: url(https://example.org/p.svg#g)"/>', "must not contain style on <rect>: loads"],
    ["other-file.svg", '<use href="shapes.svg#box"/>', 'must not reference other files (href="shapes.svg#box")'],
    ["ids.svg", '<g id="a"/>', "must not contain id attributes"],
    ["style.svg", "<style>rect{}</style>", "must not contain <style>"],
    ["title.svg", "<title>T</title>", "must not contain <title>"],
  ])("refuses %s, naming its line", (name, body, message) => {
    const file = svg(name, `<svg viewBox="0 0 1 1">\n${body}\n</svg>`);
    const error = errorOf(() => inlineSvg(file, "alt", "posts/a.md:7"));
    expect(error).toMatch(new RegExp(`^\\S*${name.replace(".", "\\.")}:2: figure: `));
    expect(error).toContain(message);
    expect(error).toContain("(the figure at posts/a.md:7)");
  });

  it("keeps links within the drawing and ignores what comments hold", () => {
    const file = svg("local.svg", '<svg viewBox="0 0 1 1"><!-- <script src="https://x.org/a.js"> --><use href="#m"/><a xlink:href="#n"/></svg>');
    expect(inlineSvg(file, "alt", "posts/a.md")).toContain('<use href="#m"/>');
  });
});

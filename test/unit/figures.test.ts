import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
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
    ["script.svg", '<svg viewBox="0 0 1 1"><script>x()</script></svg>', "alt", "posts/a.md: figure script.svg: must not contain <script>"],
    ["ids.svg", '<svg viewBox="0 0 1 1"><g id="a"/></svg>', "alt", "posts/a.md: figure ids.svg: must not contain id attributes"],
    ["alt.svg", '<svg viewBox="0 0 1 1"></svg>', " ", "posts/a.md: figure alt.svg: needs a text alternative"],
  ])("refuses %s", (name, body, alt, message) => {
    expect(() => inlineSvg(svg(name, body), alt, "posts/a.md")).toThrow(message);
  });
});

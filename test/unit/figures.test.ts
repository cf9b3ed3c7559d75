import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inlineSvg } from "../../src/figures.ts";

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

  it.each([
    ["script.svg", '<svg viewBox="0 0 1 1"><script>x()</script></svg>', "alt", "posts/a.md: figure script.svg: must not contain <script>"],
    ["ids.svg", '<svg viewBox="0 0 1 1"><g id="a"/></svg>', "alt", "posts/a.md: figure ids.svg: must not contain id attributes"],
    ["alt.svg", '<svg viewBox="0 0 1 1"></svg>', " ", "posts/a.md: figure alt.svg: needs a text alternative"],
    ["missing.svg", null, "alt", "posts/a.md: figure missing.svg: no such file beside the page"],
  ])("refuses %s", (name, body, alt, message) => {
    const file = body === null ? path.join(dir, name) : svg(name, body);
    expect(() => inlineSvg(file, alt, "posts/a.md")).toThrow(message);
  });
});

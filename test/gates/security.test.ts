// Security and privacy on the built site: CSP everywhere, escaped data, safe external links.
import { readFileSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { JSDOM } from "jsdom";
import { build, smallProject } from "../support/eleventy.ts";
import { builtFiles, fileFor } from "../support/site.ts";

describe("security and privacy", () => {
  it("gives every page a Content-Security-Policy without unsafe-inline scripts; WebAssembly only for search", async () => {
    const pages = (await builtFiles()).filter((f) => f.endsWith(".html"));
    for (const file of pages) {
      const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(readFileSync(file, "utf8"))?.[1]?.replace(/&#39;/g, "'") ?? "";
      const search = /\/search\/index\.html$/.test(file);
      expect(csp, file).toMatch(search ? /script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')* 'wasm-unsafe-eval';/ : /script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')*;/);
      expect(csp, file).not.toMatch(/(script|default)-src[^;]*unsafe-inline/);
      expect(csp, file).toContain("default-src 'self'");
    }
  });

  it("sends hosts that read _headers a policy no page's own can widen, with what <meta> cannot say", () => {
    const headers = readFileSync(fileFor("/_headers"), "utf8");
    expect(headers).toMatch(/^\/\*\n  Content-Security-Policy: default-src 'self'; script-src 'self'[^\n]*frame-ancestors 'none'$/m);
    expect(headers).not.toMatch(/(script|default)-src[^;\n]*unsafe-inline/);
  });

  it("marks every external link rel=noopener", async () => {
    const missing: string[] = [];
    for (const file of (await builtFiles()).filter((f) => f.endsWith(".html"))) {
      // Links as the site writes them (valid HTML, double-quoted attributes): a DOM per page costs more than the check.
      for (const [tag] of readFileSync(file, "utf8").matchAll(/<a\s[^>]*href="https?:[^>]*>/g)) if (!/\srel="[^"]*noopener/.test(tag)) missing.push(`${file}: ${tag}`);
    }
    expect(missing).toEqual([]);
  });

  it("escapes markup in data files: a <script> in the profile shows as text", async () => {
    const copy = await smallProject({ posts: [], lessons: ["posts/rdma101/01-getting-started/01-why-rdma.md"] });
    try {
      const profile = path.join(copy, "_data/profile.yaml");
      const source = await readFile(profile, "utf8");
      await writeFile(profile, source.replace(/^names:\n  en: .*$/m, 'names:\n  en: "Feng <script>alert(1)</script> Ren"'));
      const result = await build({ cwd: copy, outDir: path.join(copy, "_site") });
      expect(result.code, result.output).toBe(0);
      const html = await readFile(path.join(copy, "_site/index.html"), "utf8");
      expect(html).not.toContain("<script>alert(1)</script>");
      expect(html).toContain("Feng &lt;script&gt;alert(1)&lt;/script&gt; Ren");
      expect(new JSDOM(html).window.document.querySelector("h1")!.textContent).toContain("<script>alert(1)</script>");
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});

// Properties of every built file: internal references resolve, no plain e-mail, no third-party assets.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { JSDOM } from "jsdom";
import { builtFiles, fileFor, urlOf } from "../support/site.ts";

const SITE_URL = "https://renfeng.org";
const EXTERNAL_LIST = ".cache/external-links.txt";

describe("every built page", () => {
  it("contains no plain e-mail address in any output file", async () => {
    const offenders = (await builtFiles()).filter((f) => /renfeng\.chn\s*(@|&#0*64;|&commat;|%40)/i.test(readFileSync(f, "latin1")));
    expect(offenders).toEqual([]);
  });

  it("resolves every internal link, fragment, image, stylesheet, script and font", async () => {
    const files = await builtFiles();
    const pages = files.filter((f) => f.endsWith(".html"));
    expect(pages.length).toBeGreaterThan(0);
    const broken: string[] = [];
    const external = new Set<string>();
    const idsOf = new Map<string, Set<string>>();
    const ids = (file: string) => {
      if (!idsOf.has(file)) {
        const doc = new JSDOM(readFileSync(file, "utf8")).window.document;
        idsOf.set(file, new Set([...doc.querySelectorAll("[id]")].map((e) => e.id)));
      }
      return idsOf.get(file)!;
    };
    /** Checks one reference from `from` (a site URL); links to this site's own address count as internal. */
    const check = (from: string, ref: string) => {
      if (ref.startsWith(`${SITE_URL}/`)) ref = ref.slice(SITE_URL.length);
      else if (/^https?:/.test(ref)) return void external.add(ref);
      if (/^(mailto:|data:)/.test(ref)) return;
      const url = new URL(ref, `http://site${from}`);
      const target = fileFor(url.pathname);
      // A folder without index.html is a 404 on every static host.
      if (!existsSync(target) || !statSync(target).isFile()) broken.push(`${from} → ${ref}`);
      else if (url.hash && target.endsWith(".html") && !ids(target).has(decodeURIComponent(url.hash.slice(1)))) broken.push(`${from} → ${ref} (no such id)`);
    };
    for (const file of pages) {
      const doc = new JSDOM(readFileSync(file, "utf8")).window.document;
      for (const el of doc.querySelectorAll("a[href], link[href], script[src], img[src], img[srcset], source[srcset]")) {
        const refs = [el.getAttribute("href"), el.getAttribute("src"), ...(el.getAttribute("srcset")?.split(",").map((c) => c.trim().split(/\s/)[0]) ?? [])];
        for (const ref of refs) if (ref) check(urlOf(file), ref);
      }
      // Assets must come from this site: no stylesheet, script, image or font from another origin.
      for (const el of doc.querySelectorAll("link[rel=stylesheet][href], script[src], img[src], link[rel~=icon][href], link[rel=preload][href]")) {
        const ref = el.getAttribute("href") ?? el.getAttribute("src")!;
        if (/^(https?:)?\/\//.test(ref)) broken.push(`${urlOf(file)} loads a third-party asset: ${ref}`);
      }
    }
    // Fonts and images that stylesheets name.
    for (const css of files.filter((f) => f.endsWith(".css"))) {
      for (const [, ref] of readFileSync(css, "utf8").matchAll(/url\(\s*["']?([^"')]+)["']?\s*\)/g)) check(urlOf(css), ref!);
    }
    // External links are listed, never fetched: tests make no request off this machine.
    mkdirSync(".cache", { recursive: true });
    writeFileSync(EXTERNAL_LIST, [...external].sort().join("\n") + "\n");
    const perHost = new Map<string, number>();
    for (const url of external) perHost.set(new URL(url).host, (perHost.get(new URL(url).host) ?? 0) + 1);
    const hosts = [...perHost].map(([host, n]) => `${host} ${n}`);
    console.log(`${external.size} distinct external links, not fetched, listed in ${EXTERNAL_LIST} (${hosts.join(", ")})`);
    expect(broken).toEqual([]);
  });
});

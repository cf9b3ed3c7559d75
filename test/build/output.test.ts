// Properties of every built file: internal references resolve, no plain e-mail, no third-party assets.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { JSDOM } from "jsdom";
import { builtFiles, fileFor, siteDir } from "../support/site.ts";

const urlOf = (file: string) => "/" + path.relative(siteDir(), file).split(path.sep).join("/").replace(/index\.html$/, "");

describe("every built page", () => {
  it("contains no plain e-mail address in any output file", async () => {
    const offenders = (await builtFiles()).filter((f) => /renfeng\.chn\s*(@|&#0*64;|&commat;|%40)/i.test(readFileSync(f, "latin1")));
    expect(offenders).toEqual([]);
  });

  it("resolves every internal link, fragment, image, stylesheet and script", async () => {
    const pages = (await builtFiles()).filter((f) => f.endsWith(".html"));
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
    for (const file of pages) {
      const doc = new JSDOM(readFileSync(file, "utf8")).window.document;
      const refs = [...doc.querySelectorAll("a[href], link[href], script[src], img[src], source[srcset]")].map(
        (el) => el.getAttribute("href") ?? el.getAttribute("src") ?? el.getAttribute("srcset")!.split(/\s/)[0]!,
      );
      for (const ref of refs) {
        if (/^https?:/.test(ref)) external.add(ref);
        if (/^(https?:|mailto:|data:)/.test(ref)) continue;
        const url = new URL(ref, `http://site${urlOf(file)}`);
        const target = fileFor(url.pathname);
        if (!existsSync(target)) broken.push(`${urlOf(file)} → ${ref}`);
        else if (url.hash && target.endsWith(".html") && !ids(target).has(decodeURIComponent(url.hash.slice(1)))) broken.push(`${urlOf(file)} → ${ref} (no such id)`);
      }
      // Assets must come from this site: no stylesheet, script, image or font from another origin.
      for (const el of doc.querySelectorAll("link[rel=stylesheet][href], script[src], img[src], link[rel~=icon][href], link[rel=preload][href]")) {
        const ref = el.getAttribute("href") ?? el.getAttribute("src")!;
        if (/^(https?:)?\/\//.test(ref)) broken.push(`${urlOf(file)} loads a third-party asset: ${ref}`);
      }
    }
    // External links are listed, never fetched: tests make no request off this machine.
    console.log(`${external.size} distinct external links (not fetched)`);
    expect(broken).toEqual([]);
  });
});

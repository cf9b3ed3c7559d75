// Properties of every built file: internal references resolve, no plain e-mail, no third-party assets.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { JSDOM } from "jsdom";
import { checkReferences } from "../support/links.ts";
import { builtFiles, siteDir, urlOf } from "../support/site.ts";

const EXTERNAL_LIST = ".cache/external-links.txt";

describe("every built file", () => {
  it("contains no plain e-mail address", async () => {
    const offenders = (await builtFiles()).filter((f) => /renfeng\.chn\s*(@|&#0*64;|&commat;|%40)/i.test(readFileSync(f, "latin1")));
    expect(offenders).toEqual([]);
  });

  it("resolves every internal link, fragment, image, stylesheet, script, font, feed entry and sitemap address", async () => {
    const files = await builtFiles();
    const { broken, external, checked } = checkReferences(siteDir(), files, { origin: "https://renfeng.org", prefix: "/" });
    expect(checked).toBeGreaterThan(files.length);
    // External links are listed, never fetched: tests make no request off this machine.
    mkdirSync(".cache", { recursive: true });
    writeFileSync(EXTERNAL_LIST, [...external].sort().join("\n") + "\n");
    const perHost = new Map<string, number>();
    for (const url of external) perHost.set(new URL(url).host, (perHost.get(new URL(url).host) ?? 0) + 1);
    console.log(`${external.size} distinct external links, not fetched, listed in ${EXTERNAL_LIST} (${[...perHost].map(([host, n]) => `${host} ${n}`).join(", ")})`);
    expect(broken).toEqual([]);
  });

  it("loads every asset from this site: no stylesheet, script, image or font from another origin", async () => {
    const offenders: string[] = [];
    for (const file of (await builtFiles()).filter((f) => f.endsWith(".html"))) {
      const doc = new JSDOM(readFileSync(file, "utf8")).window.document;
      for (const el of doc.querySelectorAll("link[rel=stylesheet][href], script[src], img[src], link[rel~=icon][href], link[rel=preload][href]")) {
        const ref = el.getAttribute("href") ?? el.getAttribute("src")!;
        if (/^(https?:)?\/\//.test(ref)) offenders.push(`${urlOf(file)}: ${ref}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

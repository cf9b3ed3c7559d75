// Properties of every built file: internal references resolve, no plain e-mail, no third-party assets.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkReferences } from "../support/links.ts";
import { builtFiles, siteDir, urlOf } from "../support/site.ts";

const EXTERNAL_LIST = ".cache/external-links.txt";

describe("every built file", () => {
  it("serves stylesheets without the source's comments", async () => {
    const sheets = (await builtFiles()).filter((f) => f.endsWith(".css") && !f.includes("katex"));
    expect(sheets.length).toBeGreaterThan(0);
    expect(sheets.filter((f) => readFileSync(f, "utf8").includes("/*"))).toEqual([]);
  });

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

  it("loads every asset from this site: no stylesheet, script, image, font or frame from another origin", async () => {
    const offenders: string[] = [];
    const loads = /<(?:link|script|img|source|iframe|audio|video|embed|object)\b[^>]*?\s(?:src|srcset|data)="(?:https?:)?\/\/[^"]*"[^>]*>|<link\b(?=[^>]*\srel="(?:stylesheet|preload|icon|modulepreload)")[^>]*\shref="(?:https?:)?\/\/[^"]*"[^>]*>/g;
    for (const file of (await builtFiles()).filter((f) => f.endsWith(".html"))) {
      for (const [tag] of readFileSync(file, "utf8").matchAll(loads)) offenders.push(`${urlOf(file)}: ${tag}`);
    }
    expect(offenders).toEqual([]);
  });
});

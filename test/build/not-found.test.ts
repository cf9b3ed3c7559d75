// The one 404 page every missing address gets: in each language, a way on to every section the
// site's navigation names, so a reader who followed a broken link is never left at a dead end.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { t } from "../../src/i18n.ts";
import { LANGUAGE_CODES, languageTag } from "../../src/languages.ts";
import { routes } from "../../src/urls.ts";
import { loadPage } from "../support/site.ts";

const site = parse(readFileSync("_data/site.yaml", "utf8")) as { navigation: (keyof typeof routes)[] };

describe("the 404 page", () => {
  it.each(LANGUAGE_CODES)("links, in %s, every section of the site's navigation, under its name there", (lang) => {
    const doc = loadPage("/404.html");
    const tag = languageTag(lang);
    const section = [...doc.querySelectorAll("main section")].find((s) => (s.closest("[lang]")!.getAttribute("lang") ?? "") === tag)!;
    expect(section, tag).toBeDefined();
    const links = [...section.querySelectorAll("a")].map((a) => [a.getAttribute("href"), a.textContent]);
    expect(site.navigation.length).toBeGreaterThan(0);
    for (const route of site.navigation) expect(links, route).toContainEqual([(routes[route] as (l: string) => string)(lang), t(lang, `nav.${route}`)]);
  });
});

// Search as a reader uses it, in Chromium: a course term finds its lesson, a Chinese query finds a
// Chinese page, the section filter narrows results, all by keyboard; without JavaScript the page
// says where to browse instead. Nothing is requested from another origin, and the CSP lets it run.
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { t } from "../../src/i18n.ts";
import { routes } from "../../src/urls.ts";
import { axeViolations, browserOnSite, open, viewports } from "../support/browser.ts";
import { lessonUrls, loadPage, pageUrls } from "../support/site.ts";

const site = browserOnSite();
const glossary = parse(readFileSync("_data/glossary.yaml", "utf8")) as { id: string; term: string; definition: string; lesson: string }[];

/** A lesson's number and title, as the course's home lists it. */
function courseLesson(url: string): { number: string; title: string } {
  const link = [...loadPage(routes.course()).querySelectorAll(`a[href="${url}"]`)].find((a) => /^\d+\.\d+\s/.test(a.textContent!.trim()))!;
  const [, number, title] = link.textContent!.trim().match(/^(\d+\.\d+)\s+(.*)$/s)!;
  return { number: number!, title: title!.replace(/\s+/g, " ") };
}

/** Types a query as a person does and waits for the results to settle. */
async function searchFor(page: Page, query: string) {
  await page.locator("#search-query").fill("");
  await page.keyboard.type(query);
  // The status names the query it answers: results for a half-typed query never count.
  await page.waitForFunction((q) => document.querySelector(".search-status")!.textContent!.includes(`“${q}”`), query);
  return results(page);
}
/**
 * Pagefind's order for each query on the search page, as its script set Pagefind up (the same
 * module, so the same ranking): each query's first `n` addresses. The page shows results in this order.
 */
async function rankedOnPage(page: Page, queries: string[], n: number): Promise<string[][]> {
  // Handed over as text: vitest would rewrite an import() written in the test's own code.
  return page.evaluate(`(async () => {
    const pagefind = await import(document.querySelector(".search").dataset.index + "pagefind.js");
    const ranked = [];
    for (const query of ${JSON.stringify(queries)}) {
      const { results } = await pagefind.search(query);
      ranked.push((await Promise.all(results.slice(0, ${n}).map((r) => r.data()))).map((d) => d.url));
    }
    return ranked;
  })()`);
}

const results = (page: Page) =>
  page.$$eval(".search-results > li", (items) => items.map((li) => ({ section: li.querySelector(".search-section")!.textContent, href: new URL(li.querySelector("a")!.href).pathname })));

describe("search", () => {
  it("finds a course term's lesson (and the glossary) from the keyboard, and opens it with Enter", async () => {
    const term = glossary.find((g) => /^queue pair/i.test(g.term))!;
    const [part, lesson] = term.lesson.split("/") as [string, string];
    const { page, context, problems } = await open(site.browser, `${site.server.origin}/search/`, { viewport: viewports.desktop });
    await expect.poll(() => page.locator(".search-form").isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.locator(".search-needs-script").isVisible()).toBe(false);
    // The query field has focus on arrival: typing searches.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("search-query");
    const found = await searchFor(page, "queue pair");
    expect(found.map((r) => r.href)).toContain(routes.lesson(part, lesson));
    expect(found.map((r) => r.href)).toContain(routes.glossary());
    for (const r of found) expect(r.section).toBeTruthy();
    // Tab from the field to the first result link, then Enter follows it.
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press("Tab");
      if (await page.evaluate(() => document.activeElement?.closest(".search-results") !== null)) break;
    }
    const target = await page.evaluate(() => (document.activeElement as HTMLAnchorElement).href);
    await Promise.all([page.waitForURL(target), page.keyboard.press("Enter")]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("marks where an excerpt leaves out the page's text: not before one that starts the page", async () => {
    const term = glossary.find((g) => /^queue pair/i.test(g.term))!;
    const [part, lesson] = term.lesson.split("/") as [string, string];
    const { page, context, problems } = await open(site.browser, `${site.server.origin}/search/`, { viewport: viewports.desktop });
    await expect.poll(() => page.locator(".search-form").isVisible(), { timeout: 15_000 }).toBe(true);
    await searchFor(page, "queue pair");
    const excerpt = (href: string) => page.locator(`.search-results > li:has(a[href$="${href}"]) > p:last-child`).textContent();
    const [before, after] = t("en", "search.cut").split("{excerpt}") as [string, string];
    // The lesson's title is its text's first words, and holds the query: its excerpt starts the page.
    const first = (await excerpt(routes.lesson(part, lesson)))!;
    expect(first.startsWith(before)).toBe(false);
    expect(first.endsWith(after)).toBe(true);
    // The glossary defines the term far down the page.
    const deep = (await excerpt(routes.glossary()))!;
    expect(deep.startsWith(before)).toBe(true);
    expect(deep.endsWith(after)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("marks the words it found, not the comma or full stop after them", async () => {
    const { page, context } = await open(site.browser, `${site.server.origin}/search/`, { viewport: viewports.phone });
    await expect.poll(() => page.locator(".search-form").isVisible(), { timeout: 15_000 }).toBe(true);
    await searchFor(page, "queue");
    const marks = await page.locator(".search-results mark").allTextContents();
    // Some excerpts have the word before a comma or a full stop: a mark that held it is what is checked.
    expect(await page.locator(".search-results p:has(mark)").evaluateAll((ps) => ps.some((p) => /\bqueues?[.,]/i.test(p.textContent!)))).toBe(true);
    expect(marks.filter((m) => /[.,;:!?]$/.test(m))).toEqual([]);
    await context.close();
  });

  it("shows the glossary's result as the entry it matches, with that entry's text, one Tab and Enter from the page's title", async () => {
    const { page, context, problems } = await open(site.browser, `${site.server.origin}/search/`, { viewport: viewports.phone });
    await expect.poll(() => page.locator(".search-form").isVisible(), { timeout: 15_000 }).toBe(true);
    const onGlossary = page.locator(`.search-results > li:has(h2 a[href$="${routes.glossary()}"])`);
    const entryOf = async () => {
      const link = onGlossary.locator(".search-entry a");
      return { text: await link.textContent(), hash: new URL(await link.evaluate((a) => (a as HTMLAnchorElement).href)).hash, excerpt: (await onGlossary.locator("p:last-child").textContent())! };
    };
    const [before, after] = t("en", "search.cut").split("{excerpt}") as [string, string];
    // Each by its abbreviation, which other terms say too, some more often ("QP number (QPN)" says QP twice).
    for (const term of glossary.filter((g) => /^(?:Queue pair|Receiver not ready|Global identifier) \(/.test(g.term))) {
      await searchFor(page, term.term.match(/\(([^)]+)\)$/)![1]!);
      const entry = await entryOf();
      expect([entry.text, entry.hash]).toEqual([term.term, `#${term.id}`]);
      // The excerpt is the entry's own words, not the page's best stretch elsewhere (the where-to-look index).
      const shown = entry.excerpt.replace(before, "").replace(after, "").trim().split(/\s+/).slice(0, 6).join(" ");
      expect(`${term.term} ${term.definition}`, entry.excerpt).toContain(shown);
      // A lesson's result is the lesson, numbered as the course's lists number it: no entry under its title.
      const [part, lesson] = term.lesson.split("/") as [string, string];
      const onLesson = page.locator(`.search-results > li:has(h2 a[href$="${routes.lesson(part, lesson)}"])`);
      expect(await onLesson.locator(".search-entry").count()).toBe(0);
      const { number, title } = courseLesson(routes.lesson(part, lesson));
      expect(await onLesson.locator("h2").textContent()).toBe(`${number} ${title}`);
    }
    // A name of the where-to-look index is an entry too, linked to where it is listed.
    const listed = [...loadPage(routes.glossary()).querySelectorAll(".lookup dt")].find((dt) => dt.textContent === "ibv_reg_mr")!;
    await searchFor(page, "ibv_reg_mr");
    expect(await entryOf()).toMatchObject({ text: "ibv_reg_mr", hash: `#${listed.id}` });
    // From the page's title, Tab reaches the entry, and Enter opens the glossary there.
    await onGlossary.locator("h2 a").focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest(".search-entry") !== null)).toBe(true);
    await Promise.all([page.waitForURL((u) => u.hash === `#${listed.id}`), page.keyboard.press("Enter")]);
    expect(await page.locator(":target").textContent()).toBe("ibv_reg_mr");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("ranks the glossary among the first three results for a search that is one of its terms or abbreviations", async () => {
    // A learner typing a term wants its definition near the top, not only the lessons that use it.
    const queries = glossary.flatMap(({ term }) => term.match(/^(.*) \(([^)]+)\)$/)?.slice(1) ?? [term]);
    const { page, context, problems } = await open(site.browser, `${site.server.origin}/search/`, { viewport: viewports.desktop });
    await expect.poll(() => page.locator(".search-form").isVisible(), { timeout: 15_000 }).toBe(true);
    const ranked = await rankedOnPage(page, queries, 3);
    const missed = queries.filter((_, i) => !ranked[i]!.includes(routes.glossary()));
    // Nearly every one: a few abbreviations are also the start of common words (WR: write, wrap).
    expect(missed.length / queries.length, `below the first three for ${missed.join(", ")}`).toBeLessThanOrEqual(0.1);
    // The page shows results in that order: one of the terms, typed as a reader types it.
    const typed = queries.find((_, i) => ranked[i]!.includes(routes.glossary()))!;
    expect((await searchFor(page, typed)).slice(0, 3).map((r) => r.href)).toEqual(ranked[queries.indexOf(typed)]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("never ranks the glossary above a lesson for that lesson's title, though it defines the title's words", async () => {
    const lessons = lessonUrls().map((url) => ({ url, title: courseLesson(url).title }));
    const { page, context, problems } = await open(site.browser, `${site.server.origin}/search/`, { viewport: viewports.desktop });
    await expect.poll(() => page.locator(".search-form").isVisible(), { timeout: 15_000 }).toBe(true);
    const ranked = await rankedOnPage(page, lessons.map((l) => l.title), 20);
    const above = lessons.filter(({ url }, i) => {
      const glossaryAt = ranked[i]!.indexOf(routes.glossary());
      return glossaryAt >= 0 && (ranked[i]!.indexOf(url) < 0 || glossaryAt < ranked[i]!.indexOf(url));
    });
    expect(above.map((l) => l.title)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("narrows results to one section, and keeps query and section in the address", async () => {
    const { page, context, problems } = await open(site.browser, `${site.server.origin}/search/`, { viewport: viewports.phone });
    await expect.poll(() => page.locator(".search-form").isVisible(), { timeout: 15_000 }).toBe(true);
    const all = await searchFor(page, "Mooncake");
    const sections = new Set(all.map((r) => r.section));
    expect(sections.size).toBeGreaterThan(1);
    const publications = t("en", "nav.publications");
    await page.getByLabel(publications, { exact: true }).check();
    await page.waitForFunction((label) => [...document.querySelectorAll(".search-section")].every((s) => s.textContent === label), publications);
    const narrowed = await results(page);
    expect(narrowed.length).toBeGreaterThan(0);
    for (const r of narrowed) expect(r.href).toMatch(/^\/publications\/[^/]+\/$/);
    expect(new URL(page.url()).searchParams.get("section")).toBe(publications);
    // The language switch opens the same query in the other language's search.
    const other = new URL((await page.locator("a.language-switch").getAttribute("href"))!, site.server.origin);
    expect([other.pathname, other.search]).toEqual([routes.search("zh"), "?q=Mooncake"]);
    // Coming back to the address shows the same search.
    await page.reload();
    await expect.poll(async () => (await results(page)).map((r) => r.href), { timeout: 15_000 }).toEqual(narrowed.map((r) => r.href));
    expect(problems).toEqual([]);
    await context.close();
  });

  it("says when the chosen section has nothing for a query, and offers all sections, which find it, from the keyboard", async () => {
    const publications = t("en", "nav.publications");
    const { page, context, problems } = await open(site.browser, `${site.server.origin}/search/?${new URLSearchParams({ section: publications })}`, { viewport: viewports.phone });
    await expect.poll(() => page.locator(".search-form").isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByLabel(publications, { exact: true }).isChecked()).toBe(true);
    // A course term: no paper's page says it.
    expect(await searchFor(page, "rnr_retry")).toEqual([]);
    expect(await page.locator(".search-status").textContent()).toBe(t("en", "search.noneInSection", { query: "rnr_retry", section: publications }));
    const everywhere = page.getByRole("link", { name: t("en", "search.everywhere", { query: "rnr_retry" }) });
    await everywhere.focus();
    await Promise.all([page.waitForURL((u) => !u.searchParams.has("section")), page.keyboard.press("Enter")]);
    await expect.poll(async () => (await results(page)).length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await page.getByLabel(t("en", "search.allSections"), { exact: true }).isChecked()).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("reaches every result it counts: more than a page of them shows behind a button, from the keyboard", async () => {
    const { page, context, problems } = await open(site.browser, `${site.server.origin}/search/`, { viewport: viewports.phone });
    await expect.poll(() => page.locator(".search-form").isVisible(), { timeout: 15_000 }).toBe(true);
    const shown = await searchFor(page, "RDMA");
    const counted = Number((await page.locator(".search-status").textContent())!.match(/\d+/)![0]);
    expect(counted).toBeGreaterThan(shown.length); // a common word: more than one page of results
    const more = page.getByRole("button", { name: t("en", "search.more") });
    for (let pages = 1; (await more.isVisible()) && pages < 10; pages++) {
      const before = await page.locator(".search-results > li").count();
      await more.focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => page.locator(".search-results > li").count()).toBeGreaterThan(before);
      // Focus moves to the first new result, so the keyboard carries on from there.
      expect(await page.evaluate((n) => document.activeElement === document.querySelectorAll(".search-results > li > h2 a")[n], before)).toBe(true);
    }
    const all = await results(page);
    expect(all.length).toBe(counted);
    expect(new Set(all.map((r) => r.href)).size).toBe(counted);
    // A new query starts again from its first page.
    await searchFor(page, "queue pair");
    expect(await page.locator(".search-results > li").count()).toBeLessThanOrEqual(shown.length);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("finds a Chinese page from a Chinese query, in the Chinese index only", async () => {
    // A Chinese word from the heading of a Chinese page that is indexed.
    const zhPages = (await pageUrls()).filter((url) => url.startsWith("/zh/") && loadPage(url).querySelector("[data-pagefind-body]"));
    expect(zhPages.length).toBeGreaterThan(0);
    const [url, word] = zhPages
      .map((u) => [u, [...loadPage(u).querySelectorAll("[data-pagefind-body] :is(h1, h2)")].map((h) => h.textContent!.match(/\p{Script=Han}{2,}/u)?.[0]).find(Boolean)] as const)
      .find(([, w]) => w)!;
    const { page, context, problems } = await open(site.browser, `${site.server.origin}/zh/search/`, { viewport: viewports.desktop });
    await expect.poll(() => page.locator(".search-form").isVisible(), { timeout: 15_000 }).toBe(true);
    const found = await searchFor(page, word!);
    expect(found.map((r) => r.href)).toContain(url);
    for (const r of found) expect(r.href.startsWith("/zh/")).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it.each([routes.search("en"), routes.search("zh")])("on %s, offers only the sections its language's index holds a page of", async (url) => {
    // A section whose pages are all in another language (the course, on the Chinese page) would only ever find nothing.
    const lang = loadPage(url).documentElement.lang;
    const held = new Set(
      (await pageUrls())
        .map((u) => loadPage(u))
        .filter((doc) => doc.documentElement.lang === lang)
        .map((doc) => doc.querySelector("[data-pagefind-body]")?.getAttribute("data-pagefind-filter")?.replace(/^section:/, ""))
        .filter(Boolean),
    );
    expect(held.size).toBeGreaterThan(0);
    const { page, context, problems } = await open(site.browser, `${site.server.origin}${url}`, { viewport: viewports.desktop });
    await expect.poll(() => page.locator(".search-form").isVisible(), { timeout: 15_000 }).toBe(true);
    const offered = await page.$$eval(".search-sections input[value]:not([value=''])", (radios) =>
      radios.filter((r) => (r as HTMLElement).checkVisibility()).map((r) => (r as HTMLInputElement).value),
    );
    expect(new Set(offered)).toEqual(held);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("offers a query that finds nothing here in the other language's search, which finds it, from the keyboard", async () => {
    // A Chinese word from the heading of an indexed Chinese page, typed into the English search.
    const zhPages = (await pageUrls()).filter((url) => url.startsWith("/zh/") && loadPage(url).querySelector("[data-pagefind-body]"));
    const [url, word] = zhPages
      .map((u) => [u, [...loadPage(u).querySelectorAll("[data-pagefind-body] :is(h1, h2)")].map((h) => h.textContent!.match(/\p{Script=Han}{2,}/u)?.[0]).find(Boolean)] as const)
      .find(([, w]) => w)!;
    const { page, context, problems } = await open(site.browser, `${site.server.origin}/search/`, { viewport: viewports.phone });
    await expect.poll(() => page.locator(".search-form").isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await searchFor(page, word!)).toEqual([]);
    const elsewhere = page.locator(".search-elsewhere a");
    await expect.poll(() => elsewhere.count()).toBe(1);
    expect(await elsewhere.textContent()).toContain(word);
    // The language is named in its own words, and marked so.
    expect(await elsewhere.locator("[lang]").getAttribute("lang")).toBe(loadPage(routes.search("zh")).documentElement.lang);
    await elsewhere.focus();
    await Promise.all([page.waitForURL((u) => u.pathname === routes.search("zh")), page.keyboard.press("Enter")]);
    await expect.poll(async () => (await results(page)).map((r) => r.href), { timeout: 15_000 }).toContain(url);
    // A query that finds something offers nothing else.
    expect(await page.locator(".search-elsewhere a").count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it.each(["light", "dark"] as const)("meets WCAG 2.2 AA with results shown, in %s", async (colorScheme) => {
    const { page, context } = await open(site.browser, `${site.server.origin}/search/`, { viewport: viewports.phone, colorScheme });
    await expect.poll(() => page.locator(".search-form").isVisible(), { timeout: 15_000 }).toBe(true);
    expect((await searchFor(page, "queue pair")).length).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  it("without JavaScript, says where to browse instead and shows no dead form", async () => {
    const context = await site.browser.newContext({ javaScriptEnabled: false, viewport: viewports.desktop });
    const page = await context.newPage();
    await page.goto(`${site.server.origin}/search/`);
    expect(await page.locator(".search-form").isVisible()).toBe(false);
    const message = page.locator(".search-needs-script");
    expect(await message.isVisible()).toBe(true);
    expect(await message.locator("a").evaluateAll((links) => links.map((a) => a.getAttribute("href")))).toEqual([routes.posts(), routes.course(), routes.publications()]);
    await context.close();
  });

  it("never says it needs JavaScript while the index loads with it, and says so again when the index fails to load", async () => {
    const context = await site.browser.newContext({ viewport: viewports.phone });
    const page = await context.newPage();
    // Pagefind's script held back, as on a slow line, until the page has been looked at.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/pagefind/pagefind.js", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${site.server.origin}/search/?q=queue`);
    await page.waitForFunction(() => document.querySelector(".search-needs-script")?.hasAttribute("hidden"), null, { timeout: 5_000 });
    expect(await page.locator(".search-needs-script").isVisible()).toBe(false);
    release();
    await expect.poll(() => page.locator(".search-form").isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.locator(".search-needs-script").isVisible()).toBe(false);
    // The index does not load: the page says so and where to browse instead.
    await page.unroute("**/pagefind/pagefind.js");
    await page.route("**/pagefind/pagefind.js", (route) => route.abort());
    await page.goto(`${site.server.origin}/search/`);
    await expect.poll(() => page.locator(".search-status").textContent()).toBe(t("en", "search.failed"));
    expect(await page.locator(".search-needs-script").isVisible()).toBe(true);
    expect(await page.locator(".search-form").isVisible()).toBe(false);
    await context.close();
  });
});

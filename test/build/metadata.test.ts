// What every built page tells search engines and link previews: canonical address, description,
// Open Graph and Twitter tags, and JSON-LD that parses and has what its type requires.
import { describe, expect, it } from "vitest";
import { loadPage, pageUrls } from "../support/site.ts";

const ORIGIN = "https://renfeng.org";
const text = (el: Element | null | undefined) => (el?.textContent ?? "").replace(/\s+/g, " ").trim();
const content = (doc: Document, selector: string) => doc.querySelector(selector)?.getAttribute("content") ?? undefined;
type Thing = Record<string, unknown>;
const jsonLd = (doc: Document): Thing[] => [...doc.querySelectorAll('script[type="application/ld+json"]')].map((s) => JSON.parse(s.textContent!) as Thing);

/** What each type needs (schema.org, and what Google's rich results ask of it). */
const REQUIRED: Record<string, string[]> = {
  Person: ["name", "url", "sameAs"],
  BlogPosting: ["headline", "description", "datePublished", "author", "url"],
  Course: ["name", "description", "provider", "url"],
  LearningResource: ["name", "description", "url", "isPartOf", "author"],
  ScholarlyArticle: ["headline", "author", "datePublished", "isPartOf", "url"],
  BreadcrumbList: ["itemListElement"],
};

/** The page kind, by what the page shows. */
function kindOf(doc: Document, url: string): string | undefined {
  if (doc.querySelector("article.post")) return "BlogPosting";
  if (doc.querySelector("article.lesson")) return "LearningResource";
  if (doc.querySelector("article.paper")) return "ScholarlyArticle";
  if (doc.querySelector(".course-home")) return "Course";
  if (url === "/" || url === "/zh/") return "Person";
  return undefined;
}

const urls = (await pageUrls()).filter((url) => !loadPage(url).querySelector('meta[name="robots"][content~="noindex"]'));

describe("every indexable page", () => {
  it.each(urls)("%s: canonical, description, Open Graph and Twitter card, with absolute addresses", (url) => {
    const doc = loadPage(url);
    expect(doc.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(`${ORIGIN}${url}`);
    expect(content(doc, 'meta[property="og:url"]')).toBe(`${ORIGIN}${url}`);
    const description = content(doc, 'meta[name="description"]') ?? "";
    expect(description.length).toBeGreaterThan(10);
    // A summary, never the text itself.
    expect(description.length).toBeLessThan(Math.max(400, text(doc.querySelector("main")).length / 2));
    expect(content(doc, 'meta[property="og:description"]')).toBe(description);
    expect(content(doc, 'meta[name="twitter:description"]')).toBe(description);
    expect(content(doc, 'meta[property="og:title"]')).toBeTruthy();
    expect(content(doc, 'meta[name="twitter:card"]')).toMatch(/^summary(_large_image)?$/);
    const kind = kindOf(doc, url);
    expect(content(doc, 'meta[property="og:type"]')).toBe(kind && kind !== "Person" && kind !== "Course" ? "article" : "website");
    for (const image of [content(doc, 'meta[property="og:image"]'), content(doc, 'meta[name="twitter:image"]')]) if (image) expect(image.startsWith(`${ORIGIN}/`)).toBe(true);
  });

  it.each(urls)("%s: JSON-LD that parses, of the page's kind, with its required properties", (url) => {
    const doc = loadPage(url);
    const things = jsonLd(doc);
    for (const thing of things) {
      expect(thing["@context"]).toBe("https://schema.org");
      const required = REQUIRED[thing["@type"] as string];
      expect(required, `a known type: ${String(thing["@type"])}`).toBeDefined();
      for (const property of required!) expect(thing[property], `${String(thing["@type"])}.${property}`).toBeTruthy();
      for (const value of [thing.url, thing.mainEntityOfPage, thing.image].filter(Boolean)) expect(String(value).startsWith(`${ORIGIN}/`)).toBe(true);
    }
    const kind = kindOf(doc, url);
    expect(things.filter((t) => t["@type"] !== "BreadcrumbList").map((t) => t["@type"])).toEqual(kind ? [kind] : []);
    // Breadcrumbs: the data says what the page shows, in order.
    const shown = [...doc.querySelectorAll("nav.breadcrumbs a")].map((a) => [text(a), new URL(a.getAttribute("href")!, ORIGIN).href]);
    const trail = things.find((t) => t["@type"] === "BreadcrumbList");
    expect(trail ? (trail.itemListElement as { position: number; name: string; item: string }[]).map((i, n) => (expect(i.position).toBe(n + 1), [i.name, i.item])) : []).toEqual(shown);
  });
});

describe("the homepage's Person", () => {
  it("links the profiles elsewhere that the homepage shows", () => {
    const doc = loadPage("/");
    const person = jsonLd(doc).find((t) => t["@type"] === "Person")!;
    const shown = [...doc.querySelectorAll(".profile-links a[href^='https:']")].map((a) => a.getAttribute("href"));
    expect(person.sameAs).toEqual(shown);
  });
});

// The homepage in each language, as built: every fact from the data files, the same facts in both
// languages, and nothing the data does not hold.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parsePublications } from "../../src/bibtex.ts";
import { t } from "../../src/i18n.ts";
import { loadPage, readPage } from "../support/site.ts";

const data = (file: string) => parse(readFileSync(`_data/${file}`, "utf8"));
const profile = data("profile.yaml");
const papers = parsePublications(readFileSync("_data/publications.bib", "utf8"), "_data/publications.bib");
const text = (el: Element | null | undefined) => (el?.textContent ?? "").replace(/\s+/g, " ").trim();
const homes = [
  ["en", "/"],
  ["zh", "/zh/"],
] as const;
const inLanguage = <T>(value: T | Record<string, T>, lang: string): T => (value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, T>)[lang]! : (value as T));

describe.each(homes)("homepage (%s)", (lang, url) => {
  const doc = loadPage(url);

  it("names the person in the page's language, then in the other", () => {
    const names = profile.names as Record<string, string>;
    const others = Object.entries(names).filter(([l]) => l !== lang);
    expect(text(doc.querySelector("h1"))).toBe([names[lang], ...others.map(([, n]) => n)].join(" "));
    for (const [other, name] of others) expect(doc.querySelector(`h1 [lang="${other === "zh" ? "zh-CN" : other}"]`)?.textContent).toBe(name);
    expect(text(doc.querySelector(".headline"))).toBe(profile.headline[lang]);
  });

  it("has the About text of the profile, in the page's language", () => {
    const paragraphs = [...doc.querySelectorAll("#about ~ p:not(.email)")].map(text);
    expect(paragraphs).toEqual((profile.about[lang] as string[]).map((p) => p.replace(/\s+/g, " ").trim()));
  });

  it("links every profile and section in the data, labelled in the page's language", () => {
    const links = [...doc.querySelectorAll(".profile-links a")].map((a) => text(a));
    expect(links).toEqual(profile.links.map((l: { site?: string; route?: string }) => t(lang, l.site ? `links.${l.site}` : `nav.${l.route}`)));
    for (const l of profile.links.filter((l: { url?: string }) => l.url)) expect(doc.querySelector(`.profile-links a[href="${l.url}"]`), l.url).not.toBeNull();
  });

  it("links the course's first lesson with its title marked in the lesson's language", () => {
    const first = loadPage("/rdma101/").querySelector(".syllabus-lessons a")!.getAttribute("href")!;
    const lesson = loadPage(first);
    const title = text(lesson.querySelector("h1"));
    const link = doc.querySelector(`.course-card a[href="${first}"]`)!;
    // The innermost element that holds the whole title: a screen reader reads it in that element's language.
    const holder = [link, ...link.querySelectorAll("*")].reverse().find((el) => text(el).includes(title));
    expect(holder, first).toBeDefined();
    expect(holder!.closest("[lang]")!.getAttribute("lang")).toBe(lesson.documentElement.lang);
  });

  it("words its link to the first lesson as the course home does", () => {
    const course = loadPage("/rdma101/");
    const [start, first] = [course.querySelector("a.button-primary")!, course.querySelector(".syllabus-lessons a")!];
    const link = doc.querySelector(`.course-card a[href="${first.getAttribute("href")}"]`);
    const words = t(lang, "course.start", { number: text(first.querySelector(".lesson-number")), title: text(loadPage(first.getAttribute("href")!).querySelector("h1")) });
    expect(text(link)).toBe(words);
    // The course is in English: its home is the one other place the link is, in that language.
    if (lang === "en") expect(text(start)).toBe(words);
  });

  it("shows the e-mail only in its written-out form", () => {
    expect(text(doc.querySelector(".email"))).toContain("renfeng.chn AT outlook.com");
    expect(readPage(url)).not.toMatch(/renfeng\.chn@|renfeng\.chn&#64;|mailto:/);
  });

  // Full-width punctuation carries its own space: a space after it shows as a double gap.
  it.runIf(lang === "zh")("puts no space after a full-width colon in its labels (e-mail, the footer's feeds)", () => {
    const labelled = [doc.querySelector(".email"), ...doc.querySelectorAll(".site-footer p")].map(text);
    expect(labelled.filter((line) => line.includes("："))).toHaveLength(2);
    expect(labelled.filter((line) => /[：，。；] /.test(line))).toEqual([]);
  });

  it.each(["experience", "education"])("lists %s from its data file, newest first, under its heading", (id) => {
    const section = doc.getElementById(id)!.closest("section")!;
    expect(section.getAttribute("aria-labelledby")).toBe(id);
    const items = [...section.querySelectorAll("ol.timeline > li")].map((li) => [text(li.querySelector("h3")), text(li.querySelector(".role")), text(li.querySelector(".years"))]);
    const present = t(lang, "home.present");
    expect(items).toEqual(data(`${id}.yaml`).map((e: { organization: unknown; role: string; start: number; end: number | string }) => [inLanguage(e.organization, lang), e.role, `${e.start} – ${e.end === "present" ? present : e.end}`]));
  });

  it("lists exactly the papers in the BibTeX file, newest first, as published: full authors, venues, links", () => {
    const items = [...doc.querySelectorAll(".publications > li")];
    expect(items.map((li) => li.id)).toEqual(papers.map((p) => p.key));
    items.forEach((li, i) => {
      const paper = papers[i]!;
      expect(text(li.querySelector(".pub-title"))).toBe(paper.title);
      expect(li.querySelector(".pub-title a")?.getAttribute("href"), "links to the paper's page").toBe(`${url}publications/${paper.slug}/`);
      expect(text(li.querySelector(".pub-venue"))).toBe(`${paper.venue}, ${paper.year}${paper.award ? ` ${paper.award}` : ""}`);
      expect(text(li.querySelector(".pub-authors"))).toBe(paper.authors.map((a) => `${a.given} ${a.family}`.trim()).join(", "));
      expect([...li.querySelectorAll(".pub-authors strong.self")].map(text)).toEqual(["Feng Ren"]);
      expect([...li.querySelectorAll(".pub-links a")].map((a) => a.getAttribute("href"))).toEqual(paper.links.map((l) => l.url));
    });
  });

  it("offers each paper's BibTeX in a closed disclosure with a copy button", () => {
    const details = [...doc.querySelectorAll(".publications details.bibtex")];
    expect(details).toHaveLength(papers.length);
    for (const d of details) {
      expect(d.hasAttribute("open")).toBe(false);
      const code = d.querySelector("pre code")!;
      expect(code.textContent).toMatch(/^@(article|inproceedings)\{/);
      expect(d.querySelector(`button[data-copy-from="${code.id}"]`)?.hasAttribute("hidden")).toBe(true);
    }
  });

  it("has its language, the base layout's landmarks, canonical URL and skip link", () => {
    expect(doc.documentElement.lang).toBe(lang === "zh" ? "zh-CN" : "en");
    expect(doc.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(`https://renfeng.org${url}`);
    expect(doc.querySelector('meta[name="description"]')?.getAttribute("content")).toContain(lang === "zh" ? "任峰" : "Feng Ren");
    expect(doc.querySelector("a.skip-link")?.getAttribute("href")).toBe("#main");
    expect(doc.querySelectorAll("header, nav[aria-label], main#main, footer")).toHaveLength(4);
    expect(text(doc.querySelector("footer"))).toMatch(/© \d{4} (Feng Ren|任峰)/);
  });
});

describe("the two homepages", () => {
  it("state the same facts: papers as published, years, profiles elsewhere and the e-mail", () => {
    const facts = (url: string) => {
      const doc = loadPage(url);
      const all = (selector: string) => [...doc.querySelectorAll(selector)].map((el) => text(el));
      return {
        papers: all(".publications :is(.pub-title, .pub-authors, .pub-venue)"),
        bibtex: all(".publications pre"),
        years: all(".timeline .years").map((y) => y.replace(/\D+$/, "")),
        profiles: [...doc.querySelectorAll(".profile-links a[href^='https:']")].map((a) => a.getAttribute("href")),
        email: text(doc.querySelector(".email-address")),
      };
    };
    expect(facts("/zh/")).toEqual(facts("/"));
  });
});

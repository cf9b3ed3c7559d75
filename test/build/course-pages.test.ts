// RDMA 101's pages that gather the lessons: the whole course on one page (for print), the labs,
// and the where-to-look index.
import { describe, expect, it } from "vitest";
import { loadPage } from "../support/site.ts";

const home = () => loadPage("/rdma101/");
const lessonUrls = () => [...home().querySelectorAll(".syllabus-lessons a")].map((a) => a.getAttribute("href")!);
const idsOf = (root: ParentNode) => [...root.querySelectorAll("[id]")].map((el) => el.id);

describe("RDMA 101 on one page, for print", () => {
  const print = () => loadPage("/rdma101/print/");
  const printed = () => [...print().querySelectorAll("article.print-lesson")];

  it("is linked from the course home and shows every lesson, in order, without the course's navigation", () => {
    expect([...home().querySelectorAll("a")].map((a) => a.getAttribute("href"))).toContain("/rdma101/print/");
    expect(printed().map((article) => article.querySelector(".post-meta a")!.getAttribute("href"))).toEqual(lessonUrls());
    expect(print().querySelector(".course-nav, .pager, .breadcrumbs")).toBeNull();
  });

  it("holds no id twice, and every in-page link and label reference resolves", () => {
    const doc = print();
    const ids = idsOf(doc);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const known = new Set(ids);
    const fragments = [...doc.querySelectorAll('a[href^="#"]')].map((a) => decodeURIComponent(a.getAttribute("href")!.slice(1)));
    expect(fragments.length).toBeGreaterThan(0);
    expect(fragments.filter((id) => !known.has(id))).toEqual([]);
    const labels = [...doc.querySelectorAll("[aria-labelledby]")].flatMap((el) => el.getAttribute("aria-labelledby")!.split(/\s+/));
    expect(labels.filter((id) => !known.has(id))).toEqual([]);
  });

  it("shows each lesson's own body with its ids scoped, its answers open, and its links to lessons within the page", () => {
    const urls = new Set(lessonUrls());
    for (const article of printed()) {
      const url = article.querySelector(".post-meta a")!.getAttribute("href")!;
      const own = loadPage(url).querySelector(".lesson-body")!;
      const body = article.querySelector(".lesson-body")!;
      const section = article.querySelector("h3")!.id;
      // Footnotes keep their prefix: fn1 → fn<lesson>-1; every other id starts with the lesson's.
      const scoped = (id: string) => id.replace(/^(fn(?:ref)?(?=\d))?/, (fn) => `${fn}${section}-`);
      expect(idsOf(body), url).toEqual(idsOf(own).map(scoped));
      expect(body.querySelectorAll("details.answer").length, url).toBe(own.querySelectorAll("details.answer").length);
      expect(body.querySelectorAll("details.answer:not([open])").length, url).toBe(0);
      const toLessons = [...body.querySelectorAll("a[href]")].map((a) => a.getAttribute("href")!).filter((href) => urls.has(href.split("#")[0]!));
      expect(toLessons, url).toEqual([]);
    }
  });
});

// RDMA 101's pages that gather the lessons: the whole course on one page (for print), the labs,
// and the where-to-look index.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { LAB_COMMANDS, loadRun, runIds } from "../../src/lab/runs.ts";
import { parseTranscript } from "../../src/lab/transcript.ts";
import { t } from "../../src/i18n.ts";
import { labAnchor } from "../../src/urls.ts";
import { fileFor, lessonUrls, loadPage } from "../support/site.ts";

const home = () => loadPage("/rdma101/");
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

  it("says once, above the lessons, what the lab is and what its timings mean; each lesson's transcripts still name their runs", () => {
    const doc = print();
    const software = t("en", "transcript.software");
    const said = (root: Element) => root.textContent!.split(software).length - 1;
    expect(said(doc.body)).toBe(1);
    expect(said(doc.querySelector(".course-print > p:not(.lede)")!)).toBe(1);
    for (const article of printed()) {
      const url = article.querySelector(".post-meta a")!.getAttribute("href")!;
      const runsNamed = (root: ParentNode) => [...root.querySelectorAll("figure.transcript > figcaption a")].map((a) => a.getAttribute("href"));
      expect(runsNamed(article), url).toEqual(runsNamed(loadPage(url)));
    }
  });
});

/** Every link on a page to a course page resolves: the page exists, and so does the id a fragment names. */
function unresolvedLinks(url: string): string[] {
  const doc = loadPage(url);
  const ownIds = new Set(idsOf(doc));
  return [...doc.querySelectorAll("a[href]")].flatMap((a) => {
    const href = a.getAttribute("href")!;
    const [path, fragment] = href.split("#") as [string, string | undefined];
    if (path === "") return ownIds.has(decodeURIComponent(fragment!)) ? [] : [href];
    if (!path.startsWith("/rdma101/")) return [];
    if (!existsSync(fileFor(path))) return [href];
    return fragment === undefined || loadPage(path).getElementById(decodeURIComponent(fragment)) ? [] : [href];
  });
}

describe("the labs page", () => {
  const labs = () => loadPage("/rdma101/labs/");

  it("lists every lab run, under the lesson its manifest names, in course order", () => {
    const doc = labs();
    const ids = runIds();
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      const section = doc.getElementById(labAnchor(id))?.closest("section.lab");
      expect(section, id).toBeTruthy();
      const lessonLink = section!.closest("section.lab-lesson")!.querySelector("h2 a")!.getAttribute("href");
      expect(lessonLink, id).toBe(`/rdma101/${loadRun(id).lesson}/`);
      expect(section!.textContent, id).toContain(LAB_COMMANDS.run(id));
    }
    const order = [...doc.querySelectorAll("section.lab-lesson h2 a")].map((a) => a.getAttribute("href")!);
    expect(order).toEqual(lessonUrls().filter((url) => order.includes(url)));
    expect(doc.querySelectorAll("section.lab").length).toBe(ids.length);
  });

  it("shows each run's commands and its captured transcript, every step of it", () => {
    for (const id of runIds()) {
      const run = loadRun(id);
      const section = labs().getElementById(labAnchor(id))!.closest("section.lab")!;
      const steps = [...section.querySelectorAll(".lab-steps > li")];
      expect(steps.length, id).toBe(run.steps.length);
      run.steps.forEach((step, i) => expect(steps[i]!.querySelector("code")!.textContent, `${id} ${step.name}`).toContain(step.run));
      const stored = parseTranscript(readFileSync(run.transcriptFile, "utf8"), run.transcriptFile);
      const shown = [...section.querySelectorAll(".lab-output pre")].map((pre) => pre.textContent!);
      expect(shown.length, id).toBe(stored.length);
      stored.forEach((s, i) => expect(shown[i], `${id} ${s.name}`).toContain(s.output.trim().split("\n")[0]!));
    }
  });

  it("offers the two-VM shell only for runs on the UDP wire it opens (a TCP-wire run boots its wire only when run whole)", () => {
    const doc = labs();
    for (const id of runIds()) {
      const run = loadRun(id);
      const note = doc.getElementById(labAnchor(id))!.closest("section.lab")!.querySelector("p")!.textContent!;
      expect(note.includes(LAB_COMMANDS.twoVms), id).toBe(run.vms === 2 && run.wire === "udp");
    }
  });

  it("is linked from the course home, and every link on it resolves", () => {
    expect([...home().querySelectorAll("a")].map((a) => a.getAttribute("href"))).toContain("/rdma101/labs/");
    expect(unresolvedLinks("/rdma101/labs/")).toEqual([]);
  });
});

/** A heading's section: its text and all up to the next heading of its level or above. */
function sectionText(heading: Element): string {
  const level = Number(heading.tagName[1]);
  let text = heading.textContent ?? "";
  for (let el = heading.nextElementSibling; el && !(/^H[1-6]$/.test(el.tagName) && Number(el.tagName[1]) <= level); el = el.nextElementSibling) text += ` ${el.textContent}`;
  return text;
}

describe("the where-to-look index", () => {
  const glossary = () => loadPage("/rdma101/glossary/");
  const lists = () => [...glossary().querySelectorAll(".lookup .lookup-list")];

  it("is linked from the course home, lists every place of _data/lookup.yaml, and every link on the glossary resolves", () => {
    expect([...home().querySelectorAll("a")].map((a) => a.getAttribute("href"))).toContain("/rdma101/glossary/#where-to-look");
    const data = parse(readFileSync("_data/lookup.yaml", "utf8")) as Record<"devices" | "apis" | "symptoms", unknown[]>;
    expect(lists().map((dl) => dl.querySelectorAll("dd a").length)).toEqual([data.devices.length, data.apis.length, data.symptoms.length]);
    const ids = idsOf(glossary());
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(unresolvedLinks("/rdma101/glossary/")).toEqual([]);
  });

  it("points every name at a heading of a lesson, and every API at a section that mentions it", () => {
    const urls = lessonUrls();
    const [, apis] = lists();
    for (const dl of lists()) {
      for (const a of dl.querySelectorAll("dd a")) {
        const [path, id] = a.getAttribute("href")!.split("#") as [string, string];
        expect(urls, a.getAttribute("href")!).toContain(path);
        const heading = loadPage(path).getElementById(id);
        expect(heading?.tagName, a.getAttribute("href")!).toMatch(/^H[2-4]$/);
        if (dl !== apis) continue;
        let dt = a.parentElement!.previousElementSibling;
        while (dt && dt.tagName !== "DT") dt = dt.previousElementSibling;
        expect(sectionText(heading!), `${dt!.textContent} at ${a.getAttribute("href")}`).toContain(dt!.textContent);
      }
    }
  });
});

// RDMA 101 as built: navigation derived from the files, glossary anchors, legacy redirects, feed.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { JSDOM } from "jsdom";
import { parse } from "yaml";
import { builtFiles, fileFor, lessonUrls, loadPage, siteDir, urlOf } from "../support/site.ts";

const home = () => loadPage("/rdma101/");
const parts = (parse(readFileSync("_data/course.yaml", "utf8")) as { parts: { slug: string; title: string }[] }).parts;

describe("RDMA 101", () => {
  it("lists every lesson in the syllabus, with parts from data and a start link", () => {
    const doc = home();
    expect(doc.querySelector("a.button-primary")?.getAttribute("href")).toBe(lessonUrls()[0]);
    expect([...doc.querySelectorAll(".syllabus-part h3")].map((h) => h.textContent)).toEqual(parts.map((p, i) => `Part ${i + 1}: ${p.title}`));
    for (const id of ["who-it-is-for", "prerequisites", "without-hardware", "syllabus"]) expect(doc.getElementById(id)).not.toBeNull();
  });

  it("shows the backticked spans of the course home's data as code, with no backtick left over", () => {
    const course = parse(readFileSync("_data/course.yaml", "utf8")) as { audience: string; prerequisites: string[]; withoutHardware: string };
    const spans = [course.audience, ...course.prerequisites, course.withoutHardware].flatMap((text) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]));
    const doc = home();
    const sections = ["who-it-is-for", "prerequisites", "without-hardware"].map((id) => doc.getElementById(id)!.nextElementSibling!);
    expect(sections.flatMap((section) => [...section.querySelectorAll("code")].map((code) => code.textContent))).toEqual(spans);
    for (const section of sections) expect(section.textContent).not.toContain("`");
  });

  it("shows every lesson in the sidebar of every lesson, marking only the current one", () => {
    const urls = lessonUrls();
    for (const url of urls) {
      const doc = loadPage(url);
      const sidebar = [...doc.querySelectorAll(".course-nav .course-lessons:not(.course-reference) a")].map((a) => a.getAttribute("href"));
      expect(sidebar).toEqual(urls);
      const reference = [...doc.querySelectorAll(".course-nav .course-reference a")].map((a) => a.getAttribute("href"));
      expect(reference).toEqual(["/rdma101/glossary/", "/rdma101/glossary/#where-to-look", "/rdma101/labs/", "/rdma101/print/"]);
      expect([...doc.querySelectorAll('.course-nav [aria-current="page"]')].map((a) => a.getAttribute("href"))).toEqual([url]);
      expect(doc.querySelector(".lesson-kicker")?.textContent).toMatch(new RegExp(`Lesson ${urls.indexOf(url) + 1} of ${urls.length}$`));
      expect(doc.querySelectorAll(".objectives li").length).toBeGreaterThan(0);
    }
  });

  it("names the course in every lesson's document title, between the lesson's title and the site's", () => {
    const course = (parse(readFileSync("_data/course.yaml", "utf8")) as { title: string }).title;
    const site = (parse(readFileSync("_data/site.yaml", "utf8")) as { title: { en: string } }).title.en;
    for (const url of lessonUrls()) {
      const doc = loadPage(url);
      expect(doc.title, url).toBe(`${doc.querySelector("h1")!.textContent!.trim()} · ${course} · ${site}`);
    }
  });

  it("chains previous and next through every lesson exactly once, across parts", () => {
    const urls = lessonUrls();
    const visited: string[] = [];
    let url: string | undefined = urls[0];
    while (url && url.startsWith("/rdma101/") && url !== "/rdma101/" && visited.length <= urls.length) {
      visited.push(url);
      const doc = loadPage(url);
      const previous = doc.querySelector('.pager a[rel="prev"]')?.getAttribute("href");
      expect(previous).toBe(visited.length > 1 ? visited[visited.length - 2] : undefined);
      url = doc.querySelector('.pager a[rel="next"]')?.getAttribute("href") ?? undefined;
    }
    expect(visited).toEqual(urls);
    // The last lesson has no next lesson: it leads back to the course home, which is not "next".
    expect(url).toBeUndefined();
    expect(loadPage(urls.at(-1)!).querySelector(".pager a.pager-end")?.getAttribute("href")).toBe("/rdma101/");
    // The first lesson has no previous one: it leads back to the course home, which is not "previous".
    expect(loadPage(urls[0]!).querySelector(".pager a.pager-start")?.getAttribute("href")).toBe("/rdma101/");
    expect(urls.slice(1).filter((u) => loadPage(u).querySelector(".pager a.pager-start"))).toEqual([]);
    // The last lesson of each part but the last introduces the next part; no other lesson does.
    const sections = [...home().querySelectorAll(".syllabus-part")].map((section) => [...section.querySelectorAll(".syllabus-lessons a")].map((a) => a.getAttribute("href")!));
    sections.forEach((lessons, i) => {
      for (const url of lessons) {
        const next = loadPage(url).querySelector(".next-part h2")?.textContent;
        expect(next, url).toBe(url === lessons.at(-1) && parts[i + 1] ? `Next: Part ${i + 2}, ${parts[i + 1]!.title}` : undefined);
      }
    });
  });

  it("leads every lesson's breadcrumbs to the course home and to its part in the syllabus, not to a lesson", () => {
    // The syllabus: each part's heading, and the lessons listed under it.
    const sections = [...home().querySelectorAll(".syllabus-part")].map((section) => ({
      heading: section.querySelector("h3")!,
      lessons: [...section.querySelectorAll(".syllabus-lessons a")].map((a) => a.getAttribute("href")!),
    }));
    for (const url of lessonUrls()) {
      const crumbs = [...loadPage(url).querySelectorAll("nav.breadcrumbs a")];
      // Only the last names this page (and says so); the part's crumb is not its first lesson.
      expect(crumbs.map((a) => a.getAttribute("href") === url), url).toEqual(crumbs.map((_, i) => i === crumbs.length - 1));
      expect(crumbs.at(-1)!.getAttribute("aria-current"), url).toBe("page");
      const part = crumbs.at(-2)!;
      const [path, id] = part.getAttribute("href")!.split("#");
      expect(path, url).toBe("/rdma101/");
      const { heading } = sections.find((s) => s.lessons.includes(url))!;
      expect(heading.id, url).toBe(id);
      expect(part.textContent, url).toBe(heading.textContent);
    }
  });

  it("resolves every glossary link in every lesson, and every glossary term links a lesson", () => {
    const glossary = loadPage("/rdma101/glossary/");
    const ids = new Set([...glossary.querySelectorAll("dt[id]")].map((dt) => dt.id));
    // The terms the course's brief names, each defined.
    for (const id of ["rdma", "verbs", "rnic", "hca", "pd", "mr", "lkey", "rkey", "qp", "rc", "uc", "ud", "wr", "wqe", "sge", "cq", "cqe", "psn", "gid", "lid", "roce-v2", "iwarp", "infiniband", "doorbell", "inline", "srq", "rnr", "odp"]) {
      expect(ids, id).toContain(id);
    }
    const links = lessonUrls().flatMap((url) => [...loadPage(url).querySelectorAll('.lesson-body a[href^="/rdma101/glossary/#"]')].map((a) => `${url} links ${a.getAttribute("href")}`));
    expect(links.length, "links from lessons to glossary terms").toBeGreaterThan(0);
    expect(links.filter((link) => !ids.has(link.split("#")[1]!))).toEqual([]);
    // One lesson link per term of _data/glossary.yaml, each to a lesson of the course.
    const terms = parse(readFileSync("_data/glossary.yaml", "utf8")) as unknown[];
    const homes = [...glossary.querySelectorAll(".glossary > dl > dd")].map((dd) => dd.querySelector("a")?.getAttribute("href"));
    expect(homes).toHaveLength(terms.length);
    expect(homes.filter((href) => !lessonUrls().includes(href!))).toEqual([]);
  });

  it("holds every lesson to the course's standard: length, a diagram or table, takeaways, exercises with answers, sources", () => {
    for (const url of lessonUrls()) {
      const doc = loadPage(url);
      const body = doc.querySelector(".lesson-body")!;
      // Each block of prose once: a paragraph inside a list item is counted with the item.
      const blocks = "p, li, td, th, dd";
      const prose = [...body.querySelectorAll(blocks)].filter((el) => !el.closest("pre, .code-block") && !el.parentElement?.closest(blocks)).map((el) => el.textContent ?? "").join(" ");
      expect(prose.split(/\s+/).filter(Boolean).length, `${url}: words`).toBeGreaterThanOrEqual(1200);
      expect(body.querySelectorAll("figure.figure svg[role=img][aria-label], figure.table-figure").length, `${url}: diagrams or tables`).toBeGreaterThan(0);
      expect(body.querySelector("section.takeaways li"), `${url}: takeaways`).not.toBeNull();
      expect(doc.getElementById("exercises"), `${url}: exercises`).not.toBeNull();
      expect(body.querySelectorAll("details.answer").length, `${url}: answers`).toBeGreaterThanOrEqual(3);
      // Evidence links sit in a Sources section at the end, out of the reading path.
      const sources = doc.getElementById("sources");
      expect(sources, `${url}: sources`).not.toBeNull();
      expect(sources!.parentElement!.querySelectorAll('a[href^="https://"]').length, `${url}: source links`).toBeGreaterThan(0);
    }
  });

  it("refers only to figures and tables that the lesson itself numbers (numbering is per page)", () => {
    for (const url of lessonUrls()) {
      const body = loadPage(url).querySelector(".lesson-body")!;
      const numbered = new Set([...body.querySelectorAll(".caption-number")].map((c) => c.textContent!.replace(/\.$/, "")));
      const text = [...body.querySelectorAll("p, li, td")].filter((el) => !el.closest("figcaption, pre")).map((el) => el.textContent).join(" ");
      for (const [ref] of text.matchAll(/\b(?:Figure|Table) \d+/g)) expect(numbered, `${url} mentions ${ref}`).toContain(ref);
    }
  });

  it("captions a lesson's transcripts without repeating itself: each names its run, linked to the run's entry on the labs page, once", () => {
    const labs = loadPage("/rdma101/labs/");
    let captioned = 0;
    for (const url of lessonUrls()) {
      const captions = [...loadPage(url).querySelectorAll("figure.transcript > figcaption")];
      const texts = captions.map((c) => c.textContent!.trim());
      expect(texts.filter((c, i) => texts.indexOf(c) !== i), url).toEqual([]);
      for (const caption of captions) {
        const [path, anchor] = caption.querySelector("a")!.getAttribute("href")!.split("#");
        expect(path, url).toBe("/rdma101/labs/");
        expect(labs.getElementById(anchor!), `${url}: #${anchor}`).not.toBeNull();
        captioned++;
      }
    }
    expect(captioned).toBeGreaterThan(1);
    // The labs page names each run above its transcript, and says once what the lab is.
    expect(labs.querySelectorAll("figure.transcript").length).toBeGreaterThan(0);
    expect(labs.querySelectorAll("figure.transcript > figcaption")).toHaveLength(0);
  });

  it("answers every /RDMA101/ address with a redirect to an existing page", () => {
    const urls = ["/rdma101/", "/rdma101/glossary/", ...lessonUrls()];
    for (const url of urls) {
      const legacy = url.replace("/rdma101/", "/RDMA101/");
      const doc = loadPage(legacy);
      const target = doc.querySelector('meta[http-equiv="refresh"]')?.getAttribute("content");
      expect(target).toBe(`0; url=${url}`);
      expect(doc.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(`https://renfeng.org${url}`);
      expect(existsSync(fileFor(url))).toBe(true);
    }
  });

  it("keeps every moved lesson's old address working, on every host, straight to a lesson", () => {
    const rules = readFileSync(fileFor("/_redirects"), "utf8").split("\n").filter((l) => l.startsWith("/rdma101/")).map((l) => l.split(/\s+/));
    // Exactly the old addresses the lessons' own `formerly` fields name, each to its lesson.
    const moved = readdirSync("posts/rdma101", { recursive: true, encoding: "utf8" })
      .filter((file) => /^\d+-[^/]+\/\d+-[^/]+\.md$/.test(file.split(path.sep).join("/")))
      .flatMap((file) => {
        const fields = parse(readFileSync(path.join("posts/rdma101", file), "utf8").split(/^---\s*$/m)[1]!) as { formerly?: string[] };
        const lesson = `/rdma101/${file.split(path.sep).map((name) => name.replace(/^\d+-|\.md$/g, "")).join("/")}/`;
        return (fields.formerly ?? []).map((ref) => `/rdma101/${ref}/ ${lesson}`);
      });
    expect(rules.map(([from, to]) => `${from} ${to}`).sort()).toEqual(moved.sort());
    for (const [from, to, status] of rules) {
      expect(lessonUrls(), `${from} → ${to}`).toContain(to);
      expect(status).toBe("301");
      for (const old of [from!, from!.replace("/rdma101/", "/RDMA101/")]) {
        expect(loadPage(old).querySelector('meta[http-equiv="refresh"]')?.getAttribute("content"), old).toBe(`0; url=${to}`);
      }
    }
  });

  it("sends every other old /RDMA101/ address to its new home on hosts that read _redirects", async () => {
    const rules = readFileSync(fileFor("/_redirects"), "utf8").split("\n").filter((l) => l.startsWith("/")).map((l) => l.split(/\s+/));
    const redirect = (from: string) => {
      for (const [pattern, to, status] of rules) {
        if (pattern === from) return { to, status };
        if (pattern!.endsWith("/*") && from.startsWith(pattern!.slice(0, -1))) return { to: to!.replace(":splat", from.slice(pattern!.length - 1)), status };
      }
    };
    const courseUrls = (await builtFiles()).map((f) => urlOf(f)).filter((u) => u.startsWith("/rdma101/"));
    expect(courseUrls).toContain("/rdma101/feed.xml");
    // A moved lesson's old address is itself a redirect page; its upper-case form goes straight to
    // the lesson (the test above), every other address to its lower-case twin.
    const target = (url: string) => rules.find(([from]) => from === url)?.[1] ?? url;
    for (const url of courseUrls) {
      const old = url.replace("/rdma101/", "/RDMA101/");
      expect(redirect(old), old).toEqual({ to: target(url), status: "301" });
    }
    expect(redirect("/RDMA101")).toEqual({ to: "/rdma101/", status: "301" });
  });

  it("publishes an Atom feed of lessons", () => {
    const xml = new JSDOM(readFileSync(fileFor("/rdma101/feed.xml"), "utf8"), { contentType: "text/xml" }).window.document;
    const entries = [...xml.querySelectorAll("entry")];
    expect(entries.map((e) => e.querySelector("link")!.getAttribute("href")!.replace("https://renfeng.org", ""))).toEqual(lessonUrls());
    expect(xml.querySelector("feed > updated")?.textContent).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("publishes each complete program for download", () => {
    const downloads = lessonUrls().flatMap((url) => [...loadPage(url).querySelectorAll("figure.example a[download]")].map((a) => a.getAttribute("href")!));
    expect(downloads).toContain("/rdma101/examples/list_devices.c");
    for (const href of downloads) expect(existsSync(fileFor(href)), href).toBe(true);
    expect(readFileSync(`${siteDir()}/rdma101/examples/list_devices.c`, "utf8")).toContain("ibv_get_device_list");
  });
});

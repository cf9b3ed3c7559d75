// The homepage as built: every fact from the data files, and nothing the data does not hold.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parsePublications } from "../../src/bibtex.ts";
import { loadPage, readPage } from "../support/site.ts";

const profile = parse(readFileSync("_data/profile.yaml", "utf8"));
const text = (el: Element | null | undefined) => (el?.textContent ?? "").replace(/\s+/g, " ").trim();
let doc: Document;
beforeAll(() => {
  doc = loadPage("/");
});

describe("homepage", () => {
  it("names the person, in English and Chinese, with the headline", () => {
    expect(text(doc.querySelector("h1"))).toBe("Feng Ren 任峰");
    expect(doc.querySelector("h1 [lang='zh-Hans']")?.textContent).toBe("任峰");
    expect(text(doc.querySelector(".headline"))).toBe("Independent researcher in networking and storage systems for LLM serving");
    expect(doc.title).toBe("Feng Ren");
  });

  it("has both About paragraphs, faithful to the profile", () => {
    const paragraphs = [...doc.querySelectorAll("#about ~ p:not(.email)")].map(text);
    expect(paragraphs).toEqual([
      "I'm Feng Ren (任峰), an independent researcher working on networking and storage systems for LLM serving. I have been a co-founder of Mooncake since 2024, and I am the author and a core maintainer of Mooncake Transfer Engine.",
      "After leaving my research position, I permanently stepped away from the conventional academic career path. I continue to do research, but on an independent agenda centered on building systems for real-world problems.",
    ]);
  });

  it("links every profile in the data", () => {
    const links = [...doc.querySelectorAll(".profile-links a")].map((a) => [text(a), a.getAttribute("href")]);
    const expected: Record<string, string> = { github: "GitHub", scholar: "Google Scholar", blog: "Blog", course: "RDMA 101" };
    expect(links).toEqual(profile.links.map((l: { type: string; url: string }) => [expected[l.type], l.url]));
    expect(links).toContainEqual(["GitHub", "https://github.com/alogfans"]);
    expect(links).toContainEqual(["Google Scholar", "https://scholar.google.com/citations?user=xqWDIyUAAAAJ"]);
  });

  it("shows the e-mail only in its written-out form", () => {
    expect(text(doc.querySelector(".email"))).toContain("Email: renfeng.chn AT outlook.com");
    expect(readPage("/")).not.toMatch(/renfeng\.chn@|renfeng\.chn&#64;|mailto:/);
  });

  it.each([
    ["experience", [["Approaching AI Inc.", "Technical Expert · AI Infrastructure", "2026 – Present"], ["9# AISoft, Beijing", "Associate Researcher", "2023 – 2026"]]],
    ["education", [["Tsinghua University", "Ph.D. in Computer Science and Technology", "2017 – 2023"], ["Xidian University", "B.Eng. in Computer Science and Technology", "2013 – 2017"]]],
  ])("lists %s as an ordered timeline under its heading", (id, rows) => {
    const section = doc.getElementById(id)!.closest("section")!;
    expect(section.getAttribute("aria-labelledby")).toBe(id);
    const items = [...section.querySelectorAll("ol.timeline > li")].map((li) => [text(li.querySelector("h3")), text(li.querySelector(".role")), text(li.querySelector(".years"))]);
    expect(items).toEqual(rows);
  });

  it("lists exactly the papers in the BibTeX file, newest first, with full authors and venues", () => {
    const papers = parsePublications(readFileSync("_data/publications.bib", "utf8"), "_data/publications.bib");
    const items = [...doc.querySelectorAll(".publications > li")];
    expect(items.map((li) => text(li.querySelector(".pub-title")))).toEqual([
      "TENT: A Declarative Slice Spraying Engine for Performant and Resilient Data Movement in Disaggregated LLM Serving",
      "Mooncake: A KVCache-centric Disaggregated Architecture for LLM Serving",
      "Mooncake: Trading More Storage for Less Computation — A KVCache-centric Architecture for Serving LLM Chatbot",
      "Scaling Up Memory Disaggregated Applications with Smart",
      "libcrpm: Improving the Checkpoint Performance of NVM",
    ]);
    expect(items.map((li) => text(li.querySelector(".pub-venue")))).toEqual([
      "arXiv preprint arXiv:2604.00368, 2026",
      "ACM Transactions on Storage, 2025",
      "23rd USENIX Conference on File and Storage Technologies (FAST '25), 2025 Best Paper award",
      "Proceedings of the 29th ACM International Conference on Architectural Support for Programming Languages and Operating Systems (ASPLOS '24), 2024",
      "Proceedings of the 59th ACM/IEEE Design Automation Conference (DAC '22), 2022",
    ]);
    expect(text(items[0]!.querySelector(".pub-authors"))).toBe(
      "Feng Ren, Ruoyu Qin, Teng Ma, Shangming Cai, Zheng Liu, Chao Lei, Dejiang Zhu, Ke Yang, Zheming Li, Jialei Cui, Weixiao Huang, Yikai Zhao, Yineng Zhang, Hao Wu, Xiang Gao, Yuhao Fu, Jinlei Jiang, Yongwei Wu, Mingxing Zhang",
    );
    expect(text(items[2]!.querySelector(".pub-authors"))).toBe(
      "Ruoyu Qin, Zheming Li, Weiran He, Jialei Cui, Feng Ren, Mingxing Zhang, Yongwei Wu, Weimin Zheng, Xinran Xu",
    );
    items.forEach((li, i) => {
      expect([...li.querySelectorAll(".pub-authors strong.self")].map(text)).toEqual(["Feng Ren"]);
      expect([...li.querySelectorAll(".pub-links a")].map((a) => a.getAttribute("href"))).toEqual(papers[i]!.links.map((l) => l.url));
    });
  });

  it("offers each paper's BibTeX in a closed disclosure with a copy button", () => {
    const details = [...doc.querySelectorAll(".publications details.bibtex")];
    expect(details).toHaveLength(5);
    for (const d of details) {
      expect(d.hasAttribute("open")).toBe(false);
      const code = d.querySelector("pre code")!;
      expect(code.textContent).toMatch(/^@(article|inproceedings)\{/);
      expect(d.querySelector(`button[data-copy-from="${code.id}"]`)?.hasAttribute("hidden")).toBe(true);
    }
  });

  it("has the base layout's landmarks, canonical URL and skip link", () => {
    expect(doc.documentElement.lang).toBe("en");
    expect(doc.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe("https://renfeng.org/");
    expect(doc.querySelector('meta[name="description"]')?.getAttribute("content")).toMatch(/Feng Ren/);
    expect(doc.querySelector("a.skip-link")?.getAttribute("href")).toBe("#main");
    expect(doc.querySelectorAll("header, nav[aria-label], main#main, footer")).toHaveLength(4);
    expect(text(doc.querySelector("footer"))).toContain("© 2026 Feng Ren");
  });
});

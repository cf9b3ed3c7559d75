import { mkdtemp, readFile, readdir, rm, stat } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Resvg } from "@resvg/resvg-js";
import { afterAll, describe, expect, it } from "vitest";
import { errorOf } from "../support/errors.ts";
import { parsePublications } from "../../src/bibtex.ts";
import { CARD_WIDTH, CARDS_PER_WORKER, DRAWING, cardHash, cardSvg, checkGlyphs, drawCards, fontCoverage, missingGlyphs, writeCards, type CardText } from "../../src/cards.ts";

const FONT = "src/cards/NotoSansSC-Bold-subset.ttf";
const papers = parsePublications(readFileSync("_data/publications.bib", "utf8"), "_data/publications.bib");
const titles = [
  ...papers.map((p) => p.title),
  "MMMM WWWW mmmm wwww MMMM WWWW mmmm wwww MMMM WWWW mmmm wwww MMMM WWWW mmmm wwww MMMM WWWW mmmm wwww MMMM WWWW",
  "不用 RDMA 网卡也能学 RDMA：RDMA 101 背后的 Soft-RoCE 实验环境与它能测出的一切和它测不出的那些东西",
  "Supercalifragilisticexpialidociousnessandthensomemorelettersthatneverbreak",
  "A",
];
const text = (title: string): CardText => ({ title, section: "RDMA 101 · 2.3", site: "Feng Ren" });
/** Where the drawn text really ends, as the renderer lays it out with the shipped font. */
const inkBox = (svg: string) => new Resvg(svg, DRAWING).getBBox()!;

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe("social cards", () => {
  it.each(titles)("set %j inside the card, above the rule, with margins", (title) => {
    const svg = cardSvg(text(title));
    // The template's background fills the card; measure the title alone.
    const titleOnly = svg.replace(/<rect[^>]*\/>/g, "").replace(/<text[^>]*>(?!<tspan)[^<]*<\/text>/g, "");
    const box = inkBox(titleOnly);
    expect(box.x).toBeGreaterThanOrEqual(70);
    expect(box.x + box.width).toBeLessThanOrEqual(CARD_WIDTH - 60);
    expect(box.y + box.height).toBeLessThanOrEqual(505);
    expect(box.y).toBeGreaterThanOrEqual(130);
  });

  it("knows which characters the shipped font can draw, and names those it cannot", () => {
    const covers = fontCoverage(readFileSync(FONT));
    expect(missingGlyphs({ title: "Queue pairs — 队列对 (QP)", section: "RDMA 101 · 2.3", site: "任峰" }, covers)).toEqual([]);
    expect(missingGlyphs({ title: "Fast 🚀 paths 🚀", section: "Blog", site: "Feng Ren" }, covers)).toEqual(["🚀"]);
    expect(errorOf(() => checkGlyphs({ title: "Fast 🚀", section: "Blog", site: "Feng Ren" }, covers, "/posts/fast/"))).toBe(
      `/posts/fast/: title: the social card's font (${FONT}) has no glyph for "🚀" (U+1F680); add them to the font's subset`,
    );
  });

  it("keeps the course's name on one line of a title, where the title would break inside it", () => {
    const title = "没有 RDMA 网卡的 RDMA：RDMA 101 背后的 Soft-RoCE 实验环境";
    const lines = (keep?: string) => [...cardSvg({ ...text(title), keep }).matchAll(/<tspan[^>]*>([^<]*)<\/tspan>/g)].map((m) => m[1]!);
    const splits = (set: string[]) => set.some((line, i) => /RDMA$/.test(line) && /^101/.test(set[i + 1] ?? ""));
    // Set as it comes, this title breaks between the two words: the case the name is kept for.
    expect(splits(lines())).toBe(true);
    expect(splits(lines("RDMA 101"))).toBe(false);
    // Nothing is lost: the lines hold the title's every character but the spaces they break at.
    expect(lines("RDMA 101").join("").replace(/\s/g, "")).toBe(title.replace(/\s/g, ""));
  });

  it("escapes the text it sets", () => {
    expect(cardSvg({ title: "a <b> & c", section: "<s>", site: "x" })).toContain("a &lt;b&gt; &amp; c");
  });

  it("draws each card as a 1200×630 PNG, in order, the same bytes every time", async () => {
    const pngs = await drawCards(["Queue pairs", "Completion queues", "Queue pairs"].map((title) => cardSvg(text(title))));
    expect(pngs).toHaveLength(3);
    const [png] = pngs as [Buffer];
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    expect(pngs[2]!.equals(png)).toBe(true);
    expect(pngs[1]!.equals(png)).toBe(false);
  });

  it("names the page whose card cannot be drawn", async () => {
    await expect(drawCards([cardSvg(text("Fine")), "not an svg"], ["/posts/fine/", "/posts/broken/"])).rejects.toThrow(/^\/posts\/broken\/: social card: /);
  });

  it("names a card by what it shows, and draws an unchanged card only once", async () => {
    const hashOf = (t: CardText) => cardHash(cardSvg(t));
    expect(hashOf(text("A"))).toBe(hashOf(text("A")));
    expect(hashOf(text("A"))).not.toBe(hashOf(text("B")));
    expect(hashOf(text("A"))).not.toBe(hashOf({ ...text("A"), site: "任峰" }));
    // Anything that changes the drawing changes the name: the template and the layout, not just the text.
    expect(cardHash(cardSvg(text("A"), "<svg>{titleLines}{section}{site}{titleSize}</svg>"))).not.toBe(hashOf(text("A")));
    const [cache, out] = await Promise.all([mkdtemp(path.join(tmpdir(), "cards-cache-")), mkdtemp(path.join(tmpdir(), "cards-out-"))]);
    dirs.push(cache, out);
    const cards = new Map(["<svg>A</svg>", "<svg>B</svg>"].map((svg) => [cardHash(svg), { svg, page: "/p/" }]));
    const drawn: string[] = [];
    const draw = async (svgs: readonly string[]) => (drawn.push(...svgs), svgs.map((svg) => Buffer.from(svg)));
    expect(await writeCards(cards, out, cache, draw)).toBe(2);
    expect(await writeCards(cards, out, cache, draw)).toBe(0);
    expect(drawn).toEqual(["<svg>A</svg>", "<svg>B</svg>"]);
    const written = await readdir(path.join(out, "img/cards"));
    expect(written.sort()).toEqual([...cards.keys()].map((h) => `${h}.png`).sort());
    expect((await readFile(path.join(out, "img/cards", `${cardHash("<svg>B</svg>")}.png`))).toString()).toBe("<svg>B</svg>");
    // The output's card is the cached file under a second name, not a copy of its bytes.
    const hash = cardHash("<svg>A</svg>");
    const [inOutput, inCache] = await Promise.all([stat(path.join(out, "img/cards", `${hash}.png`)), stat(path.join(cache, `${hash}.png`))]);
    expect(inOutput.ino).toBe(inCache.ino);
  });

  it("keeps the cards drawn before a worker fails, for the next build", async () => {
    const [cache, out] = await Promise.all([mkdtemp(path.join(tmpdir(), "cards-cache-")), mkdtemp(path.join(tmpdir(), "cards-out-"))]);
    dirs.push(cache, out);
    const svgs = Array.from({ length: CARDS_PER_WORKER + 1 }, (_, i) => `<svg>${i}</svg>`);
    const cards = new Map(svgs.map((svg) => [cardHash(svg), { svg, page: "/p/" }]));
    let workers = 0;
    const draw = async (batch: readonly string[]) => {
      if (++workers > 1) throw new Error("the second worker fails");
      return batch.map((svg) => Buffer.from(svg));
    };
    await expect(writeCards(cards, out, cache, draw)).rejects.toThrow("the second worker fails");
    expect((await readdir(cache)).sort()).toEqual(svgs.slice(0, CARDS_PER_WORKER).map((svg) => `${cardHash(svg)}.png`).sort());
  });
});

// Social cards: a 1200×630 PNG for every post, lesson and paper page, for link previews. Each is
// drawn from one SVG template (src/cards/card.svg) with the font that ships beside it, so every
// machine draws the same bytes. A card is named by the hash of everything that shapes it (template,
// font, renderer, layout, text): an unchanged page keeps its card, found in .cache/cards/, not redrawn.
import { createHash } from "node:crypto";
import { copyFile, link, mkdir, rename, writeFile } from "node:fs/promises";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type UserConfig from "@11ty/eleventy/UserConfig";
import type { ResvgRenderOptions } from "@resvg/resvg-js";
import { escapeHtml, wordsPattern } from "./html.ts";
import { t } from "./i18n.ts";
import type { PageFacts } from "./metadata.ts";
import type { CourseData, Site } from "./schemas.ts";
import { routes } from "./urls.ts";
import { contentError } from "./validation.ts";

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
const CARDS_DIR = "src/cards";
const TEMPLATE = `${CARDS_DIR}/card.svg`;
const FONT = `${CARDS_DIR}/NotoSansSC-Bold-subset.ttf`;
const CACHE_DIR = ".cache/cards";

/** What a card shows. */
export interface CardText {
  title: string;
  section: string;
  site: string;
  /** Words the title keeps on one line where it has them (the course's name). */
  keep?: string;
}

// The title block: left edge and width, and the band it is centred in (below the section, above the rule).
const TITLE_X = 80;
const TITLE_WIDTH = 1040;
const TITLE_TOP = 150;
const TITLE_BOTTOM = 490;
/** Sizes to try, largest first; the smallest truncates what does not fit. */
const TITLE_SIZES = [64, 56, 48, 42];
const LINE_HEIGHT = 1.22;

/**
 * A character's advance in ems in the shipped bold face, rounded up from measured averages: Han and
 * full-width forms 1, the widest Latin letters 0.9, capitals 0.68, narrow letters and punctuation
 * 0.33, a space 0.23, the rest 0.6.
 */
function advance(ch: string): number {
  if (/[\p{Script=Han}\u3000-\u303f\uff00-\uffef]/u.test(ch)) return 1;
  if (/[MWmw@%]/.test(ch)) return 0.9;
  if (/[A-Z]/.test(ch) && !/[IJ]/.test(ch)) return 0.68;
  if (/[iljtfIJ.,:;'!|()[\]]/.test(ch)) return 0.33;
  if (ch === " ") return 0.23;
  return 0.6;
}
const widthOf = (text: string, size: number): number => [...text].reduce((w, ch) => w + advance(ch) * size, 0);

/** A word too wide for a line, in pieces that fit. */
function splitWord(word: string, size: number, width: number): string[] {
  const pieces = [""];
  for (const ch of word) {
    if (widthOf(pieces.at(-1)! + ch, size) > width) pieces.push("");
    pieces[pieces.length - 1] += ch;
  }
  return pieces;
}

/**
 * Breaks a title into lines no wider than the title block: between words, between any two Han
 * characters (Chinese has no spaces), and inside a word only when it is wider than a line; never
 * inside `keep` (the course's name).
 */
function wrapTitle(title: string, size: number, width = TITLE_WIDTH, keep?: string): string[] {
  const kept = keep === undefined ? undefined : wordsPattern(keep);
  const splitter = new RegExp(`${kept ? `${kept.source}|` : ""}[\\p{Script=Han}\\u3000-\\u303f\\uff00-\\uffef]|[^\\s\\p{Script=Han}\\u3000-\\u303f\\uff00-\\uffef]+|\\s+`, "gu");
  const pieces = (title.match(splitter) ?? []).flatMap((piece) =>
    widthOf(piece, size) > width ? splitWord(piece, size, width) : [piece],
  );
  const lines: string[] = [];
  let line = "";
  for (const piece of pieces) {
    const next = line + piece;
    if (line.trim() && widthOf(next.trimEnd(), size) > width) {
      lines.push(line.trim());
      line = /^\s+$/.test(piece) ? "" : piece;
    } else {
      line = next;
    }
  }
  if (line.trim()) lines.push(line.trim());
  return lines;
}

/** The title set at the largest size whose lines fit the block; at the smallest, cut with an ellipsis. */
function layoutTitle(title: string, keep?: string): { size: number; lines: string[] } {
  for (const size of TITLE_SIZES) {
    const lines = wrapTitle(title, size, TITLE_WIDTH, keep);
    if (lines.length * size * LINE_HEIGHT <= TITLE_BOTTOM - TITLE_TOP) return { size, lines };
  }
  const size = TITLE_SIZES.at(-1)!;
  const fit = Math.floor((TITLE_BOTTOM - TITLE_TOP) / (size * LINE_HEIGHT));
  const lines = wrapTitle(title, size, TITLE_WIDTH, keep).slice(0, fit);
  let last = lines[fit - 1]!;
  while (last && widthOf(`${last}…`, size) > TITLE_WIDTH) last = [...last].slice(0, -1).join("");
  lines[fit - 1] = `${last.trimEnd()}…`;
  return { size, lines };
}

/** The card as SVG: the template with its {placeholders} filled, every text escaped. */
export function cardSvg(text: CardText, template = readFileSync(TEMPLATE, "utf8")): string {
  const { size, lines } = layoutTitle(text.title, text.keep);
  const height = lines.length * size * LINE_HEIGHT;
  const first = TITLE_TOP + (TITLE_BOTTOM - TITLE_TOP - height) / 2 + size;
  const tspans = lines.map((line, i) => `<tspan x="${TITLE_X}" y="${Math.round(first + i * size * LINE_HEIGHT)}">${escapeHtml(line)}</tspan>`).join("");
  const values: Record<string, string> = { section: escapeHtml(text.section), site: escapeHtml(text.site), titleSize: String(size), titleLines: tspans };
  return template.replace(/\{(\w+)\}/g, (all, name: string) => {
    if (!(name in values)) throw new Error(`${TEMPLATE}: {${name}}: no such placeholder`);
    return values[name]!;
  });
}

const require = createRequire(import.meta.url);
const RENDERER = `resvg-js ${(require("@resvg/resvg-js/package.json") as { version: string }).version}`;

/** How cards are drawn: with the shipped font only, so no system font can change the result. */
export const DRAWING = { font: { fontFiles: [FONT], loadSystemFonts: false, defaultFontFamily: "Noto Sans SC" }, fitTo: { mode: "original" } } satisfies ResvgRenderOptions;

/**
 * resvg-js gives a drawing's memory back only when its thread ends (300 cards drawn in one thread
 * held 1 GB), so cards are drawn in short-lived workers, this many each. The worker's code is a
 * string because it must run the same under tsx and from the compiled build (scripts/build.mjs).
 * It answers with the PNGs, or with the first card it could not draw.
 */
export const CARDS_PER_WORKER = 25;
const DRAW_IN_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { Resvg } = require(workerData.resvg);
const pngs = [];
for (const [index, svg] of workerData.svgs.entries()) {
  try {
    pngs.push(new Resvg(svg, workerData.drawing).render().asPng());
  } catch (error) {
    parentPort.postMessage({ failed: index, reason: String(error && error.message || error) });
    break;
  }
}
if (pngs.length === workerData.svgs.length) parentPort.postMessage({ pngs });`;

/** Draws cards as PNGs, in the order given, in one worker; a card it cannot draw is named by `names`. */
export async function drawCards(svgs: readonly string[], names: readonly string[] = []): Promise<Buffer[]> {
  const workerData = { resvg: require.resolve("@resvg/resvg-js"), drawing: DRAWING, svgs };
  const worker = new Worker(DRAW_IN_WORKER, { eval: true, workerData });
  try {
    const answer = await new Promise<{ pngs: Uint8Array[] } | { failed: number; reason: string }>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`social cards: the drawing worker stopped (exit code ${code})`)));
    });
    if ("failed" in answer) throw new Error(`${names[answer.failed] ?? `card ${answer.failed + 1}`}: social card: ${answer.reason}`);
    return answer.pngs.map((png) => Buffer.from(png.buffer, png.byteOffset, png.byteLength));
  } finally {
    await worker.terminate();
  }
}

let drawingHash: string | undefined;
/** The hash of the renderer and the font: what shapes a card's pixels besides its SVG. */
const drawingInputs = (): string => (drawingHash ??= createHash("sha256").update(RENDERER).update(readFileSync(FONT)).digest("hex"));

/** A card's name: the hash of the SVG it is drawn from (template, layout and text) and of how it is drawn. */
export const cardHash = (svg: string): string => createHash("sha256").update(drawingInputs()).update(svg).digest("hex").slice(0, 16);

/**
 * The characters a TrueType/OpenType font has glyphs for, from its Unicode cmap subtable (format 12,
 * else format 4): a card must never draw a missing glyph as an empty box.
 */
export function fontCoverage(font: Buffer): (codePoint: number) => boolean {
  const tables = font.readUInt16BE(4);
  let cmap = -1;
  for (let i = 0; i < tables; i++) if (font.toString("latin1", 12 + 16 * i, 16 + 16 * i) === "cmap") cmap = font.readUInt32BE(20 + 16 * i);
  if (cmap < 0) throw new Error(`${FONT}: no cmap table`);
  const subtables = new Map<string, number>();
  for (let i = 0; i < font.readUInt16BE(cmap + 2); i++) {
    const record = cmap + 4 + 8 * i;
    subtables.set(`${font.readUInt16BE(record)},${font.readUInt16BE(record + 2)}`, cmap + font.readUInt32BE(record + 4));
  }
  const full = subtables.get("3,10") ?? subtables.get("0,4");
  if (full !== undefined && font.readUInt16BE(full) === 12) {
    const groups = Array.from({ length: font.readUInt32BE(full + 12) }, (_, i) => [font.readUInt32BE(full + 16 + 12 * i), font.readUInt32BE(full + 20 + 12 * i)] as const);
    return (c) => groups.some(([start, end]) => c >= start && c <= end);
  }
  const bmp = subtables.get("3,1") ?? subtables.get("0,3");
  if (bmp === undefined || font.readUInt16BE(bmp) !== 4) throw new Error(`${FONT}: no Unicode cmap of format 4 or 12`);
  const segments = font.readUInt16BE(bmp + 6) / 2;
  const ends = bmp + 14;
  const starts = ends + 2 * segments + 2;
  const deltas = starts + 2 * segments;
  const rangeOffsets = deltas + 2 * segments;
  return (c) => {
    for (let i = 0; i < segments; i++) {
      if (c > font.readUInt16BE(ends + 2 * i)) continue;
      const start = font.readUInt16BE(starts + 2 * i);
      if (c < start) return false;
      const rangeOffset = font.readUInt16BE(rangeOffsets + 2 * i);
      const index = rangeOffset === 0 ? c : font.readUInt16BE(rangeOffsets + 2 * i + rangeOffset + 2 * (c - start));
      // Glyph 0 is the "missing" glyph; a zero in the glyph array stays zero whatever the delta.
      return (rangeOffset !== 0 && index === 0 ? 0 : (index + font.readUInt16BE(deltas + 2 * i)) & 0xffff) !== 0;
    }
    return false;
  };
}

/** The characters of a card's text its font cannot draw. */
export function missingGlyphs(text: CardText, covers: (codePoint: number) => boolean): string[] {
  return [...new Set([...`${text.title}${text.section}${text.site}`])].filter((ch) => !/\s/.test(ch) && !covers(ch.codePointAt(0)!));
}

/** Stops the build on a card its font cannot draw, naming the page and the characters. */
export function checkGlyphs(text: CardText, covers: (codePoint: number) => boolean, where: string): void {
  const missing = missingGlyphs(text, covers);
  if (missing.length === 0) return;
  const named = missing.map((ch) => `"${ch}" (U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")})`).join(", ");
  throw contentError([`${where}: title: the social card's font (${FONT}) has no glyph for ${named}; add them to the font's subset`]);
}

/** What a page's card says, for the kinds of page that have one. */
function cardText(facts: PageFacts, site: Site, course: CourseData): CardText | undefined {
  const section = facts.post
    ? t(facts.lang, "nav.posts")
    : facts.lesson
      ? `${t(facts.lang, "nav.course")} · ${facts.lesson.number}`
      : facts.paper
        ? t(facts.lang, "nav.publications")
        : undefined;
  return section === undefined ? undefined : { title: facts.head.title ?? "", section, site: site.title[facts.lang], keep: course.title };
}

/**
 * Writes each card into the output: taken from the cache when it was drawn before, else drawn and
 * kept there; a card the output holds already is left as it is. Returns how many were drawn.
 */
export async function writeCards(cards: ReadonlyMap<string, Card>, outDir: string, cacheDir = CACHE_DIR, draw = drawCards): Promise<number> {
  await mkdir(cacheDir, { recursive: true });
  await mkdir(path.join(outDir, routes.cards()), { recursive: true });
  const cached = (hash: string): string => path.join(cacheDir, `${hash}.png`);
  const missing = [...cards.keys()].filter((hash) => !existsSync(cached(hash)));
  // Each worker's cards are kept as they come: a failure later leaves them drawn for the next build.
  for (let first = 0; first < missing.length; first += CARDS_PER_WORKER) {
    const batch = missing.slice(first, first + CARDS_PER_WORKER).map((hash) => ({ hash, ...cards.get(hash)! }));
    const pngs = await draw(batch.map((card) => card.svg), batch.map((card) => card.page));
    // Written under another name and renamed: a build running at once never copies half a card.
    await Promise.all(batch.map(async ({ hash }, i) => {
      const partial = `${cached(hash)}.${process.pid}`;
      await writeFile(partial, pngs[i]!);
      await rename(partial, cached(hash));
    }));
  }
  for (const hash of cards.keys()) {
    // A card is named by its content's hash: one already in the output (the dev server's last build) is this card.
    const target = path.join(outDir, routes.card(hash));
    if (!existsSync(target)) await linkOrCopy(cached(hash), target);
  }
  return missing.length;
}

/**
 * A cached card goes into the output as a second name for the same file: a thousand copies cost
 * about 0.3 s of CPU, links a fifth of that (docs/performance.md). Cards are never written in
 * place, so the two names cannot drift. A copy where the file system has no links or the cache is
 * on another one.
 */
async function linkOrCopy(source: string, target: string): Promise<void> {
  try {
    await link(source, target);
  } catch (error) {
    if (!["EXDEV", "EPERM", "ENOTSUP", "EMLINK"].includes((error as NodeJS.ErrnoException).code ?? "")) throw error;
    await copyFile(source, target);
  }
}

/** A card to draw: its SVG, and the page it is for (named when it cannot be drawn). */
export interface Card {
  svg: string;
  page: string;
}

export default function cards(config: UserConfig): void {
  const wanted = new Map<string, Card>();
  let template: string | undefined;
  let covers: ((codePoint: number) => boolean) | undefined;
  config.on("eleventy.before", () => {
    wanted.clear();
    template = undefined;
    drawingHash = undefined;
  });
  // The page's facts with its card's address (a site path), for the head and the JSON-LD.
  config.addFilter("withCard", (facts: PageFacts, site: Site, course: CourseData): PageFacts => {
    const text = cardText(facts, site, course);
    if (!text) return facts;
    checkGlyphs(text, (covers ??= fontCoverage(readFileSync(FONT))), facts.url);
    const svg = cardSvg(text, (template ??= readFileSync(TEMPLATE, "utf8")));
    const hash = cardHash(svg);
    wanted.set(hash, { svg, page: facts.url });
    return { ...facts, image: routes.card(hash) };
  });
  config.on("eleventy.after", async ({ directories }: { directories: { output: string } }) => {
    await writeCards(wanted, directories.output);
  });
  config.addGlobalData("cardSize", { width: CARD_WIDTH, height: CARD_HEIGHT });
}

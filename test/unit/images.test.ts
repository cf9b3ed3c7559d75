import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { crc32 } from "node:zlib";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { DECORATIVE, pictureHtml, type ImageSettings } from "../../src/images.ts";
import { routes } from "../../src/urls.ts";
import { errorOf } from "../support/errors.ts";

const dir = mkdtempSync(path.join(tmpdir(), "images-"));
const out = path.join(dir, "_site");
const page = path.join(dir, "posts/blog/a.md");
const settings: ImageSettings = { outputDir: () => out, pending: [] };

beforeAll(async () => {
  mkdirSync(path.dirname(page), { recursive: true });
  await sharp({ create: { width: 1000, height: 500, channels: 3, background: "#336699" } }).png().toFile(path.join(path.dirname(page), "photo.png"));
});

describe("pictureHtml", () => {
  it("makes a responsive picture with dimensions, and writes its files", async () => {
    const html = pictureHtml("photo.png", " A blue box ", "", page, settings);
    expect(html).toMatch(/^<picture><source type="image\/avif" srcset="[^"]+480w, [^"]+960w"/);
    expect(html).toContain('<source type="image/webp"');
    expect(html).toMatch(/<img [^>]*alt="A blue box"/);
    // The largest generated width and its height: the aspect ratio the browser reserves.
    expect(html).toMatch(/width="960" height="480"/);
    await Promise.all(settings.pending.splice(0));
    for (const url of html.match(new RegExp(`${routes.images()}[^" ,]+`, "g"))!) expect(existsSync(path.join(out, url)), url).toBe(true);
  });

  it("gives a decorative image an empty alt", () => {
    expect(pictureHtml("photo.png", "", DECORATIVE, page, settings)).toMatch(/<img [^>]*alt=""/);
  });

  it("names the page and image the image library cannot read, at once or when it makes the files", async () => {
    const folder = path.dirname(page);
    writeFileSync(path.join(folder, "corrupt.png"), "not an image at all");
    expect(errorOf(() => pictureHtml("corrupt.png", "x", "", page, settings))).toMatch(/: image corrupt\.png: cannot be read as an image \(.+\); is it corrupt, or too large\?$/);
    // A PNG whose header claims more pixels than the library takes (a 20000 × 20000 scan).
    const png = readFileSync(path.join(folder, "photo.png"));
    png.writeUInt32BE(20000, 16);
    png.writeUInt32BE(20000, 20);
    png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
    writeFileSync(path.join(folder, "huge.png"), png);
    pictureHtml("huge.png", "x", "", page, settings);
    await expect(Promise.all(settings.pending.splice(0))).rejects.toThrow(/posts\/blog\/a\.md: image huge\.png: cannot be read as an image \(.*pixel limit.*\)/);
  });

  it.each([
    ["photo.png", "", "", "image photo.png: needs alt text"],
    ["https://example.org/x.png", "x", "", "image https://example.org/x.png: must be a file beside the page"],
    ["missing.png", "x", "", "image missing.png: no such file"],
  ])("refuses %s with alt %j", (src, alt, title, message) => {
    expect(errorOf(() => pictureHtml(src, alt, title, page, settings))).toContain(message);
  });
});

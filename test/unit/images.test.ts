import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
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

  it.each([
    ["photo.png", "", "", "image photo.png: needs alt text"],
    ["https://example.org/x.png", "x", "", "image https://example.org/x.png: must be a file beside the page"],
    ["missing.png", "x", "", "image missing.png: no such file"],
  ])("refuses %s with alt %j", (src, alt, title, message) => {
    expect(errorOf(() => pictureHtml(src, alt, title, page, settings))).toContain(message);
  });
});

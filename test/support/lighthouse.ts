// Lighthouse (mobile preset) with Debian's Chromium over pages of a built site served on 127.0.0.1.
// Shared by `npm run audit` and the Lighthouse gate in `npm test`.
import { readFileSync } from "node:fs";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { JSDOM } from "jsdom";
import { serve } from "./server.ts";

/** Categories that must score 100; performance is reported, since timing varies by machine. */
export const GATED = ["accessibility", "best-practices", "seo"] as const;

export interface AuditResult {
  name: string;
  url: string;
  scores: Record<string, number>;
  /** Gated categories below 100, with the audits that cost points. */
  failures: string[];
}

/** The homepage in each language, the first post in the archives and the first lesson of the syllabus. */
export function auditedPages(root: string): Record<string, string> {
  const firstLink = (page: string, selector: string) =>
    new JSDOM(readFileSync(path.join(root, page, "index.html"), "utf8")).window.document.querySelector(selector)!.getAttribute("href")!;
  return { home: "/", "home (zh)": "/zh/", post: firstLink("archives", ".archive-list a"), lesson: firstLink("rdma101", ".syllabus-lessons a") };
}

export async function audit(root: string): Promise<AuditResult[]> {
  const server = await serve(root);
  const chrome = await chromeLauncher.launch({
    chromePath: "/usr/bin/chromium",
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const results: AuditResult[] = [];
    for (const [name, url] of Object.entries(auditedPages(root))) {
      const run = await lighthouse(`${server.origin}${url}`, { port: chrome.port, output: "json", logLevel: "error" });
      const { categories, audits } = run!.lhr;
      const scores = Object.fromEntries(Object.entries(categories).map(([id, c]) => [id, Math.round((c.score ?? 0) * 100)]));
      const failures = GATED.filter((id) => scores[id] !== 100).map((id) => {
        const costly = categories[id]!.auditRefs
          .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => `${ref.id}: ${audits[ref.id]!.displayValue ?? audits[ref.id]!.title}`);
        return `${id} ${scores[id]} (${costly.join("; ")})`;
      });
      results.push({ name, url, scores, failures });
    }
    return results;
  } finally {
    await chrome.kill();
    await server.close();
  }
}

export const summary = (r: AuditResult): string =>
  `${r.name} (${r.url}): ${Object.entries(r.scores).map(([id, s]) => `${id} ${s}`).join(", ")}`;

// The benchmark's synthetic content (see ./bench.ts): N blog posts of about 800 words, each with
// headings, a C code block, a formula and three tags, plus a course of lessons. Post i is the same
// text whatever N is (its words come from a generator seeded with i), so sizes and runs compare.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { stringify } from "yaml";
import { readYaml, withFrontMatter } from "../src/yaml.ts";

const WORDS = (
  "queue pair memory region completion doorbell verbs kernel bypass network card latency bandwidth " +
  "buffer register remote read write send receive transport reliable connection datagram packet " +
  "switch fabric congestion window retry timeout page table pinned host device cache layer model " +
  "serving prefill decode token batch request scheduler cluster storage tier transfer engine slice " +
  "path route throughput measure core thread poll event channel work request element scatter gather"
).split(" ");
const TAGS = Array.from({ length: 24 }, (_, i) => `bench-topic-${String.fromCharCode(97 + i)}`);

export const LESSON_PARTS = 5;
export const postFile = (i: number): string => `posts/blog/bench-${String(i).padStart(4, "0")}.md`;

/** A small deterministic generator (mulberry32): the same seed gives the same words everywhere. */
function random(seed: number): () => number {
  let a = seed + 0x9e3779b9;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function prose(next: () => number, words: number): string {
  const pick = () => WORDS[Math.floor(next() * WORDS.length)]!;
  const sentences: string[] = [];
  for (let count = 0; count < words; ) {
    const length = 8 + Math.floor(next() * 9);
    const sentence = Array.from({ length }, pick).join(" ");
    sentences.push(sentence[0]!.toUpperCase() + sentence.slice(1) + ".");
    count += length;
  }
  // Paragraphs of five sentences.
  return Array.from({ length: Math.ceil(sentences.length / 5) }, (_, i) => sentences.slice(i * 5, i * 5 + 5).join(" ")).join("\n\n");
}

/** About 800 words in four sections, a C block and a formula. */
export function body(seed: number): string {
  const next = random(seed);
  return [
    `## Why it matters\n\n${prose(next, 220)}`,
    `## How it works\n\n${prose(next, 200)}\n\n\`\`\`c\nint post(struct ibv_qp *qp, struct ibv_send_wr *wr) {\n  struct ibv_send_wr *bad;\n  return ibv_post_send(qp, wr, &bad); /* ${seed} */\n}\n\`\`\``,
    `## What it costs\n\n${prose(next, 200)} The time is $t = \\frac{s}{b} + ${seed % 97}\\,\\mu s$ for a message of $s$ bytes.`,
    `### In short\n\n${prose(next, 180)}`,
  ].join("\n\n");
}

const date = (i: number) => new Date(Date.UTC(2016, 0, 1, 2) + i * 86_400_000).toISOString().replace(".000Z", "+00:00");

export function post(i: number): string {
  const next = random(1_000_000 + i);
  const tags = new Set<string>();
  while (tags.size < 3) tags.add(TAGS[Math.floor(next() * TAGS.length)]!);
  const front = { title: `Bench post ${i}: ${prose(next, 1).split(" ").slice(0, 5).join(" ").replace(/\.$/, "")}`, date: date(i), description: `Synthetic post ${i} for the build benchmark.`, tags: [...tags] };
  return withFrontMatter(front, `${body(i)}\n`);
}

const partDir = (p: number) => `posts/rdma101/${90 + p}-bench-part-${p}`;

export function lesson(p: number, l: number): { file: string; text: string } {
  const front = { title: `Bench lesson ${p}.${l}`, description: `Synthetic lesson ${l} of bench part ${p}.`, objectives: ["Read a synthetic lesson"], minutes: 30, date: date(l) };
  return { file: `${partDir(p)}/${String(l).padStart(2, "0")}-bench-lesson-${l}.md`, text: withFrontMatter(front, `${body(10_000 * p + l)}\n`) };
}

async function write(dir: string, file: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
  await writeFile(path.join(dir, file), text);
}

/** Adds `posts` posts and `lessons` lessons (in LESSON_PARTS parts, listed in the course data) to a copy of the project. */
export async function addCorpus(dir: string, posts: number, lessons: number): Promise<void> {
  await Promise.all(Array.from({ length: posts }, (_, i) => write(dir, postFile(i), post(i))));
  const perPart = Math.ceil(lessons / LESSON_PARTS);
  const parts = Array.from({ length: Math.ceil(lessons / perPart) }, (_, p) => p + 1);
  await Promise.all(
    Array.from({ length: lessons }, (_, i) => {
      const { file, text } = lesson(Math.floor(i / perPart) + 1, (i % perPart) + 1);
      return write(dir, file, text);
    }),
  );
  const courseFile = path.join(dir, "_data/course.yaml");
  const course = readYaml(await readFile(courseFile, "utf8"), courseFile) as { parts: unknown[] };
  course.parts.push(...parts.map((p) => ({ slug: `bench-part-${p}`, title: `Bench part ${p}`, summary: "Synthetic lessons for the build benchmark." })));
  await writeFile(courseFile, stringify(course));
}

/**
 * The reference: a minimal Eleventy site (no configuration, no plugins) with the same Markdown
 * files, each rendered into one Nunjucks layout.
 */
export async function minimalSite(dir: string, markdownFiles: Map<string, string>): Promise<void> {
  await Promise.all([...markdownFiles].map(([file, text]) => write(dir, file, text)));
  await write(dir, "posts/posts.json", JSON.stringify({ layout: "layout.njk" }));
  await write(dir, "_includes/layout.njk", "<!doctype html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>{{ title }}</title></head>\n<body><main>\n{{ content | safe }}\n</main></body>\n</html>\n");
}

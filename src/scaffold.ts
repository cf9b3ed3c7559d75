// `npm run new`: a new post or lesson, as a file whose front matter the build accepts (checked here
// with the kind's own schema), named with a slug from its title and, for a lesson, the next number
// in its part. New files are drafts: the dev server shows them, a production build leaves them out
// until the author removes `draft: true`.
import { readdirSync } from "node:fs";
import { postKind, postSlug, POSTS_DIR } from "./blog.ts";
import type { Entry, Kind } from "./content.ts";
import { isoDateTime } from "./dates.ts";
import { COURSE_DIR, lessonKind, orderedName } from "./course.ts";
import { latinSlug } from "./urls.ts";
import { contentError, validate } from "./validation.ts";
import { withFrontMatter } from "./yaml.ts";

export interface NewFile {
  file: string;
  text: string;
}

export interface ScaffoldOptions {
  /** The time written as the date, in the site's time zone. */
  now: Date;
  zone: string;
  /** The slug, when the title gives none (a title in Chinese) or another is wanted. */
  slug?: string;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function slugOf(title: string, options: ScaffoldOptions): string {
  if (!title.trim()) throw contentError(["(new): title: must not be empty"]);
  const slug = options.slug ?? latinSlug(title);
  if (!slug) throw contentError([`(new): slug: the title '${title}' has no Latin letters or digits; give one with --slug=<slug>`]);
  if (!SLUG.test(slug)) throw contentError([`(new): slug: '${slug}' must be lower-case words joined by hyphens, such as why-rdma`]);
  return slug;
}

/** The front matter and a first line, checked with the kind's schema so the file builds as written. */
function contentFile<E extends Entry>(kind: Kind<never, E>, file: string, front: Record<string, unknown>, body: string): NewFile {
  validate(kind.schema, front, file);
  return { file, text: withFrontMatter(front, `\n${body}\n`) };
}

/** Now, to the minute, in the site's zone: as an author would write it. */
const dateOf = (options: ScaffoldOptions): string => isoDateTime(new Date(Math.floor(options.now.getTime() / 60_000) * 60_000), options.zone);

/** A blog post: posts/blog/<slug>.md. */
export function newPost(title: string, options: ScaffoldOptions): NewFile {
  const slug = slugOf(title, options);
  const file = `${POSTS_DIR}/${slug}.md`;
  const taken = readdirSync(POSTS_DIR, { withFileTypes: true }).find((e) => postSlug(e.isDirectory() ? `${e.name}/index.md` : e.name) === slug && (e.isDirectory() || e.name.endsWith(".md")));
  if (taken) throw contentError([`${POSTS_DIR}/${taken.name}: (file): a post with the slug '${slug}' exists; choose another with --slug=<slug>`]);
  const front = { title: title.trim(), date: dateOf(options), description: "One or two plain sentences: shown in lists, feeds and search results.", tags: [], draft: true };
  return contentFile(postKind as never, file, front, "Write the post here, starting sections at `##`.");
}

/** A lesson at the end of a part (named by its slug or number): posts/rdma101/<NN>-<part>/<next NN>-<slug>.md. */
export function newLesson(part: string, title: string, options: ScaffoldOptions): NewFile {
  const slug = slugOf(title, options);
  const parts = readdirSync(COURSE_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory() && /^\d+-/.test(e.name))
    .map((e) => ({ dir: e.name, ...orderedName(e.name, `${COURSE_DIR}/${e.name}`, "part") }));
  const found = parts.find((p) => p.slug === part || String(p.order) === part.replace(/^0+(?=\d)/, ""));
  if (!found) throw contentError([`${COURSE_DIR}/: part: no part '${part}'; one of ${parts.map((p) => `${p.order} (${p.slug})`).join(", ")}`]);
  const dir = `${COURSE_DIR}/${found.dir}`;
  const lessons = readdirSync(dir)
    .filter((name) => /^\d+-.*\.md$/.test(name))
    .map((name) => ({ name, ...orderedName(name.replace(/\.md$/, ""), `${dir}/${name}`, "lesson") }));
  const twin = lessons.find((l) => l.slug === slug);
  if (twin) throw contentError([`${dir}/${twin.name}: lesson: the part has a lesson named '${slug}'; choose another with --slug=<slug>`]);
  const next = Math.max(0, ...lessons.map((l) => l.order)) + 1;
  const width = Math.max(2, ...lessons.map((l) => l.name.match(/^\d+/)![0].length));
  const file = `${dir}/${String(next).padStart(width, "0")}-${slug}.md`;
  const front = {
    title: title.trim(),
    description: "One or two plain sentences: what the lesson teaches.",
    objectives: ["Say what the learner will be able to do"],
    minutes: 30,
    date: dateOf(options).slice(0, 10),
    draft: true,
  };
  return contentFile(lessonKind as never, file, front, "Write the lesson here, starting sections at `##`.");
}

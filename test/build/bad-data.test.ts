// Bad input stops the real build with `file: field: reason` and a non-zero exit: one broken thing
// at a time, in a copy of the project.
import { existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { crc32 } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JSDOM } from "jsdom";
import { build, smallProject, type BuildResult } from "../support/eleventy.ts";

const FIRST_LESSON = "posts/rdma101/01-getting-started/01-why-rdma.md";
const SECOND_LESSON = "posts/rdma101/01-getting-started/02-landscape.md";
const A_POST = "posts/blog/mooncake-kvcache-centric-serving.md";

// One build per mistake: a copy with one post and two lessons keeps each build short.
let copy: string;
beforeAll(async () => {
  copy = await smallProject({ posts: [A_POST], lessons: [FIRST_LESSON, SECOND_LESSON] });
});
afterAll(() => rm(copy, { recursive: true, force: true }));
const BAD_CSV = "posts/blog/bad.csv";

type Edit = { file: string; change: (source: string) => string } | { file: string; create: string | Buffer };

/** Applies edits to the copy, builds it (into the copy's _site unless told), and restores every file. */
async function buildWith(edits: Edit[], env: Record<string, string> = {}, outDir = path.join(copy, "_site")) {
  const originals = new Map<string, string | null>();
  try {
    for (const edit of edits) {
      const target = path.join(copy, edit.file);
      const original = await readFile(target, "utf8").catch(() => null);
      originals.set(target, original);
      const next = "create" in edit ? edit.create : edit.change(original ?? "");
      expect(next, `the edit must change ${edit.file}`).not.toBe(original);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, next);
    }
    return await build({ cwd: copy, outDir, env });
  } finally {
    for (const [target, original] of originals) {
      if (original === null) await unlink(target);
      else await writeFile(target, original);
    }
  }
}

/** A PNG whose header claims 20000 × 20000 pixels, more than the image library takes. */
const hugePng = (() => {
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC", "base64");
  png.writeUInt32BE(20000, 16);
  png.writeUInt32BE(20000, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
})();

const frontMatter = (change: (fm: string) => string) => (source: string) => source.replace(/^---\n([\s\S]*?)\n---\n/, (_all, fm: string) => `---\n${change(fm)}\n---\n`);
const appendBody = (text: string) => (source: string) => `${source}\n${text}\n`;

// One case for each stage at which a mistake can stop the build (a data file, SITE_URL, the UI
// strings, a page template, front matter, a page's date, the indexes, rendering, directives, the
// course, the glossary): each shows that the stage's message reaches the author whole. Every
// message itself, for every kind of mistake, is a unit test of the module that makes it.
const cases: [string, Edit[], string | RegExp][] = [
  ["profile: a missing name", [{ file: "_data/profile.yaml", change: (s) => s.replace(/^name: .*\n/m, "") }], "_data/profile.yaml: name: is required"],
  ["site: a sub-path in SITE_URL", [], "_data/site.yaml (url from SITE_URL): url: must be the site's origin only"],
  ["UI strings: a key missing from a translation", [{ file: "src/i18n/zh.yaml", change: (s) => s.replace(/^  skipLink: .*\n/m, "") }], "src/i18n/zh.yaml: site.skipLink: is required"],
  ["page template: an unknown route", [{ file: "src/pages/tags.njk", change: (s) => s.replace("route: tags\n", "route: tagz\n") }], "src/pages/tags.njk: route: must be one of"],
  ["BibTeX: a paper without year", [{ file: "_data/publications.bib", change: (s) => s.replace(/ {2}year\s+= \{2022\},?\n/, "") }], "_data/publications.bib: ren2022libcrpm.year: is required"],
  ["post: no description", [{ file: A_POST, change: frontMatter((fm) => fm.replace(/^description: .*$/m, "")) }], `${A_POST}: description: is required`],
  ["post: an invalid date", [{ file: A_POST, change: frontMatter((fm) => fm.replace(/^date: .*$/m, "date: 2026-13-45")) }], `${A_POST}: date: must be an ISO date`],
  ["post: a duplicate slug", [{ file: "posts/blog/mooncake-kvcache-centric-serving/index.md", create: "---\ntitle: Copy\ndate: 2026-12-01\ndescription: A copy.\n---\nText.\n" }], "posts/blog/mooncake-kvcache-centric-serving/index.md: (file): /posts/mooncake-kvcache-centric-serving/ is also the address of posts/blog/mooncake-kvcache-centric-serving.md"],
  ["post: a Markdown file where no post can be", [{ file: "posts/blog/notes/drafts/idea.md", create: "---\ntitle: Idea\ndate: 2026-12-01\ndescription: An idea.\n---\nText.\n" }], "posts/blog/notes/drafts/idea.md: (file): not a post: a post is posts/blog/<slug>.md"],
  ["post: a missing image", [{ file: A_POST, change: appendBody("![A chart](no-such-chart.png)") }], `${A_POST}: image no-such-chart.png: no such file`],
  ["lesson: duplicate name in a part", [{ file: "posts/rdma101/01-getting-started/09-why-rdma.md", create: "---\ntitle: Copy\ndescription: d\nobjectives: [o]\nminutes: 5\ndate: 2026-12-02\n---\nText.\n" }], "posts/rdma101/01-getting-started/09-why-rdma.md: lesson: name 'why-rdma' is also used by posts/rdma101/01-getting-started/01-why-rdma.md"],
  ["lesson: no objectives", [{ file: FIRST_LESSON, change: frontMatter((fm) => fm.replace(/^objectives:\n(?:\s+- .*\n?)+/m, "")) }], `${FIRST_LESSON}: objectives: is required`],
  ["lesson: a missing figure", [{ file: FIRST_LESSON, change: appendBody("```figure\nfile: no-such.svg\nalt: Alt.\ncaption: Caption.\n```") }], new RegExp(`${FIRST_LESSON}:\\d+: figure no-such.svg: no such file`)],
  ["chart: a missing data file", [{ file: A_POST, change: appendBody("```chart\ndata: no-such.csv\nx: a\ny: b\ntitle: T\ncaption: C.\n```") }], new RegExp(`${A_POST}:\\d+: chart.data: no such file beside the page \\(posts/blog/no-such.csv\\)`)],
  ["chart: numbers from a lab run that does not exist", [{ file: A_POST, change: appendBody("```chart\nlab:\n  runs: [no-such-run]\n  step: client\n  line: '(\\d+)'\nx: repeat\ny: value\ntitle: T\ncaption: C.\n```") }], new RegExp(`${A_POST}:\\d+: chart\\.lab\\.runs\\[0\\]: no lab run 'no-such-run'`)],
  ["chart: a value that is not a number", [{ file: BAD_CSV, create: "a,b\n1,2\n2,n/a\n" }, { file: A_POST, change: appendBody("```chart\ndata: bad.csv\nx: a\ny: b\ntitle: T\ncaption: C.\n```") }], `${BAD_CSV}: line 3, b: must be a number (found "n/a")`],
  ["glossary: a term pointing at no lesson", [{ file: "_data/glossary.yaml", change: (s) => s.replace(/lesson: [a-z-]+\/[a-z-]+/, "lesson: getting-started/nowhere") }], "_data/glossary.yaml: [0].lesson: no lesson 'getting-started/nowhere'"],
  ["glossary: an id used twice", [{ file: "_data/glossary.yaml", change: (s) => `${s}${s.slice(s.indexOf("- id:")).split(/\n(?=- id:)/)[0]}\n` }], /_data\/glossary\.yaml: \[\d+\]\.id: '[a-z0-9-]+' is also the id of term \[0\]/],
  // What a reader must never get, each stopped with the file (and line) to fix.
  ["text: a control character pasted from a PDF", [{ file: A_POST, change: appendBody("Pasted\u0002text.") }], new RegExp(`${A_POST}:\\d+: \\(text\\): contains the invisible control character U\\+0002`)],
  ["html: an image from another origin", [{ file: A_POST, change: appendBody('<img src="https://example.org/x.png" alt="x">') }], new RegExp(`${A_POST}:\\d+: \\(html\\): src on <img>: loads https://example.org/x.png from another origin`)],
  ["html: an event handler", [{ file: A_POST, change: appendBody('Text <b onclick="x()">b</b>.') }], new RegExp(`${A_POST}:\\d+: \\(html\\): onclick on <b>`)],
  ["figure: an SVG loading a remote file", [{ file: "posts/rdma101/01-getting-started/remote.svg", create: '<svg viewBox="0 0 1 1">\n<image xlink:href="https://example.org/a.png"/>\n</svg>\n' }, { file: FIRST_LESSON, change: appendBody("```figure\nfile: remote.svg\nalt: Alt.\ncaption: Caption.\n```") }], "posts/rdma101/01-getting-started/remote.svg:2: figure: must not contain xlink:href on <image>"],
  ["math: an unknown macro", [{ file: A_POST, change: appendBody("$\\frq{a}{b}$") }], new RegExp(`${A_POST}:\\d+: math: cannot render .*Undefined control sequence`)],
  ["markdown: an unclosed code block", [{ file: A_POST, change: appendBody("```c\nint x;") }], new RegExp(`${A_POST}:\\d+: \\(code\\): the code block opened here with \`\`\` is never closed`)],
  ["markdown: an unknown callout", [{ file: A_POST, change: appendBody("::: notice\nText.\n:::") }], new RegExp(`${A_POST}:\\d+: \\(container\\): '::: notice' is no container`)],
  ["image: a corrupt file", [{ file: "posts/blog/broken.png", create: "not a PNG" }, { file: A_POST, change: appendBody("![A chart](broken.png)") }], `${A_POST}: image broken.png: cannot be read as an image`],
  ["image: too large for the image library", [{ file: "posts/blog/huge.png", create: hugePng }, { file: A_POST, change: appendBody("![A scan](huge.png)") }], /posts\/blog\/mooncake-kvcache-centric-serving\.md: image huge\.png: cannot be read as an image \(.*pixel limit/],
  ["post: a date typo far in the future", [{ file: A_POST, change: frontMatter((fm) => fm.replace(/^date: .*$/m, "date: 2099-12-02").replace(/^updated: .*\n/m, "")) }], `${A_POST}: date: 2099-12-02 is in the future`],
  ["post: an empty body", [{ file: "posts/blog/empty-post.md", create: "---\ntitle: Empty\ndate: 2026-12-01\ndescription: Nothing yet.\n---\n\n" }], "posts/blog/empty-post.md: (body): is empty"],
  ["post: a file name with spaces", [{ file: "posts/blog/My Post.md", create: "---\ntitle: Mine\ndate: 2026-12-01\ndescription: A post.\n---\nText.\n" }], "posts/blog/My Post.md: (file): 'My Post.md' becomes part of the page's address"],
  ["a stray Markdown file at the repository root", [{ file: "notes.md", create: "# Notes\n\nTo do.\n" }], "notes.md: (file): not a page of any kind"],
  ["link: to a page the site does not have", [{ file: A_POST, change: appendBody("See [part 9](/posts/kvcache-part-9/).") }], new RegExp(`${A_POST}:\\d+: \\(link\\): /posts/kvcache-part-9/ is no page or file of the site`)],
  ["link: in raw HTML, to a page the site does not have", [{ file: A_POST, change: appendBody('<p>See\n<a href="/posts/kvcache-part-9/">part 9</a>.</p>') }], new RegExp(`${A_POST}:\\d+: \\(link\\): /posts/kvcache-part-9/ is no page or file of the site`)],
  ["link: to a glossary term the glossary does not have", [{ file: FIRST_LESSON, change: appendBody("A [queue pear](/rdma101/glossary/#queue-pear).") }], new RegExp(`${FIRST_LESSON}:\\d+: \\(link\\): /rdma101/glossary/#queue-pear: the page /rdma101/glossary/ has no id 'queue-pear'`)],
  ["html: an id given twice", [{ file: A_POST, change: appendBody('## Results\n\n<div id="results">x</div>') }], new RegExp(`${A_POST}:\\d+: \\(id\\): 'results' is also the id of what line \\d+ writes`)],
  ["lesson: a later lesson as prerequisite", [{ file: FIRST_LESSON, change: frontMatter((fm) => `${fm}\nprerequisites: [getting-started/landscape]`) }], `${FIRST_LESSON}: prerequisites[0]: 'getting-started/landscape' is lesson 1.2, after this one (1.1)`],
];

describe("bad input stops the build", () => {
  it.each(cases)("%s", async (name, edits, message) => {
    // What an earlier build wrote must not survive as if this one had made it.
    await mkdir(path.join(copy, "_site"), { recursive: true });
    await writeFile(path.join(copy, "_site/index.html"), "<p>an earlier build</p>");
    const result = await buildWith(edits, name.includes("SITE_URL") ? { SITE_URL: "https://user.github.io/repo/" } : {});
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(message);
    // Nothing half-built is left to publish.
    expect(existsSync(result.outDir)).toBe(false);
  });

  it("names the line of the file, front matter counted, however an editor ended the lines", async () => {
    const source = await readFile(path.join(copy, A_POST), "utf8");
    const line = source.split("\n").length + 1;
    // Spaces after the closing --- (the parser leaves them in the body) and CRLF line ends.
    const saved = (s: string) => s.replace("\n---\n", "\n---  \n").replaceAll("\n", "\r\n");
    const result = await buildWith([{ file: A_POST, change: (s) => saved(appendBody("::: notice\nText.\n:::")(s)) }]);
    expect(result.output).toContain(`${A_POST}:${line}: (container): '::: notice' is no container`);
  });
});

// Valid input of every unusual kind, in one build that the tests below each read (a build each
// would cost more than all their checks): a draft, posts as different editors save them, a lab
// record beside the course, feed-hostile text and template syntax in one post. Its output folder
// lies outside the copy, so the failing builds in between cannot empty it.
// Markup-like text, CDATA's end, a mid-text BOM, NEL and LINE SEPARATOR (allowed in XML 1.0), emoji.
const FEED_TEXT = "A & B < C > D ]]> E \uFEFF F \u0085 G \u2028 H 😀 `</content>` &amp; done.";
const FEED_TITLE = "Q&A: RDMA ]]& TCP\u2028]]";
const LITERAL_TEXT = "Nunjucks {{ page.url }} and {% raw %} stay text; so does {# this #}.";
// Raw HTML links within the site that lead somewhere: the link check lets them through.
const RAW_LINKS = 'Raw <a href="/posts/with-crlf/#main">links</a> pass.\n\n<p><a href="../with-spaces/">Another</a>, <a href="#main">here</a>.</p>';
let validOut: string | undefined;
let valid: Promise<BuildResult> | undefined;
afterAll(() => validOut && rm(validOut, { recursive: true, force: true }));
function validBuild(): Promise<BuildResult> {
  valid ??= (async () => {
    validOut = await mkdtemp(path.join(tmpdir(), "site-valid-"));
    // What an earlier build or the dev server left there.
    await mkdir(path.join(validOut, "posts/deleted-post"), { recursive: true });
    await writeFile(path.join(validOut, "posts/deleted-post/index.html"), "<p>stale</p>");
    const post = (title: string) => `title: ${title}\ndate: 2026-12-01\ndescription: A post.`;
    return buildWith(
      [
        { file: "posts/blog/unfinished.md", create: "---\ntitle: Draft\ndate: 2099-01-01\ndescription: Not yet.\ndraft: true\n---\n" },
        { file: "posts/blog/with-bom.md", create: `\uFEFF---\n${post("With BOM")}\n---\nText.\n` },
        { file: "posts/blog/with-spaces.md", create: `---  \n${post("With spaces")}\n--- \nText.\n` },
        { file: "posts/blog/with-crlf.md", create: `---\r\n${post("With CRLF").replaceAll("\n", "\r\n")}\r\n---\r\nText.\r\n` },
        { file: "posts/blog/no-final-newline.md", create: `---\n${post("No final newline")}\n---\nText.` },
        { file: "posts/rdma101/labs/run-1.md", create: "---\nnot: a lesson\n---\nOutput.\n" },
        {
          file: A_POST,
          change: (source) =>
            appendBody(`${FEED_TEXT}\n\n${LITERAL_TEXT}\n\n\`\`\`bash\necho "\${#ARR[@]}" {{x}}\n\`\`\`\n\n${RAW_LINKS}`)(source.replace(/^title: .*$/m, `title: "${FEED_TITLE}"`)),
        },
      ],
      {},
      validOut,
    );
  })();
  return valid;
}

describe("a production build", () => {
  it("holds exactly the site: what an earlier build or the dev server left is gone, drafts never appear", async () => {
    const result = await validBuild();
    expect(result.code, result.output).toBe(0);
    expect(existsSync(path.join(result.outDir, "posts/deleted-post"))).toBe(false);
    expect(existsSync(path.join(result.outDir, "posts/unfinished"))).toBe(false);
    expect(existsSync(path.join(result.outDir, "posts/mooncake-kvcache-centric-serving/index.html"))).toBe(true);
  });

  it("reads front matter as written by any editor: a BOM, spaces after ---, CRLF line ends, no final newline", async () => {
    const result = await validBuild();
    expect(result.code, result.output).toBe(0);
    for (const [slug, title] of [["with-bom", "With BOM"], ["with-spaces", "With spaces"], ["with-crlf", "With CRLF"], ["no-final-newline", "No final newline"]]) {
      const html = await readFile(path.join(result.outDir, `posts/${slug}/index.html`), "utf8");
      expect(html).toContain(`<h1>${title}</h1>`);
    }
  });
});

describe("the output folder", () => {
  // The build empties its output first: a folder the build reads must never be one (GitLab's guides build into public/).
  it.each(["public", "posts", "_data"])("is never %s, a folder of sources: the build refuses it and leaves it as it was", async (folder) => {
    const before = await readdir(path.join(copy, folder), { recursive: true });
    const result = await build({ cwd: copy, outDir: folder });
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(new RegExp(`--output=(\\./)?${folder}/?: the output folder (is|holds) [^:]*, which the build reads; it is emptied before each build`));
    expect(await readdir(path.join(copy, folder), { recursive: true })).toEqual(before);
  });

  it("in a git work tree, never holds files under version control", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "site-git-"));
    try {
      await cp(copy, dir, { recursive: true, verbatimSymlinks: true });
      execFileSync("git", ["init", "-q"], { cwd: dir });
      execFileSync("git", ["add", "docs"], { cwd: dir });
      const result = await build({ cwd: dir, outDir: "docs" });
      expect(result.code).not.toBe(0);
      expect(result.output).toMatch(/--output=(\.\/)?docs\/?: the output folder holds files under version control \(docs\//);
      expect(existsSync(path.join(dir, "docs/authoring.md"))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("files that are not pages", () => {
  it("leaves lab records beside the course out of the site, Markdown transcripts included", async () => {
    const result = await validBuild();
    expect(result.code, result.output).toBe(0);
    // The labs page lives at /rdma101/labs/; a record is never a page of its own.
    expect(await readdir(path.join(result.outDir, "rdma101/labs"))).toEqual(["index.html"]);
  });

  it("stops at a lab run's manifest that the labs page cannot read", async () => {
    const result = await buildWith([{ file: "posts/rdma101/labs/run-1.yaml", create: "program: rc_pingpong\n" }]);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain("posts/rdma101/labs/run-1.yaml: program: unknown field");
  });
});

describe("feeds", () => {
  it("stay well-formed whatever printable text a post holds", async () => {
    // The post holds FEED_TEXT, under FEED_TITLE.
    const result = await validBuild();
    expect(result.code, result.output).toBe(0);
    for (const feed of ["feed.xml", "index.xml", "rdma101/feed.xml"]) {
      const source = await readFile(path.join(result.outDir, feed), "utf8");
      const doc = new JSDOM(source, { contentType: "text/xml" }).window.document;
      expect(doc.getElementsByTagName("parsererror"), feed).toHaveLength(0);
    }
    const json = JSON.parse(await readFile(path.join(result.outDir, "feed.json"), "utf8")) as { items: { title: string; content_html: string }[] };
    expect(json.items.map((i) => i.title)).toContain(FEED_TITLE);
  });
});

describe("content is taken literally", () => {
  it("publishes template syntax in prose and code exactly as written", async () => {
    const result = await validBuild();
    expect(result.code, result.output).toBe(0);
    const html = await readFile(path.join(result.outDir, "posts/mooncake-kvcache-centric-serving/index.html"), "utf8");
    expect(html).toContain(LITERAL_TEXT);
    expect(html.replace(/<[^>]+>/g, "")).toContain('echo "${#ARR[@]}" {{x}}');
  });
});

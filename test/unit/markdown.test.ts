import { describe, expect, it } from "vitest";
import { errorOf } from "../support/errors.ts";
import { readdirSync, readFileSync } from "node:fs";
import { createMarkdown, headingSlug, LAYOUT_IDS } from "../../src/markdown.ts";
import { breakableCode, LONG_CODE } from "../../src/html.ts";
import { FIGURE_NUMBER } from "../../src/figures.ts";
import { tableOfContents } from "../../src/toc.ts";
import { setPathPrefix } from "../../src/urls.ts";
import { recordedLinks } from "../../src/links.ts";

const md = createMarkdown();

describe("markdown", () => {
  it("gives headings ids and self-links at Markdown time, for English and Chinese", () => {
    expect(headingSlug("Why RDMA? (Part 1)")).toBe("why-rdma-part-1");
    expect(headingSlug("内核旁路 kernel bypass")).toBe("内核旁路-kernel-bypass");
    const html = md.render("## Queue pairs\n\n### RC & UD\n");
    expect(html).toContain('<h2 id="queue-pairs" tabindex="-1"><a class="heading-link" href="#queue-pairs">');
    expect(tableOfContents(html).map((e) => [e.level, e.id, e.text])).toEqual([
      [2, "queue-pairs", "Queue pairs"],
      [3, "rc-ud", "RC &amp; UD"],
    ]);
  });

  it("highlights known languages at build time and escapes unknown ones without failing", () => {
    const c = md.render("```c\nint x = 1;\n```\n");
    expect(c).toContain('<span class="code-lang">C</span>');
    expect(c).toContain('<span class="token keyword">int</span>');
    expect(c).toMatch(/<pre tabindex="0" role="region" aria-label="C code">/);
    const unknown = md.render("```brainfudge\n<b>++</b>\n```\n");
    expect(unknown).toContain("&lt;b&gt;++&lt;/b&gt;");
    expect(unknown).toContain('<span class="code-lang">Text</span>');
  });

  it("shows a code block the same whatever follows its language on the fence line (a check's marker)", () => {
    expect(md.render("```c fragment struct ibv_mr *mr;\nint x = 1;\n```\n")).toBe(md.render("```c\nint x = 1;\n```\n"));
  });

  it("curls quotes but keeps an exercise's (a) (b) (c) (r) as typed", () => {
    expect(md.render('Pick one: (a) RC, (b) UC, (c) "UD" (r) and (tm).\n')).toBe("<p>Pick one: (a) RC, (b) UC, (c) “UD” (r) and (tm).</p>\n");
  });

  it("renders TeX to HTML and MathML at build time", () => {
    const html = md.render("Energy: $E = mc^2$\n\n$$\\frac{a}{b}$$\n");
    expect(html).toContain('<span class="katex">');
    expect(html).toContain("<math");
    expect(html).toContain('class="katex-display"');
  });

  it("fails on broken TeX rather than printing it, naming the line", () => {
    expect(() => md.render("Text.\n\n$\\frac{a}$", { page: { inputPath: "posts/blog/x.md" } })).toThrow(/^posts\/blog\/x\.md:3: math: cannot render \$\\frac\{a\}\$ \(Unexpected end of input/);
  });

  // KaTeX would publish these in red (errors) or render them with a console warning: every one stops the build.
  it.each([
    ["an unknown macro", "$\\frq{a}{b}$", "Undefined control sequence: \\frq"],
    ["an unknown macro in display math", "$$\n\\sqroot{2}\n$$", "Undefined control sequence: \\sqroot"],
    ["Unicode text in math mode (a strict-mode warning)", "$x = 中$", "unicodeTextInMathMode"],
    ["a link", "$\\href{https://example.org}{x}$", "\\href would link to or load another file"],
  ])("fails on %s", (_name, tex, reason) => {
    const error = errorOf(() => md.render(`Intro.\n\n${tex}\n`, { page: { inputPath: "posts/blog/x.md" } }));
    expect(error).toMatch(/^posts\/blog\/x\.md:3: math: cannot render/);
    expect(error).toContain(reason);
  });

  it("renders callouts, takeaways and hidden answers", () => {
    const html = md.render("::: warning Pinned memory\nBody **bold**.\n:::\n\n::: takeaways\n- one\n:::\n\n1. Q?\n\n   ::: answer\n   A.\n   :::\n");
    expect(html).toContain('<div class="callout callout-warning" role="note">\n<p class="callout-title">Warning: Pinned memory</p>');
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain('<section class="takeaways" aria-labelledby="key-takeaways">');
    // Closed on screen; labelled as an answer, not an offer, on paper.
    expect(html).toMatch(/<details class="answer">\n<summary><span class="screen-only">Show answer<\/span><span class="print-only">Answer<\/span><\/summary>\n<p>A\.<\/p>\n<\/details>/);
  });

  it("numbers tables and figures in page order, per page", () => {
    const source = `::: table First.\n| a |\n|---|\n| 1 |\n:::\n\n<figure>${FIGURE_NUMBER} One</figure>\n\n::: table Second.\n| b |\n|---|\n| 2 |\n:::\n\n<figure>${FIGURE_NUMBER} Two</figure>\n`;
    const html = md.render(source);
    expect(html.match(/Table \d\./g)).toEqual(["Table 1.", "Table 2."]);
    expect(html.match(/Figure \d\./g)).toEqual(["Figure 1.", "Figure 2."]);
    expect(md.render(source).match(/Table \d\./g)).toEqual(["Table 1.", "Table 2."]);
  });

  it("labels callouts, takeaways, answers, tables and figures in the page's language", () => {
    const source = `::: note\nText.\n:::\n\n::: tip 标题\nText.\n:::\n\n::: takeaways\n- one\n:::\n\n::: answer\nA.\n:::\n\n::: table 说明\n| a |\n|---|\n| 1 |\n:::\n\n<figure>${FIGURE_NUMBER} 图</figure>\n`;
    const zh = md.render(source, { lang: "zh" });
    expect(zh).toContain('<p class="callout-title">说明</p>');
    expect(zh).toContain('<p class="callout-title">提示：标题</p>');
    expect(zh).toContain("<h2 id=\"key-takeaways\">要点</h2>");
    expect(zh).toContain('<summary><span class="screen-only">显示答案</span><span class="print-only">答案</span></summary>');
    expect(zh).toContain('<span class="caption-number">表 1</span>');
    expect(zh).toContain('<span class="caption-number">图 1</span>');
    expect(md.render(source)).toContain('<p class="callout-title">Note</p>');
  });

  it("puts links within the site under the path prefix, and leaves others alone", () => {
    setPathPrefix("/repo/");
    try {
      const html = md.render("[a](/posts/a/) [b](https://example.org/) [c](#here) [d](other/)\n");
      expect(html).toContain('<a href="/repo/posts/a/">a</a>');
      expect(html).toContain('<a href="https://example.org/" rel="noopener">b</a>');
      expect(html).toContain('<a href="#here">c</a>');
      expect(html).toContain('<a href="other/">d</a>');
      // Protocol-relative: another site, not a path of this one.
      expect(md.render("[e](//example.org/x)\n")).toContain('<a href="//example.org/x" rel="noopener">e</a>');
      // Raw HTML alike, inline and as a block, whatever the quoting; what is not an address stays as written.
      expect(md.render('Raw <a href="/posts/a/">a</a> <a href=\'#here\'>c</a> <a href=other/>d</a> <a href="https://example.org/">b</a>.\n')).toContain(
        'Raw <a href="/repo/posts/a/">a</a> <a href=\'#here\'>c</a> <a href=other/>d</a> <a href="https://example.org/">b</a>.',
      );
      expect(md.render('<figure>\n<img src=" /assets/x.png" srcset="/assets/x.png 1x,/assets/y.png 2x" alt="/assets/z.png" title="x">\n</figure>\n')).toBe(
        '<figure>\n<img src=" /repo/assets/x.png" srcset="/repo/assets/x.png 1x,/repo/assets/y.png 2x" alt="/assets/z.png" title="x">\n</figure>\n',
      );
      // An address is read as the browser reads it: character references decoded, then written back escaped.
      expect(md.render('<a href="&#47;posts/a/?x=1&amp;y=2">a</a> <a href="https://example.org/?a&amp;b">b</a>\n')).toContain(
        '<a href="/repo/posts/a/?x=1&amp;y=2">a</a> <a href="https://example.org/?a&amp;b">b</a>',
      );
    } finally {
      setPathPrefix("/");
    }
  });

  it("records each link within the site at its line, Markdown or raw HTML, for the check at the build's end; not heading self-links", () => {
    const file = "posts/blog/links.md";
    const source = [
      "See [part 2](/posts/b/) and [elsewhere](https://example.org/).",
      "",
      'Inline <a href="/posts/c/#intro">c</a>, on one line',
      'with <a href="d/">d</a> and <a href="mailto:x@example.org">mail</a>.',
      "",
      "<figure>",
      '<img src="/assets/e.png" srcset="/assets/e.png 1x, /assets/e@2x.png 2x" alt="e">',
      '<figcaption><a',
      '  href="/posts/f/?a=1&amp;b=2">f</a></figcaption>',
      "</figure>",
      "",
      '::: note <a href="#g">g</a> and [h](/posts/h/)',
      "Text. `<a href=\"/in-code/\">`",
      ":::",
      "",
      "::: table Caption with [i](/posts/i/)",
      "| a |",
      "|---|",
      "| [j](/posts/j/) |",
      ":::",
      "",
      "## A heading: its self-link leads to its own id, so it is not recorded",
    ].join("\n");
    md.render(source, { page: { inputPath: file, url: "/posts/links/" } });
    const recorded = recordedLinks().filter((link) => link.at.startsWith(`${file}:`));
    expect(recorded.map(({ at, from, target }) => `${at} ${from} ${target}`).sort()).toEqual(
      [
        `${file}:1 /posts/links/ /posts/b/`,
        `${file}:3 /posts/links/ /posts/c/#intro`,
        `${file}:4 /posts/links/ d/`,
        `${file}:7 /posts/links/ /assets/e.png`,
        `${file}:7 /posts/links/ /assets/e.png`,
        `${file}:7 /posts/links/ /assets/e@2x.png`,
        `${file}:8 /posts/links/ /posts/f/?a=1&b=2`,
        `${file}:12 /posts/links/ #g`,
        `${file}:12 /posts/links/ /posts/h/`,
        `${file}:16 /posts/links/ /posts/i/`,
        `${file}:19 /posts/links/ /posts/j/`,
      ].sort(),
    );
  });

  it("joins lines of Chinese without a space, and keeps the space a line break makes beside Latin words", () => {
    const html = md.render("中文一行，\n下一行接着写\n中文，然后是\nRDMA 和 `ibv_post_send`\n（[链接](https://example.org/)）。\n\nEnglish\nwords\n");
    expect(html).toContain("<p>中文一行，下一行接着写中文，然后是\nRDMA 和 <code>ibv_post_send</code>（<a");
    expect(html).toContain("<p>English\nwords</p>");
  });

  it("keeps emphasis on Latin text italic on a Chinese page, and dots only Chinese emphasis", () => {
    const source = "论文 *Scaling Up Memory Disaggregated Applications*，*强调*，*RDMA 网卡*。\n";
    const zh = md.render(source, { lang: "zh" });
    expect(zh).toContain('<em lang="en">Scaling Up Memory Disaggregated Applications</em>');
    expect(zh).toContain("<em>强调</em>");
    expect(zh).toContain("<em>RDMA 网卡</em>");
    expect(md.render(source, { lang: "en" })).not.toContain("lang=");
  });

  describe("places where a name in inline code may break", () => {
    it("are after an underscore, before a member's . -> :: and a path's /, and where a camelCase word starts, not between digits or in a URL's //", () => {
      const cases: [string, string][] = [
        ["IBV_WC_RETRY_EXC_ERR", "IBV_<wbr>WC_<wbr>RETRY_<wbr>EXC_<wbr>ERR"],
        ["attr.max_dest_rd_atomic", "attr<wbr>.max_<wbr>dest_<wbr>rd_<wbr>atomic"],
        ["wc->status", 'wc<wbr><span class="unbroken">-&gt;</span>status'],
        ["RdmaTransport::submit", "Rdma<wbr>Transport<wbr>::submit"],
        ["/sys/class/infiniband", "/sys<wbr>/class<wbr>/infiniband"],
        ["https://renfeng.org/feed.xml", "https://renfeng<wbr>.org<wbr>/feed<wbr>.xml"],
        ["__builtin_expect", "__builtin_<wbr>expect"],
        ["169.254.101.1", "169.254.101.1"],
        ["counters/...", "counters<wbr>/..."],
        ["a < b_c", "a &lt; b_<wbr>c"],
        ["cudaDevAttrGPUDirectRDMASupported", "cuda<wbr>Dev<wbr>Attr<wbr>GPUDirect<wbr>RDMASupported"],
        ["/dev/infiniband/uverbsN", "/dev<wbr>/infiniband<wbr>/uverbsN"],
      ];
      for (const [code, html] of cases) expect(breakableCode(code, true), code).toBe(html);
    });

    it("are in every name in a table cell, in prose only in a run too long for a phone's line, the code read as written", () => {
      const long = "ibv_query_device_ex_attr".padEnd(LONG_CODE, "x");
      const html = md.render(`| Field | Use |\n| --- | --- |\n| \`wr_id\` | \`ibv_post_send\` |\n\nThe \`wr_id\` of \`ibv_post_send\`, or \`${long}\`.\n`);
      expect(html).toContain("<td><code>wr_<wbr>id</code></td>");
      expect(html).toContain("<td><code>ibv_<wbr>post_<wbr>send</code></td>");
      expect(html).toContain("The <code>wr_id</code> of <code>ibv_post_send</code>, or <code>ibv_<wbr>query_");
      expect(html.replaceAll("<wbr>", "")).toContain(`<code>${long}</code>`);
      // camelCase alike: a long name breaks between its words, a short one moves to the next line whole.
      expect(md.render("Ask `cudaDevAttrGPUDirectRDMASupported`, then `cudaMemcpyAsync`.\n")).toBe(
        "<p>Ask <code>cuda<wbr>Dev<wbr>Attr<wbr>GPUDirect<wbr>RDMASupported</code>, then <code>cudaMemcpyAsync</code>.</p>\n",
      );
    });

    it("are never after the hyphen that starts an option: its first piece stays whole", () => {
      expect(breakableCode("ib_write_bw -d rxe0 --size=4096")).toBe('ib_write_bw <span class="unbroken">-d</span> rxe0 <span class="unbroken">--size=4096</span>');
      expect(breakableCode("-libverbs", true)).toBe('<span class="unbroken">-libverbs</span>');
      expect(breakableCode("gcc -I/usr/local/cuda/include")).toBe('gcc <span class="unbroken">-I</span><wbr>/usr<wbr>/local<wbr>/cuda<wbr>/include');
      // Too long to keep whole on a phone's line: its separators are its break places.
      expect(breakableCode("--max-send-wr=1024-and-more_x")).toBe("--max-send-wr=1024-and-more_<wbr>x");
      expect(breakableCode("a - b")).toBe("a - b");
    });

    it("are never inside a member's arrow, in a name of any length", () => {
      expect(breakableCode("dev->node_type")).toBe('dev<span class="unbroken">-&gt;</span>node_type');
      expect(breakableCode("RESET -> INIT")).toBe('RESET <span class="unbroken">-&gt;</span> INIT');
      expect(breakableCode("->next")).toBe('<span class="unbroken">-&gt;next</span>');
    });

    it("count a run across code spans joined without a space", () => {
      expect(md.render("Set `responder_resources`/`initiator_depth` (read depths).\n")).toBe(
        "<p>Set <code>responder_<wbr>resources</code>/<code>initiator_<wbr>depth</code> (read depths).</p>\n",
      );
      expect(md.render("Set `responder_resources` and `initiator_depth`.\n")).toBe("<p>Set <code>responder_resources</code> and <code>initiator_depth</code>.</p>\n");
    });
  });

  it("keeps the course's name (the page's course.title) on one line in a heading, not in prose", () => {
    const env = { course: { title: "RDMA 101" } };
    const html = md.render("## What RDMA 101 covers\n\nRDMA 101 covers verbs.\n", env);
    expect(html).toContain('<a class="heading-link" href="#what-rdma-101-covers"><span>What <span class="unbroken">RDMA 101</span> covers</span></a>');
    expect(html).toContain("<p>RDMA 101 covers verbs.</p>");
    expect(tableOfContents(html).map((e) => e.text)).toEqual(["What RDMA 101 covers"]);
    // Without the course's data (a render outside the site), the heading is as written.
    expect(md.render("## What RDMA 101 covers\n")).toContain('href="#what-rdma-101-covers"><span>What RDMA 101 covers</span></a>');
  });

  it("renders footnotes", () => {
    expect(md.render("Claim.[^1]\n\n[^1]: Source.\n")).toContain('class="footnotes"');
  });

  describe("mistakes that would garble a page stop the build, naming file and line", () => {
    const at = { page: { inputPath: "posts/blog/x.md" } };
    it.each([
      ["an unclosed code block", "Intro.\n\n```c\nint x;\n", "posts/blog/x.md:3: (code): the code block opened here with ``` is never closed"],
      ["a code block closed by a shorter fence", "Intro.\n\n````c\nint x;\n```\n", "posts/blog/x.md:3: (code): the code block opened here with ```` is never closed"],
      ["an unknown callout", "Intro.\n\n::: notice\nText.\n:::\n", "posts/blog/x.md:3: (container): '::: notice' is no container: use one of note, tip, warning, caution, takeaways, answer, table"],
      ["a container never closed", "::: note\nText.\n", "posts/blog/x.md:1: (container): '::: note' is never closed"],
      ["a stray closing line", "Text.\n\n:::\n", "posts/blog/x.md:3: (container): ':::' closes no container"],
    ])("%s", (_name, source, message) => {
      expect(errorOf(() => md.render(source, at))).toContain(message);
    });

    it("names the file's own line: the front matter's lines come first", async () => {
      const { readContentFile } = await import("../../src/content.ts");
      readContentFile("---\ntitle: T\ndate: 2026-01-01\n---\n", "posts/blog/fm.md");
      expect(errorOf(() => md.render("Intro.\n\n::: notice\n:::\n", { page: { inputPath: "posts/blog/fm.md" } }))).toMatch(/^posts\/blog\/fm\.md:7: /);
    });

    it("takes a closed code block, container and fence inside a list or quote", () => {
      expect(() => md.render("- item\n\n  ```c\n  x\n  ```\n\n> ::: note\n> quoted\n> :::\n", at)).not.toThrow();
    });
  });

  describe("raw HTML in content", () => {
    const at = { page: { inputPath: "posts/blog/x.md" } };
    it.each([
      ["a script", "Text.\n\n<script>alert(1)</script>\n", 3, "<script>: content may not run scripts"],
      ["an iframe", "<div>\n<iframe src=\"https://example.org/\"></iframe>\n</div>\n", 2, "<iframe>: content may not embed other documents"],
      ["a remote image in a paragraph", "Text and\n<img src=\"https://example.org/a.png\" alt=\"a\">.\n", 2, "src on <img>: loads https://example.org/a.png from another origin"],
      ["a protocol-relative image", "<img src=\"//example.org/a.png\" alt=\"a\">\n", 1, "from another origin"],
      ["an event handler", "Text <span onmouseover=\"x()\">hover</span>.\n", 1, "onmouseover on <span>: content may not carry event handlers"],
      ["a javascript: link", "<a href=\"javascript:x()\">a</a>\n", 1, "content may not link to scripts"],
      ["an entity-encoded javascript: link", "<a href=\"jav&#x09;ascript&colon;x()\">a</a>\n", 1, "content may not link to scripts"],
      ["a remote background in a style", "<p style=\"background: url('https://example.org/a.png')\">x</p>\n", 1, "style on <p>: loads"],
      ["a remote srcset candidate", "<img src=\"a.png\" srcset=\"a.png 1x, https://example.org/b.png 2x\" alt=\"a\">\n", 1, "srcset on <img>"],
      ["HTML in a callout's title", "::: note <img src=x onerror=alert(1)>\nText.\n:::\n", 1, "onerror on <img>"],
    ])("refuses %s, naming its line", (_name, source, line, reason) => {
      const error = errorOf(() => md.render(source, at));
      expect(error).toMatch(new RegExp(`^posts/blog/x\\.md:${line}: \\(html\\): `));
      expect(error).toContain(reason);
    });

    it("keeps harmless HTML, links to other sites, and code that shows markup", () => {
      const source = '<kbd>Ctrl</kbd> <a href="https://example.org/">x</a> <img src="local.png" alt="a">\n\n`<script src="https://x.org/a.js">`\n\n```html\n<iframe src="https://example.org/"></iframe>\n```\n';
      expect(() => md.render(source, at)).not.toThrow();
    });
  });

  describe("control characters (text pasted from a PDF)", () => {
    it("stops the build at the line that holds one, naming the character", () => {
      expect(errorOf(() => md.render("Line one.\nLine \u0002two.\n", { page: { inputPath: "posts/blog/x.md" } }))).toBe(
        "posts/blog/x.md:2: (text): contains the invisible control character U+0002 (text pasted from a PDF often does); delete it",
      );
    });

    it("keeps tabs, line ends of either kind, and every printable character", () => {
      expect(() => md.render("a\tb\r\nc 内核 \u00a0 é\n", { page: { inputPath: "posts/blog/x.md" } })).not.toThrow();
    });
  });

  describe("ids", () => {
    const at = { page: { inputPath: "posts/blog/x.md" } };

    it("refuses an id given twice on a page, naming both lines", () => {
      expect(errorOf(() => md.render('## Setup\n\nText.\n\n<div id="setup">x</div>\n', at))).toBe("posts/blog/x.md:5: (id): 'setup' is also the id of what line 1 writes");
      expect(errorOf(() => md.render('<p id="a">1</p>\n\nText <span id="a">2</span>.\n', at))).toBe("posts/blog/x.md:3: (id): 'a' is also the id of what line 1 writes");
    });

    it("refuses an id the layout uses, and keeps headings clear of them", () => {
      expect(errorOf(() => md.render('<span id="main">x</span>\n', at))).toBe("posts/blog/x.md:1: (id): 'main' is an id the page's layout gives an element of its own");
      const html = md.render("## Objectives\n\n## Key takeaways\n\n::: takeaways\n- one\n:::\n\n## Setup\n\n## Setup\n", at);
      expect([...html.matchAll(/<h2 id="([^"]+)"/g)].map((m) => m[1])).toEqual(["objectives-section", "key-takeaways-section", "key-takeaways", "setup", "setup-1"]);
    });

    it("knows every id the layouts around posts and lessons write", () => {
      const written = readdirSync("_includes/layouts").flatMap((f) => [...readFileSync(`_includes/layouts/${f}`, "utf8").matchAll(/\sid="([^"{]+)"/g)].map((m) => m[1]));
      expect(new Set(written)).toEqual(LAYOUT_IDS);
    });
  });
});

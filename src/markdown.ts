// The Markdown renderer for posts and lessons. Everything is decided at build time: heading ids
// (not an HTML transform, which would cost most of a large build), code highlighting (Prism), math
// (KaTeX), callouts, numbered tables and figures, footnotes, and links under the path prefix. Its
// labels ("Note", "Table 1") are UI strings in the page's language. Mistakes that would garble a page
// (an unclosed code block, an unknown container, TeX that KaTeX would colour red) or put something
// unsafe in it (see ./content-safety.ts) stop the build, naming the file and line. Ids, heading
// levels and what else a page showing several lessons changes are written as placeholders
// (./scope.ts).
import MarkdownIt, { type PluginWithParams } from "markdown-it";
import type Token from "markdown-it/lib/token.mjs";
import anchor from "markdown-it-anchor";
import markdownItContainer from "markdown-it-container";
import markdownItFootnote from "markdown-it-footnote";
import markdownItKatex from "@vscode/markdown-it-katex";
import katexLibrary, { type KatexOptions } from "katex";
import type UserConfig from "@11ty/eleventy/UserConfig";
import { bodyOffset, readContentFile } from "./content.ts";
import { checkControlCharacters, lineAt, readText, rewriteLinks, tagsOf, targetsOf, unsafeTag } from "./content-safety.ts";
import { recordLink, startLinks } from "./links.ts";
import { codeBlockHtml, fenceLabels, highlightCode } from "./highlight.ts";
import { DIRECTIVES, renderDirective } from "./directives.ts";
import { FIGURE_NUMBER } from "./figures.ts";
import { HEADING_LINK_CLASS } from "./toc.ts";
import { breakableCode, escapeHtml, keepTogether, wordsPattern } from "./html.ts";
import { t, tHtml } from "./i18n.ts";
import { DEFAULT_LANGUAGE, isLang, languageTag, type Lang } from "./languages.ts";
import { handWrittenOutput } from "./transcripts.ts";
import { isLessonFile } from "./course.ts";
import { inScope, keepScoped, OWN_PAGE, SCOPE } from "./scope.ts";
import { href } from "./urls.ts";
import { contentError, relativeFile } from "./validation.ts";

/** Heading ids: lower-case words joined by hyphens; CJK characters are kept as they are. */
export const headingSlug = (text: string): string =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{Letter}\p{Number}\s-]/gu, "")
    .trim()
    .replace(/[\s-]+/g, "-");

// These plugins are CommonJS, typed against markdown-it's CommonJS build: take the function itself
// (some export it as `default`) with the type of this ES module instance.
const pluginOf = (mod: unknown): PluginWithParams =>
  ((mod as { default?: unknown }).default ?? mod) as PluginWithParams;
const container = pluginOf(markdownItContainer);
const footnote = pluginOf(markdownItFootnote);
const katex = pluginOf(markdownItKatex);

const CALLOUTS = ["note", "tip", "warning", "caution"] as const;
const TAKEAWAYS_ID = "key-takeaways";

/**
 * Ids the layouts around a post or lesson give elements of their own (_includes/layouts/); a unit
 * test keeps this list in step with them. A heading never takes one (see `headingId`).
 */
export const LAYOUT_IDS: ReadonlySet<string> = new Set(["main", "content", "objectives", "next-part", "series-title", "toc-title"]);
/** A heading's id: its slug, unless the layout or the takeaways already use that id on the page. */
const headingId = (text: string): string => {
  const slug = headingSlug(text);
  return LAYOUT_IDS.has(slug) || slug === TAKEAWAYS_ID ? `${slug}-section` : slug;
};
/** Every `::: name` container, for the message when a name is none of them. */
const CONTAINERS = [...CALLOUTS, "takeaways", "answer", "table"];

/** `::: name rest of line` → the rest of the line, or null when the container is another one. */
const containerArgs = (name: string, info: string): string | null => {
  const match = info.trim().match(new RegExp(`^${name}(?:\\s+(.*))?$`));
  return match ? (match[1] ?? "").trim() : null;
};

/** What Eleventy passes a render as its env: the page's data. */
type RenderEnv = { page?: { inputPath?: string; url?: unknown }; lang?: unknown } | undefined;

/** The page a Markdown render belongs to. */
export const renderedFile = (env: RenderEnv): string => (env?.page?.inputPath ? relativeFile(env.page.inputPath) : "(markdown)");
/** The line of the page's file a token starts on (1-based): front matter lines, then the body's. */
const sourceLine = (env: RenderEnv, token: Token): number => bodyOffset(renderedFile(env)) + (token.map?.[0] ?? 0) + 1;
/** Records a link within the site at a line of the page's file, to check when the build ends (./links.ts). */
const recordPageLink = (env: RenderEnv, line: number, target: string): void => {
  if (typeof env?.page?.url === "string") recordLink(renderedFile(env), line, env.page.url, target);
};
/** The language of the page being rendered. */
const renderedLang = (env: RenderEnv): Lang => (isLang(env?.lang) ? env.lang : DEFAULT_LANGUAGE);
const label = (env: RenderEnv, key: string, params?: Record<string, string | number>) => escapeHtml(t(renderedLang(env), key, params));
/** "Table 1." before a caption. */
const captionNumber = (env: RenderEnv, name: string) => `<span class="caption-number">${label(env, "markdown.caption", { label: name })}</span>`;

/**
 * Inline Markdown written on a block's first line (a callout's title, a table's caption), rendered
 * with that block's line, so what it records or refuses names the line.
 */
function renderInlineAt(md: MarkdownIt, source: string, env: RenderEnv, block: Token): string {
  const tokens = md.parseInline(source, env);
  const line = block.map?.[0] ?? 0;
  for (const token of tokens) for (const child of token.children ?? []) child.map = child.map && [child.map[0] + line, child.map[1] + line];
  return md.renderer.render(tokens, md.options, env);
}

function addContainers(md: MarkdownIt): void {
  for (const name of CALLOUTS) {
    md.use(container, name, {
      render(tokens: Token[], idx: number, _options: unknown, env: RenderEnv) {
        const token = tokens[idx]!;
        if (token.nesting !== 1) return "</div>\n";
        const title = containerArgs(name, token.info);
        const lang = renderedLang(env);
        const heading = title ? tHtml(lang, "markdown.titled", { title: renderInlineAt(md, title, env, token) }, { label: t(lang, `markdown.${name}`) }) : label(env, `markdown.${name}`);
        return `<div class="callout callout-${name}" role="note">\n<p class="callout-title">${heading}</p>\n`;
      },
    });
  }
  md.use(container, "takeaways", {
    render: (tokens: Token[], idx: number, _options: unknown, env: RenderEnv) =>
      tokens[idx]!.nesting === 1
        ? `<section class="takeaways" aria-labelledby="${SCOPE.id}${TAKEAWAYS_ID}">\n<h${SCOPE.level}2 id="${SCOPE.id}${TAKEAWAYS_ID}">${label(env, "markdown.takeaways")}</h${SCOPE.level}2>\n`
        : "</section>\n",
  });
  md.use(container, "answer", {
    render: (tokens: Token[], idx: number, _options: unknown, env: RenderEnv) =>
      tokens[idx]!.nesting === 1
        ? // Paper cannot be clicked: printed, the answer is labelled, not offered.
          `<details class="answer"${SCOPE.open}>\n<summary><span class="screen-only">${label(env, "markdown.answer")}</span><span class="print-only">${label(env, "markdown.answerPrinted")}</span></summary>\n`
        : "</details>\n",
  });
  md.use(container, "table", {
    validate: (info: string) => containerArgs("table", info) !== null,
    render(tokens: Token[], idx: number, _options: unknown, env: RenderEnv) {
      const token = tokens[idx]!;
      if (token.nesting !== 1) return "</div>\n</figure>\n";
      const name = t(renderedLang(env), "markdown.table", { number: token.meta.number as number });
      const caption = containerArgs("table", token.info) ?? "";
      return `<figure class="table-figure">\n<figcaption>${captionNumber(env, name)} ${renderInlineAt(md, caption, env, token)}</figcaption>\n<div class="table-scroll" tabindex="0" role="region" aria-label="${SCOPE.label}${escapeHtml(name)}">\n`;
    },
  });
  // Number tables in the order they appear, once per render (a page is one render).
  md.core.ruler.push("number-tables", (state) => {
    let tables = 0;
    for (const token of state.tokens) if (token.type === "container_table_open") token.meta = { number: ++tables };
  });
}

/**
 * A fenced block's info string in words: its language (or directive) first. The rest of the line
 * is not rendered; checks may read it (see ./fragments.ts).
 */
export const fenceWords = (info: string): string[] => info.trim().split(/\s+/);
export const fenceLanguage = (info: string): string => fenceWords(info)[0] ?? "";

function addCodeBlocks(md: MarkdownIt): void {
  md.renderer.rules.fence = (tokens, idx, _options, env: RenderEnv) => {
    const token = tokens[idx]!;
    const lang = fenceLanguage(token.info);
    const file = renderedFile(env);
    if (Object.hasOwn(DIRECTIVES, lang)) {
      const above = () => tokens.slice(0, idx).filter((t) => t.type === "fence" && fenceLanguage(t.info) === lang).map((t) => t.content);
      return renderDirective(lang, token.content, { file, line: sourceLine(env, token), lang: renderedLang(env) }, above);
    }
    const refused = handWrittenOutput(file, lang);
    if (refused) throw contentError([`${file}:${sourceLine(env, token)}: ${refused}`]);
    const { html, label: language } = highlightCode(token.content, lang);
    return codeBlockHtml({ html, ...fenceLabels(language, renderedLang(env)), lang: language ? lang : undefined }, renderedLang(env));
  };
}

/**
 * KaTeX in strict mode: every error and every warning (an unknown macro, Unicode text in math
 * mode) is an error, and so is a command that would link or load a file (\\href,
 * \\includegraphics), which KaTeX would otherwise colour red and publish.
 */
const strictKatex = {
  renderToString(tex: string, options: KatexOptions = {}): string {
    const untrusted: string[] = [];
    const trust = ({ command }: { command: string }) => {
      untrusted.push(command);
      return false;
    };
    let html: string;
    try {
      html = katexLibrary.renderToString(tex, { ...options, throwOnError: true, strict: "error", trust });
    } catch (error) {
      // KaTeX's own message underlines the spot with combining characters: say where in words.
      if (!(error instanceof katexLibrary.ParseError)) throw error;
      throw new Error(error.position === undefined ? error.rawMessage : `${error.rawMessage}, at character ${error.position + 1}`);
    }
    if (untrusted.length) throw new Error(`${untrusted.join(", ")} would link to or load another file, which math on this site may not`);
    return html;
  },
};

const ERROR_SPAN = /class="(?:katex-block )?katex-error" title="[^"]*">([^<]*)</;
const ESCAPED: Record<string, string> = { "#039": "'", quot: '"', lt: "<", gt: ">", amp: "&" };
/** The plugin's error text, as it escaped it. */
const unescapeHtml = (s: string) => s.replace(/&(#039|quot|lt|gt|amp);/g, (_all, e: string) => ESCAPED[e]!);

/**
 * The KaTeX plugin shows a formula it cannot render as an error span and moves on; the build stops
 * instead, naming the page, line and KaTeX's reason. Display math becomes focusable, since it may
 * scroll.
 */
function checkMath(md: MarkdownIt): void {
  for (const rule of ["math_inline", "math_inline_block", "math_inline_bare_block", "math_block"]) {
    const render = md.renderer.rules[rule];
    if (!render) continue;
    md.renderer.rules[rule] = (tokens, idx, options, env: RenderEnv, self) => {
      const html = render(tokens, idx, options, env, self);
      const error = html.match(ERROR_SPAN);
      // Display math scrolls sideways on narrow screens, so keyboard users must be able to reach it.
      if (!error) return html.replace('<p class="katex-block">', '<p class="katex-block" tabindex="0">');
      const reason = unescapeHtml(error[1]!).replace(/^Error: /, "");
      throw contentError([`${renderedFile(env)}:${sourceLine(env, tokens[idx]!)}: math: cannot render $${tokens[idx]!.content.trim()}$ (${reason})`]);
    };
  }
}

/**
 * Inline tokens (links, raw HTML, math) get the line they are on: their paragraph's first line plus
 * the line breaks before them, so messages about them can name it. A table cell has no line of its
 * own: it is on its row's.
 */
function lineInlineTokens(md: MarkdownIt): void {
  md.core.ruler.push("inline-lines", (state) => {
    let blockLine = 0;
    for (const block of state.tokens) {
      if (block.map) blockLine = block.map[0];
      if (block.type !== "inline" || !block.children) continue;
      block.map ??= [blockLine, blockLine + 1];
      let line = block.map[0];
      for (const child of block.children) {
        child.map ??= [line, line + 1];
        if (child.type === "softbreak" || child.type === "hardbreak") line++;
        else line += child.content.match(/\n/g)?.length ?? 0;
      }
    }
  });
}

/** Calls `visit` on each token inside a block's inline content, with its index among its siblings. */
function eachInlineToken(tokens: Token[], visit: (token: Token, index: number, siblings: Token[]) => void): void {
  for (const block of tokens) block.children?.forEach(visit);
}

/** How many characters next to `tokens[index]`, toward `step`, belong to its run: up to a space or line break. */
function joinedLength(tokens: Token[], index: number, step: 1 | -1): number {
  let length = 0;
  for (let i = index + step; i >= 0 && i < tokens.length; i += step) {
    const token = tokens[i]!;
    if (token.type === "softbreak" || token.type === "hardbreak") break;
    const text = token.type === "text" || token.type === "code_inline" ? token.content : "";
    const joined = (step > 0 ? /^\S*/ : /\S*$/).exec(text)![0];
    length += joined.length;
    if (joined.length < text.length) break;
  }
  return length;
}

/** Inline code gets its break places (breakableCode), told whether it is in a table cell. */
function breakInlineCode(md: MarkdownIt): void {
  md.core.ruler.push("code-in-cells", (state) => {
    let cells = 0;
    for (const token of state.tokens) {
      if (token.type === "td_open" || token.type === "th_open") cells++;
      else if (token.type === "td_close" || token.type === "th_close") cells--;
      else if (cells > 0 && token.type === "inline") for (const child of token.children ?? []) if (child.type === "code_inline") child.meta = { ...child.meta, inTable: true };
    }
  });
  md.renderer.rules.code_inline = (tokens, idx, _options, _env, self) => {
    const token = tokens[idx]!;
    const code = breakableCode(token.content, token.meta?.inTable === true, joinedLength(tokens, idx, -1), joinedLength(tokens, idx, 1));
    return `<code${self.renderAttrs(token)}>${code}</code>`;
  };
}

/**
 * A heading written in Markdown keeps the course's name on one line, as the layouts' headings do
 * (keepTogether). The name is the page's data (`course.title`, from _data/course.yaml).
 */
function keepNameInHeadings(md: MarkdownIt): void {
  md.core.ruler.push("heading-names", (state) => {
    let heading = false;
    for (const token of state.tokens) {
      if (token.type === "heading_open" || token.type === "heading_close") heading = token.nesting === 1;
      else if (heading && token.type === "inline") for (const child of token.children ?? []) if (child.type === "text") child.meta = { ...child.meta, heading: true };
    }
  });
  const text = md.renderer.rules.text!;
  md.renderer.rules.text = (tokens, idx, options, env: { course?: { title?: unknown } } | undefined, self) => {
    const token = tokens[idx]!;
    const name = env?.course?.title;
    const pattern = token.meta?.heading === true && typeof name === "string" ? wordsPattern(name) : undefined;
    return pattern?.test(token.content) ? keepTogether(token.content, name as string) : text(tokens, idx, options, env, self);
  };
}

/** Han characters, and the full-width punctuation of CJK text (、。「」（），：；！？ …). */
const HAN = /\p{Script=Han}/u;
const FULL_WIDTH_PUNCTUATION = /[\u3000-\u303f\uff00-\uffef]/;

/**
 * A line break in the source reads as a space, which Chinese wants only next to Latin letters and
 * digits: a break between two Han characters, or beside full-width punctuation, joins the lines.
 */
function joinCjkLines(md: MarkdownIt): void {
  const joins = (before: string, after: string) =>
    (HAN.test(before) && HAN.test(after)) || FULL_WIDTH_PUNCTUATION.test(before) || FULL_WIDTH_PUNCTUATION.test(after);
  md.core.ruler.push("cjk-line-breaks", (state) =>
    eachInlineToken(state.tokens, (token, i, children) => {
      if (token.type !== "softbreak") return;
      const before = children.slice(0, i).reverse().find((t) => t.content)?.content.at(-1);
      const after = children.slice(i + 1).find((t) => t.content)?.content[0];
      if (before && after && joins(before, after)) Object.assign(token, { type: "text", content: "" });
    }),
  );
}

const isFenceLine = (line: string | undefined, marker: string) => {
  const bare = (line ?? "").replace(/^[\s>]*/, "");
  return bare.startsWith(marker) && new RegExp(`^\\${marker[0]}+\\s*$`).test(bare);
};

/**
 * Mistakes that Markdown would publish garbled or literally stop the build instead, each naming its
 * line: a control character, raw HTML that runs a script or loads from another origin, a code block
 * or container never closed (it would swallow the rest of the page), a `:::` line that opens no
 * known container.
 */
function checkSource(md: MarkdownIt): void {
  md.core.ruler.before("normalize", "control-characters", (state) => {
    if (!state.inlineMode) checkControlCharacters(state.src, renderedFile(state.env as RenderEnv), bodyOffset(renderedFile(state.env as RenderEnv)) + 1);
  });
  md.core.ruler.push("check-source", (state) => {
    if (state.inlineMode) return;
    const env = state.env as RenderEnv;
    const file = renderedFile(env);
    const fail = (token: Token, field: string, reason: string, within = 0) => {
      throw contentError([`${file}:${sourceLine(env, token) + within}: ${field}: ${reason}`]);
    };
    const lines = state.src.split("\n");
    // Each id on the page, with the line that gives it: a second one would break links to either.
    const ids = new Map<string, number>();
    const claim = (id: string, token: Token, within = 0) => {
      const line = sourceLine(env, token) + within;
      if (LAYOUT_IDS.has(id)) fail(token, "(id)", `'${id}' is an id the page's layout gives an element of its own`, within);
      const first = ids.get(id);
      if (first !== undefined) fail(token, "(id)", `'${id}' is also the id of what line ${first} writes`, within);
      ids.set(id, line);
    };
    const html = (token: Token, source: string) => {
      for (const tag of tagsOf(source)) {
        const within = lineAt(source, tag.offset) - 1;
        const unsafe = unsafeTag(tag);
        if (unsafe) fail(token, "(html)", unsafe, within);
        const id = tag.attributes.find((a) => a.name === "id");
        if (id) claim(id.value, token, within);
        // Raw HTML's links and images are checked as Markdown links are.
        for (const target of targetsOf(tag)) recordPageLink(env, sourceLine(env, token) + within, target);
      }
    };
    startLinks(file);
    for (const token of state.tokens) {
      const container = token.type.match(/^container_(\w+)_open$/);
      if (token.type === "heading_open" && token.attrGet("id")) claim(token.attrGet("id")!.replace(SCOPE.id, ""), token);
      else if (token.type === "container_takeaways_open") claim(TAKEAWAYS_ID, token);
      if (token.type === "html_block") html(token, token.content);
      else if (token.type === "fence" && token.map) {
        const [start, end] = token.map;
        if (end - 1 === start || !isFenceLine(lines[end - 1], token.markup)) fail(token, "(code)", `the code block opened here with ${token.markup} is never closed: end it with a line of ${token.markup}`);
      } else if (container && token.map) {
        html(token, token.info);
        if (!isFenceLine(lines[token.map[1]], token.markup)) fail(token, "(container)", `'::: ${container[1]}' is never closed: end it with a line of :::`);
      } else if (token.type === "inline") {
        for (const child of token.children ?? []) if (child.type === "html_inline") html(child, child.content);
        const stray = token.content.split("\n").findIndex((line) => /^\s*:::/.test(line));
        if (stray !== -1) {
          const written = token.content.split("\n")[stray]!.trim();
          const reason = written.replace(/^:+/, "").trim()
            ? `'${written}' is no container: use one of ${CONTAINERS.join(", ")}`
            : `'${written}' closes no container (is the line that opens it misspelt?)`;
          fail(token, "(container)", reason, stray);
        }
      }
    }
  });
}

/**
 * Emphasis on a Chinese page is drawn with dots, which suit Han text only (see site.css). Emphasis
 * on Latin text alone, such as a paper's English title, is marked as the default language, so it
 * stays italic.
 */
function markLatinEmphasis(md: MarkdownIt): void {
  md.core.ruler.push("latin-emphasis", (state) => {
    if (renderedLang(state.env) === DEFAULT_LANGUAGE) return;
    eachInlineToken(state.tokens, (token, i, children) => {
      if (token.type !== "em_open") return;
      const close = children.findIndex((t, j) => j > i && t.type === "em_close" && t.level === token.level);
      const text = children.slice(i + 1, close).map((t) => t.content).join("");
      if (/\p{Script=Latin}/u.test(text) && !HAN.test(text) && !FULL_WIDTH_PUNCTUATION.test(text)) token.attrSet("lang", languageTag(DEFAULT_LANGUAGE));
    });
  });
}

/** Heading levels as placeholders, after the anchors (which read the levels) are in place. */
function scopeHeadings(md: MarkdownIt): void {
  md.core.ruler.push("scope-headings", (state) => {
    for (const token of state.tokens) if (token.type === "heading_open" || token.type === "heading_close") token.tag = `h${SCOPE.level}${token.tag.slice(1)}`;
  });
  // Footnotes are numbered per render: their ids too need the scope (fn1 → fn<scope>1).
  md.renderer.rules.footnote_anchor_name = (tokens, idx) => `${SCOPE.id}${(tokens[idx]!.meta.id as number) + 1}`;
}

/** A link within the site as the page writes it: under the path prefix, a fragment in this render's scope. */
const siteHref = (target: string): string => (target.startsWith("#") ? `#${SCOPE.id}${target.slice(1)}` : href(target));

/**
 * Links within the site go under the path prefix, in Markdown and in raw HTML alike; links to other
 * sites open no window handle back to this one.
 */
function addLinks(md: MarkdownIt): void {
  md.renderer.rules.link_open = (tokens, idx, options, env: RenderEnv, self) => {
    const token = tokens[idx]!;
    // Heading self-links carry the id's placeholder already. They lead to their own heading's id,
    // so they are not recorded: each would make the check read its page back (1,000 posts: 45 MB).
    const target = (token.attrGet("href") ?? "").replace(SCOPE.id, "");
    if (token.attrGet("class") !== HEADING_LINK_CLASS) recordPageLink(env, sourceLine(env, token), target);
    // Another site, also when written protocol-relative (//host/…).
    if (/^(?:https?:)?\/\//i.test(target)) token.attrSet("rel", "noopener");
    else token.attrSet("href", siteHref(target));
    return self.renderToken(tokens, idx, options);
  };
  // Raw HTML's links were recorded as its tags were checked (checkSource); its ids are scoped as
  // headings' are, so its fragment links find them in any scope.
  const rawHtml = { url: siteHref, id: (id: string) => `${SCOPE.id}${id}` };
  md.renderer.rules.html_inline = md.renderer.rules.html_block = (tokens, idx) => rewriteLinks(tokens[idx]!.content, rawHtml);
}

export interface FencedBlock {
  file: string;
  /** The file line of the opening fence (1-based). */
  line: number;
  info: string;
  content: string;
}

/** The fenced blocks of a post or lesson, found as the build's renderer finds them. */
export function fencedBlocks(file: string): FencedBlock[] {
  const { body } = readContentFile(readText(file), file);
  const env: RenderEnv = { page: { inputPath: file } };
  return createMarkdown()
    .parse(body, env)
    .filter((token) => token.type === "fence")
    .map((token) => ({ file: renderedFile(env), line: sourceLine(env, token), info: token.info, content: token.content }));
}

export function createMarkdown(): MarkdownIt {
  const md = new MarkdownIt({ html: true, linkify: false, typographer: true });
  // Curly quotes only: the typographer's replacements turn an exercise's "(c)" into "©" (and "(r)"
  // into "®"); authors type dashes and ellipses as the characters themselves.
  md.disable("replacements");
  md.use(anchor, {
    level: [2, 3, 4],
    slugify: (text: string) => `${SCOPE.id}${headingId(text)}`,
    permalink: anchor.permalink.headerLink({ safariReaderFix: true, class: HEADING_LINK_CLASS }),
  });
  md.use(footnote);
  scopeHeadings(md);
  md.use(katex, { katex: strictKatex });
  checkMath(md);
  lineInlineTokens(md);
  checkSource(md);
  addContainers(md);
  addCodeBlocks(md);
  addLinks(md);
  breakInlineCode(md);
  keepNameInHeadings(md);
  joinCjkLines(md);
  markLatinEmphasis(md);
  // Figures come from directives, rendered one by one: number them once the page is whole. A
  // lesson's render is kept with its placeholders, for the page that shows the whole course.
  const render = md.render.bind(md);
  md.render = (source, env) => {
    let figures = 0;
    const html = render(source, env).replaceAll(FIGURE_NUMBER, () => captionNumber(env, t(renderedLang(env), "markdown.figure", { number: ++figures })));
    const file = renderedFile(env);
    if (isLessonFile(file)) keepScoped(file, html);
    return inScope(html, OWN_PAGE);
  };
  return md;
}

export default function markdown(config: UserConfig): void {
  config.setLibrary("md", createMarkdown());
  // Code the templates write (feed addresses, lab commands, glossary names) breaks as Markdown's does.
  config.addFilter("breakableCode", (code: unknown) => breakableCode(String(code)));
}

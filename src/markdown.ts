// The Markdown renderer for posts and lessons. Everything is decided at build time: heading ids
// (not an HTML transform, which would cost most of a large build), code highlighting (Prism), math
// (KaTeX), callouts, numbered tables and figures, footnotes, and links under the path prefix. Its
// labels ("Note", "Table 1") are UI strings in the page's language.
import MarkdownIt, { type PluginWithParams } from "markdown-it";
import type Token from "markdown-it/lib/token.mjs";
import anchor from "markdown-it-anchor";
import markdownItContainer from "markdown-it-container";
import markdownItFootnote from "markdown-it-footnote";
import markdownItKatex from "@vscode/markdown-it-katex";
import type UserConfig from "@11ty/eleventy/UserConfig";
import { bodyOffset } from "./content.ts";
import { codeBlockHtml, fenceLabels, highlightCode } from "./highlight.ts";
import { DIRECTIVES, renderDirective } from "./directives.ts";
import { FIGURE_NUMBER } from "./figures.ts";
import { escapeHtml } from "./html.ts";
import { t, tHtml } from "./i18n.ts";
import { DEFAULT_LANGUAGE, isLang, languageTag, type Lang } from "./languages.ts";
import { handWrittenOutput } from "./transcripts.ts";
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

/** `::: name rest of line` → the rest of the line, or null when the container is another one. */
const containerArgs = (name: string, info: string): string | null => {
  const match = info.trim().match(new RegExp(`^${name}(?:\\s+(.*))?$`));
  return match ? (match[1] ?? "").trim() : null;
};

/** What Eleventy passes a render as its env: the page's data. */
type RenderEnv = { page?: { inputPath?: string }; lang?: unknown } | undefined;

/** The page a Markdown render belongs to. */
export const renderedFile = (env: RenderEnv): string => (env?.page?.inputPath ? relativeFile(env.page.inputPath) : "(markdown)");
/** The language of the page being rendered. */
const renderedLang = (env: RenderEnv): Lang => (isLang(env?.lang) ? env.lang : DEFAULT_LANGUAGE);
const label = (env: RenderEnv, key: string, params?: Record<string, string | number>) => escapeHtml(t(renderedLang(env), key, params));
/** "Table 1." before a caption. */
const captionNumber = (env: RenderEnv, name: string) => `<span class="caption-number">${label(env, "markdown.caption", { label: name })}</span>`;

function addContainers(md: MarkdownIt): void {
  for (const name of CALLOUTS) {
    md.use(container, name, {
      render(tokens: Token[], idx: number, _options: unknown, env: RenderEnv) {
        const token = tokens[idx]!;
        if (token.nesting !== 1) return "</div>\n";
        const title = containerArgs(name, token.info);
        const lang = renderedLang(env);
        const heading = title ? tHtml(lang, "markdown.titled", { title: md.renderInline(title) }, { label: t(lang, `markdown.${name}`) }) : label(env, `markdown.${name}`);
        return `<div class="callout callout-${name}" role="note">\n<p class="callout-title">${heading}</p>\n`;
      },
    });
  }
  md.use(container, "takeaways", {
    render: (tokens: Token[], idx: number, _options: unknown, env: RenderEnv) =>
      tokens[idx]!.nesting === 1
        ? `<section class="takeaways" aria-labelledby="key-takeaways">\n<h2 id="key-takeaways">${label(env, "markdown.takeaways")}</h2>\n`
        : "</section>\n",
  });
  md.use(container, "answer", {
    render: (tokens: Token[], idx: number, _options: unknown, env: RenderEnv) =>
      tokens[idx]!.nesting === 1 ? `<details class="answer">\n<summary>${label(env, "markdown.answer")}</summary>\n` : "</details>\n",
  });
  md.use(container, "table", {
    validate: (info: string) => containerArgs("table", info) !== null,
    render(tokens: Token[], idx: number, _options: unknown, env: RenderEnv) {
      const token = tokens[idx]!;
      if (token.nesting !== 1) return "</div>\n</figure>\n";
      const name = t(renderedLang(env), "markdown.table", { number: token.meta.number as number });
      const caption = containerArgs("table", token.info) ?? "";
      return `<figure class="table-figure">\n<figcaption>${captionNumber(env, name)} ${md.renderInline(caption)}</figcaption>\n<div class="table-scroll" tabindex="0" role="region" aria-label="${escapeHtml(name)}">\n`;
    },
  });
  // Number tables in the order they appear, once per render (a page is one render).
  md.core.ruler.push("number-tables", (state) => {
    let tables = 0;
    for (const token of state.tokens) if (token.type === "container_table_open") token.meta = { number: ++tables };
  });
}

function addCodeBlocks(md: MarkdownIt): void {
  md.renderer.rules.fence = (tokens, idx, _options, env: RenderEnv) => {
    const token = tokens[idx]!;
    const lang = token.info.trim().split(/\s+/)[0] ?? "";
    const file = renderedFile(env);
    const line = () => bodyOffset(file) + (token.map?.[0] ?? 0) + 1;
    if (Object.hasOwn(DIRECTIVES, lang)) return renderDirective(lang, token.content, { file, line: line(), lang: renderedLang(env) });
    const refused = handWrittenOutput(file, lang);
    if (refused) throw contentError([`${file}:${line()}: ${refused}`]);
    const { html, label: language } = highlightCode(token.content, lang);
    return codeBlockHtml({ html, ...fenceLabels(language, renderedLang(env)), lang: language ? lang : undefined }, renderedLang(env));
  };
}

/**
 * KaTeX marks a formula it cannot parse and moves on; the build stops instead, naming the page.
 * Display math becomes focusable, since it may scroll.
 */
function checkMath(md: MarkdownIt): void {
  for (const rule of ["math_inline", "math_inline_block", "math_inline_bare_block", "math_block"]) {
    const render = md.renderer.rules[rule];
    if (!render) continue;
    md.renderer.rules[rule] = (tokens, idx, options, env: RenderEnv, self) => {
      const html = render(tokens, idx, options, env, self);
      const error = html.match(/class="katex-error" title="([^"]*)"/);
      // Display math scrolls sideways on narrow screens, so keyboard users must be able to reach it.
      if (!error) return html.replace('<p class="katex-block">', '<p class="katex-block" tabindex="0">');
      throw contentError([`${renderedFile(env)}: math: cannot render $${tokens[idx]!.content.trim()}$ (${error[1]})`]);
    };
  }
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
  md.core.ruler.push("cjk-line-breaks", (state) => {
    for (const children of state.tokens.map((t) => t.children ?? [])) {
      children.forEach((token, i) => {
        if (token.type !== "softbreak") return;
        const before = children.slice(0, i).reverse().find((t) => t.content)?.content.at(-1);
        const after = children.slice(i + 1).find((t) => t.content)?.content[0];
        if (before && after && joins(before, after)) Object.assign(token, { type: "text", content: "" });
      });
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
    for (const children of state.tokens.map((t) => t.children ?? [])) {
      children.forEach((token, i) => {
        if (token.type !== "em_open") return;
        const close = children.findIndex((t, j) => j > i && t.type === "em_close" && t.level === token.level);
        const text = children.slice(i + 1, close).map((t) => t.content).join("");
        if (/\p{Script=Latin}/u.test(text) && !HAN.test(text) && !FULL_WIDTH_PUNCTUATION.test(text)) token.attrSet("lang", languageTag(DEFAULT_LANGUAGE));
      });
    }
  });
}

/** Links within the site go under the path prefix; links to other sites open no window handle back to this one. */
function addLinks(md: MarkdownIt): void {
  md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
    const token = tokens[idx]!;
    const target = token.attrGet("href") ?? "";
    if (/^https?:\/\//.test(target)) token.attrSet("rel", "noopener");
    else token.attrSet("href", href(target));
    return self.renderToken(tokens, idx, options);
  };
}

export function createMarkdown(): MarkdownIt {
  const md = new MarkdownIt({ html: true, linkify: false, typographer: true });
  md.use(anchor, {
    level: [2, 3, 4],
    slugify: headingSlug,
    permalink: anchor.permalink.headerLink({ safariReaderFix: true, class: "heading-link" }),
  });
  md.use(footnote);
  md.use(katex, { throwOnError: false });
  checkMath(md);
  addContainers(md);
  addCodeBlocks(md);
  addLinks(md);
  joinCjkLines(md);
  markLatinEmphasis(md);
  // Figures come from directives, rendered one by one: number them once the page is whole.
  const render = md.render.bind(md);
  md.render = (source, env) => {
    let figures = 0;
    return render(source, env).replaceAll(FIGURE_NUMBER, () => captionNumber(env, t(renderedLang(env), "markdown.figure", { number: ++figures })));
  };
  return md;
}

export default function markdown(config: UserConfig): void {
  config.setLibrary("md", createMarkdown());
}

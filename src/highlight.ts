// Build-time syntax highlighting with Prism: token classes only, so the light and dark palettes
// live in the stylesheet. Only the languages below are loaded; any other fence language is shown as
// escaped plain text rather than failing the build.
import Prism from "prismjs";
import loadLanguages from "prismjs/components/index.js";
import { escapeHtml } from "./html.ts";
import { t } from "./i18n.ts";
import type { Lang } from "./languages.ts";

/** Fence language → the label readers see. Aliases share Prism's grammar. */
const LANGUAGES: Record<string, string> = {
  c: "C",
  h: "C",
  cpp: "C++",
  bash: "Bash",
  sh: "Shell",
  shell: "Shell",
  console: "Console",
  "shell-session": "Console",
  python: "Python",
  py: "Python",
  typescript: "TypeScript",
  ts: "TypeScript",
  javascript: "JavaScript",
  js: "JavaScript",
  json: "JSON",
  yaml: "YAML",
  yml: "YAML",
  toml: "TOML",
  ini: "INI",
  diff: "Diff",
  makefile: "Makefile",
  html: "HTML",
  xml: "XML",
  markdown: "Markdown",
  md: "Markdown",
};
const GRAMMAR: Record<string, string> = { h: "c", sh: "bash", shell: "bash", console: "shell-session", py: "python", ts: "typescript", js: "javascript", yml: "yaml", md: "markdown", xml: "markup" };

loadLanguages([...new Set(Object.keys(LANGUAGES).map((lang) => GRAMMAR[lang] ?? lang))]);
// Bash's number takes an IPv4 address's first two parts for a decimal (169.254 of 169.254.101.1),
// colouring half of it: a number that goes on with another `.digit` is no number (the address stays
// plain). Transcripts (shell-session) use the same grammar.
const bashNumber = Prism.languages.bash!.number as { pattern: RegExp; lookbehind: boolean };
bashNumber.pattern = new RegExp(`${bashNumber.pattern.source}(?!\\.\\d)`, bashNumber.pattern.flags);

export function highlightCode(code: string, lang: string): { html: string; label: string } {
  const key = lang.toLowerCase();
  const label = LANGUAGES[key];
  const grammar = label ? Prism.languages[GRAMMAR[key] ?? key] : undefined;
  if (!label || !grammar) return { html: escapeHtml(code), label: "" };
  return { html: Prism.highlight(code, grammar, GRAMMAR[key] ?? key), label };
}

export interface CodeBlock {
  /** Highlighted (or escaped) code. */
  html: string;
  /** What readers see above the code: the language's name, or "C program". */
  label: string;
  /** The accessible name of the scrollable code and of its copy button. */
  name: string;
  /** The code's language (a fence's info string), for its class. */
  lang?: string;
  element?: "div" | "figure";
  className?: string;
  caption?: string;
}

/** A fenced code block's label and accessible name, in the page's language. */
export function fenceLabels(label: string, pageLang: Lang): { label: string; name: string } {
  return label ? { label, name: t(pageLang, "code.nameOf", { language: label }) } : { label: t(pageLang, "code.text"), name: t(pageLang, "code.name") };
}

/**
 * A code block as every page shows it: label, copy button (an enhancement), and code that scrolls
 * sideways from the keyboard; the scroller is a named region, since only a role may carry a name.
 */
export function codeBlockHtml(block: CodeBlock, pageLang: Lang): string {
  const tag = block.element ?? "div";
  const name = escapeHtml(block.name);
  const langClass = block.lang ? ` class="language-${escapeHtml(block.lang)}"` : "";
  return (
    `<${tag} class="code-block${block.className ? ` ${block.className}` : ""}" data-copy-scope>` +
    `<div class="code-head"><span class="code-lang">${escapeHtml(block.label)}</span>` +
    `<button type="button" class="copy-button" hidden>${escapeHtml(t(pageLang, "copy.code"))}<span class="visually-hidden"> ${name}</span></button></div>` +
    `<pre tabindex="0" role="region" aria-label="${name}"><code${langClass}>${block.html}</code></pre>${block.caption ?? ""}</${tag}>\n`
  );
}

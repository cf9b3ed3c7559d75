// The few HTML helpers that build strings outside templates; everything they insert is escaped.
import { HAN_LANGUAGE, languageTag, type Lang } from "./languages.ts";

const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => entities[c] ?? c);

const characters = Object.fromEntries(Object.entries(entities).map(([c, entity]) => [entity, c]));

/** The text of markup that escapeHtml (or Prism, which escapes & and <) wrote; in one pass, so `&amp;lt;` is `&lt;`. */
export const unescapeHtml = (s: string): string => s.replace(/&(?:lt|gt|quot|#39|amp);/g, (e) => characters[e] ?? e);

/** Text as inline code, with its break places (breakableCode). */
export const codeHtml = (text: string | number): string => `<code>${breakableCode(String(text))}</code>`;

/** A `backticked` span of a data file's text: code. */
const CODE_SPAN = /`([^`]+)`/g;

/** Text from a data file, escaped, with each `backticked` span shown as code (codeHtml). */
export const textWithCode = (text: string): string => text.split(CODE_SPAN).map((part, i) => (i % 2 ? codeHtml(part) : escapeHtml(part))).join("");

/** Whether a backtick in `text` is left over once its code spans are taken out: textWithCode would show it as is. */
export const hasUnpairedBacktick = (text: string): boolean => text.replace(CODE_SPAN, "").includes("`");

/** A link to `url` around markup that is already HTML (escape text first, or pass codeHtml's). */
export const linkHtml = (url: string, html: string): string => `<a href="${escapeHtml(url)}">${html}</a>`;

/**
 * Escapes text and, on a page in another language, marks runs of Han characters (and CJK
 * punctuation) with their language, for fonts and screen readers. On a Chinese page they need none.
 */
export const markLanguages = (text: string, pageLang: Lang): string =>
  pageLang === HAN_LANGUAGE
    ? escapeHtml(text)
    : escapeHtml(text).replace(/[\p{Script=Han}\u3000-\u303f\uff00-\uffef]+/gu, (run) => `<span lang="${languageTag(HAN_LANGUAGE)}">${run}</span>`);

/** The class that keeps a run of words on one line (site.css). */
export const UNBROKEN_CLASS = "unbroken";

/**
 * Each name's patterns, made once, as every page's headings, navigation and crumbs look for the
 * course's name: the name whole, and the same in a capture group, to split text around it.
 */
const namePatterns = new Map<string, { whole: RegExp; split: RegExp } | undefined>();

function patternsOf(name: string): { whole: RegExp; split: RegExp } | undefined {
  if (!namePatterns.has(name)) {
    const words = name.trim().split(/\s+/).filter(Boolean);
    const literal = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const source = `(?<![\\p{L}\\p{N}])${words.map(literal).join("\\s+")}(?![\\p{L}\\p{N}])`;
    namePatterns.set(name, words.length < 2 ? undefined : { whole: new RegExp(source, "u"), split: new RegExp(`(${source})`, "u") });
  }
  return namePatterns.get(name);
}

/** A name of several words (the course's, "RDMA 101"), matched whole with any space between its words; none for one word. */
export const wordsPattern = (name: string): RegExp | undefined => patternsOf(name)?.whole;

/**
 * Escapes text, keeping each occurrence of `name` (words such as the course's name, "RDMA 101") on
 * one line: a heading that wraps breaks before or after it, never inside. Markup only: the text
 * read, copied and searched is the same.
 */
export function keepTogether(text: string, name: string): string {
  // The name's occurrences are the odd parts.
  const splitter = patternsOf(name)?.split;
  if (!splitter) return escapeHtml(text);
  return text
    .split(splitter)
    .map((part, i) => (i % 2 ? `<span class="${UNBROKEN_CLASS}">${escapeHtml(part)}</span>` : escapeHtml(part)))
    .join("");
}

/** ` lang="…"` for text in `textLang` on a page in `pageLang`, or nothing when they agree. */
export const langAttribute = (textLang: Lang, pageLang: Lang): string => (textLang === pageLang ? "" : ` lang="${languageTag(textLang)}"`);

/** Text in `textLang`, escaped, and in a span that names its language when the page is in another. */
export const langText = (text: string, textLang: Lang, pageLang: Lang): string => {
  const lang = langAttribute(textLang, pageLang);
  return lang ? `<span${lang}>${escapeHtml(text)}</span>` : escapeHtml(text);
};

/**
 * Where a name in inline code may break across lines: after an underscore (`IBV_WC_` | `RETRY`),
 * before a member's `.`, `->` or `::` (`attr` | `.max_dest_rd_atomic`, `wc` | `->status`), before
 * a path's `/`, and where a camelCase word starts (`cudaDevAttr` | `GPUDirect` | `RDMASupported`;
 * not before a lone final capital, `uverbsN`). Digits around a dot (`169.254.1.1`, `3.14`) and a
 * URL's `//` are no such place.
 */
const CODE_BREAK = /(?<=[A-Za-z0-9]_+)(?=[A-Za-z0-9])|(?<=[\w)\]])(?=\.[A-Za-z_]|->|::)|(?<=[^\s/])(?=\/[^\s/])|(?<=[a-z])(?=[A-Z][A-Za-z0-9])/g;
/**
 * A run of inline code this long (no space in it) may not fit a line of the narrowest column prose
 * has (a list in a callout on a 320px phone holds about 22 characters of code): it gets its break
 * places wherever it is. A shorter one moves to the next line whole.
 */
export const LONG_CODE = 20;
/** A word of inline code that starts with a hyphen: an option (`-d`, `--size=4096`), `-1`, `->next`. */
const OPTION = /^--?[^\s-]/;
/** C's member arrow, escaped: browsers break after its hyphen (`dev-` | `>node_type`), so it is kept whole. */
const ARROW = "-&gt;";

/**
 * Inline code, with a `<wbr>` at each place a name may break (CODE_BREAK): without them a name too
 * wide for its line breaks after any letter (`IBV_WC_RE` | `TRY_EXC_ERR`), as `overflow-wrap` lets
 * it, which stays the last resort for a piece still too wide. In a table cell every name has them,
 * whatever its length: a cell is as narrow as the table's columns need (A5 paper; a table on a
 * screen scrolls instead, see site.css). In prose only long runs (LONG_CODE) do, so that a name that
 * fits the next line is not split at a line's end; `before` and `after` count the characters of
 * the run outside the code (`<code>a_b</code>/<code>c_d</code>` is one run). `<wbr>` is no text:
 * what is copied, found, indexed and read aloud is the code as written.
 */
export function breakableCode(code: string, inTable = false, before = 0, after = 0): string {
  const runs = code.split(/(\s+)/);
  return runs
    .map((run, i) => {
      const length = run.length + (i === 0 ? before : 0) + (i === runs.length - 1 ? after : 0);
      const pieces = inTable || length >= LONG_CODE ? run.split(CODE_BREAK) : [run];
      const html = pieces.map(escapeHtml);
      // Browsers break after an option's leading hyphen (`-` | `d rxe0`): its first piece stays whole.
      const option = OPTION.test(run) && pieces[0]!.length < LONG_CODE;
      if (option) html[0] = `<span class="${UNBROKEN_CLASS}">${html[0]}</span>`;
      for (let i = option ? 1 : 0; i < html.length; i++) html[i] = html[i]!.replaceAll(ARROW, `<span class="${UNBROKEN_CLASS}">${ARROW}</span>`);
      return html.join("<wbr>");
    })
    .join("");
}

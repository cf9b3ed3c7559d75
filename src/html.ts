// The few HTML helpers that build strings outside templates; everything they insert is escaped.
import { HAN_LANGUAGE, languageTag, type Lang } from "./languages.ts";

const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => entities[c] ?? c);

const characters = Object.fromEntries(Object.entries(entities).map(([c, entity]) => [entity, c]));

/** The text of markup that escapeHtml (or Prism, which escapes & and <) wrote; in one pass, so `&amp;lt;` is `&lt;`. */
export const unescapeHtml = (s: string): string => s.replace(/&(?:lt|gt|quot|#39|amp);/g, (e) => characters[e] ?? e);

/** Text as inline code. */
export const codeHtml = (text: string | number): string => `<code>${escapeHtml(String(text))}</code>`;

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

/** A name of several words (the course's, "RDMA 101"), matched whole with any space between its words; none for one word. */
export function wordsPattern(name: string): RegExp | undefined {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return undefined;
  const literal = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\p{L}\\p{N}])${words.map(literal).join("\\s+")}(?![\\p{L}\\p{N}])`, "u");
}

/**
 * Escapes text, keeping each occurrence of `name` (words such as the course's name, "RDMA 101") on
 * one line: a heading that wraps breaks before or after it, never inside. Markup only: the text
 * read, copied and searched is the same.
 */
export function keepTogether(text: string, name: string): string {
  const pattern = wordsPattern(name);
  if (!pattern) return escapeHtml(text);
  // Split around a capture group: the name's occurrences are the odd parts.
  return text
    .split(new RegExp(`(${pattern.source})`, "u"))
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

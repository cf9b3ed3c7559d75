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

/** ` lang="…"` for text in `textLang` on a page in `pageLang`, or nothing when they agree. */
export const langAttribute = (textLang: Lang, pageLang: Lang): string => (textLang === pageLang ? "" : ` lang="${languageTag(textLang)}"`);

/** Text in `textLang`, escaped, and in a span that names its language when the page is in another. */
export const langText = (text: string, textLang: Lang, pageLang: Lang): string => {
  const lang = langAttribute(textLang, pageLang);
  return lang ? `<span${lang}>${escapeHtml(text)}</span>` : escapeHtml(text);
};

// The few HTML helpers that build strings outside templates; everything they insert is escaped.
const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => entities[c] ?? c);

/** Escapes text and marks runs of Chinese characters with lang="zh-Hans" for fonts and screen readers. */
export const markCjk = (text: string): string =>
  escapeHtml(text).replace(/[\p{Script=Han}\u3000-\u303f\uff00-\uffef]+/gu, (run) => `<span lang="zh-Hans">${run}</span>`);

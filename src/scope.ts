// What differs when a lesson is shown inside the whole course (the print page, ./print.ts) rather
// than on a page of its own: every id and what names it (fragment links, aria-labelledby), the names
// of table regions, heading levels, and whether answers are open. The Markdown renderer writes a
// placeholder at each such place; a page fills them in (a lesson's own page with nothing), so each
// lesson is rendered once and no page holds an id twice.
import { contentError } from "./validation.ts";

/** The placeholders: private-use characters, which no content holds. */
export const SCOPE = {
  /** Before an id, and in each reference to it. */
  id: "\uE000",
  /** Before the name of a table's scrolling region. */
  label: "\uE001",
  /** Between "h" and a heading's level. */
  level: "\uE002",
  /** Where `<details>` may say `open`. */
  open: "\uE003",
} as const;

export interface Scope {
  /** Put before every id the render wrote. */
  id: string;
  /** Put before each table region's name (a page holding several lessons holds several "Table 1"). */
  label: string;
  /** Added to every heading level (at most h6). */
  levels: number;
  /** Whether answers are shown open. */
  open: boolean;
}

/** A render on a page of its own: placeholders leave no trace. */
export const OWN_PAGE: Scope = { id: "", label: "", levels: 0, open: false };

const PLACEHOLDER = new RegExp(`${SCOPE.id}|${SCOPE.label}|${SCOPE.open}|${SCOPE.level}([1-6])`, "g");

/**
 * A render's HTML with its placeholders filled in for `scope`, in one pass: every page's HTML goes
 * through here, and each pass copies all of it.
 */
export function inScope(html: string, scope: Scope): string {
  return html.replace(PLACEHOLDER, (placeholder: string, level: string | undefined) => {
    if (level !== undefined) return String(Math.min(6, Number(level) + scope.levels));
    if (placeholder === SCOPE.id) return scope.id;
    if (placeholder === SCOPE.label) return scope.label;
    return scope.open ? " open" : "";
  });
}

/** Lessons as rendered, placeholders kept, by file: filled in again for the print page. */
const scoped = new Map<string, string>();

export const keepScoped = (file: string, html: string): void => void scoped.set(file, html);

/**
 * The render of `file` with its placeholders, checked against what its own page got (`ownPage`,
 * Eleventy's templateContent), so a page never shows a render other than the lesson's current one.
 */
export function scopedRender(file: string, ownPage: string): string {
  const html = scoped.get(file);
  if (html === undefined || inScope(html, OWN_PAGE) !== ownPage) throw contentError([`${file}: (file): its render was not kept for the pages that show several lessons`]);
  return html;
}

// Text as Chromium laid it out, character by character, for tests of where lines break.

/** One element's text as laid out. */
export interface LaidOut {
  /** The element's text, trimmed, to name it in a message. */
  label: string;
  /** Each character of its text, with the top and width of its box (none for a collapsed space). */
  chars: { char: string; top?: number; width: number }[];
  /** The width of the line the element is set in: its nearest block's content box. */
  line: number;
  /** The element's own padding at the two ends of a line (an inline code's). */
  padding: number;
}

/** Which elements to lay out: those `selector` matches, only those whose text `matching` (a regular expression) finds, only inline ones set on more than one line (`wrapped`). */
export interface Elements {
  selector: string;
  matching?: string;
  wrapped?: boolean;
}

/**
 * In the page (`page.evaluate(laidOut, elements)`): the elements asked for, as laid out.
 * Self-contained, as a function run in the page must be.
 */
export function laidOut({ selector, matching, wrapped }: Elements): LaidOut[] {
  const range = document.createRange();
  const text = matching === undefined ? undefined : new RegExp(matching);
  const wanted = (element: HTMLElement) => (!text || text.test(element.textContent ?? "")) && (!wrapped || element.getClientRects().length > 1);
  return [...document.querySelectorAll<HTMLElement>(selector)].filter(wanted).map((element) => {
    const chars: LaidOut["chars"] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      for (let i = 0; i < node.data.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        chars.push({ char: node.data[i]!, top: rect?.top, width: rect?.width ?? 0 });
      }
    }
    let block = element;
    while (getComputedStyle(block).display.startsWith("inline")) block = block.parentElement!;
    const [blockStyle, style] = [getComputedStyle(block), getComputedStyle(element)];
    return {
      label: element.textContent!.trim(),
      chars,
      line: block.clientWidth - parseFloat(blockStyle.paddingLeft) - parseFloat(blockStyle.paddingRight),
      padding: parseFloat(style.paddingLeft) + parseFloat(style.paddingRight),
    };
  });
}

/** The characters of `text` from `start` to `end` (inclusive) as one string, and their width. */
export const runOf = (text: LaidOut, start: number, end: number): { run: string; width: number } => {
  const chars = text.chars.slice(start, end + 1);
  return { run: chars.map((c) => c.char).join(""), width: chars.reduce((sum, c) => sum + c.width, 0) };
};

/** The indexes of the characters that start a line after the first (below the last character before them with a box). */
export function lineStarts(text: LaidOut): number[] {
  const starts: number[] = [];
  let top: number | undefined;
  text.chars.forEach((c, i) => {
    if (c.top === undefined) return;
    if (top !== undefined && c.top - top > 3) starts.push(i);
    top = c.top;
  });
  return starts;
}

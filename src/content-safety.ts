// What content may hold, whatever file it comes from. Two rules, each checked where the text is
// read (Markdown as it is parsed, figures and data files as they are read), never over built pages:
//
// - no invisible control characters (text pasted from a PDF carries them): XML forbids them, so a
//   single one would make every feed that carries the text invalid;
// - no markup that runs a script or loads anything from another origin: raw HTML in Markdown and
//   SVG figures reach pages and feeds (whose readers would fetch it), and the site makes no request
//   to another origin.
//
// One small tokenizer serves both Markdown's raw HTML and SVG figures, so they obey the same rules.
import { readFileSync } from "node:fs";
import { escapeHtml } from "./html.ts";
import { contentError, relativeFile } from "./validation.ts";

/** C0 controls but tab, line feed and carriage return, and the two non-characters XML forbids. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;

const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
/** The line (1-based) of an offset in a text. */
export const lineAt = (text: string, offset: number): number => (text.slice(0, offset).match(/\n/g)?.length ?? 0) + 1;

const controlReason = (char: string) => `contains the invisible control character ${codePoint(char)} (text pasted from a PDF often does); delete it`;

/** Throws `file:line: (text): …` for the first control character in `text`, whose first line is `firstLine` of `file`. */
export function checkControlCharacters(text: string, file: string, firstLine = 1): void {
  const found = CONTROL.exec(text);
  if (found) throw contentError([`${file}:${firstLine + lineAt(text, found.index) - 1}: (text): ${controlReason(found[0])}`]);
}

/** The field (a path into parsed data, as `fieldName` writes it) whose text holds a control character, with the reason. */
export function controlCharacterIn(value: unknown, path: PropertyKey[] = []): { path: PropertyKey[]; reason: string } | undefined {
  if (typeof value === "string") {
    const found = CONTROL.exec(value);
    return found ? { path, reason: controlReason(found[0]) } : undefined;
  }
  if (value === null || typeof value !== "object") return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = controlCharacterIn(item, [...path, Array.isArray(value) ? Number(key) : key]);
    if (found) return found;
  }
  return undefined;
}

/** A text file the build publishes from (a figure, a program, a transcript, a chart's data), checked. */
export function readText(file: string): string {
  const text = readFileSync(file, "utf8");
  checkControlCharacters(text, relativeFile(file));
  return text;
}

export interface Tag {
  /** Lower case. */
  name: string;
  /** Values as written; `at` is where a value starts in the fragment. */
  attributes: { name: string; value: string; at: number }[];
  /** Where the tag starts in the fragment. */
  offset: number;
}

const ATTRIBUTE = /[\s/]*([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"?|'([^']*)'?|([^\s>]*)))?/dy;

/**
 * The opening tags of an HTML or SVG fragment, read as a browser would: attribute values in any
 * quoting, a tag left open at the end still yields its attributes. Text and closing tags are skipped;
 * so is everything inside a comment.
 */
export function* tagsOf(html: string): Generator<Tag> {
  const start = /<(!--|[a-zA-Z][^\s/>]*)/g;
  for (let m = start.exec(html); m; m = start.exec(html)) {
    if (m[1] === "!--") {
      const end = html.indexOf("-->", start.lastIndex);
      start.lastIndex = end === -1 ? html.length : end + 3;
      continue;
    }
    const attributes: Tag["attributes"] = [];
    let at = start.lastIndex;
    while (at < html.length && html[at] !== ">") {
      ATTRIBUTE.lastIndex = at;
      const a = ATTRIBUTE.exec(html);
      if (!a || ATTRIBUTE.lastIndex === at) {
        at++;
        continue;
      }
      const value = [2, 3, 4].find((group) => a[group] !== undefined);
      attributes.push({ name: a[1]!.toLowerCase(), value: value ? a[value]! : "", at: value ? a.indices![value]![0] : ATTRIBUTE.lastIndex });
      at = ATTRIBUTE.lastIndex;
    }
    start.lastIndex = Math.min(at + 1, html.length);
    yield { name: m[1]!.toLowerCase(), attributes, offset: m.index };
  }
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", colon: ":", tab: "\t", newline: "\n", sol: "/" };

/** An attribute value with its character references decoded. */
const decoded = (value: string): string =>
  value.replace(/&(?:#(\d+)|#x([\da-f]+)|(\w+));?/gi, (all, dec?: string, hex?: string, name?: string) =>
    dec || hex ? String.fromCodePoint(parseInt(dec ?? hex!, dec ? 10 : 16)) : (ENTITIES[name!.toLowerCase()] ?? all),
  );
/** An attribute value as the browser reads a URL's scheme from it: decoded, tabs and newlines gone. */
const urlOf = (value: string): string =>
  decoded(value)
    .replace(/[\u0000-\u0020]/g, "")
    .toLowerCase();
/** A srcset candidate's URL (its width or density follows it), after the spaces before it. */
const SRCSET_URL = /(^|,)(\s*)([^\s,]+)/g;
/** The URLs a srcset lists, one per candidate. */
const srcsetUrls = (value: string): string[] => [...value.matchAll(SRCSET_URL)].map((m) => m[3]!);

/** Elements that content never holds: they run scripts, embed other documents or belong to the head. */
const REFUSED_ELEMENTS: Record<string, string> = {
  script: "content may not run scripts",
  style: "content may not carry style sheets (the site's CSS styles every page)",
  iframe: "content may not embed other documents; link to them instead",
  frame: "content may not embed other documents; link to them instead",
  frameset: "content may not embed other documents; link to them instead",
  object: "content may not embed other documents; link to them instead",
  embed: "content may not embed other documents; link to them instead",
  applet: "content may not embed other documents; link to them instead",
  portal: "content may not embed other documents; link to them instead",
  base: "belongs to a page's head, never its content",
  link: "belongs to a page's head, never its content",
  meta: "belongs to a page's head, never its content",
};

/** Attributes holding a URL the browser may follow or load. */
const URL_ATTRIBUTES = new Set(["href", "xlink:href", "src", "srcset", "poster", "data", "action", "formaction", "background", "lowsrc", "dynsrc", "cite", "longdesc", "ping", "manifest", "codebase", "archive", "usemap"]);
/** Attributes whose URL the browser loads as the page shows (href only outside links: <use>, <image>). */
const LOADING_ATTRIBUTES = new Set(["src", "srcset", "poster", "data", "background", "lowsrc", "dynsrc", "href", "xlink:href"]);
const LINK_ELEMENTS = new Set(["a", "area"]);

/** Whether a URL (as `urlOf` reads it) names another origin: a scheme (but data:) or `//host`. */
const otherOrigin = (url: string): boolean => url.startsWith("//") || (/^[a-z][a-z\d+.-]*:/.test(url) && !url.startsWith("data:"));
/** The URLs an attribute holds: a srcset lists several, a style its url()s. */
const urlsIn = (name: string, value: string): string[] => {
  if (name === "srcset") return srcsetUrls(value).map(urlOf);
  if (name === "style") return [...value.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))\s*\)|@import\s+["']([^"']*)/gi)].map((m) => urlOf(m[1] ?? m[2] ?? m[3] ?? m[4] ?? ""));
  return [urlOf(value)];
};

/** Why a tag may not appear in content (a script, an event handler, a resource from another origin), or undefined. */
export function unsafeTag(tag: Tag): string | undefined {
  const refused = REFUSED_ELEMENTS[tag.name];
  if (refused) return `<${tag.name}>: ${refused}`;
  for (const { name, value } of tag.attributes) {
    if (name.startsWith("on")) return `${name} on <${tag.name}>: content may not carry event handlers (they run scripts)`;
    const urls = URL_ATTRIBUTES.has(name) || name === "style" ? urlsIn(name, value) : [];
    if (urls.some((url) => /^(?:javascript|vbscript):/.test(url))) return `${name} on <${tag.name}>: content may not link to scripts (javascript: URLs)`;
    const loads = name === "style" || (LOADING_ATTRIBUTES.has(name) && !(LINK_ELEMENTS.has(tag.name) && (name === "href" || name === "xlink:href")));
    if (loads && urls.some(otherOrigin)) {
      return `${name} on <${tag.name}>: loads ${value.trim()} from another origin, and the site loads nothing from elsewhere; put the file beside the page`;
    }
  }
  return undefined;
}

/** Attributes whose URL the reader follows (href) or the page loads (src, srcset, poster). */
const TARGET_ATTRIBUTES = new Set(["href", "src", "srcset", "poster"]);

/** The addresses a tag links to or loads, as written (references decoded), for the link check (./links.ts). */
export const targetsOf = (tag: Tag): string[] =>
  tag.attributes.flatMap(({ name, value }) => (name === "srcset" ? srcsetUrls(decoded(value)) : TARGET_ATTRIBUTES.has(name) ? [decoded(value).trim()] : []));

/** Attributes that name ids of the page, a space-separated list (one for `for`). */
const ID_REFERENCES = new Set(["for", "headers", "list", "form", "popovertarget", "aria-labelledby", "aria-describedby", "aria-controls", "aria-owns", "aria-flowto", "aria-details", "aria-errormessage", "aria-activedescendant"]);

/**
 * An HTML fragment with each address its tags link to or load (as `targetsOf` finds them) passed
 * through `rewrite.url`, with the name of the element that holds it, and each id, and each reference
 * to one, through `rewrite.id`; the rest stays as written. An address is rewritten as the browser
 * reads it (references decoded), and written back escaped only if the rewrite changed it.
 */
export function rewriteLinks(html: string, rewrite: { url(url: string, element: string): string; id(id: string): string }): string {
  const url = (written: string, element: string): string => {
    const read = decoded(written);
    const rewritten = rewrite.url(read, element);
    return rewritten === read ? written : escapeHtml(rewritten);
  };
  let out = "";
  let done = 0;
  for (const tag of tagsOf(html)) {
    for (const { name, value, at } of tag.attributes) {
      let written: string;
      if (name === "id") written = rewrite.id(value);
      else if (ID_REFERENCES.has(name)) written = value.replace(/\S+/g, (id) => rewrite.id(id));
      else if (name === "srcset") written = value.replace(SRCSET_URL, (_all, comma: string, space: string, address: string) => `${comma}${space}${url(address, tag.name)}`);
      else if (TARGET_ATTRIBUTES.has(name)) written = value.replace(/^(\s*)([\s\S]*?)(\s*)$/, (_all, before: string, address: string, after: string) => `${before}${url(address, tag.name)}${after}`);
      else continue;
      out += html.slice(done, at) + written;
      done = at + value.length;
    }
  }
  return out + html.slice(done);
}

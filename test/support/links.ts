// Every reference a built site makes to itself, and whether it resolves inside that site: links,
// assets, srcsets and redirects in pages, url() in stylesheets, every address in feeds (their
// content included), the sitemap and robots.txt, and the paths of _headers and _redirects. A site
// built under a path prefix must keep all of them under it.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { JSDOM } from "jsdom";

export interface SiteAddress {
  /** The site's origin, such as https://renfeng.org. */
  origin: string;
  /** The path prefix, `/` or `/repo/`. */
  prefix: string;
}

export interface LinkReport {
  broken: string[];
  external: Set<string>;
  /** How many internal references were checked. */
  checked: number;
}

// The site's own HTML is valid and writes attributes in double quotes (the html-validate gate), so
// references are read with patterns: a DOM per page would cost most of this check's time.
const decode = (value: string) => value.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">");
const htmlRefs = (html: string): string[] => {
  const markup = html.replace(/<pre\b[\s\S]*?<\/pre>/g, "");
  return [
    ...[...markup.matchAll(/<(?:a|link|script|img|source|svg)\b[^>]*?\s(?:href|src|data-file)="([^"]*)"/g)].map((m) => decode(m[1]!)),
    ...[...markup.matchAll(/\ssrcset="([^"]*)"/g)].flatMap((m) => decode(m[1]!).split(",").map((c) => c.trim().split(/\s/)[0]!)),
    ...[...markup.matchAll(/<meta http-equiv="refresh" content="\d+;\s*url=([^"]*)"/g)].map((m) => decode(m[1]!)),
  ];
};
const idsIn = (html: string): Set<string> => new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((m) => decode(m[1]!)));

/** The references one built file makes, by its kind. */
function referencesIn(file: string, source: string): string[] {
  if (file.endsWith(".html")) return htmlRefs(source);
  if (file.endsWith(".css")) return [...source.matchAll(/url\(\s*["']?([^"')]+)["']?\s*\)/g)].map((m) => m[1]!);
  if (file.endsWith(".xml")) {
    const doc = new JSDOM(source, { contentType: "text/xml" }).window.document;
    const all = [...doc.getElementsByTagName("*")];
    return [
      ...all.flatMap((el) => (el.getAttribute("href") ? [el.getAttribute("href")!] : [])),
      ...all.filter((el) => ["loc", "link", "id", "guid", "uri"].includes(el.localName) && el.children.length === 0).map((el) => el.textContent!.trim()),
      ...all.filter((el) => ["content", "description"].includes(el.localName) && el.parentElement?.localName !== "channel").flatMap((el) => htmlRefs(el.textContent ?? "")),
    ].filter(Boolean);
  }
  if (file.endsWith(".json")) {
    const feed = JSON.parse(source) as { version?: string; home_page_url: string; feed_url: string; authors?: { url?: string }[]; items: { url: string; id: string; content_html: string }[] };
    // Other JSON (the search index's manifest) is read by its own script, not by readers.
    if (!feed.version?.startsWith("https://jsonfeed.org/")) return [];
    return [feed.home_page_url, feed.feed_url, ...(feed.authors ?? []).flatMap((a) => (a.url ? [a.url] : [])), ...feed.items.flatMap((i) => [i.url, i.id, ...htmlRefs(i.content_html)])];
  }
  if (file.endsWith("robots.txt")) return [...source.matchAll(/^Sitemap:\s*(\S+)/gm)].map((m) => m[1]!);
  if (file.endsWith("_redirects")) return [...source.matchAll(/^\S+\s+(\S+?)(?::splat)?\s+\d+$/gm)].map((m) => m[1]!);
  return [];
}

/** Address patterns (what _headers, _redirects and robots.txt apply to): they must lie under the prefix. */
function patternsIn(file: string, source: string): string[] {
  if (file.endsWith("_headers")) return [...source.matchAll(/^(\/\S*)$/gm)].map((m) => m[1]!);
  if (file.endsWith("_redirects")) return [...source.matchAll(/^(\/\S*)\s/gm)].map((m) => m[1]!);
  if (file.endsWith("robots.txt")) return [...source.matchAll(/^(?:Allow|Disallow):\s*(\S+)/gm)].map((m) => m[1]!);
  return [];
}

/** The site URL a built file is served at: `<root>/posts/a/index.html` → `/posts/a/`, without the prefix. */
const sitePathOf = (file: string, root: string): string => `/${path.relative(root, file).split(path.sep).join("/")}`.replace(/index\.html$/, "");

export function checkReferences(root: string, files: string[], site: SiteAddress): LinkReport {
  const broken: string[] = [];
  const external = new Set<string>();
  let checked = 0;
  const ids = new Map<string, Set<string>>();
  const idsOf = (file: string) => {
    if (!ids.has(file)) ids.set(file, idsIn(readFileSync(file, "utf8")));
    return ids.get(file)!;
  };
  const base = `${site.origin}${site.prefix}`;

  for (const file of files) {
    const from = sitePathOf(file, root);
    const source = readFileSync(file, "utf8");
    for (const pattern of patternsIn(file, source)) {
      checked++;
      if (!pattern.startsWith(site.prefix)) broken.push(`${from}: ${pattern} (outside ${base})`);
    }
    for (let ref of referencesIn(file, source)) {
      if (/^(mailto:|data:|#)/.test(ref) || ref === "") continue;
      if (/^(https?:)?\/\//.test(ref) && !ref.startsWith(site.origin)) {
        external.add(ref);
        continue;
      }
      checked++;
      if (ref.startsWith(site.origin)) ref = ref.slice(site.origin.length) || "/";
      // Relative references (a stylesheet's fonts) resolve against the file; site paths must carry the prefix.
      const url = new URL(ref, `http://site${site.prefix}${from.slice(1)}`);
      if (!url.pathname.startsWith(site.prefix)) {
        broken.push(`${from} → ${ref} (outside ${base})`);
        continue;
      }
      const target = path.join(root, decodeURIComponent(url.pathname.slice(site.prefix.length - 1)));
      const served = existsSync(target) && statSync(target).isDirectory() ? path.join(target, "index.html") : target;
      // A folder without index.html is a 404 on every static host.
      if (!existsSync(served) || !statSync(served).isFile()) broken.push(`${from} → ${ref}`);
      else if (url.hash && served.endsWith(".html") && !idsOf(served).has(decodeURIComponent(url.hash.slice(1)))) broken.push(`${from} → ${ref} (no such id)`);
    }
  }
  return { broken, external, checked };
}

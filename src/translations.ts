// Which pages are translations of each other: pages whose addresses differ only by their language
// (see ./urls.ts), among the pages this build writes, and pages that name their translations at
// other addresses (a tag's list, when the tag has another name in the other language: see
// ./blog.ts). Every head lists a page's translations with hreflang, the sitemap lists them too, and
// the language switch goes to them.
import { DEFAULT_LANGUAGE, LANGUAGE_CODES, LANGUAGES, languageTag, type Lang } from "./languages.ts";
import { inLanguage, languageOf, sectionHome } from "./urls.ts";
import { ContentError } from "./validation.ts";

export interface Alternate {
  hreflang: string;
  url: string;
}

export interface LanguageLink {
  lang: Lang;
  tag: string;
  name: string;
  url: string;
}

export class Translations {
  readonly #urls: Set<string>;
  /** Address → the addresses of its translations that differ from it by more than their language. */
  readonly #named = new Map<string, string[]>();

  /** `named`: each page's address with those of its translations at other addresses (both ways, or either). */
  constructor(urls: Iterable<string>, named: Iterable<readonly [string, readonly string[]]> = []) {
    this.#urls = new Set(urls);
    for (const [url, others] of named) {
      for (const other of others) {
        this.#named.set(url, [...(this.#named.get(url) ?? []), other]);
        this.#named.set(other, [...(this.#named.get(other) ?? []), url]);
      }
    }
  }

  /** This page in `lang`, if the build has it: at the address of that language, or at one it names. */
  #inLanguage(url: string, lang: Lang): string | undefined {
    const same = inLanguage(url, lang);
    if (this.#urls.has(same)) return same;
    return this.#named.get(url)?.find((other) => languageOf(other) === lang && this.#urls.has(other));
  }

  /** The page in every language it exists in (itself included), then x-default: the default language's, else itself. */
  alternates(url: string): Alternate[] {
    if (!this.#urls.has(url)) throw new ContentError(`${url}: not a page of this build, so it has no translations`);
    const versions = LANGUAGE_CODES.flatMap((lang) => {
      const version = this.#inLanguage(url, lang);
      return version ? [{ lang, url: version }] : [];
    });
    const fallback = versions.find((v) => v.lang === DEFAULT_LANGUAGE) ?? { url };
    return [...versions.map((v) => ({ hreflang: languageTag(v.lang), url: v.url })), { hreflang: "x-default", url: fallback.url }];
  }

  /** For each other language: this page in it, or else that language's home of this page's section. */
  languageSwitch(url: string, lang: Lang): LanguageLink[] {
    return LANGUAGE_CODES.filter((other) => other !== lang).flatMap((other) => {
      const target = this.#inLanguage(url, other) ?? sectionHome(url, other);
      return target ? [{ lang: other, tag: languageTag(other), name: LANGUAGES[other].name, url: target }] : [];
    });
  }
}

/** A page as Eleventy lists it: its address, and the translations at other addresses its data names. */
export interface ListedPage {
  url?: string | false;
  data?: { translations?: readonly string[] };
}

/** One index per build: every page asks with the same list of pages. */
const built = new WeakMap<object, Translations>();
export function translationsOf(pages: ListedPage[]): Translations {
  let translations = built.get(pages);
  if (!translations) {
    const urls = pages.flatMap((p) => (typeof p.url === "string" ? [p.url] : []));
    const named = pages.flatMap((p) => (typeof p.url === "string" && p.data?.translations?.length ? [[p.url, p.data.translations] as const] : []));
    built.set(pages, (translations = new Translations(urls, named)));
  }
  return translations;
}

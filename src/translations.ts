// Which pages are translations of each other: pages whose addresses differ only by their language
// (see ./urls.ts), among the pages this build writes. Every head lists a page's translations with
// hreflang, the sitemap lists them too, and the language switch goes to them.
import { DEFAULT_LANGUAGE, LANGUAGE_CODES, LANGUAGES, languageTag, type Lang } from "./languages.ts";
import { inLanguage, sectionHome } from "./urls.ts";
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

  constructor(urls: Iterable<string>) {
    this.#urls = new Set(urls);
  }

  /** The page in every language it exists in (itself included), then x-default: the default language's, else itself. */
  alternates(url: string): Alternate[] {
    if (!this.#urls.has(url)) throw new ContentError(`${url}: not a page of this build, so it has no translations`);
    const versions = LANGUAGE_CODES.map((lang) => ({ lang, url: inLanguage(url, lang) })).filter((v) => this.#urls.has(v.url));
    const fallback = versions.find((v) => v.lang === DEFAULT_LANGUAGE) ?? { url };
    return [...versions.map((v) => ({ hreflang: languageTag(v.lang), url: v.url })), { hreflang: "x-default", url: fallback.url }];
  }

  /** For each other language: this page in it, or else that language's home of this page's section. */
  languageSwitch(url: string, lang: Lang): LanguageLink[] {
    return LANGUAGE_CODES.filter((other) => other !== lang).flatMap((other) => {
      const translation = inLanguage(url, other);
      const target = this.#urls.has(translation) ? translation : sectionHome(url, other);
      return target ? [{ lang: other, tag: languageTag(other), name: LANGUAGES[other].name, url: target }] : [];
    });
  }
}

/** One index per build: every page asks with the same list of pages. */
const built = new WeakMap<object, Translations>();
export function translationsOf(pages: { url?: string | false }[]): Translations {
  let translations = built.get(pages);
  if (!translations) built.set(pages, (translations = new Translations(pages.flatMap((p) => (typeof p.url === "string" ? [p.url] : [])))));
  return translations;
}

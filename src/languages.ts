// The site's languages: each has a BCP 47 tag (for `lang` attributes), the locale its dates are
// written in, and its own name (for the language switch). The default language lives at the site's
// root, every other under /<code>/ (see ./urls.ts).
export const LANGUAGES = {
  en: { tag: "en", dateLocale: "en-GB", name: "English" },
  zh: { tag: "zh-CN", dateLocale: "zh-CN", name: "简体中文" },
} as const;
export type Lang = keyof typeof LANGUAGES;
export const LANGUAGE_CODES = Object.keys(LANGUAGES) as Lang[];
export const DEFAULT_LANGUAGE: Lang = "en";
/** The language Han characters are marked as, where they appear on a page in another language. */
export const HAN_LANGUAGE: Lang = "zh";
export const isLang = (value: unknown): value is Lang => typeof value === "string" && Object.hasOwn(LANGUAGES, value);
export const languageTag = (lang: Lang): string => LANGUAGES[lang].tag;

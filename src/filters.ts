// Template filters: thin adapters from Nunjucks to the plain functions that the unit tests cover.
import type UserConfig from "@11ty/eleventy/UserConfig";
import { authorListHtml, type Publication } from "./bibtex.ts";
import { isoDate, isoDateTime, latestYear, readableDate, rfc822Date, yearRange } from "./dates.ts";
import { keepTogether, langAttribute, langText, markLanguages, textWithCode, wordsPattern } from "./html.ts";
import { DEFAULT_LANGUAGE, languageTag, type Lang } from "./languages.ts";
import { translationsOf, type ListedPage } from "./translations.ts";

export default function filters(config: UserConfig): void {
  config.addFilter("isoDate", (date: Date, zone: string) => isoDate(date, zone));
  config.addFilter("isoDateTime", (date: Date, zone: string) => isoDateTime(date, zone));
  config.addFilter("readableDate", (date: Date, lang: Lang, zone: string) => readableDate(date, zone, lang));
  config.addFilter("rfc822Date", (date: Date, zone: string) => rfc822Date(date, zone));
  config.addFilter("yearRange", yearRange);
  // The copyright year is the newest content's year, so two builds of one commit are identical.
  // Every page's footer asks with the same two lists: work it out once per pair.
  const years = new WeakMap<Publication[], WeakMap<object, number>>();
  config.addFilter("copyrightYear", (publications: Publication[], dated: readonly { date: Date }[] = []) => {
    const byDated = years.get(publications) ?? years.set(publications, new WeakMap()).get(publications)!;
    let year = byDated.get(dated);
    if (year === undefined) byDated.set(dated, (year = latestYear([...publications.map((p) => p.year), ...dated.map((item) => item.date)])));
    return year;
  });
  config.addFilter("authorList", authorListHtml);
  // Text (a heading, a navigation link, a crumb), escaped, with the course's name (the page's
  // `course` data) kept on one line.
  config.addFilter("keepCourseName", function (this: { ctx?: { course?: { title?: unknown } } }, title: string) {
    const name = this.ctx?.course?.title;
    if (typeof name !== "string") throw new Error("keepCourseName: the page has no course.title (_data/course.yaml)");
    return keepTogether(title, name);
  });
  // A name as the pattern keepTogether keeps whole, for search.js to do the same ("" for one word).
  config.addFilter("wordsPattern", (name: string) => wordsPattern(name)?.source ?? "");
  config.addFilter("textWithCode", textWithCode);
  // Languages: a page's tag, text in another language than the page's, and its translations.
  config.addGlobalData("defaultLanguage", DEFAULT_LANGUAGE);
  config.addFilter("languageTag", languageTag);
  config.addFilter("markLanguages", markLanguages);
  config.addFilter("langAttr", langAttribute);
  config.addFilter("langText", langText);
  config.addFilter("alternates", (url: string, pages: ListedPage[]) => translationsOf(pages).alternates(url));
  config.addFilter("languageSwitch", (url: string, lang: Lang, pages: ListedPage[]) => translationsOf(pages).languageSwitch(url, lang));
}

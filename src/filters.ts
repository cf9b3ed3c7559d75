// Template filters: thin adapters from Nunjucks to the plain functions that the unit tests cover.
import type UserConfig from "@11ty/eleventy/UserConfig";
import { authorListHtml, type Publication } from "./bibtex.ts";
import { markCjk } from "./html.ts";
import { isoDate, isoDateTime, latestYear, readableDate, rfc822Date, yearRange } from "./dates.ts";

export default function filters(config: UserConfig): void {
  config.addFilter("isoDate", (date: Date, zone: string) => isoDate(date, zone));
  config.addFilter("isoDateTime", (date: Date, zone: string) => isoDateTime(date, zone));
  config.addFilter("readableDate", (date: Date, zone: string) => readableDate(date, zone));
  config.addFilter("rfc822Date", (date: Date, zone: string) => rfc822Date(date, zone));
  config.addFilter("yearRange", yearRange);
  // The copyright year is the newest content's year, so two builds of one commit are identical.
  // Every page's footer asks with the same two lists: work it out once per pair.
  const years = new WeakMap<Publication[], WeakMap<object, number>>();
  config.addFilter("copyrightYear", (publications: Publication[], dated: { date: Date }[] = []) => {
    const byDated = years.get(publications) ?? years.set(publications, new WeakMap()).get(publications)!;
    let year = byDated.get(dated);
    if (year === undefined) byDated.set(dated, (year = latestYear([...publications.map((p) => p.year), ...dated.map((item) => item.date)])));
    return year;
  });
  config.addFilter("authorList", authorListHtml);
  config.addFilter("markCjk", markCjk);
  config.addFilter("absoluteUrl", (url: string, base: string) => new URL(url, `${base}/`).href);
}

// Date formatting for templates (luxon). Content dates are shown in the site's time zone so that a
// post dated 09:00+08:00 never appears as the previous day; a date written without a time is that
// day in every zone (read as UTC midnight, it would show a day early west of UTC).
import { DateTime } from "luxon";
import { isCalendarDay } from "./schemas.ts";
import { t } from "./i18n.ts";
import { LANGUAGES, type Lang } from "./languages.ts";

const toDateTime = (date: Date, zone: string): DateTime => DateTime.fromJSDate(date, { zone });

/**
 * One formatter, remembered per date and zone: lists, neighbours and feeds show the same dates on
 * many pages, and luxon's time-zone arithmetic is a visible share of a large build.
 */
function remembered<A extends unknown[]>(format: (date: Date, zone: string, ...rest: A) => string): (date: Date, zone: string, ...rest: A) => string {
  const cache = new Map<string, string>();
  return (date, zone, ...rest) => {
    const key = `${date.getTime()}${isCalendarDay(date) ? "d" : ""} ${zone} ${rest.join(" ")}`;
    let out = cache.get(key);
    if (out === undefined) cache.set(key, (out = format(date, zone, ...rest)));
    return out;
  };
}

/** The zone in which a date's day is read: a calendar day is its own day, in UTC as it was read. */
const dayZone = (date: Date, zone: string): string => (isCalendarDay(date) ? "utc" : zone);

/** 2026-12-02, for `<time datetime>` and sitemaps. */
export const isoDate = remembered((date, zone) => toDateTime(date, dayZone(date, zone)).toISODate() ?? "");

/** Full ISO 8601 with offset, for feeds. */
export const isoDateTime = remembered((date, zone) => toDateTime(date, zone).toISO({ suppressMilliseconds: true }) ?? "");

/** Wed, 02 Dec 2026 10:00:00 +0800, for RSS: in the site's zone, never the build machine's. */
export const rfc822Date = remembered((date, zone) => toDateTime(date, zone).toRFC2822() ?? "");

/** 2 December 2026, or 2026年12月2日: in the language's own way. */
export const readableDate = remembered((date, zone, lang: Lang) => toDateTime(date, dayZone(date, zone)).setLocale(LANGUAGES[lang].dateLocale).toLocaleString(DateTime.DATE_FULL));

/** "2023 – 2026" or "2026 – Present", with an en dash between spaced years. */
export function yearRange(entry: { start: number; end: number | "present" }, lang: Lang): string {
  return `${entry.start} – ${entry.end === "present" ? t(lang, "home.present") : entry.end}`;
}

/** Items grouped by year, newest year first; within a year the items keep their order. */
export function groupByYear<T>(items: readonly T[], yearOf: (item: T) => number): [year: number, items: T[]][] {
  const years = new Map<number, T[]>();
  for (const item of items) {
    const year = yearOf(item);
    years.set(year, [...(years.get(year) ?? []), item]);
  }
  return [...years].sort(([a], [b]) => b - a);
}

/** The newest year among dates and years: the footer's copyright year comes from content, not the clock. */
export function latestYear(values: ReadonlyArray<Date | number>): number {
  const years = values.map((v) => (typeof v === "number" ? v : v.getUTCFullYear()));
  if (years.length === 0) throw new Error("latestYear: no dated content to take the year from");
  return Math.max(...years);
}

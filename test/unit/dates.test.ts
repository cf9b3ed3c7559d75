import { describe, expect, it } from "vitest";
import { contentDate } from "../../src/schemas.ts";
import { isoDate, isoDateTime, latestYear, readableDate, rfc822Date, yearRange } from "../../src/dates.ts";

const zone = "Asia/Shanghai";

describe("dates", () => {
  it("shows a date in the site's zone, not UTC", () => {
    const lateUtc = new Date("2026-12-01T20:00:00Z"); // already 2 December in Beijing
    expect(isoDate(lateUtc, zone)).toBe("2026-12-02");
    expect(readableDate(lateUtc, zone, "en")).toBe("2 December 2026");
    expect(isoDateTime(lateUtc, zone)).toBe("2026-12-02T04:00:00+08:00");
    expect(rfc822Date(lateUtc, zone)).toBe("Wed, 02 Dec 2026 04:00:00 +0800");
  });

  it("shows a date written without a time as that day, in any site zone and on any machine", () => {
    const machine = process.env.TZ;
    process.env.TZ = "America/Los_Angeles";
    try {
      const day = contentDate.parse("2026-12-02");
      const midnightUtc = contentDate.parse("2026-12-02T00:00:00Z");
      for (const site of [zone, "America/Los_Angeles", "Pacific/Honolulu", "UTC"]) {
        expect(isoDate(day, site)).toBe("2026-12-02");
        expect(readableDate(day, site, "en")).toBe("2 December 2026");
      }
      // A time with an offset is an instant, shown in the site's zone.
      expect(isoDate(midnightUtc, "America/Los_Angeles")).toBe("2026-12-01");
      expect(isoDate(midnightUtc, zone)).toBe("2026-12-02");
    } finally {
      if (machine === undefined) delete process.env.TZ;
      else process.env.TZ = machine;
    }
  });

  it("writes a date the way the page's language does", () => {
    const date = new Date("2026-12-01T20:00:00Z");
    expect(readableDate(date, zone, "zh")).toBe("2026年12月2日");
    expect(readableDate(date, zone, "en")).not.toBe(readableDate(date, zone, "zh"));
  });

  it("writes year ranges with a spaced en dash, 'present' in the page's language", () => {
    expect(yearRange({ start: 2023, end: 2026 }, "en")).toBe("2023 – 2026");
    expect(yearRange({ start: 2026, end: "present" }, "en")).toBe("2026 – Present");
    expect(yearRange({ start: 2026, end: "present" }, "zh")).toBe("2026 – 至今");
  });

  it("takes the newest year from dates and years alike", () => {
    expect(latestYear([2022, new Date("2026-03-01T00:00:00Z"), 2025])).toBe(2026);
    expect(() => latestYear([])).toThrow(/no dated content/);
  });
});

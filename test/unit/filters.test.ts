import { describe, expect, it } from "vitest";
import filters from "../../src/filters.ts";
import type { Publication } from "../../src/bibtex.ts";
import { registeredFunction } from "../support/config.ts";

describe("template filters", () => {
  it("takes the copyright year from the newest paper or post, never from the clock", () => {
    const copyrightYear = registeredFunction<(p: Pick<Publication, "year">[], dated?: { date: Date }[]) => number>(filters, "copyrightYear");
    expect(copyrightYear([{ year: 2022 }, { year: 2025 }])).toBe(2025);
    expect(copyrightYear([{ year: 2025 }], [{ date: new Date("2026-02-01T00:00:00Z") }])).toBe(2026);
  });
});

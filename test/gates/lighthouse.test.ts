// Lighthouse's accessibility, best-practices and SEO scores are 100 on the homepage in each
// language, a post and a lesson; the performance score is printed (timing depends on the machine).
import { describe, expect, it } from "vitest";
import { audit, summary } from "../support/lighthouse.ts";
import { siteDir } from "../support/site.ts";

describe("Lighthouse", () => {
  it("scores 100 in accessibility, best practices and SEO (mobile)", async () => {
    const results = await audit(siteDir());
    for (const r of results) console.log(`Lighthouse ${summary(r)}`);
    expect(results.map((r) => r.name)).toEqual(["home", "home (zh)", "post", "lesson"]);
    expect(results.flatMap((r) => r.failures.map((f) => `${r.name}: ${f}`))).toEqual([]);
  }, 300_000);
});

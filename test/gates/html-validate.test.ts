// Every built page is valid HTML by html-validate's standard rules.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HtmlValidate } from "html-validate";
import { builtFiles, siteDir } from "../support/site.ts";

const validator = new HtmlValidate({
  extends: ["html-validate:standard"],
});

describe("HTML validity", () => {
  it("has zero html-validate errors on every page", async () => {
    const pages = (await builtFiles()).filter((f) => f.endsWith(".html"));
    expect(pages.length).toBeGreaterThan(10);
    const errors: string[] = [];
    for (const file of pages) {
      const report = await validator.validateString(readFileSync(file, "utf8"), file);
      for (const result of report.results) {
        for (const m of result.messages) errors.push(`${path.relative(siteDir(), file)}:${m.line}:${m.column} ${m.ruleId}: ${m.message}`);
      }
    }
    expect(errors).toEqual([]);
    // Every page, one after another: the time grows with the site (and the machine's load).
  }, 300_000);
});

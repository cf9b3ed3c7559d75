import { describe, expect, it } from "vitest";
import { disposableOutput } from "../../src/output.ts";

describe("the output folder", () => {
  it("may be emptied when it lies beside or away from the sources", () => {
    expect(disposableOutput("_site", ".")).toBe(true);
    expect(disposableOutput("/tmp/site-123", "/srv/project")).toBe(true);
  });

  it("is never emptied when it is the sources or holds them", () => {
    expect(disposableOutput(".", ".")).toBe(false);
    expect(disposableOutput("/srv", "/srv/project")).toBe(false);
    expect(disposableOutput("/", "/srv/project")).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { loadYamlData } from "../../src/data.ts";

describe("loadYamlData", () => {
  it("validates _data files against their schema, naming the file", () => {
    expect(() => loadYamlData("- organization: X\n  role: Y\n  start: 2020\n  end: 2019\n", "_data/education.yaml")).toThrow(
      "_data/education.yaml: [0].end: must not be before start",
    );
  });

  it("refuses a data file that has no schema", () => {
    expect(() => loadYamlData("a: 1", "_data/mystery.yaml")).toThrow("_data/mystery.yaml: (file): no schema for this data file");
  });

  it("reports YAML syntax errors with the file", () => {
    expect(() => loadYamlData("name: [unclosed", "_data/profile.yaml")).toThrow(/^_data\/profile\.yaml: \(syntax\): /);
  });
});

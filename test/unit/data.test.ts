import { describe, expect, it, vi } from "vitest";
import { readFileSync } from "node:fs";
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

  it("takes the site's origin and source from the environment where a build sets them, checked like the file", () => {
    const site = readFileSync("_data/site.yaml", "utf8");
    const own = (loadYamlData(site, "_data/site.yaml") as { url: string }).url;
    vi.stubEnv("SITE_URL", "https://user.github.io");
    vi.stubEnv("SITE_SOURCE", "https://github.com/user/repo");
    try {
      // Feeds keep naming their entries under the file's own origin.
      expect(loadYamlData(site, "_data/site.yaml")).toMatchObject({ url: "https://user.github.io", feedIds: own, source: "https://github.com/user/repo" });
      expect(loadYamlData(`${site}\nfeedIds: https://old.example.org/\n`, "_data/site.yaml")).toMatchObject({ feedIds: "https://old.example.org" });
      vi.stubEnv("SITE_SOURCE", "http://github.com/user/repo");
      expect(() => loadYamlData(site, "_data/site.yaml")).toThrow("_data/site.yaml (url from SITE_URL, source from SITE_SOURCE): source: must be an https:// URL");
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

// The table of contents of the build: each concern lives in one module under src/.
import type UserConfig from "@11ty/eleventy/UserConfig";
import data from "./src/data.ts";
import markdown from "./src/markdown.ts";
import filters from "./src/filters.ts";
import assets from "./src/assets.ts";

export default function (config: UserConfig) {
  config.addPlugin(data);
  config.addPlugin(markdown);
  config.addPlugin(filters);
  config.addPlugin(assets);

  // The repository root is the input; these are project files, not pages.
  for (const ignored of ["README.md", "docs/**", "src/**/*.ts", "test/**", "scripts/**", ".ci/**", "node_modules/**"]) {
    config.ignores.add(ignored);
  }
}

export const config = {
  dir: { input: ".", includes: "_includes", data: "_data", output: "_site" },
  templateFormats: ["njk", "md"],
  markdownTemplateEngine: "njk",
  htmlTemplateEngine: "njk",
};

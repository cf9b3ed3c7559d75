// The table of contents of the build: each concern lives in one module under src/.
import type UserConfig from "@11ty/eleventy/UserConfig";
import output from "./src/output.ts";
import urls from "./src/urls.ts";
import i18n from "./src/i18n.ts";
import content from "./src/content.ts";
import data from "./src/data.ts";
import markdown from "./src/markdown.ts";
import figures from "./src/figures.ts";
import images from "./src/images.ts";
import math from "./src/math.ts";
import toc from "./src/toc.ts";
import drafts from "./src/drafts.ts";
import blog from "./src/blog.ts";
import feeds from "./src/feeds.ts";
import course from "./src/course.ts";
import publications from "./src/publications.ts";
import metadata from "./src/metadata.ts";
import examples from "./src/examples.ts";
import print from "./src/print.ts";
import courseLabs from "./src/course-labs.ts";
import lookup from "./src/lookup.ts";
import transcripts from "./src/transcripts.ts";
import filters from "./src/filters.ts";
import assets from "./src/assets.ts";
import security from "./src/security.ts";
import links from "./src/links.ts";
import search from "./src/search.ts";
import cards from "./src/cards.ts";
import lastmod from "./src/lastmod.ts";
import devServer from "./src/dev-server.ts";

export default function (config: UserConfig) {
  config.addPlugin(output); // production builds: exactly the site, or nothing when they fail
  config.addPlugin(urls); // every address, under the path prefix (src/urls.ts)
  config.addPlugin(i18n); // languages and UI strings (src/i18n/<lang>.yaml)
  config.addPlugin(content); // front matter: YAML 1.2, validated in the data cascade
  config.addPlugin(data); // _data/: YAML and BibTeX, validated
  config.addPlugin(markdown); // Markdown: anchors, code, math, callouts, numbered tables
  config.addPlugin(figures); // the figure directive: inline SVG diagrams, copies for feeds
  config.addPlugin(images); // Markdown images → responsive <picture>, alt text required
  config.addPlugin(math); // KaTeX stylesheet and fonts, self-hosted
  config.addPlugin(toc); // tables of contents
  config.addPlugin(drafts); // draft: true shows on the dev server only
  config.addPlugin(blog); // posts/blog/: posts and translations, tags, series, archives
  config.addPlugin(course); // posts/rdma101/: RDMA 101 order, numbering, navigation
  config.addPlugin(publications); // a page per paper, from _data/publications.bib; Scholar tags
  config.addPlugin(feeds); // every feed: the blog's per language, the course's
  config.addPlugin(examples); // the example directive: the course's C programs, published
  config.addPlugin(print); // RDMA 101 on one page, for print: each lesson's ids scoped
  config.addPlugin(courseLabs); // RDMA 101's labs page, from the lab runs and their transcripts
  config.addPlugin(lookup); // RDMA 101's where-to-look index: names and symptoms → lesson headings
  config.addPlugin(metadata); // breadcrumbs and JSON-LD for search engines
  config.addPlugin(lastmod); // the sitemap's lastmod, from git history
  config.addPlugin(cards); // social cards: a PNG per post, lesson and paper, drawn once per content
  config.addPlugin(transcripts); // the transcript directive: lab runs, read once per build
  config.addPlugin(filters); // dates, languages and small template helpers
  config.addPlugin(assets); // public/ and cache-busting URLs
  config.addPlugin(security); // Content-Security-Policy
  config.addPlugin(links); // every link within the site leads to a page and id it wrote
  config.addPlugin(search); // the Pagefind index, written after the build
  config.addPlugin(devServer); // npm start: stale pages removed, build errors shown in the page

  // The repository root is the input; these are project files, not pages. Lab records (RDMA 101
  // run manifests and transcripts) are data for lessons, not pages.
  for (const ignored of ["README.md", "docs/**", "src/*.ts", "src/dev/**", "src/i18n/**", "test/**", "scripts/**", ".ci/**", "node_modules/**", "posts/rdma101/labs/**"]) {
    config.ignores.add(ignored);
  }
}

export const config = {
  dir: { input: ".", includes: "_includes", data: "_data", output: "_site" },
  templateFormats: ["njk", "md"],
  // Markdown is taken literally: rich blocks are directives (src/directives.ts), not template tags.
  markdownTemplateEngine: false,
  htmlTemplateEngine: "njk",
};

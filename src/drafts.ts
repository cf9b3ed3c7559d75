// Drafts (posts or lessons with `draft: true`) are shown by the dev server and never exist in a
// production build: no page, no list or feed entry, no tag page, no sitemap entry.
import type UserConfig from "@11ty/eleventy/UserConfig";

export const showDrafts = (): boolean => process.env.ELEVENTY_RUN_MODE === "serve";

export default function drafts(config: UserConfig): void {
  config.addPreprocessor("drafts", "md", (data: { draft?: unknown }) => {
    if (data.draft === true && !showDrafts()) return false;
  });
}

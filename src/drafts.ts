// Drafts (posts or lessons with `draft: true`) are shown by the dev server and never exist in a
// production build: no page, no list or feed entry, no tag page, no sitemap entry.
import type UserConfig from "@11ty/eleventy/UserConfig";
import { isDevServer } from "./dev-server.ts";

export const showDrafts = isDevServer;

export default function drafts(config: UserConfig): void {
  config.addPreprocessor("drafts", "md", (data: { draft?: unknown }) => {
    if (data.draft === true && !showDrafts()) return false;
  });
}

// Every post uses the post layout and lives at /posts/<file slug>/ (/zh/posts/<file slug>/ for a
// translation in posts/blog/zh/); its front matter is validated in the data cascade.
import { postKind, postLanguage } from "../../src/blog.ts";
import { pageDataHook } from "../../src/content.ts";
import { routes } from "../../src/urls.ts";
import { relativeFile } from "../../src/validation.ts";

export default {
  layout: "layouts/post.njk",
  permalink: (data: { page: { inputPath: string; fileSlug: string } }) => routes.post(postLanguage(relativeFile(data.page.inputPath)), data.page.fileSlug),
  eleventyDataSchema: pageDataHook(postKind),
};

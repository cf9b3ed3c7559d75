// Every post uses the post layout and lives at /posts/<file slug>/ (/zh/posts/<file slug>/ for a
// translation in posts/blog/zh/); its front matter is validated in the data cascade.
import { postKind, postUrl } from "../../src/blog.ts";
import { pageDataHook } from "../../src/content.ts";
import { relativeFile } from "../../src/validation.ts";

export default {
  layout: "layouts/post.njk",
  permalink: (data: { page: { inputPath: string } }) => postUrl(relativeFile(data.page.inputPath)),
  eleventyDataSchema: pageDataHook(postKind),
};

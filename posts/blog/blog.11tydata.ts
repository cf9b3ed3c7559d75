// Every post uses the post layout and lives at /posts/<file slug>/.
import { postUrl } from "../../src/blog.ts";

export default {
  layout: "layouts/post.njk",
  permalink: (data: { page: { fileSlug: string } }) => postUrl(data.page.fileSlug),
};

// Every lesson uses the lesson layout; its URL comes from its part and lesson folder names; its
// front matter is validated in the data cascade.
import { pageDataHook } from "../../src/content.ts";
import { lessonKind, lessonLocation } from "../../src/course.ts";
import { relativeFile } from "../../src/validation.ts";

export default {
  layout: "layouts/lesson.njk",
  permalink: (data: { page: { inputPath: string } }) => lessonLocation(relativeFile(data.page.inputPath)).url,
  eleventyDataSchema: pageDataHook(lessonKind),
};

// Every page template names its route; its address and head follow (see src/pages.ts). Pages
// that are not paginated over the languages are in the default language.
import { DEFAULT_LANGUAGE } from "../languages.ts";
import { pageDataHook, pagePath } from "../pages.ts";

export default {
  lang: DEFAULT_LANGUAGE,
  permalink: pagePath,
  eleventyDataSchema: pageDataHook,
};

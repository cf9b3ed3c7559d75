// Page templates (src/pages/): the third kind of page, after posts and lessons. Each names its route
// in front matter (validated by pageSchema); its address, title and description follow from the
// route, the page's language and, for a page of a paginated list, the list page it shows.
import type { CourseData, Site } from "./schemas.ts";
import { pageSchema, type PageData } from "./schemas.ts";
import type { Head } from "./content.ts";
import { writtenFrontMatter } from "./content.ts";
import { t } from "./i18n.ts";
import { authorsText, type PublicationPage } from "./publications.ts";
import { DEFAULT_LANGUAGE, isLang, type Lang } from "./languages.ts";
import { pageRoutes, type RouteName } from "./urls.ts";
import { contentError, relativeFile, validate } from "./validation.ts";

interface PageContext {
  lang: Lang;
  site: Site;
  course: CourseData;
  listPage?: { pageNumber: number; tag?: string; total?: number };
  /** On a paper's page: the paper it shows. */
  paperPage?: PublicationPage;
}

const paged = (title: string, { lang, listPage }: PageContext) =>
  listPage && listPage.pageNumber > 1 ? t(lang, "pages.paged", { title, page: listPage.pageNumber }) : title;

/** Pages whose head is not just pages.<route>.title and .description. */
const HEADS: Partial<Record<RouteName, (c: PageContext) => Head>> = {
  home: (c) => ({ description: c.site.description[c.lang], type: "website" }),
  posts: (c) => ({ title: paged(t(c.lang, "pages.posts.title"), c), description: t(c.lang, "pages.posts.description"), type: "website" }),
  tag: (c) => ({
    title: paged(t(c.lang, "pages.tag.title", { tag: c.listPage?.tag ?? "" }), c),
    description: t(c.lang, "pages.tag.description", { tag: c.listPage?.tag ?? "", count: c.listPage?.total ?? 0 }),
    type: "website",
  }),
  course: (c) => ({ title: c.course.title, description: c.course.description, type: "website" }),
  publication: ({ lang, paperPage }) => {
    if (!paperPage) throw new Error("a paper's page paginates over collections.publicationPages");
    const { paper } = paperPage;
    return { title: paper.title, description: t(lang, "pages.publication.description", { venue: paper.venue, year: paper.year, authors: authorsText(paper) }), type: "article" };
  },
};

export function pageHead(route: RouteName, context: PageContext): Head {
  const special = HEADS[route];
  if (special) return special(context);
  const params = { course: context.course.title };
  return { title: t(context.lang, `pages.${route}.title`, params), description: t(context.lang, `pages.${route}.description`, params), type: "website" };
}

type PageDataIn = Record<string, unknown> & { page: { inputPath: string }; lang?: unknown };

/** What a page template's front matter says, validated once per version of the file. */
const validated = new WeakMap<object, PageData>();
function pageData(inputPath: string): PageData {
  const file = relativeFile(inputPath);
  const written = writtenFrontMatter(file);
  let data = validated.get(written);
  if (!data) validated.set(written, (data = validate(pageSchema, written, file)));
  return data;
}

/** The page's site path: its list page's, feed's or redirect's own address, or its route's. */
export function pagePath(data: PageDataIn): string {
  const { route, pagination } = pageData(data.page.inputPath);
  const item = pagination ? data[pagination.alias] : undefined;
  if (item !== null && typeof item === "object" && typeof (item as { url?: unknown }).url === "string") return (item as { url: string }).url;
  const path = pageRoutes[route];
  if (!path) throw contentError([`${relativeFile(data.page.inputPath)}: route: '${route}' is not a single page; paginate over items with a url`]);
  return path(isLang(data.lang) ? data.lang : DEFAULT_LANGUAGE);
}

/**
 * The page kind's `eleventyDataSchema`: validates what the template's front matter says, and gives
 * the page its language (a list page's own, when paginated over lists) and its head.
 */
export function pageDataHook(data: PageDataIn): void {
  const written = pageData(data.page.inputPath);
  const item = written.pagination ? data[written.pagination.alias] : undefined;
  const itemLang = item !== null && typeof item === "object" ? (item as { lang?: unknown }).lang : undefined;
  const lang = isLang(itemLang) ? itemLang : isLang(data.lang) ? data.lang : DEFAULT_LANGUAGE;
  data.lang = lang;
  // A list page's translations at other addresses (a tag's, under its other name: see ./blog.ts).
  const translations = item !== null && typeof item === "object" ? (item as { translations?: unknown }).translations : undefined;
  if (Array.isArray(translations)) data.translations = translations;
  if (written.layout) {
    const paperPage = written.route === "publication" ? (item as PublicationPage) : undefined;
    data.head = pageHead(written.route, { lang, site: data.site as Site, course: data.course as CourseData, listPage: data.listPage as PageContext["listPage"], paperPage });
  }
}

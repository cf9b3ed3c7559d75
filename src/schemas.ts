// Every schema for data files and front matter, in one place. Loaders call `validate` from
// ./validation.ts with these, so a mistake stops the build as `file: field: reason`.
import { z } from "zod";
import { DateTime, IANAZone } from "luxon";
import { hasUnpairedBacktick } from "./html.ts";
import { LANGUAGE_CODES, type Lang } from "./languages.ts";
import { tagSlug } from "./tags.ts";
import { routes, type RouteName } from "./urls.ts";

// Most schemas validate a few values per build: compiling each to a function costs more than it saves
// (measured: the UI string tables alone took 0.2 s to compile and check once).
z.config({ jitless: true });

const text = z.string().trim().min(1, "must not be empty");
const plainText = (max: number) =>
  text.max(max, `must be at most ${max} characters`).refine((s) => !/[<>]/.test(s), "must be plain text (no HTML)");
/** Text whose `backticked` spans are code (textWithCode in ./html.ts). */
const textWithCode = text.refine((s) => !hasUnpairedBacktick(s), "has an unpaired `: code goes between two backticks, as `npm test`");
// zod 4 gives every check without a message of its own the type's message: a range needs its own.
const YEARS = "must be a four-digit year from 1900 to 2100";
const year = z.number("must be a four-digit year").int().min(1900, YEARS).max(2100, YEARS);
const httpsUrl = z.url({ protocol: /^https$/, error: "must be an https:// URL" });

/**
 * Text that may differ by language: one value for all languages, or one per language (all of them):
 *   headline: { en: Researcher, zh: 研究者 }
 * Either way the result has a value for every language.
 */
export function localized<S extends z.ZodType>(schema: S) {
  const perLanguage = z.strictObject(Object.fromEntries(LANGUAGE_CODES.map((lang) => [lang, schema])) as Record<Lang, S>);
  return z.unknown().transform((value, ctx): Record<Lang, z.output<S>> => {
    const byLanguage = value !== null && typeof value === "object" && !Array.isArray(value);
    const result = (byLanguage ? perLanguage : schema).safeParse(value);
    if (!result.success) {
      for (const issue of result.error.issues) ctx.addIssue(issue as Parameters<typeof ctx.addIssue>[0] & object);
      return z.NEVER;
    }
    return byLanguage ? (result.data as Record<Lang, z.output<S>>) : (Object.fromEntries(LANGUAGE_CODES.map((lang) => [lang, result.data])) as Record<Lang, z.output<S>>);
  });
}

/** A route's name (see ./urls.ts): data and front matter name pages, never write their paths. */
const routeName = <const N extends RouteName>(names?: readonly N[]) => {
  const allowed = names ?? (Object.keys(routes) as N[]);
  return z.enum(allowed as [N, ...N[]], { error: `must be one of ${allowed.join(", ")}` });
};

/**
 * A date as written in YAML 1.2 (always text): an ISO date, or a date-time with offset. A date
 * alone is read as UTC and a time must name its offset, so output never depends on the build
 * machine's zone or on a guess about the author's.
 */
const DATE_FORMAT = "must be an ISO date (2026-12-02) or date-time with offset (2026-12-02T10:00:00+08:00)";
/** The shapes allowed: luxon then checks that the date exists. */
const WRITTEN_DATE = /^\d{4}-\d\d-\d\d(?:T[^Z+-]+(?:Z|[+-]\d\d(?::?\d\d)?))?$/i;
export const contentDate = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : DATE_FORMAT) })
  .transform((value, ctx) => {
    const parsed = DateTime.fromISO(value, { zone: "utc", setZone: true });
    if (!WRITTEN_DATE.test(value) || !parsed.isValid) {
      ctx.addIssue({ code: "custom", message: DATE_FORMAT });
      return z.NEVER;
    }
    const date = parsed.toJSDate();
    if (!value.includes("T")) calendarDays.add(date);
    return date;
  });

/** Dates written without a time: a day on the calendar, the same day wherever it is shown. */
const calendarDays = new WeakSet<Date>();
export const isCalendarDay = (date: Date): boolean => calendarDays.has(date);

// _data/site.yaml
// Only the origin: a site served from a sub-path sets Eleventy's path prefix instead (see ./urls.ts).
const siteOrigin = z
  .url({ protocol: /^https?$/, error: "must be an absolute http(s) URL such as https://example.org" })
  .refine((u) => /^https?:\/\/[^/?#]+\/?$/.test(u), "must be the site's origin only, such as https://user.github.io; a sub-path such as /repo/ is Eleventy's path prefix (--pathprefix)")
  .transform((u) => u.replace(/\/+$/, ""));

export const siteSchema = z.strictObject({
  url: siteOrigin,
  /**
   * The origin feeds name their entries under: an id is this origin and the page's path, without
   * the path prefix, and must never change. The loader sets it to the file's `url` (SITE_URL never
   * changes it); a site that moves to a new origin keeps its old one here.
   */
  feedIds: siteOrigin.optional(),
  title: localized(text),
  description: localized(plainText(200)),
  author: localized(text),
  /** The header's sections, by route; their labels are UI strings (nav.<route>). */
  navigation: z.array(routeName(["home", "posts", "course", "publications", "search", "subscribe"])).min(1),
  timezone: z.string().refine((zone) => IANAZone.isValidZone(zone), "must be an IANA time zone such as Asia/Shanghai"),
  /** Where the site's public source lives (RDMA 101's lab is part of it); a build may name it with SITE_SOURCE. */
  source: httpsUrl.optional(),
});

// _data/profile.yaml
export const PROFILE_SITES = ["github", "scholar"] as const;

export const profileSchema = z.strictObject({
  /** The name as publications print it (the homepage highlights it in author lists). */
  name: text,
  /** The name in each language, for headings: `{ en: Feng Ren, zh: 任峰 }`. */
  names: localized(text),
  headline: localized(plainText(120)),
  about: localized(z.array(text).min(1, "needs at least one paragraph")),
  email: z
    .string()
    .regex(/^[^\s@]+ AT [^\s@]+\.[^\s@]+$/, "must be written as 'user AT example.org' (never the plain address)")
    .transform((shown) => {
      const [user = "", domain = ""] = shown.split(" AT ");
      return { shown, user, domain };
    }),
  // A profile elsewhere (labelled by the UI string links.<site>), or a section of this site by route.
  links: z.array(
    z
      .strictObject({
        site: z.enum(PROFILE_SITES, { error: `must be one of ${PROFILE_SITES.join(", ")}` }).optional(),
        url: httpsUrl.optional(),
        route: routeName(["posts", "course", "publications", "subscribe"]).optional(),
      })
      .refine((l) => (l.route === undefined ? l.site !== undefined && l.url !== undefined : l.site === undefined && l.url === undefined), {
        message: "needs either site and url (a profile elsewhere) or route (a section of this site)",
      }),
  ),
});

// _data/experience.yaml and _data/education.yaml
const timelineEntry = z
  .strictObject({
    organization: localized(text),
    role: text,
    start: year,
    end: z.union([year, z.literal("present")], { error: "must be a four-digit year or 'present'" }),
  })
  .refine((e) => e.end === "present" || e.end >= e.start, { message: "must not be before start", path: ["end"] });
export const timelineSchema = z.array(timelineEntry).min(1, "needs at least one entry");

// One BibTeX entry, after the parser has turned TeX into text (see ./bibtex.ts).
export const publicationFields = z
  .strictObject({
    title: text,
    author: z.array(z.strictObject({ given: z.string(), family: text })).min(1, "needs at least one author"),
    year: z.string().regex(/^\d{4}$/, "must be a four-digit year").transform(Number),
    journal: text.optional(),
    booktitle: text.optional(),
    pages: text.optional(),
    address: text.optional(),
    publisher: text.optional(),
    volume: text.optional(),
    number: text.optional(),
    month: text.optional(),
    note: text.optional(),
    series: text.optional(),
    location: text.optional(),
    organization: text.optional(),
    // Links: each becomes a button. Anything else is an unknown field, so a typo cannot vanish silently.
    url: httpsUrl.optional(),
    doi: z.string().regex(/^10\.\d{4,9}\/\S+$/, "must be a bare DOI such as 10.1145/3617232.3624857").optional(),
    eprint: z.string().regex(/^\d{4}\.\d{4,5}$/, "must be an arXiv identifier such as 2407.00079").optional(),
    archiveprefix: z.literal("arXiv", "only arXiv e-prints are supported").optional(),
    code: httpsUrl.optional(),
    slides: httpsUrl.optional(),
    video: httpsUrl.optional(),
    award: text.optional(),
    /**
     * The public abstract, copied from the paper's own page (`abstracturl`, one of the entry's links);
     * paragraphs are separated by a blank line.
     */
    abstract: z
      .array(text.refine((s) => !/[<>]/.test(s), "must be plain text: paragraphs separated by a blank line, no other markup"))
      .min(1)
      .optional(),
    abstracturl: httpsUrl.optional(),
  })
  .refine((f) => (f.abstract === undefined) === (f.abstracturl === undefined), {
    message: "abstract and abstracturl go together: an abstract names the page it was copied from",
    path: ["abstracturl"],
  });

// _data/course.yaml: the RDMA 101 course and its parts (lessons are files; see ./course.ts).
const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be a lower-case slug such as getting-started");
export const courseSchema = z.strictObject({
  title: text,
  description: plainText(200),
  audience: textWithCode,
  prerequisites: z.array(textWithCode).min(1),
  withoutHardware: textWithCode,
  parts: z
    .array(z.strictObject({ slug, title: text, summary: plainText(300) }))
    .min(1)
    .refine((parts) => new Set(parts.map((p) => p.slug)).size === parts.length, "part slugs must be unique"),
});

/** How one lesson names another: `<part-slug>/<lesson-slug>`. */
const lessonRef = z.string().regex(/^[a-z0-9-]+\/[a-z0-9-]+$/, "must be <part-slug>/<lesson-slug>");

// _data/glossary.yaml
export const glossarySchema = z
  .array(
    z.strictObject({
      id: slug,
      term: text,
      definition: text,
      lesson: lessonRef,
    }),
  )
  .superRefine((terms, ctx) => {
    const first = new Map<string, number>();
    terms.forEach(({ id }, i) => {
      const earlier = first.get(id);
      if (earlier === undefined) first.set(id, i);
      else ctx.addIssue({ code: "custom", path: [i, "id"], message: `'${id}' is also the id of term [${earlier}]` });
    });
  });

// _data/lookup.yaml: RDMA 101's "where to look" index: names (ways to get an RDMA device; APIs and
// tools; error statuses and symptoms), each at a heading of the lesson that explains it. A name may
// point at several places.
const lookupPlace = z.strictObject({
  name: text,
  lesson: lessonRef,
  /** The id of a heading in that lesson (what its address after # names). */
  heading: slug,
});
const lookupList = z
  .array(lookupPlace)
  .superRefine((places, ctx) => {
    const seen = new Set<string>();
    places.forEach((p, i) => {
      const key = `${p.name}\n${p.lesson}#${p.heading}`;
      if (seen.has(key)) ctx.addIssue({ code: "custom", message: `'${p.name}' already points at ${p.lesson}#${p.heading}`, path: [i] });
      seen.add(key);
    });
  });
export const lookupSchema = z.strictObject({ devices: lookupList, apis: lookupList, symptoms: lookupList });
export type LookupData = z.output<typeof lookupSchema>;

// Front matter of a blog post (posts/blog/*.md).
export const postSchema = z
  .strictObject({
    title: plainText(200),
    date: contentDate,
    description: plainText(200),
    tags: z
      .array(text)
      .default([])
      .superRefine((tags, ctx) => {
        const seen = new Map<string, string>();
        for (const tag of tags) {
          const slug = tagSlug(tag);
          if (!slug) ctx.addIssue({ code: "custom", message: `'${tag}' needs a letter or digit` });
          else if (seen.has(slug)) ctx.addIssue({ code: "custom", message: `'${seen.get(slug)}' and '${tag}' are the same tag` });
          seen.set(slug, tag);
        }
      })
      .transform((tags) => tags.map(tagSlug)),
    updated: contentDate.optional(),
    series: text.optional(),
    part: z.number().int().positive("must be 1 or more").optional(),
    draft: z.boolean().default(false),
    math: z.boolean().optional(),
  })
  .refine((p) => (p.series === undefined) === (p.part === undefined), {
    message: "series and part go together",
    path: ["part"],
  })
  .refine((p) => !p.updated || p.updated >= p.date, { message: "must not be before date", path: ["updated"] });

// Front matter of an RDMA 101 lesson (posts/rdma101/<NN>-<part>/<NN>-<lesson>.md).
export const lessonSchema = z
  .strictObject({
    title: plainText(120),
    description: plainText(200),
    objectives: z.array(text, "is required: a list of what the learner will be able to do").min(1, "needs at least one objective"),
    minutes: z.number("must be a whole number of minutes").int().positive("must be 1 or more").max(240, "must be at most 240"),
    date: contentDate,
    updated: contentDate.optional(),
    prerequisites: z.array(lessonRef).default([]),
    /** Earlier addresses of this lesson (<part-slug>/<lesson-slug>), which keep working as redirects. */
    formerly: z.array(lessonRef).default([]),
    draft: z.boolean().default(false),
  })
  .refine((l) => !l.updated || l.updated >= l.date, { message: "must not be before date", path: ["updated"] });

// Front matter of a page template (src/pages/): the route it is, and how Eleventy builds it.
export const pageSchema = z.strictObject({
  /** The page's address and identity: its path, title and description follow from it. */
  route: routeName(),
  layout: z.string().optional(),
  pagination: z
    .strictObject({
      data: z.string(),
      size: z.number().int().positive(),
      alias: z.string(),
      addAllPagesToCollections: z.boolean().optional(),
    })
    .optional(),
  eleventyExcludeFromCollections: z.boolean().optional(),
  eleventyImport: z.strictObject({ collections: z.array(z.string()) }).optional(),
  /** Served at addresses that are not its own (the 404 page): nobody's canonical page. */
  noindex: z.boolean().optional(),
  /** The element the skip link goes to, when the page puts the course's sidebar before its own content. */
  skipTo: z.literal("content").optional(),
});

/**
 * A UI string table (src/i18n/<lang>.yaml), shaped by the reference table: the same groups and
 * keys, each string with the reference's {placeholders}, and each plural string with exactly the
 * plural forms of the table's language (`pluralCategories`).
 */
export type StringTable = { [key: string]: string | StringTable };
const PLURAL_FORMS = new Set(["zero", "one", "two", "few", "many", "other"]);
const isPluralForms = (value: object): boolean => "other" in value && Object.keys(value).every((k) => PLURAL_FORMS.has(k));
const placeholders = (s: string): string => [...new Set(s.match(/\{\w+\}/g) ?? [])].sort().join(" ");

export function stringTableSchema(reference: unknown, pluralCategories: readonly string[]): z.ZodType<StringTable> {
  const shaped = (ref: unknown): z.ZodType => {
    if (typeof ref === "string") {
      const needed = placeholders(ref);
      return text.refine((s) => placeholders(s) === needed, needed ? `must use exactly the placeholders ${needed}` : "must use no {placeholders}");
    }
    if (ref === null || typeof ref !== "object" || Array.isArray(ref)) return z.never("must be a string, plural forms (one:, other: …) or a group of strings");
    if (isPluralForms(ref)) {
      const form = shaped((ref as Record<string, unknown>).other);
      return z.strictObject(Object.fromEntries(pluralCategories.map((c) => [c, form])));
    }
    return z.strictObject(Object.fromEntries(Object.entries(ref).map(([key, value]) => [key, shaped(value)])));
  };
  return shaped(reference) as z.ZodType<StringTable>;
}


// posts/rdma101/labs/<run-id>.yaml: one run of the course's programs in the lab (see src/lab/runs.ts).
export const runId = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be a lab run's id (its file name in posts/rdma101/labs/), such as capstone-pingpong");
const stepName = z.string().regex(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/, "must be a lower-case name such as server");
const vmNumber = z.union([z.literal(1), z.literal(2)], { error: "must be 1 or 2" });
/**
 * What joins two VMs: the lab's UDP wire, or the TCP stream it replaced (QEMU's socket netdev with
 * listen= and connect=), kept to measure what Nagle and delayed ACKs cost on it.
 */
const WIRES = ["udp", "tcp"] as const;
export type Wire = (typeof WIRES)[number];
const regexSource = z.string().superRefine((source, ctx) => {
  try {
    new RegExp(source);
  } catch (error) {
    ctx.addIssue({ code: "custom", message: `is not a valid regular expression (${(error as Error).message})` });
  }
});
/** Whether a regular expression has exactly one capture group (an empty alternative always matches, so exec lists them all). */
const oneCaptureGroup = (source: string): boolean => {
  try {
    return new RegExp(`${source}|`).exec("")!.length === 2;
  } catch {
    return true; // regexSource reports the syntax error
  }
};
export const labRunSchema = z
  .strictObject({
    title: plainText(200),
    lesson: lessonRef,
    vms: vmNumber.default(1),
    wire: z.enum(WIRES, "must be udp (the lab's wire) or tcp (the stream socket it replaced)").default("udp"),
    steps: z
      .array(
        z.strictObject({
          name: stepName,
          vm: vmNumber.default(1),
          run: text.refine((line) => !line.includes("\n"), "must be one command line"),
          ready: text.optional(),
          /** Seconds this step may take, from its start to its exit. */
          timeout: z.number("must be a number of seconds").positive("must be more than 0").max(600, "must be at most 600").default(30),
          /**
           * Its output differs between runs beyond what normalising evens out (the order of packets
           * on a wire): the tests check its `expect`, not the stored transcript's lines.
           */
          varies: z.boolean().default(false),
          /**
           * Runs in a network namespace of its own, which holds no RDMA device (the lab keeps rxe0
           * in its first namespace): libibverbs finds an empty device list, as in a container
           * without RDMA.
           */
          noDevice: z.boolean().default(false),
        }),
      )
      .min(1, "needs at least one step"),
    expect: z
      .record(
        stepName,
        z.strictObject({
          status: z.number("must be an exit status, 0 to 255").int().min(0).max(255).default(0),
          output: z.array(regexSource).default([]),
        }),
      )
      .default({}),
  })
  .superRefine((run, ctx) => {
    if (run.wire !== "udp" && run.vms !== 2) ctx.addIssue({ code: "custom", message: `is ${run.wire} but the run has vms: ${run.vms}; only two VMs share a wire`, path: ["wire"] });
    const names = new Set<string>();
    run.steps.forEach((step, i) => {
      if (names.has(step.name)) ctx.addIssue({ code: "custom", message: `'${step.name}' is used by an earlier step`, path: ["steps", i, "name"] });
      names.add(step.name);
      if (step.vm > run.vms) ctx.addIssue({ code: "custom", message: `is ${step.vm} but the run has vms: ${run.vms}`, path: ["steps", i, "vm"] });
    });
    for (const name of Object.keys(run.expect)) {
      if (!names.has(name)) ctx.addIssue({ code: "custom", message: "names no step of this run", path: ["expect", name] });
    }
  });

export type PostData = z.output<typeof postSchema>;
export type LessonData = z.output<typeof lessonSchema>;
export type CourseData = z.output<typeof courseSchema>;
export type LabRun = z.output<typeof labRunSchema>;
export type GlossaryTerm = z.output<typeof glossarySchema>[number];
export type PageData = z.output<typeof pageSchema>;
export type Site = z.output<typeof siteSchema>;

// Directives: fenced blocks with a YAML body (see ./directives.ts).
export const figureSchema = z.strictObject({
  file: z.string().regex(/^[\w.-]+\.svg$/, "must be the name of an SVG file beside the page"),
  alt: text,
  caption: text,
});
export const exampleSchema = z.strictObject({
  file: z.string().regex(/^[a-z0-9_]+\.[ch]$/, "must be the name of a C file in posts/rdma101/examples/, such as rc_pingpong.c"),
  /** Show only this function of the file (with its leading comment), such as one helper of course.c. */
  function: z.string().regex(/^[a-z_][a-z0-9_]*$/, "must be the name of a C function").optional(),
});

// A chart drawn from a data file beside the page (see ./charts.ts).
const columnName = text.max(80, "must be at most 80 characters");
export const chartSchema = z
  .strictObject({
    data: z.string().regex(/^[\w.-]+\.(?:csv|json)$/, "must be the name of a .csv or .json file beside the page").optional(),
    /**
     * Instead of a data file: numbers lab runs printed, read from their stored transcripts (see
     * ./chart-lab-data.ts), one row per line of the step's output that `line` matches.
     */
    lab: z
      .strictObject({
        runs: z.array(runId).min(1, "needs at least one lab run").refine((runs) => new Set(runs).size === runs.length, "names a run twice"),
        step: stepName,
        line: regexSource.refine(oneCaptureGroup, "must have exactly one capture group, around the number"),
      })
      .optional(),
    type: z.enum(["line", "bar"], "must be line or bar").default("line"),
    x: columnName,
    y: z.union([columnName, z.array(columnName).min(1, "needs at least one column")], "must be a column name or a list of them").transform((y) => (Array.isArray(y) ? y : [y])),
    group: columnName.optional(),
    legend: z.record(z.string(), plainText(60), "must map each series to its label").optional(),
    /** Bar charts: the label shown for each x value of the data (a translation's words for the file's). */
    categories: z.record(z.string(), plainText(60), "must map each x value to its label").optional(),
    title: plainText(120),
    alt: plainText(1500).optional(),
    caption: text,
    "x-label": plainText(80).optional(),
    "y-label": plainText(80).optional(),
  })
  .refine((c) => (c.data === undefined) !== (c.lab === undefined), { message: "give either data (a file beside the page) or lab (what lab runs printed), exactly one", path: ["data"] })
  .refine((c) => c.group === undefined || c.y.length === 1, { message: "takes exactly one y column (its values are split by group)", path: ["group"] })
  .refine((c) => c.categories === undefined || c.type === "bar", { message: "labels the x values of a bar chart (a line chart's x is a number)", path: ["categories"] });
export type ChartSpec = z.output<typeof chartSchema>;

export const transcriptSchema = z.strictObject({
  run: runId,
  /** One step of the run; every step in order when left out. */
  step: stepName.optional(),
});

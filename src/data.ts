// Global data: YAML and BibTeX files under _data/, each validated against its schema as it loads,
// plus TypeScript data files (template and directory data such as *.11tydata.ts).
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { z } from "zod";
import type UserConfig from "@11ty/eleventy/UserConfig";
import { parsePublications } from "./bibtex.ts";
import { checkControlCharacters } from "./content-safety.ts";
import { glossarySchema, courseSchema, lookupSchema, profileSchema, siteSchema, timelineSchema } from "./schemas.ts";
import { contentError, relativeFile, validate } from "./validation.ts";
import { readYaml } from "./yaml.ts";

/** The schema of each YAML file in _data/, by name. A data file without one is an error. */
const dataSchemas: Record<string, z.ZodType> = {
  site: siteSchema,
  profile: profileSchema,
  experience: timelineSchema,
  education: timelineSchema,
  course: courseSchema,
  glossary: glossarySchema,
  lookup: lookupSchema,
};

/**
 * Site fields a build may set from the environment, checked like the file: the origin of a build
 * for another address (a preview, a project page), and the source repository a deploy knows.
 */
export const SITE_OVERRIDES = { url: "SITE_URL", source: "SITE_SOURCE" } as const;

export function loadYamlData(contents: string, filePath: string): unknown {
  const file = relativeFile(filePath);
  const value = readYaml(contents, file);
  const name = path.basename(file).replace(/\.ya?ml$/, "");
  if (!file.startsWith("_data/")) return value;
  const schema = dataSchemas[name];
  if (!schema) throw contentError([`${file}: (file): no schema for this data file; add one in src/schemas.ts`]);
  if (name === "site") {
    // The file as written names the origin of the feeds' ids, which a build for another address keeps.
    const own = validate(siteSchema, value, file);
    const overrides = Object.entries(SITE_OVERRIDES).filter(([, variable]) => process.env[variable]);
    const fields = Object.fromEntries(overrides.map(([field, variable]) => [field, process.env[variable]]));
    const site = overrides.length > 0 ? validate(siteSchema, { ...(value as object), ...fields }, `${file} (${overrides.map(([field, variable]) => `${field} from ${variable}`).join(", ")})`) : own;
    return { ...site, feedIds: own.feedIds ?? own.url };
  }
  return validate(schema, value, file);
}

export default function data(config: UserConfig): void {
  config.addDataExtension("yaml,yml", { parser: loadYamlData });
  config.addDataExtension("bib", { parser: (contents: string, file: string) => {
      checkControlCharacters(contents, relativeFile(file));
      return parsePublications(contents, relativeFile(file));
    },
  });
  // Template and directory data only from *.11tydata.* files: a chart's data.json beside a post is
  // the chart's, never the post's data, and each page costs fewer file look-ups.
  config.setDataFileSuffixes([".11tydata"]);
  // Eleventy asks for a directory's data once per page in it: import each file once per build, as
  // every import() goes through the TypeScript loader.
  const modules = new Map<string, Promise<unknown>>();
  config.on("eleventy.before", () => modules.clear());
  config.addDataExtension("ts", {
    parser: (file: string) => {
      let loaded = modules.get(file);
      if (!loaded) modules.set(file, (loaded = import(pathToFileURL(runnable(file)).href).then((m: { default: unknown }) => m.default)));
      return loaded;
    },
    read: false,
  });
}

/**
 * The file to import for a TypeScript data file: itself under tsx, or under `npm run build` its
 * compiled twin (scripts/build.mjs), which shares this configuration's modules.
 */
function runnable(file: string): string {
  const compiled = process.env.SITE_COMPILED_DIR;
  if (!compiled) return path.resolve(file);
  const twin = path.join(compiled, relativeFile(file).replace(/\.ts$/, ".mjs"));
  if (!existsSync(twin)) throw contentError([`${relativeFile(file)}: (file): no compiled copy; scripts/build.mjs compiles every *.11tydata.ts and every .ts under _data/`]);
  return twin;
}

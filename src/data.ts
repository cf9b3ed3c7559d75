// Global data: YAML and BibTeX files under _data/, each validated against its schema as it loads,
// plus TypeScript data files (template and directory data such as *.11tydata.ts).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parse as parseYaml, YAMLParseError } from "yaml";
import type { z } from "zod";
import type UserConfig from "@11ty/eleventy/UserConfig";
import { parsePublications } from "./bibtex.ts";
import { glossarySchema, courseSchema, linkTypes, profileSchema, siteSchema, timelineSchema } from "./schemas.ts";
import { contentError, relativeFile, validate } from "./validation.ts";

/** The schema of each YAML file in _data/, by name. A data file without one is an error. */
const dataSchemas: Record<string, z.ZodType> = {
  site: siteSchema,
  profile: profileSchema,
  experience: timelineSchema,
  education: timelineSchema,
  course: courseSchema,
  glossary: glossarySchema,
};

/** YAML 1.2 (dates stay the text written), with syntax errors reported as `file: where: reason`. */
export function readYaml(source: string, file: string, where = "(syntax)"): unknown {
  try {
    return parseYaml(source);
  } catch (error) {
    if (error instanceof YAMLParseError) throw contentError([`${file}: ${where}: ${error.message.split("\n")[0]}`]);
    throw error;
  }
}

export function loadYamlData(contents: string, filePath: string): unknown {
  const file = relativeFile(filePath);
  const value = readYaml(contents, file);
  const name = path.basename(file).replace(/\.ya?ml$/, "");
  if (!file.startsWith("_data/")) return value;
  const schema = dataSchemas[name];
  if (!schema) throw contentError([`${file}: (file): no schema for this data file; add one in src/schemas.ts`]);
  const data = validate(schema, value, file);
  // A preview on another host overrides the public address here only.
  if (name === "site" && process.env.SITE_URL) return { ...(data as object), url: process.env.SITE_URL.replace(/\/+$/, "") };
  return data;
}

export default function data(config: UserConfig): void {
  config.addDataExtension("yaml,yml", { parser: loadYamlData });
  config.addGlobalData("linkLabels", linkTypes);
  config.addDataExtension("bib", { parser: (contents: string, file: string) => parsePublications(contents, relativeFile(file)) });
  config.addDataExtension("ts", {
    parser: async (file: string) => (await import(pathToFileURL(path.resolve(file)).href)).default,
    read: false,
  });
}

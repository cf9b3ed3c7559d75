// `npm run new -- post "Title"` or `npm run new -- lesson <part> "Title"` (add --slug=<slug> to
// choose the file's slug): writes a draft with valid front matter (see src/scaffold.ts).
import { readFileSync, writeFileSync } from "node:fs";
import { loadYamlData } from "../src/data.ts";
import { newLesson, newPost, type NewFile } from "../src/scaffold.ts";
import type { Site } from "../src/schemas.ts";
import { ContentError } from "../src/validation.ts";

const USAGE = 'usage: npm run new -- post "Title" [--slug=<slug>]\n       npm run new -- lesson <part slug or number> "Title" [--slug=<slug>]';
const args = process.argv.slice(2);
const slug = args.find((a) => a.startsWith("--slug="))?.slice("--slug=".length);
const [kind, ...rest] = args.filter((a) => !a.startsWith("--slug="));

try {
  const site = loadYamlData(readFileSync("_data/site.yaml", "utf8"), "_data/site.yaml") as Site;
  const options = { now: new Date(), zone: site.timezone, slug };
  let created: NewFile;
  if (kind === "post" && rest.length === 1) created = newPost(rest[0]!, options);
  else if (kind === "lesson" && rest.length === 2) created = newLesson(rest[0]!, rest[1]!, options);
  else {
    console.error(USAGE);
    process.exit(2);
  }
  // "wx": never overwrite a file.
  writeFileSync(created.file, created.text, { flag: "wx" });
  console.log(`${created.file} (a draft: remove draft: true to publish)`);
} catch (error) {
  if (!(error instanceof ContentError)) throw error;
  console.error(error.message);
  process.exit(1);
}

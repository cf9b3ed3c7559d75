// The writing loop (`npm start`): the dev server serves exactly the last good build. Eleventy never
// deletes output, so after each build the pages it did not write (a deleted or renamed post, a tag
// no post has any more) are removed; and a failed build shows its error over the page in the
// browser (src/dev/build-errors.js, served from the site), until the next good build reloads it.
// None of this exists in a production build.
import { readdir, rm, rmdir } from "node:fs/promises";
import path from "node:path";
import type UserConfig from "@11ty/eleventy/UserConfig";
import { escapeHtml } from "./html.ts";
import { t } from "./i18n.ts";
import { languageOf, href, routes } from "./urls.ts";

export const isDevServer = (): boolean => process.env.ELEVENTY_RUN_MODE === "serve";

const ERROR_SCRIPT = "src/dev/build-errors.js";

/** Removes the HTML files under `outputDir` that are not in `written` (absolute paths), and folders left empty. */
export async function removeStalePages(outputDir: string, written: Set<string>): Promise<string[]> {
  const entries = await readdir(outputDir, { recursive: true, withFileTypes: true });
  const stale = entries.filter((e) => e.isFile() && e.name.endsWith(".html")).map((e) => path.resolve(e.parentPath, e.name)).filter((file) => !written.has(file));
  for (const file of stale) {
    await rm(file);
    // A page's folder usually holds only the page: remove it, and its parents, when left empty.
    for (let dir = path.dirname(file); dir.startsWith(path.resolve(outputDir) + path.sep); dir = path.dirname(dir)) {
      if ((await readdir(dir)).length > 0) break;
      await rmdir(dir);
    }
  }
  return stale;
}

/**
 * What every dev page gets before </body>: the error overlay's script tag, its words in the page's
 * language, and the live-reload DOM differ fetched ahead, since a rebuild may keep the server busy
 * when the first saved body arrives (src/quick-edit.ts).
 */
export function devServerTags(pageUrl: string): string {
  const lang = languageOf(pageUrl);
  const say = (key: string) => escapeHtml(t(lang, `devServer.${key}`));
  return `<link rel="modulepreload" href="${routes.devServerDiff()}">\n<script type="module" src="${href(routes.devBuildErrors())}" data-build-errors data-title="${say("buildFailed")}" data-hint="${say("lastGoodBuild")}" data-close="${say("close")}"></script>`;
}

interface BuildResult {
  outputPath: string | false;
}

export default function devServer(config: UserConfig): void {
  if (!isDevServer()) return;
  config.addPassthroughCopy({ [ERROR_SCRIPT]: routes.devBuildErrors() });
  config.addTransform("build-errors", function (this: { page: { url: string | false } }, content: string, outputPath: string | false) {
    if (!outputPath || !outputPath.endsWith(".html") || !this.page.url || !content.includes("</body>")) return content;
    return content.replace("</body>", `${devServerTags(this.page.url)}\n</body>`);
  });
  config.on("eleventy.after", async ({ results, directories, incremental }: { results: BuildResult[]; directories: { output: string }; incremental?: boolean }) => {
    // An incremental build reports only the pages it rebuilt: the rest are not stale.
    if (incremental) return;
    const written = new Set(results.flatMap((r) => (r.outputPath ? [path.resolve(r.outputPath)] : [])));
    for (const file of await removeStalePages(directories.output, written)) console.log(`[dev server] removed ${path.relative(directories.output, file)}: no page builds it any more`);
  });
}

// `npm start`: Eleventy's watch and dev server, as `eleventy --serve` runs them, plus:
// - a rebuild when a file is deleted (Eleventy only forgets the file, so lists, tags, feeds and the
//   deleted post's own page would stay until the next save); the build then removes pages no file
//   builds any more (src/dev-server.ts);
// - the fast path of src/quick-edit.ts: a saved post or lesson is in the browser before the rebuild
//   starts, and no request is answered from a build older than the last change.
// Preloaded with ./localhost-only.ts.
import Eleventy from "@11ty/eleventy";
import type UserConfig from "@11ty/eleventy/UserConfig";
import { readFile } from "node:fs/promises";
import { Freshness, LastBuild, pushedHtml, renderQuickPages, type BuiltPage } from "../src/quick-edit.ts";
import { errorMessage, relativeFile } from "../src/validation.ts";

/** The parts of Eleventy 3.1's instance this script drives. */
interface Watching {
  init(): Promise<void>;
  /** Builds, starts watching, and returns the function Eleventy calls for a changed file. */
  watch(): Promise<(file: string) => Promise<void>>;
  /** One build (a rebuild calls it after the `eleventy.beforeWatch` event and a restart). */
  write(): Promise<unknown>;
  writer: { templateMap: { getMap(): { _pages?: BuiltPage[] }[] } };
  watchManager?: { isBuildRunning(): boolean };
  watcher: { on(event: "add" | "change" | "unlink", listener: (file: string) => void): void };
  eleventyServe: { reload(event: { files: string[]; build: { templates: { url: string; inputPath: string; content: string }[] } }): Promise<void> };
  serve(port: number): void;
  stopWatch(): Promise<void>;
}

// The options of `eleventy --serve` that the project uses: where to serve, where to write, under which prefix.
const OPTIONS = ["port", "output", "pathprefix"];
const unknown = process.argv.slice(2).filter((a) => !OPTIONS.some((name) => a.startsWith(`--${name}=`)));
if (unknown.length) {
  console.error(`npm start: unknown option ${unknown.join(" ")}; it takes ${OPTIONS.map((o) => `--${o}=…`).join(", ")}`);
  process.exit(2);
}
const option = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const port = Number(option("port") ?? 8080);

const freshness = new Freshness();
// Applied again whenever Eleventy reloads its configuration.
const config = (userConfig: UserConfig) => {
  userConfig.setServerOptions({ middleware: [freshness.middleware] });
  // Pages written asynchronously let the server answer (and hear the next save) during a rebuild.
  userConfig.configureTemplateHandling({ writeMode: "async" });
  // A saved file counts once it has not changed for 50 ms (Eleventy waits 150 ms): most of the time
  // between a save and the quick page. A file caught mid-write is simply built again when it settles.
  userConfig.setChokidarConfig({ awaitWriteFinish: { stabilityThreshold: 50, pollInterval: 10 } });
  // Before a rebuild restarts anything, while the last build's pages are as they were.
  userConfig.on("eleventy.beforeWatch", showQuickPages);
  userConfig.on("eleventy.afterwatch", () => {
    if (!eleventy.watchManager?.isBuildRunning()) freshness.settled();
  });
};
const eleventy = new Eleventy(undefined, option("output"), { source: "cli", configPath: ".eleventy.ts", runMode: "serve", pathPrefix: option("pathprefix"), config }) as unknown as Watching;

/** The last build, while it is the last build and it succeeded. */
let lastGood: LastBuild | undefined;

async function showQuickPages(queue: string[]): Promise<void> {
  freshness.buildStarted();
  if (!lastGood) return;
  const started = performance.now();
  const read = freshness.changes;
  try {
    const pages = await renderQuickPages(lastGood, queue);
    if (typeof pages === "string") {
      // Only where a quick page was to be expected: a template or data change says nothing.
      if (queue.every((file) => file.endsWith(".md"))) console.log(`[dev server] the rebuild first: ${pages}`);
      return;
    }
    for (const page of pages) {
      if (!freshness.show(page, read)) continue;
      const shown = page.outputPath ? await readFile(page.outputPath, "utf8").catch(() => "") : "";
      await eleventy.eleventyServe.reload({ files: [page.inputPath], build: { templates: [{ url: page.url, inputPath: page.inputPath, content: pushedHtml(page.html, shown) }] } });
      console.log(`[dev server] ${relativeFile(page.inputPath)}: shown in ${Math.round(performance.now() - started)} ms, before the rebuild`);
    }
  } catch (error) {
    // The rebuild shows the page (or its error) anyway; a failure here must not stop the watcher.
    console.error(`[dev server] quick page: ${errorMessage(error)}`);
  }
}

const write = eleventy.write.bind(eleventy);
eleventy.write = async () => {
  lastGood = undefined;
  try {
    const result = await write();
    lastGood = new LastBuild(eleventy.writer.templateMap.getMap().flatMap((entry) => entry._pages ?? []));
    return result;
  } finally {
    freshness.buildEnded();
  }
};

// A failed build can leave work running (Eleventy's file copies); a failure of it after the next
// build has begun has no one to catch it and would end the process. It is reported instead, and the
// last good build stays served.
process.on("unhandledRejection", (error) => console.error(`[dev server] a failure outside any build (work a failed build left running?): ${errorMessage(error)}`));

await eleventy.init();
const rebuild = await eleventy.watch();
for (const event of ["add", "change", "unlink"] as const) eleventy.watcher.on(event, () => freshness.changed());
eleventy.watcher.on("unlink", (file) => void rebuild(file));
eleventy.serve(port);
process.on("SIGINT", () => void eleventy.stopWatch());

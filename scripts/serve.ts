// `npm start`: Eleventy's watch and dev server, as `eleventy --serve` runs them, plus one thing it
// lacks: a rebuild when a file is deleted (Eleventy only forgets the file, so lists, tags, feeds
// and the deleted post's own page would stay until the next save). The build itself then removes
// pages no file builds any more (src/dev-server.ts). Preloaded with ./localhost-only.ts.
import Eleventy from "@11ty/eleventy";

interface Watching {
  init(): Promise<void>;
  /** Builds, starts watching, and returns the function Eleventy calls for a changed file. */
  watch(): Promise<(file: string) => Promise<void>>;
  watcher: { on(event: "unlink", listener: (file: string) => void): void };
  serve(port: number): void;
  stopWatch(): Promise<void>;
}

const port = Number(process.argv.find((a) => a.startsWith("--port="))?.slice("--port=".length) ?? 8080);
const eleventy = new Eleventy(undefined, undefined, { source: "cli", configPath: ".eleventy.ts", runMode: "serve" }) as unknown as Watching;
await eleventy.init();
const rebuild = await eleventy.watch();
eleventy.watcher.on("unlink", (file) => void rebuild(file));
eleventy.serve(port);
process.on("SIGINT", () => void eleventy.stopWatch());

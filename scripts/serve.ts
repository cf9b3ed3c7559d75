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

// The options of `eleventy --serve` that the project uses: where to serve, where to write, under which prefix.
const OPTIONS = ["port", "output", "pathprefix"];
const unknown = process.argv.slice(2).filter((a) => !OPTIONS.some((name) => a.startsWith(`--${name}=`)));
if (unknown.length) {
  console.error(`npm start: unknown option ${unknown.join(" ")}; it takes ${OPTIONS.map((o) => `--${o}=…`).join(", ")}`);
  process.exit(2);
}
const option = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const port = Number(option("port") ?? 8080);
const eleventy = new Eleventy(undefined, option("output"), { source: "cli", configPath: ".eleventy.ts", runMode: "serve", pathPrefix: option("pathprefix") }) as unknown as Watching;
await eleventy.init();
const rebuild = await eleventy.watch();
eleventy.watcher.on("unlink", (file) => void rebuild(file));
eleventy.serve(port);
process.on("SIGINT", () => void eleventy.stopWatch());

// A tiny static server over the built site, bound to 127.0.0.1 only, for browser tests.
import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".xml": "application/xml; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".woff2": "font/woff2",
  ".png": "image/png",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".jpg": "image/jpeg",
  ".txt": "text/plain; charset=utf-8",
  ".c": "text/plain; charset=utf-8",
};

export interface StaticServer {
  origin: string;
  close: () => Promise<void>;
}

/**
 * The headers a _headers file gives each address, read as Netlify and Cloudflare Pages document it:
 * an address pattern (`*` matches anything) at the start of a line, then its headers indented below
 * it as `Name: value`, and every rule that matches applies. (A header that two rules set gets both
 * values here, comma-joined; the site's file never does that.)
 */
export function headerRules(source: string): (pathname: string) => Record<string, string> {
  const rules: { pattern: RegExp; headers: [string, string][] }[] = [];
  for (const line of source.split("\n")) {
    if (line.startsWith("/")) {
      const pattern = line.trim().split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*");
      rules.push({ pattern: new RegExp(`^${pattern}$`), headers: [] });
    } else if (/^\s+\S/.test(line)) {
      const colon = line.indexOf(":");
      rules.at(-1)!.headers.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]);
    }
  }
  return (pathname) => {
    const out: Record<string, string> = {};
    for (const { pattern, headers } of rules) if (pattern.test(pathname)) for (const [name, value] of headers) out[name] = out[name] ? `${out[name]}, ${value}` : value;
    return out;
  };
}

/** `hostHeaders`: send what the site's _headers file asks for, as a host that reads it does. */
export async function serve(root: string, options: { hostHeaders?: boolean } = {}): Promise<StaticServer> {
  const headersFor = options.hostHeaders ? headerRules(readFileSync(path.join(root, "_headers"), "utf8")) : () => ({});
  const server: Server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    let file = path.join(root, pathname);
    if (!file.startsWith(root)) file = root;
    if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, "index.html");
    if (!existsSync(file)) {
      res.writeHead(404, { ...headersFor(pathname), "content-type": types[".html"] });
      const notFound = path.join(root, "404.html");
      return existsSync(notFound) ? createReadStream(notFound).pipe(res) : res.end("Not found");
    }
    res.writeHead(200, { ...headersFor(pathname), "content-type": types[path.extname(file)] ?? "application/octet-stream" });
    createReadStream(file).pipe(res);
  });
  // Node's fetch (Pagefind's script in a build test) reuses an idle connection until shortly before
  // the server would close it; on a busy machine that margin runs out and the request is reset
  // (ECONNRESET). Idle connections are kept far longer than any test pauses; close() ends them.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

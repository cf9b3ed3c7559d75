// A tiny static server over the built site, bound to 127.0.0.1 only, for browser tests.
import { createReadStream, existsSync, statSync } from "node:fs";
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

export async function serve(root: string): Promise<StaticServer> {
  const server: Server = createServer((req, res) => {
    let file = path.join(root, decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
    if (!file.startsWith(root)) file = root;
    if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, "index.html");
    if (!existsSync(file)) {
      res.writeHead(404, { "content-type": types[".html"] });
      const notFound = path.join(root, "404.html");
      return existsSync(notFound) ? createReadStream(notFound).pipe(res) : res.end("Not found");
    }
    res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream" });
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

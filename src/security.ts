// The Content-Security-Policy: scripts only from this site, plus the one tiny inline script (the
// theme set before first paint) allowed by its hash rather than 'unsafe-inline'. Each page carries
// exactly its own policy in a <meta> tag: only the search page may run WebAssembly (Pagefind's
// index). Hosts that read a _headers file also send a policy as a real header, with what <meta>
// cannot say; a browser enforces both, so the header allows what any page needs and each page's
// own policy narrows it.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type UserConfig from "@11ty/eleventy/UserConfig";
import { neutralPath, routes } from "./urls.ts";

export const INLINE_SCRIPTS = ["_includes/partials/theme-init.js"];

export const scriptHash = (source: string): string => `'sha256-${createHash("sha256").update(source).digest("base64")}'`;

export interface PolicyOptions {
  /** Pagefind's search runs its index in WebAssembly. */
  webAssembly?: boolean;
}

export function contentSecurityPolicy(inlineScripts: string[], options: PolicyOptions = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${inlineScripts.map(scriptHash).join(" ")}${options.webAssembly ? " 'wasm-unsafe-eval'" : ""}`,
    // KaTeX sizes glyphs with style attributes; stylesheets themselves come only from this site.
    "style-src 'self'",
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join("; ");
}

/** Whether the page at a site path needs WebAssembly: the search page, in any language. */
export const needsWebAssembly = (path: string): boolean => neutralPath(path) === routes.search();

export default function security(config: UserConfig): void {
  // Two policies per build (with and without WebAssembly), asked for by every page.
  const policies = new Map<boolean, string>();
  config.on("eleventy.before", () => policies.clear());
  const policy = ({ webAssembly = false }: PolicyOptions) => {
    let out = policies.get(webAssembly);
    if (out === undefined) policies.set(webAssembly, (out = contentSecurityPolicy(INLINE_SCRIPTS.map((file) => readFileSync(file, "utf8")), { webAssembly })));
    return out;
  };
  config.addFilter("contentSecurityPolicy", (path: string) => policy({ webAssembly: needsWebAssembly(path) }));
  // For _headers: everything any page needs (each page's <meta> narrows it), and what <meta> cannot say.
  config.addGlobalData("headerSecurityPolicy", () => `${policy({ webAssembly: true })}; frame-ancestors 'none'`);
}

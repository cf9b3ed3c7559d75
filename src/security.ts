// The Content-Security-Policy: scripts only from this site, plus the one tiny inline script (the
// theme set before first paint) allowed by its hash rather than 'unsafe-inline'. Pages carry it as a
// <meta> tag; hosts that read a _headers file get it as a real header, with what <meta> cannot say.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type UserConfig from "@11ty/eleventy/UserConfig";

export const INLINE_SCRIPTS = ["_includes/partials/theme-init.js"];

export const scriptHash = (source: string): string => `'sha256-${createHash("sha256").update(source).digest("base64")}'`;

export function contentSecurityPolicy(inlineScripts: string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${inlineScripts.map(scriptHash).join(" ")}`,
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

export default function security(config: UserConfig): void {
  config.addGlobalData("contentSecurityPolicy", () => contentSecurityPolicy(INLINE_SCRIPTS.map((file) => readFileSync(file, "utf8"))));
}

import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, needsWebAssembly, scriptHash } from "../../src/security.ts";
import { routes } from "../../src/urls.ts";

// The hashes a browser compares an inline script with, computed outside the code under test:
// printf '%s' "$SOURCE" | openssl dgst -sha256 -binary | base64
const SOURCE = "document.documentElement.dataset.theme='dark'";
const SOURCE_HASH = "'sha256-4GCtlRIa5/po6BIm3cLw/p4RvTTtjKhicVUkjPlNp/s='";
const SOURCE_WITH_SPACE_HASH = "'sha256-KqYV1v77FVxrXXhEebFBkkByWnaMl6cPERhMkdEf5Ow='";

describe("content security policy", () => {
  it("names an inline script by a SHA-256 hash of exactly its text", () => {
    expect(scriptHash(SOURCE)).toBe(SOURCE_HASH);
    expect(scriptHash(`${SOURCE} `)).toBe(SOURCE_WITH_SPACE_HASH);
  });

  it("allows inline scripts only by their hash, and nothing from another origin", () => {
    const policy = contentSecurityPolicy([SOURCE]);
    const scriptSrc = policy.split("; ").find((d) => d.startsWith("script-src"));
    expect(scriptSrc).toBe(`script-src 'self' ${SOURCE_HASH}`);
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).not.toMatch(/https?:|\*/);
  });
});

describe("WebAssembly", () => {
  it("is allowed on the search page in every language, and nowhere else", () => {
    expect([needsWebAssembly(routes.search("en")), needsWebAssembly(routes.search("zh"))]).toEqual([true, true]);
    expect([needsWebAssembly(routes.home("en")), needsWebAssembly(routes.posts("zh")), needsWebAssembly(routes.course())]).toEqual([false, false, false]);
    expect(contentSecurityPolicy([], { webAssembly: true })).toContain("'wasm-unsafe-eval'");
    expect(contentSecurityPolicy([])).not.toContain("wasm");
  });
});

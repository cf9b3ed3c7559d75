import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, needsWebAssembly, scriptHash } from "../../src/security.ts";
import { routes } from "../../src/urls.ts";

describe("content security policy", () => {
  it("names an inline script by a SHA-256 hash of exactly its text", () => {
    const source = "document.documentElement.dataset.theme='dark'";
    expect(scriptHash(source)).toMatch(/^'sha256-[A-Za-z0-9+/]{43}='$/);
    expect(scriptHash(source)).toBe(scriptHash(source));
    expect(scriptHash(`${source} `)).not.toBe(scriptHash(source));
  });

  it("allows inline scripts only by their hash, and nothing from another origin", () => {
    const source = "document.documentElement.dataset.theme='dark'";
    const policy = contentSecurityPolicy([source]);
    const scriptSrc = policy.split("; ").find((d) => d.startsWith("script-src"));
    expect(scriptSrc).toBe(`script-src 'self' ${scriptHash(source)}`);
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

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, scriptHash } from "../../src/security.ts";

describe("content security policy", () => {
  it("allows inline scripts only by their SHA-256 hash", () => {
    const source = "document.documentElement.dataset.theme='dark'";
    const expected = `'sha256-${createHash("sha256").update(source).digest("base64")}'`;
    expect(scriptHash(source)).toBe(expected);
    const policy = contentSecurityPolicy([source]);
    expect(policy).toContain(`script-src 'self' ${expected}`);
    expect(policy.split("; ").find((d) => d.startsWith("script-src"))).not.toContain("unsafe-inline");
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("object-src 'none'");
  });
});

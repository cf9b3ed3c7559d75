import { describe, expect, it } from "vitest";
import { unsignedKernelOf } from "../../../src/lab/kernel.ts";

describe("the lab's kernel package", () => {
  it("is the unsigned twin of the flavour linux-image-amd64's candidate depends on", () => {
    const shown = "Package: linux-image-amd64\nVersion: 6.1.192-3\nDepends: linux-image-6.1.0-57-amd64 (= 6.1.192-3)\nDescription: Linux for 64-bit PCs (meta-package)\n";
    expect(unsignedKernelOf(shown)).toEqual({ name: "linux-image-6.1.0-57-amd64-unsigned", version: "6.1.192-3" });
  });

  it("says what to do when apt knows no kernel", () => {
    expect(() => unsignedKernelOf("")).toThrow("run apt-get update");
  });
});

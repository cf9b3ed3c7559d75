import { describe, expect, it } from "vitest";
import { BUSYBOX, labProblems, QEMU } from "../../../src/lab/requirements.ts";

describe("what the lab needs", () => {
  it("says plainly that it needs Linux on x86-64", () => {
    expect(labProblems("darwin", "arm64")).toEqual([expect.stringMatching(/^the lab runs on Linux only \(this is darwin\)/)]);
    expect(labProblems("linux", "arm64")).toEqual([expect.stringMatching(/needs an x86-64 Linux host \(this is arm64\)/)]);
  });

  it("names every missing Debian package and the command that installs them", () => {
    expect(labProblems("linux", "x64", (file) => file !== QEMU && file !== BUSYBOX)).toEqual([
      "the lab needs Debian packages that are missing: qemu-system-x86 busybox-static",
      "install them with: sudo apt-get install --no-install-recommends qemu-system-x86 busybox-static",
    ]);
    expect(labProblems("linux", "x64", () => true)).toEqual([]);
  });
});

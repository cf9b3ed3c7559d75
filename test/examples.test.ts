// Every complete RDMA 101 program compiles warning-free against Debian's libibverbs-dev with the
// build command its lesson shows and, on a machine without an RDMA device (like this one), says so
// and exits non-zero instead of crashing. Programs that need a GPU are compiled against the CUDA
// toolkit and never run; without the toolkit their compile test is skipped, and says why.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compileArgs, EXAMPLES_DIR, isProgram, needsGpu } from "../src/examples.ts";

const programs = readdirSync(EXAMPLES_DIR).filter(isProgram);
const binDir = mkdtempSync(path.join(tmpdir(), "rdma-examples-"));
const hasDevice = spawnSync("sh", ["-c", "ls /sys/class/infiniband/ 2>/dev/null | grep -q ."]).status === 0;
const hasNvcc = spawnSync("sh", ["-c", "command -v nvcc"]).status === 0;
const NO_CUDA = "SKIPPED: nvcc not found, so the CUDA toolkit this program is compiled against is missing";
if (!hasNvcc && programs.some(needsGpu)) console.warn(`RDMA 101 GPU programs: ${NO_CUDA}`);

describe("RDMA 101 example programs", () => {
  it("has the course's programs, and the shared helpers are not one", () => {
    expect(programs).toEqual(expect.arrayContaining(["list_devices.c", "memory_region.c", "qp_states.c"]));
    expect(readdirSync(EXAMPLES_DIR)).toEqual(expect.arrayContaining(["course.c", "course.h"]));
    expect(programs).not.toContain("course.c");
  });

  describe.each(programs)("%s", (program) => {
    const binary = path.join(binDir, program.replace(/\.c$/, ""));
    const gpu = needsGpu(program);
    const skipped = gpu && !hasNvcc ? ` (${NO_CUDA})` : "";

    it.skipIf(gpu && !hasNvcc)(`compiles with -std=c11 -Wall -Wextra -Werror, with course.c, librdmacm and CUDA where it uses them${skipped}`, () => {
      execFileSync("gcc", compileArgs(path.join(EXAMPLES_DIR, program), binary), { stdio: "pipe" });
    });

    it.runIf(!hasDevice && !gpu)("reports that there is no RDMA device and exits non-zero, without crashing", () => {
      const run = spawnSync(binary, [], { encoding: "utf8", timeout: 10_000 });
      expect(run.signal, run.stderr).toBeNull();
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/no RDMA device found/);
    });
  });
});

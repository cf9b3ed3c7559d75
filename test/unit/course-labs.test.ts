import { describe, expect, it } from "vitest";
import { labOf } from "../../src/course-labs.ts";
import type { LabRunFile } from "../../src/lab/runs.ts";
import { labRunSchema } from "../../src/schemas.ts";

const run = (id: string, manifest: unknown): LabRunFile => ({ ...labRunSchema.parse(manifest), id, file: `labs/${id}.yaml`, transcriptFile: `labs/${id}.out` });

describe("the labs page's entries", () => {
  it("show each step's command as the lab runs it, and what it must print", () => {
    const lab = labOf(
      run("none", {
        title: "No device",
        lesson: "a/b",
        steps: [{ name: "list", run: "list_devices", noDevice: true }, { name: "other", run: "true" }],
        expect: { list: { status: 1, output: ["^no RDMA device found"] } },
      }),
    );
    // The command scripts/lab.ts documents for repeating a run: `npm run lab -- --run RUN-ID…`.
    expect(lab.command).toBe("npm run lab -- --run none");
    expect(lab.steps.map((s) => [s.command, s.status, s.output])).toEqual([
      ["unshare --net -- bash -c list_devices", 1, ["^no RDMA device found"]],
      ["true", 0, []],
    ]);
    expect([lab.vms, lab.addresses, lab.failsOnPurpose, lab.varies]).toEqual([1, [], true, false]);
  });

  it("name both VMs' addresses when a run crosses the wire", () => {
    const lab = labOf(
      run("wire", {
        title: "Two",
        lesson: "a/b",
        vms: 2,
        steps: [{ name: "server", vm: 1, run: "s", ready: "waiting" }, { name: "client", vm: 2, run: "c 169.254.101.1", varies: true }],
      }),
    );
    expect(lab.addresses).toEqual(["169.254.101.1", "169.254.101.2"]);
    expect(lab.wire).toBe("udp");
    expect(lab.steps.map((s) => [s.vm, s.ready])).toEqual([[1, "waiting"], [2, undefined]]);
    expect([lab.failsOnPurpose, lab.varies]).toEqual([false, true]);
  });
});

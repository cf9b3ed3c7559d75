import { describe, expect, it } from "vitest";
import type { LabRunFile } from "../../../src/lab/runs.ts";
import { bootsFor } from "../../../src/lab/session.ts";
import { labRunSchema } from "../../../src/schemas.ts";

const run = (id: string, machines: { vms?: 1 | 2; wire?: "udp" | "tcp" }): LabRunFile => ({
  ...labRunSchema.parse({ title: id, lesson: "a/b", ...machines, steps: [{ name: "only", run: "true" }] }),
  id,
  file: `labs/${id}.yaml`,
  transcriptFile: `labs/${id}.out`,
});

const plan = (runs: LabRunFile[]) => bootsFor(runs).map((b) => [b.machines, b.runs.map((r) => r.id)]);

describe("the boots a session needs", () => {
  it("is one VM when no run crosses a wire, and two on the UDP wire when one does", () => {
    expect(plan([run("a", {}), run("b", {})])).toEqual([[{ vms: 1 }, ["a", "b"]]]);
    expect(plan([run("a", {}), run("b", { vms: 2 })])).toEqual([[{ vms: 2, wire: "udp" }, ["a", "b"]]]);
  });

  it("boots the TCP wire apart from the rest, each wire once, in the order of its first run", () => {
    const runs = [run("tcp-1", { vms: 2, wire: "tcp" }), run("alone", {}), run("pair", { vms: 2 }), run("tcp-2", { vms: 2, wire: "tcp" })];
    expect(plan(runs)).toEqual([
      [{ vms: 2, wire: "tcp" }, ["tcp-1", "tcp-2"]],
      [{ vms: 2, wire: "udp" }, ["alone", "pair"]],
    ]);
  });
});

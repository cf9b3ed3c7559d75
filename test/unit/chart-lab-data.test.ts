import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { labSourceHtml, labTable } from "../../src/chart-lab-data.ts";
import { chartSeries } from "../../src/charts.ts";
import { formatTranscript } from "../../src/lab/transcript.ts";
import { chartSchema } from "../../src/schemas.ts";
import { href, routes } from "../../src/urls.ts";
import { validate } from "../../src/validation.ts";

const LINE = "^window 1: 200 round trips of 64 bytes, ([\\d.]+) us each$";
const roundTrip = (us: string) => `window 1: 200 round trips of 64 bytes, ${us} us each\nwindow 8: 200 round trips of 64 bytes, 936.6 per second\n`;

/** A folder of lab runs, each a server and a client; a run given no client output has no transcript yet. */
function labsDir(runs: Record<string, string | undefined>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "chart-lab-"));
  for (const [id, client] of Object.entries(runs)) {
    const file = path.join(dir, `${id}.yaml`);
    writeFileSync(file, `title: "${id}"\nlesson: programming-model/capstone-ping-pong\nsteps:\n  - name: server\n    run: rc_pingpong\n  - name: client\n    run: rc_pingpong 127.0.0.1\n`);
    if (client === undefined) continue;
    const steps = [
      { name: "server", vm: 1, run: "rc_pingpong", status: 0, output: "served 400 pings, every payload verified\n" },
      { name: "client", vm: 1, run: "rc_pingpong 127.0.0.1", status: 0, output: client },
    ];
    writeFileSync(path.join(dir, `${id}.out`), formatTranscript(id, file, steps));
  }
  return dir;
}

const source = (runs: string[], fields: Record<string, string> = {}) => ({ runs, step: "client", line: LINE, ...fields });

describe("a chart's numbers from lab runs", () => {
  it("are the matching lines of each run's step, in order, as printed", () => {
    const dir = labsDir({ near: roundTrip("477.2") + roundTrip("480.0"), far: roundTrip("2831.7") });
    const table = labTable(source(["far", "near"]), "p.md:3", dir);
    expect(table.columns).toEqual(["run", "repeat", "value"]);
    expect(table.rows.map((r) => r.cells)).toEqual([
      ["far", "1", "2831.7"],
      ["near", "1", "477.2"],
      ["near", "2", "480.0"],
    ]);
  });

  it("draw one series per run when grouped by run", () => {
    const dir = labsDir({ near: roundTrip("477.2") + roundTrip("480.0"), far: roundTrip("2831.7") });
    const spec = validate(chartSchema, { lab: source(["near", "far"]), type: "bar", x: "repeat", y: "value", group: "run", title: "T", caption: "C." }, "p.md:3", "chart");
    const series = chartSeries(spec, labTable(spec.lab!, "p.md:3", dir), "p.md:3");
    expect(series.map((s) => [s.key, s.points.map((p) => [p.x, p.text])])).toEqual([
      ["near", [["1", "477.2"], ["2", "480.0"]]],
      ["far", [["1", "2831.7"]]],
    ]);
  });

  it.each([
    [{ type: "bar", x: "repeat", y: "value" }, "p.md:3: chart.lab.runs[1] ('far'), matched line 1, repeat: a second value for value at repeat = 1"],
    [{ type: "line", x: "run", y: "value", group: "repeat" }, "p.md:3: chart.lab.runs[0] ('near'), matched line 1, run: must be a number (found \"near\")"],
    [{ type: "bar", x: "rep", y: "value" }, "p.md:3: chart.x: no column 'rep' in the rows read from the lab runs (its columns: run, repeat, value)"],
  ])("blame the chart's own line, not a data file, for drawing them as %j", (fields, message) => {
    const dir = labsDir({ near: roundTrip("477.2"), far: roundTrip("2831.7") });
    const spec = validate(chartSchema, { lab: source(["near", "far"]), title: "T", caption: "C.", ...fields }, "p.md:3", "chart");
    expect(() => chartSeries(spec, labTable(spec.lab!, "p.md:3", dir), "p.md:3")).toThrow(message);
  });

  it("name the page, the field and the reason for a run not captured, missing, or printing no such number", () => {
    const dir = labsDir({ done: roundTrip("477.2"), pending: undefined, silent: "no round trips\n", odd: roundTrip("n/a") });
    const cases: [ReturnType<typeof source>, string][] = [
      [source(["done", "pending"]), "p.md:3: chart.lab.runs[1]: 'pending' has no transcript yet: run npm run lab:capture pending"],
      [source(["absent"]), `p.md:3: chart.lab.runs[0]: no lab run 'absent' (${dir}/absent.yaml)`],
      [source(["done"], { step: "capture" }), "p.md:3: chart.lab.step: run 'done' has no step 'capture' (it has server, client)"],
      [source(["silent"]), `p.md:3: chart.lab.line: matches no line that step client printed in ${dir}/silent.out`],
      [source(["odd"], { line: "^window 1: .*, (\\S+) us each$" }), `p.md:3: chart.lab.line: captures 'n/a', not a number, from ${dir}/odd.out (step client)`],
    ];
    for (const [lab, message] of cases) expect(() => labTable(lab, "p.md:3", dir)).toThrow(message);
  });

  it("link each run's entry on the labs page", () => {
    const html = labSourceHtml(source(["near", "far"]), "en");
    expect(html).toContain(`<a href="${href(routes.courseLab("near"))}"><code>near</code></a>`);
    expect(html).toContain(`<a href="${href(routes.courseLab("far"))}"><code>far</code></a>`);
  });
});

describe("a chart's source in the directive", () => {
  const chart = (fields: Record<string, unknown>) => () => validate(chartSchema, { x: "repeat", y: "value", title: "T", caption: "C.", ...fields }, "p.md:3", "chart");

  it.each([
    [{}, "p.md:3: chart.data: give either data (a file beside the page) or lab (what lab runs printed), exactly one"],
    [{ data: "d.csv", lab: source(["a"]) }, "p.md:3: chart.data: give either data"],
    [{ lab: source(["a"], { line: "round trips, [\\d.]+ us" }) }, "p.md:3: chart.lab.line: must have exactly one capture group"],
    [{ lab: source(["a"], { line: "(\\d+) of (\\d+)" }) }, "p.md:3: chart.lab.line: must have exactly one capture group"],
    [{ lab: source(["a", "a"]) }, "p.md:3: chart.lab.runs: names a run twice"],
    [{ lab: source([]) }, "p.md:3: chart.lab.runs: needs at least one lab run"],
  ])("refuses %j", (fields, message) => {
    expect(chart(fields)).toThrow(message);
  });

  it("takes a data file or lab runs", () => {
    expect(chart({ data: "d.csv" })).not.toThrow();
    expect(chart({ lab: source(["a"]) })).not.toThrow();
  });
});

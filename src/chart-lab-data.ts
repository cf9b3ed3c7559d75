// A chart's numbers read from what lab runs printed (the chart directive's `lab` source), so a chart
// of lab measurements shows only output a program really printed, and a new capture redraws it:
//
//   lab:
//     runs: [capstone-pingpong, capstone-pingpong-two-vms]
//     step: client
//     line: '^window 1: 200 round trips of 64 bytes, ([\d.]+) us each$'
//
// Each line of the step's stored output that `line` matches is a row: `run` (the run's id),
// `repeat` (1 for its first such line, 2 for the next…) and `value` (the capture group, as printed).
import type { DataTable } from "./charts.ts";
import { codeHtml, linkHtml } from "./html.ts";
import { tHtml } from "./i18n.ts";
import type { Lang } from "./languages.ts";
import { LABS_DIR } from "./lab/runs.ts";
import type { ChartSpec } from "./schemas.ts";
import { capturedRun } from "./transcripts.ts";
import { href, routes } from "./urls.ts";
import { contentError } from "./validation.ts";

export type LabSource = NonNullable<ChartSpec["lab"]>;

/** The columns a chart of lab rows may name: x, y and group come from these. */
const LAB_COLUMNS = ["run", "repeat", "value"];

/** The rows the runs' transcripts give; `at` is the directive's `file:line`. */
export function labTable(source: LabSource, at: string, dir = LABS_DIR): DataTable {
  const fail = (field: string, reason: string) => contentError([`${at}: chart.lab.${field}: ${reason}`]);
  const pattern = new RegExp(source.line);
  const rows: DataTable["rows"] = [];
  const rowNames: string[] = [];
  source.runs.forEach((run, i) => {
    const { manifest, captured } = capturedRun(run, dir, (reason) => fail(`runs[${i}]`, reason));
    const step = captured.find((s) => s.name === source.step);
    if (!step) throw fail("step", `run '${run}' has no step '${source.step}' (it has ${captured.map((s) => s.name).join(", ")})`);
    let repeat = 0;
    for (const line of step.output.split("\n")) {
      const value = pattern.exec(line)?.[1];
      if (value === undefined) continue;
      if (value.trim() === "" || !Number.isFinite(Number(value))) {
        throw fail("line", `captures '${value}', not a number, from ${manifest.transcriptFile} (step ${step.name}): ${line}`);
      }
      rows.push({ line: rows.length + 1, cells: [run, String(++repeat), value] });
      rowNames.push(`chart.lab.runs[${i}] ('${run}'), matched line ${repeat}`);
    }
    if (repeat === 0) throw fail("line", `matches no line that step ${step.name} printed in ${manifest.transcriptFile}`);
  });
  // A mistake found in these rows is the chart's (say x without group), so messages name the directive.
  return { file: at, columns: LAB_COLUMNS, rows, names: { table: "the rows read from the lab runs", row: (line) => rowNames[line - 1]! } };
}

/** Under the chart's data table: the runs the numbers come from, each linked to its entry on the labs page. */
export function labSourceHtml(source: LabSource, lang: Lang): string {
  const links = source.runs.map((run) => linkHtml(href(routes.courseLab(run)), codeHtml(run)));
  const runs = new Intl.ListFormat(lang, { type: "conjunction" }).format(links);
  return `<p>${tHtml(lang, "chart.labRuns", { runs }, { count: links.length })}</p>`;
}

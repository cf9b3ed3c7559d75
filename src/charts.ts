// Charts (the `chart` directive): a line or bar chart drawn at build time from a CSV or JSON file
// beside the page. The drawing is an inline SVG coloured only through currentColor and the figure
// classes of the site's CSS, so it follows the light and dark themes; the same numbers are also
// given as a table, and the text alternative can be derived from them.
import { labSourceHtml, labTable } from "./chart-lab-data.ts";
import { readText } from "./content-safety.ts";
import path from "node:path";
import type { Directive } from "./directives.ts";
import { figureHtml } from "./figures.ts";
import { escapeHtml } from "./html.ts";
import { t } from "./i18n.ts";
import { DEFAULT_LANGUAGE, type Lang } from "./languages.ts";
import { pageFile } from "./page-files.ts";
import { chartSchema, type ChartSpec } from "./schemas.ts";
import { contentError } from "./validation.ts";

/** A data file as read (column names, and rows of text each with the file line it came from), or lab rows. */
export interface DataTable {
  file: string;
  columns: string[];
  rows: { line: number; cells: string[] }[];
  /**
   * For rows that are not a data file's (a chart's lab source, whose `file` is then the directive's
   * `file:line`): how messages name the table and a row, in place of the file's name and line.
   */
  names?: { table: string; row: (line: number) => string };
}

export interface Point {
  x: string;
  y: number;
  /** The value as written in the data file, for the table and the text alternative. */
  text: string;
}

export interface Series {
  key: string;
  label: string;
  points: Point[];
}

const fail = (file: string, field: string, reason: string) => contentError([`${file}: ${field}: ${reason}`]);

/** Splits CSV (RFC 4180: quoted fields may hold commas, quotes and newlines) into trimmed fields. */
function csvRecords(source: string, file: string): { line: number; cells: string[] }[] {
  const records: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let field = "";
  let inQuotes = false;
  let wasQuoted = false;
  let line = 1;
  let start = 1;
  const endField = () => {
    cells.push(wasQuoted ? field : field.trim());
    field = "";
    wasQuoted = false;
  };
  const endRecord = () => {
    endField();
    records.push({ line: start, cells });
    cells = [];
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (inQuotes) {
      if (c !== '"') {
        if (c === "\n") line++;
        field += c;
      } else if (source[i + 1] === '"') field += source[++i];
      else inQuotes = false;
    } else if (c === '"' && !wasQuoted && field.trim() === "") {
      inQuotes = wasQuoted = true;
      field = "";
    } else if (c === ",") endField();
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && source[i + 1] === "\n") i++;
      endRecord();
      start = ++line;
    } else if (!(wasQuoted && /\s/.test(c))) field += c;
  }
  if (inQuotes) throw fail(file, `line ${start}`, "a quoted field is not closed");
  if (field !== "" || wasQuoted || cells.length > 0) endRecord();
  return records;
}

export function parseCsv(source: string, file: string): DataTable {
  const records = csvRecords(source, file);
  const [header, ...rows] = records;
  if (!header || header.cells.every((c) => c === "")) throw fail(file, "(file)", "is empty; the first line must name the columns");
  const columns = header.cells;
  columns.forEach((name, i) => {
    if (!name) throw fail(file, `line ${header.line}`, `column ${i + 1} has no name`);
    if (columns.indexOf(name) !== i) throw fail(file, `line ${header.line}`, `column '${name}' is named twice`);
  });
  for (const row of rows) {
    if (row.cells.length === 1 && row.cells[0] === "") throw fail(file, `line ${row.line}`, "is empty");
    if (row.cells.length !== columns.length) {
      throw fail(file, `line ${row.line}`, `has ${row.cells.length} fields, the header has ${columns.length}`);
    }
  }
  if (rows.length === 0) throw fail(file, "(file)", "has a header but no rows of data");
  return { file, columns, rows };
}

/** JSON data: an array of flat records, all with the same keys (the first record's are the columns). */
export function parseJson(source: string, file: string): DataTable {
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    throw fail(file, "(syntax)", (error as Error).message);
  }
  if (!Array.isArray(value)) throw fail(file, "(file)", "must be an array of records");
  if (value.length === 0) throw fail(file, "(file)", "has no records");
  const columns = Object.keys((value[0] ?? {}) as object);
  const rows = value.map((record: unknown, i) => {
    if (typeof record !== "object" || record === null || Array.isArray(record)) throw fail(file, `[${i}]`, "must be a record of column: value");
    const keys = Object.keys(record);
    if (keys.length !== columns.length || keys.some((k) => !columns.includes(k))) {
      throw fail(file, `[${i}]`, `has the keys ${keys.join(", ") || "(none)"}; the first record has ${columns.join(", ")}`);
    }
    const cells = columns.map((column) => {
      const cell = (record as Record<string, unknown>)[column];
      if (typeof cell !== "number" && typeof cell !== "string") throw fail(file, `[${i}].${column}`, "must be a number or a string");
      return String(cell);
    });
    return { line: i, cells };
  });
  if (columns.length === 0) throw fail(file, "[0]", "has no keys");
  return { file, columns, rows };
}

/** Reads a data file (a project-relative path, which is also how messages name it). */
function readDataFile(file: string): DataTable {
  const source = readText(file);
  return path.extname(file) === ".json" ? parseJson(source, file) : parseCsv(source, file);
}

/** Where a row is, as an author finds it: a CSV line, a JSON record index, or a lab run's matched line. */
const rowName = (table: DataTable, line: number) => table.names?.row(line) ?? (table.file.endsWith(".json") ? `[${line}]` : `line ${line}`);

function numberAt(table: DataTable, row: DataTable["rows"][number], column: string): number {
  const text = row.cells[table.columns.indexOf(column)]!;
  const value = Number(text);
  if (text === "" || !Number.isFinite(value)) throw fail(table.file, `${rowName(table, row.line)}, ${column}`, `must be a number (found "${text}")`);
  return value;
}

/**
 * The series to draw. Wide data has one series per y column; long data (`group`) has one y column
 * and a series per distinct value of the group column. `legend` names and orders the series; when
 * given it must name each of them once.
 */
export function chartSeries(spec: ChartSpec, table: DataTable, where: string): Series[] {
  const known = table.columns.join(", ");
  for (const [field, column] of [["x", spec.x], ["group", spec.group], ...spec.y.map((y, i) => [spec.y.length > 1 ? `y[${i}]` : "y", y])] as const) {
    if (column !== undefined && !table.columns.includes(column)) {
      throw fail(where, `chart.${field}`, `no column '${column}' in ${table.names?.table ?? path.basename(table.file)} (its columns: ${known})`);
    }
  }
  const xAt = (row: DataTable["rows"][number]) => {
    if (spec.type === "line") numberAt(table, row, spec.x);
    return row.cells[table.columns.indexOf(spec.x)]!;
  };
  const found = new Map<string, Point[]>();
  const add = (key: string, row: DataTable["rows"][number], column: string) => {
    const points = found.get(key) ?? [];
    const x = xAt(row);
    if (points.some((p) => p.x === x)) throw fail(table.file, `${rowName(table, row.line)}, ${spec.x}`, `a second value for ${key} at ${spec.x} = ${x}`);
    points.push({ x, y: numberAt(table, row, column), text: row.cells[table.columns.indexOf(column)]! });
    found.set(key, points);
  };
  for (const row of table.rows) {
    if (spec.group) add(row.cells[table.columns.indexOf(spec.group)]!, row, spec.y[0]!);
    else for (const column of spec.y) add(column, row, column);
  }
  let keys = [...found.keys()];
  if (spec.legend) keys = checkLabels(where, "chart.legend", spec.legend, keys, ["series", "series"]);
  if (keys.length > STYLES.length) throw fail(where, "chart", `draws ${keys.length} series; at most ${STYLES.length} stay legible`);
  const categories = spec.categories;
  if (categories) checkLabels(where, "chart.categories", categories, [...new Set([...found.values()].flat().map((p) => p.x))], ["category", "categories"]);
  return keys.map((key) => {
    const points = found.get(key)!;
    if (spec.type === "line") points.sort((a, b) => Number(a.x) - Number(b.x));
    return { key, label: spec.legend?.[key] ?? key, points: categories ? points.map((p) => ({ ...p, x: categories[p.x]! })) : points };
  });
}

/**
 * A map from what the data says to what the chart shows (legend: series; categories: bar x values)
 * names each of `keys` once and nothing else. Returns the keys in the map's order.
 */
function checkLabels(where: string, field: string, labels: Record<string, string>, keys: string[], [one, many]: [string, string]): string[] {
  const named = Object.keys(labels);
  const quoted = (list: string[]) => list.map((k) => `'${k}'`).join(", ");
  const unknown = named.filter((k) => !keys.includes(k));
  const missing = keys.filter((k) => !named.includes(k));
  if (unknown.length) throw fail(where, field, `no ${unknown.length > 1 ? many : one} ${quoted(unknown)} in the data (${many}: ${keys.join(", ")})`);
  if (missing.length) throw fail(where, field, `names no label for ${quoted(missing)}`);
  return named;
}

// Each series differs in more than colour: line dash and marker shape (lines), fill (bars).
const STYLES = [
  { cls: "accent", dash: "", marker: "circle", bar: "solid" },
  { cls: "", dash: "7 4", marker: "square", bar: "outline" },
  { cls: "muted", dash: "", marker: "triangle", bar: "solid" },
  { cls: "", dash: "2 3", marker: "diamond", bar: "solid" },
  { cls: "muted", dash: "9 3 2 3", marker: "cross", bar: "outline" },
  { cls: "accent", dash: "7 4", marker: "square", bar: "outline" },
] as const;

/** Rounds away binary noise (0.30000000000000004) from computed positions and ticks. */
const round = (n: number, digits = 2) => Number(n.toFixed(digits));

/** Evenly spaced round ticks from `low` (or the nearest round number below it) to past `high`. */
export function niceTicks(low: number, high: number, count = 5): number[] {
  const range = high - low || Math.abs(high) || 1;
  const raw = range / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((f) => f * magnitude >= raw) ?? 10) * magnitude;
  const first = Math.floor(low / step) * step;
  const ticks: number[] = [];
  for (let t = first; t < high + step * 0.999; t += step) ticks.push(round(t, 10));
  return ticks.length > 1 ? ticks : [first, first + step];
}

/** A tick label: grouped thousands, and as many decimals as the step between ticks has. */
function formatTick(value: number, step: number): string {
  const digits = (step.toFixed(10).replace(/\.?0+$/, "").split(".")[1] ?? "").length;
  return value.toLocaleString("en-US", { maximumFractionDigits: digits });
}

const W = 720;
const PLOT = { left: 76, right: 24, top: 48, height: 300 };
const LEGEND_ROW = 24;

function marker(shape: string, x: number, y: number): string {
  const r = 4;
  switch (shape) {
    case "circle":
      return `<circle cx="${x}" cy="${y}" r="${r}" fill="currentColor"/>`;
    case "square":
      return `<rect x="${round(x - r)}" y="${round(y - r)}" width="${2 * r}" height="${2 * r}" fill="currentColor"/>`;
    case "triangle":
      return `<path d="M${x} ${round(y - r - 1)}L${round(x + r + 1)} ${round(y + r)}L${round(x - r - 1)} ${round(y + r)}Z" fill="currentColor"/>`;
    case "diamond":
      return `<path d="M${x} ${round(y - r - 1)}L${round(x + r + 1)} ${y}L${x} ${round(y + r + 1)}L${round(x - r - 1)} ${y}Z" fill="currentColor"/>`;
    default:
      return `<path d="M${round(x - r)} ${round(y - r)}L${round(x + r)} ${round(y + r)}M${round(x - r)} ${round(y + r)}L${round(x + r)} ${round(y - r)}" stroke-width="2"/>`;
  }
}

/** Han, kana, Hangul and full-width punctuation take about two Latin characters' width. */
const FULL_WIDTH = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;
/** Width of text in Latin characters. */
export const textColumns = (s: string): number => [...s].reduce((n, c) => n + (FULL_WIDTH.test(c) ? 2 : 1), 0);

/** Approximate width of a label at 14 units, enough to lay out a legend. */
const textWidth = (s: string) => textColumns(s) * 7.6;

/** Splits text into at most `max` lines of about `chars` Latin characters' width, at spaces. */
export function wrapText(text: string, chars: number, max = 2): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/)) {
    const last = lines.at(-1);
    if (last !== undefined && textColumns(`${last} ${word}`) <= chars) lines[lines.length - 1] = `${last} ${word}`;
    else if (lines.length < max) lines.push(word);
    else lines[lines.length - 1] = `${last} ${word}`;
  }
  return lines;
}

/** Text on several lines, as <tspan>s under one <text>. */
const multiline = (lines: string[], x: number, lineHeight: number) =>
  lines.map((line, i) => `<tspan x="${x}"${i ? ` dy="${lineHeight}"` : ""}>${escapeHtml(line)}</tspan>`).join("");

/** Lays legend entries out in rows that fit the drawing; returns each entry's position. */
function legendLayout(labels: string[], top: number): { x: number; y: number }[] {
  const positions: { x: number; y: number }[] = [];
  let x = PLOT.left;
  let y = top;
  for (const label of labels) {
    const width = 44 + textWidth(label) + 24;
    if (x + width > W - PLOT.right && x > PLOT.left) {
      x = PLOT.left;
      y += LEGEND_ROW;
    }
    positions.push({ x, y });
    x += width;
  }
  return positions;
}

/** The chart as an SVG drawing; `alt` becomes its accessible name. */
export function chartSvg(spec: ChartSpec, series: Series[], alt: string): string {
  // A long title takes a second line, and the plot moves down to make room.
  const titleLines = wrapText(spec.title, 68);
  const top = PLOT.top + (titleLines.length - 1) * 20;
  const right = W - PLOT.right;
  const bottom = top + PLOT.height;
  const values = series.flatMap((s) => s.points.map((p) => p.y));
  const yTicks = niceTicks(Math.min(0, ...values), Math.max(...values));
  const [yLow, yHigh] = [yTicks[0]!, yTicks.at(-1)!];
  const yStep = yTicks[1]! - yTicks[0]!;
  const yPos = (v: number) => round(bottom - ((v - yLow) / (yHigh - yLow)) * PLOT.height);
  const parts: string[] = [];
  parts.push(`<text x="${PLOT.left}" y="24" font-size="16" font-weight="bold" fill="currentColor">${multiline(titleLines, PLOT.left, 20)}</text>`);
  // Grid and y axis.
  parts.push(`<g class="muted" stroke="currentColor" stroke-width="0.6">`);
  for (const t of yTicks) parts.push(`<line x1="${PLOT.left}" y1="${yPos(t)}" x2="${right}" y2="${yPos(t)}"${t === yLow ? "" : ' stroke-dasharray="2 4"'}/>`);
  parts.push(`</g><g class="muted" font-size="13" text-anchor="end" fill="currentColor">`);
  for (const t of yTicks) parts.push(`<text x="${PLOT.left - 8}" y="${yPos(t) + 4}">${formatTick(t, yStep)}</text>`);
  parts.push("</g>");
  const yLabel = spec["y-label"] ?? spec.y.join(", ");
  parts.push(`<text transform="translate(18 ${top + PLOT.height / 2}) rotate(-90)" text-anchor="middle" font-size="14" fill="currentColor">${escapeHtml(yLabel)}</text>`);
  // X axis and the data. Bar categories may take up to three lines; the axis label then sits lower.
  const categories = [...new Set(series.flatMap((s) => s.points.map((p) => p.x)))];
  const band = (right - PLOT.left) / categories.length;
  const categoryLabels = categories.map((c) => wrapText(c, Math.max(6, Math.floor(band / 7.6)), 3));
  const axisGap = spec.type === "bar" ? (Math.max(...categoryLabels.map((l) => l.length)) - 1) * 16 : 0;
  const xLabel = spec["x-label"] ?? spec.x;
  parts.push(`<text x="${(PLOT.left + right) / 2}" y="${bottom + 46 + axisGap}" text-anchor="middle" font-size="14" fill="currentColor">${escapeHtml(xLabel)}</text>`);
  if (spec.type === "line") {
    const xs = series.flatMap((s) => s.points.map((p) => Number(p.x)));
    const xTicks = niceTicks(Math.min(0, ...xs), Math.max(...xs), 6);
    const [xLow, xHigh] = [xTicks[0]!, xTicks.at(-1)!];
    const xPos = (v: number) => round(PLOT.left + ((v - xLow) / (xHigh - xLow)) * (right - PLOT.left));
    parts.push(`<g class="muted" font-size="13" text-anchor="middle" fill="currentColor">`);
    for (const t of xTicks) parts.push(`<text x="${xPos(t)}" y="${bottom + 20}">${formatTick(t, xTicks[1]! - xTicks[0]!)}</text>`);
    parts.push("</g>");
    series.forEach((s, i) => {
      const style = STYLES[i]!;
      const points = s.points.map((p) => [xPos(Number(p.x)), yPos(p.y)] as const);
      const dash = style.dash ? ` stroke-dasharray="${style.dash}"` : "";
      parts.push(`<g${style.cls ? ` class="${style.cls}"` : ""} stroke="currentColor" fill="none">`);
      parts.push(`<polyline points="${points.map(([x, y]) => `${x},${y}`).join(" ")}" stroke-width="2"${dash}/>`);
      for (const [x, y] of points) parts.push(marker(style.marker, x, y));
      parts.push("</g>");
    });
  } else {
    const barWidth = (band * 0.7) / series.length;
    parts.push(`<g font-size="13" text-anchor="middle" fill="currentColor">`);
    categoryLabels.forEach((lines, i) => {
      const x = round(PLOT.left + band * (i + 0.5));
      parts.push(`<text x="${x}" y="${bottom + 20}">${multiline(lines, x, 16)}</text>`);
    });
    parts.push("</g>");
    series.forEach((s, i) => {
      const style = STYLES[i]!;
      parts.push(`<g${style.cls ? ` class="${style.cls}"` : ""} stroke="currentColor" fill="${style.bar === "solid" ? "currentColor" : "none"}">`);
      for (const p of s.points) {
        const x = round(PLOT.left + band * categories.indexOf(p.x) + band * 0.15 + barWidth * i);
        const barTop = Math.min(yPos(p.y), yPos(0));
        parts.push(`<rect x="${x}" y="${barTop}" width="${round(barWidth - 2)}" height="${round(Math.abs(yPos(0) - yPos(p.y)))}" stroke-width="1.5"/>`);
        parts.push(`<text x="${round(x + barWidth / 2 - 1)}" y="${barTop - 6}" font-size="13" text-anchor="middle" fill="currentColor" stroke="none">${escapeHtml(p.text)}</text>`);
      }
      parts.push("</g>");
    });
  }
  // Legend, when there is more than one series.
  let height = bottom + 62 + axisGap;
  if (series.length > 1) {
    const positions = legendLayout(series.map((s) => s.label), bottom + 76 + axisGap);
    series.forEach((s, i) => {
      const style = STYLES[i]!;
      const { x, y } = positions[i]!;
      const dash = style.dash ? ` stroke-dasharray="${style.dash}"` : "";
      parts.push(`<g${style.cls ? ` class="${style.cls}"` : ""} stroke="currentColor" fill="none">`);
      if (spec.type === "line") {
        parts.push(`<line x1="${x}" y1="${y - 5}" x2="${x + 36}" y2="${y - 5}" stroke-width="2"${dash}/>`, marker(style.marker, x + 18, y - 5));
      } else {
        parts.push(`<rect x="${x + 10}" y="${y - 14}" width="18" height="14" stroke-width="1.5"${style.bar === "solid" ? ' fill="currentColor"' : ""}/>`);
      }
      parts.push(`</g><text x="${x + 44}" y="${y}" font-size="14" fill="currentColor">${escapeHtml(s.label)}</text>`);
    });
    height = positions.at(-1)!.y + 14;
  }
  const open = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${height}" font-family="system-ui, sans-serif" role="img" aria-label="${escapeHtml(alt)}" focusable="false">`;
  return `${open}\n${parts.join("\n")}\n</svg>`;
}

/** Joins a list with the language's own separator, as nested "{first}…{rest}" strings. */
const joined = (lang: Lang, key: string, items: string[]): string => items.reduce((first, rest) => t(lang, key, { first, rest }));

/** A text alternative from the data, in the page's language, for charts whose author gives none. */
export function describeChart(spec: ChartSpec, series: Series[], lang: Lang = DEFAULT_LANGUAGE): string {
  const x = spec["x-label"] ?? spec.x;
  const y = spec["y-label"] ?? spec.y.join(", ");
  const described = series.map((s) => {
    if (spec.type === "bar") return t(lang, "chart.series", { label: s.label, values: joined(lang, "chart.then", s.points.map((p) => t(lang, "chart.category", { x: p.x, value: p.text }))) });
    const first = s.points[0]!;
    const last = s.points.at(-1)!;
    const peak = s.points.reduce((a, b) => (b.y > a.y ? b : a));
    const point = (p: typeof first) => t(lang, "chart.point", { x: p.x, value: p.text });
    const values = [point(first), ...(peak !== first && peak !== last ? [t(lang, "chart.highest", { x: peak.x, value: peak.text })] : []), point(last)];
    return t(lang, "chart.series", { label: s.label, values: joined(lang, "chart.then", values) });
  });
  return t(lang, "chart.alt", { kind: t(lang, `chart.${spec.type}`), title: spec.title, x, y, series: joined(lang, "chart.and", described) });
}

/** The class of a chart's data table (its disclosure): the drawing's numbers, which search leaves out. */
export const CHART_DATA_CLASS = "chart-data";

/** The numbers behind the drawing, as a table in a closed disclosure; `source` (HTML) may follow it, saying where they come from. */
export function chartTable(spec: ChartSpec, series: Series[], lang: Lang = DEFAULT_LANGUAGE, source = ""): string {
  const xs = [...new Set(series.flatMap((s) => s.points.map((p) => p.x)))];
  if (spec.type === "line") xs.sort((a, b) => Number(a) - Number(b));
  const head = [spec["x-label"] ?? spec.x, ...series.map((s) => s.label)].map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join("");
  const body = xs
    .map((x) => {
      const cells = series.map((s) => `<td>${escapeHtml(s.points.find((p) => p.x === x)?.text ?? "")}</td>`).join("");
      return `<tr><th scope="row">${escapeHtml(x)}</th>${cells}</tr>`;
    })
    .join("\n");
  const summary = escapeHtml(t(lang, "chart.data", { title: spec.title }));
  const name = escapeHtml(t(lang, "chart.dataName", { title: spec.title }));
  return `<details class="${CHART_DATA_CLASS}"><summary>${summary}</summary>\n<div class="table-scroll" tabindex="0" role="region" aria-label="${name}"><table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table></div>${source}</details>`;
}

/** The chart's rows: from its data file beside the page, or from what lab runs printed. */
function chartData(spec: ChartSpec, file: string, where: string): DataTable {
  if (spec.lab) return labTable(spec.lab, where);
  return readDataFile(pageFile(file, spec.data!, (reason) => fail(where, "chart.data", reason))); // the schema requires one of the two
}

export const chartDirective: Directive<typeof chartSchema> = {
  schema: chartSchema,
  render(spec, { file, line, lang }) {
    const where = `${file}:${line}`;
    const series = chartSeries(spec, chartData(spec, file, where), where);
    const alt = spec.alt ?? describeChart(spec, series, lang);
    const name = spec.lab ? spec.lab.runs[0]! : path.basename(spec.data!, path.extname(spec.data!));
    // The table follows the figure: a figcaption must be a figure's first or last child.
    return `${figureHtml(chartSvg(spec, series, alt), name, spec.caption)}${chartTable(spec, series, lang, spec.lab && labSourceHtml(spec.lab, lang))}\n`;
  },
};

import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { chartSeries, chartSvg, chartTable, describeChart, niceTicks, parseCsv, parseJson, textColumns, wrapText, type DataTable } from "../../src/charts.ts";
import { chartSchema, type ChartSpec } from "../../src/schemas.ts";

const spec = (fields: Record<string, unknown>): ChartSpec => chartSchema.parse({ data: "d.csv", title: "T", caption: "C.", ...fields });
const svgDom = (svg: string) => new JSDOM(svg, { contentType: "image/svg+xml" }).window.document.documentElement;

const WIDE = "threads,read,write\n1,2.5,2\n8, 20 ,16\n16,35,30\n";
const LONG = "program,threads,iops\nshared,1,1.9\nshared,8,0.6\nper-thread,1,1.9\nper-thread,8,14.8\n";

describe("chart data files", () => {
  it("reads CSV: a header, trimmed fields, quoted fields with commas, quotes and newlines, CRLF", () => {
    const table = parseCsv('name,value\r\n"a, ""quoted""\nname", 3 \r\nplain,4\r\n', "d.csv");
    expect(table.columns).toEqual(["name", "value"]);
    expect(table.rows.map((r) => r.cells)).toEqual([
      ['a, "quoted"\nname', "3"],
      ["plain", "4"],
    ]);
    // Line numbers are the file's, so a message points at the right line.
    expect(table.rows.map((r) => r.line)).toEqual([2, 4]);
  });

  it.each([
    ["", "d.csv: (file): is empty"],
    ["a,b\n", "d.csv: (file): has a header but no rows of data"],
    ["a,b\n1,2\n3\n", "d.csv: line 3: has 1 fields, the header has 2"],
    ["a,b\n1,2\n\n3,4\n", "d.csv: line 3: is empty"],
    ["a,a\n1,2\n", "d.csv: line 1: column 'a' is named twice"],
    ['a,b\n"1,2\n', "d.csv: line 2: a quoted field is not closed"],
  ])("refuses the CSV %j", (source, message) => {
    expect(() => parseCsv(source, "d.csv")).toThrow(message);
  });

  it("reads JSON records as the same kind of table", () => {
    const table = parseJson('[{"n": 1, "t": 2.5}, {"n": 2, "t": "3"}]', "d.json");
    expect(table.columns).toEqual(["n", "t"]);
    expect(table.rows.map((r) => r.cells)).toEqual([
      ["1", "2.5"],
      ["2", "3"],
    ]);
  });

  it.each([
    ["{}", "d.json: (file): must be an array of records"],
    ["[]", "d.json: (file): has no records"],
    ['[{"a": 1}, {"b": 2}]', "d.json: [1]: has the keys b; the first record has a"],
    ['[{"a": [1]}]', "d.json: [0].a: must be a number or a string"],
    ["[1,", "d.json: (syntax):"],
  ])("refuses the JSON %j", (source, message) => {
    expect(() => parseJson(source, "d.json")).toThrow(message);
  });
});

describe("chart series", () => {
  const wide = parseCsv(WIDE, "posts/d.csv");
  const long = parseCsv(LONG, "posts/d.csv");

  it("takes one series per y column from wide data", () => {
    const series = chartSeries(spec({ x: "threads", y: ["read", "write"] }), wide, "posts/p.md:3");
    expect(series.map((s) => s.label)).toEqual(["read", "write"]);
    expect(series[0]!.points).toEqual([
      { x: "1", y: 2.5, text: "2.5" },
      { x: "8", y: 20, text: "20" },
      { x: "16", y: 35, text: "35" },
    ]);
  });

  it("splits long data by its group column, in the order and with the names the legend gives", () => {
    const series = chartSeries(spec({ x: "threads", y: "iops", group: "program", legend: { "per-thread": "Per thread", shared: "Shared" } }), long, "posts/p.md:3");
    expect(series.map((s) => [s.key, s.label, s.points.length])).toEqual([
      ["per-thread", "Per thread", 2],
      ["shared", "Shared", 2],
    ]);
  });

  it("draws a line in x order whatever the file's row order", () => {
    const table = parseCsv("x,y\n8,1\n1,2\n4,3\n", "d.csv");
    expect(chartSeries(spec({ x: "x", y: "y" }), table, "p.md").at(0)!.points.map((p) => p.x)).toEqual(["1", "4", "8"]);
  });

  it("lets bar charts name their categories in words", () => {
    const table = parseCsv("policy,rejected\nBaseline,4183\nEarly rejection,3771\n", "d.csv");
    const series = chartSeries(spec({ type: "bar", x: "policy", y: "rejected" }), table, "p.md");
    expect(series[0]!.points.map((p) => p.x)).toEqual(["Baseline", "Early rejection"]);
    // A translation shows the same file's categories in its own words.
    const translated = chartSeries(spec({ type: "bar", x: "policy", y: "rejected", categories: { "Early rejection": "提前拒绝", Baseline: "基线" } }), table, "p.md");
    expect(translated[0]!.points.map((p) => [p.x, p.text])).toEqual([
      ["基线", "4183"],
      ["提前拒绝", "3771"],
    ]);
  });

  it.each([
    [{ x: "threads", y: "iops" }, WIDE, "posts/p.md:3: chart.y: no column 'iops' in d.csv (its columns: threads, read, write)"],
    [{ x: "thread", y: "read" }, WIDE, "posts/p.md:3: chart.x: no column 'thread'"],
    [{ x: "threads", y: "read" }, "threads,read\n1,2\n2,fast\n", "posts/d.csv: line 3, read: must be a number (found \"fast\")"],
    [{ x: "threads", y: "read" }, "threads,read\n1,2\nmany,3\n", "posts/d.csv: line 3, threads: must be a number (found \"many\")"],
    [{ x: "threads", y: "read" }, "threads,read\n1,2\n1,3\n", "posts/d.csv: line 3, threads: a second value for read at threads = 1"],
    [{ x: "threads", y: "iops", group: "program", legend: { shared: "S" } }, LONG, "posts/p.md:3: chart.legend: names no label for 'per-thread'"],
    [{ x: "threads", y: "iops", group: "program", legend: { shared: "S", "per-thread": "P", other: "O" } }, LONG, "posts/p.md:3: chart.legend: no series 'other' in the data"],
    [{ x: "x", y: ["a", "b", "c", "d", "e", "f", "g"] }, "x,a,b,c,d,e,f,g\n1,1,1,1,1,1,1,1\n", "posts/p.md:3: chart: draws 7 series; at most 6 stay legible"],
    [{ type: "bar", x: "threads", y: "read", categories: { "1": "one" } }, WIDE, "posts/p.md:3: chart.categories: names no label for '8', '16'"],
    [{ type: "bar", x: "threads", y: "read", categories: { "1": "a", "8": "b", "16": "c", "2": "d" } }, WIDE, "posts/p.md:3: chart.categories: no category '2' in the data (categories: 1, 8, 16)"],
  ])("refuses %j", (fields, source, message) => {
    expect(() => chartSeries(spec(fields), parseCsv(source, "posts/d.csv"), "posts/p.md:3")).toThrow(message);
  });

  it("labels categories of bar charts only", () => {
    const result = chartSchema.safeParse({ data: "d.csv", title: "T", caption: "C.", x: "a", y: "b", categories: { "1": "one" } });
    expect(result.error?.issues.map((i) => [i.path, i.message])).toEqual([[["categories"], "labels the x values of a bar chart (a line chart's x is a number)"]]);
  });

  it("takes one y column with group", () => {
    const result = chartSchema.safeParse({ data: "d.csv", title: "T", caption: "C.", x: "a", y: ["b", "c"], group: "g" });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.path).toEqual(["group"]);
  });
});

describe("ticks", () => {
  it.each([
    [0, 111.2],
    [0, 3.4],
    [0, 32768],
    [-4, 9],
    [0, 0.07],
  ])("cover %d to %d in at most a few round steps", (low, high) => {
    const ticks = niceTicks(low, high);
    const step = ticks[1]! - ticks[0]!;
    expect(ticks[0]).toBeLessThanOrEqual(low);
    expect(ticks.at(-1)).toBeGreaterThanOrEqual(high);
    expect(ticks.length).toBeLessThanOrEqual(8);
    const mantissa = Number((step / 10 ** Math.floor(Math.log10(step))).toFixed(6));
    expect([1, 2, 2.5, 5]).toContain(mantissa);
  });
});

describe("the drawing", () => {
  const table: DataTable = parseCsv(WIDE, "d.csv");
  const lineSpec = spec({ x: "threads", y: ["read", "write"], "x-label": "Threads", "y-label": "Mops" });
  const series = chartSeries(lineSpec, table, "p.md");
  const svg = chartSvg(lineSpec, series, 'Reads & "writes"');
  const root = svgDom(svg);

  it("is a named image with a viewBox and no fixed size", () => {
    expect(root.tagName).toBe("svg");
    expect(root.getAttribute("role")).toBe("img");
    expect(root.getAttribute("aria-label")).toBe('Reads & "writes"');
    expect(root.getAttribute("viewBox")).toMatch(/^0 0 720 \d+$/);
    expect(root.hasAttribute("width")).toBe(false);
  });

  it("takes every colour from currentColor and the site's figure classes", () => {
    expect(svg).not.toMatch(/#[0-9a-f]{3,6}\b|rgb\(|hsl\(|<style|\sid=/i);
    const classes = new Set([...root.querySelectorAll("[class]")].flatMap((e) => e.getAttribute("class")!.split(" ")));
    // Both classes, and no other: the loop alone would pass a drawing with no class at all.
    expect([...classes].sort()).toEqual(["accent", "muted"]);
  });

  it("draws one line per series, a marker per point, inside the plot, higher values higher up", () => {
    const lines = [...root.querySelectorAll("polyline")];
    expect(lines).toHaveLength(2);
    const [left, right, top, bottom] = [76, 720 - 24, 48, 348];
    lines.forEach((line, i) => {
      const points = line.getAttribute("points")!.split(" ").map((p) => p.split(",").map(Number) as [number, number]);
      expect(points).toHaveLength(series[i]!.points.length);
      for (const [x, y] of points) {
        expect(x).toBeGreaterThanOrEqual(left);
        expect(x).toBeLessThanOrEqual(right);
        expect(y).toBeGreaterThanOrEqual(top);
        expect(y).toBeLessThanOrEqual(bottom);
      }
      const ys = series[i]!.points.map((p) => p.y);
      for (let k = 1; k < points.length; k++) expect(Math.sign(points[k - 1]![1] - points[k]![1])).toBe(Math.sign(ys[k]! - ys[k - 1]!));
      expect(line.parentElement!.querySelectorAll("circle, rect, path").length).toBe(points.length);
    });
  });

  it("tells series apart by more than colour, and names them in a legend", () => {
    const dashes = [...root.querySelectorAll("polyline")].map((l) => l.getAttribute("stroke-dasharray"));
    expect(new Set(dashes).size).toBe(2);
    const texts = [...root.querySelectorAll("text")].map((t) => t.textContent);
    expect(texts).toEqual(expect.arrayContaining(["T", "Threads", "Mops", "read", "write"]));
  });

  it("labels each bar with its value as written in the data", () => {
    const barSpec = spec({ type: "bar", x: "policy", y: "rejected" });
    const bars = chartSeries(barSpec, parseCsv("policy,rejected\nBaseline,4183\nEarly,3771\n", "d.csv"), "p.md");
    const dom = svgDom(chartSvg(barSpec, bars, "alt"));
    expect(dom.querySelectorAll("rect")).toHaveLength(2);
    const heights = [...dom.querySelectorAll("rect")].map((r) => Number(r.getAttribute("height")));
    expect(heights[0]).toBeGreaterThan(heights[1]!);
    expect([...dom.querySelectorAll("text")].map((t) => t.textContent)).toEqual(expect.arrayContaining(["Baseline", "Early", "4183", "3771"]));
  });

  it("wraps long titles and bar labels onto a second line instead of running past the edge", () => {
    const long = "A title long enough that it cannot possibly fit on one line of a chart of this width at all";
    const barSpec = spec({ type: "bar", x: "policy", y: "n", title: long });
    const table = parseCsv("policy,n\nEarly rejection based on a prediction of decoding load,1\nb,2\nc,3\nd,4\n", "d.csv");
    const dom = svgDom(chartSvg(barSpec, chartSeries(barSpec, table, "p.md"), "alt"));
    const lines = [...dom.querySelectorAll("text")].map((t) => [...t.querySelectorAll("tspan")].map((span) => span.textContent!)).filter((l) => l.length > 1);
    expect(lines.map((l) => l.join(" "))).toEqual([long, "Early rejection based on a prediction of decoding load"]);
    for (const line of lines.flat()) expect(line.length).toBeLessThanOrEqual(68);
  });

  it("measures Chinese as about twice as wide as Latin text when it wraps and lays out a legend", () => {
    expect(textColumns("RDMA 吞吐，")).toBe(11);
    // Nine Latin characters would share a line of ten; two Chinese words of four characters cannot.
    expect(wrapText("abcd efgh", 10)).toEqual(["abcd efgh"]);
    expect(wrapText("中文标题 更多文字", 10)).toEqual(["中文标题", "更多文字"]);
    const zhSpec = spec({ x: "threads", y: ["read", "write"], legend: { read: "每个线程独占一个队列对时的读吞吐（百万次）", write: "所有线程共用一个队列对时的写吞吐（百万次）" } });
    const zhRoot = svgDom(chartSvg(zhSpec, chartSeries(zhSpec, table, "p.md"), "alt"));
    // The two labels together are wider than the drawing: the second starts a row of its own.
    const rows = [...zhRoot.querySelectorAll("text")].filter((t) => /队列对/.test(t.textContent!)).map((t) => t.getAttribute("y"));
    expect(new Set(rows).size).toBe(2);
  });

  it("gives the numbers as a table, one row per x value, values as written", () => {
    const html = chartTable(lineSpec, series);
    const doc = new JSDOM(html).window.document;
    expect(doc.querySelector("details summary")!.textContent).toContain("T");
    expect([...doc.querySelectorAll("thead th")].map((th) => th.textContent)).toEqual(["Threads", "read", "write"]);
    expect([...doc.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent))).toEqual([
      ["1", "2.5", "2"],
      ["8", "20", "16"],
      ["16", "35", "30"],
    ]);
  });

  it("derives a text alternative that names every series and its ends", () => {
    const alt = describeChart(lineSpec, series);
    expect(alt).toMatch(/^Line chart: T\. Mops by Threads\./);
    expect(alt).toContain("read: 2.5 at 1, 35 at 16");
    expect(alt).toContain("write: 2 at 1, 30 at 16");
  });

  it("in Chinese, keeps axis labels that start or end in Latin letters apart from Han characters", () => {
    const zhSpec = spec({ x: "threads", y: ["read", "write"], "x-label": "prefill 调度策略", "y-label": "平均 TTFT" });
    const alt = describeChart(zhSpec, chartSeries(zhSpec, table, "p.md"), "zh");
    expect(alt).toContain("prefill 调度策略");
    expect(alt).toContain("平均 TTFT");
    expect(alt).not.toMatch(/\p{Script=Han}[A-Za-z]|[A-Za-z]\p{Script=Han}/u);
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { inPageLinks, printedId, printScope } from "../../src/print.ts";
import { setPathPrefix } from "../../src/urls.ts";

const lessons = [
  { number: "1.2", url: "/rdma101/getting-started/landscape/" },
  { number: "2.10", url: "/rdma101/programming-model/rdma-read/" },
];

afterEach(() => setPathPrefix("/"));

describe("the print page", () => {
  it("gives each lesson a section id that its own ids start with", () => {
    expect(lessons.map(printedId)).toEqual(["lesson-1-2", "lesson-2-10"]);
    expect(printScope(lessons[1]!)).toEqual({ id: "lesson-2-10-", label: "2.10 ", levels: 2, open: true });
  });

  it("turns links to lessons and their headings into links within the page, under the path prefix too", () => {
    setPathPrefix("/repo/");
    const html = '<a href="/repo/rdma101/programming-model/rdma-read/#fences">a</a> <a href="/repo/rdma101/getting-started/landscape/">b</a> <a href="/repo/rdma101/glossary/#qp">c</a> <a href="#x">d</a> <svg data-href="/repo/rdma101/getting-started/landscape/"></svg>';
    expect(inPageLinks(html, lessons)).toBe(
      '<a href="#lesson-2-10-fences">a</a> <a href="#lesson-1-2">b</a> <a href="/repo/rdma101/glossary/#qp">c</a> <a href="#x">d</a> <svg data-href="/repo/rdma101/getting-started/landscape/"></svg>',
    );
  });
});

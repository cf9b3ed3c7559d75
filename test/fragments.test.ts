// Every ```c block in an RDMA 101 lesson is checked as what it is (src/fragments.ts): declarations
// against the library's headers, an excerpt against the programs the tests compile, a marked
// fragment by compiling it. The second half hands the check wrong blocks, so it is known to catch them.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cFunction, EXAMPLES_DIR, isProgram } from "../src/examples.ts";
import { checkCBlock, lessonCBlocks } from "../src/fragments.ts";

const blocks = lessonCBlocks();

describe("C code written in RDMA 101 lessons", () => {
  it("is every ```c block of every lesson, found at its line", () => {
    expect(blocks.length).toBeGreaterThan(0);
    // Every Markdown file in a numbered part folder, listed here rather than taken from the blocks
    // found: a lesson whose blocks the check missed altogether is compared too.
    const files = readdirSync("posts/rdma101", { recursive: true, encoding: "utf8" })
      .map((file) => `posts/rdma101/${file.split(path.sep).join("/")}`)
      .filter((file) => /^posts\/rdma101\/\d+-[^/]+\/[^/]+\.md$/.test(file));
    expect(files).toEqual(expect.arrayContaining([...new Set(blocks.map((b) => b.file))]));
    for (const file of files) {
      const lines = readFileSync(file, "utf8").split("\n");
      const opening = lines.flatMap((l, i) => (/^[\s>]*(?:```|~~~)[ch](?:\s|$)/i.test(l) ? [i + 1] : []));
      expect(blocks.filter((b) => b.file === file).map((b) => b.line), file).toEqual(opening);
    }
  });

  it.each(blocks.map((b) => [`${b.file}:${b.line}`, b] as const))("%s: matches the headers or a compiled program, or compiles", (_, block) => {
    expect(checkCBlock(block).problems).toEqual([]);
  });
});

describe("the check of a lesson's C block", () => {
  const file = "posts/rdma101/99-part/01-lesson.md";
  const check = (content: string, info = "c") => checkCBlock({ file, line: 10, info, content });
  /** The one problem the block has, which names the lesson's file and line. */
  const problem = (content: string, info = "c") => {
    const { problems } = check(content, info);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${file}:1\\d: `));
    return problems[0];
  };

  it("accepts prototypes as the headers declare them, macros and static inline functions included", () => {
    const prototypes = [
      "struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access);", // a macro adding an argument
      "int ibv_query_port(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *port_attr);", // a macro renaming
      "int ibv_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr);", // static inline
    ];
    expect(check(`${prototypes.join("\n")}\n`)).toEqual({ kind: "declarations", problems: [] });
    expect(problem("int ibv_query_port(struct ibv_context *context, int port_num, struct ibv_port_attr *port_attr);\n")).toMatch(/conflicting types/);
  });

  it("rejects a wrong parameter or return type, naming the lesson's line and the header's", () => {
    expect(problem("int ibv_dealloc_pd(struct ibv_pd *pd, int flags);\n")).toMatch(/01-lesson\.md:11:\d+: error: conflicting types for .ibv_dealloc_pd[\s\S]*verbs\.h:\d+/);
    expect(problem("struct ibv_pd *ibv_alloc_pd(struct ibv_context *context);\nvoid ibv_dealloc_pd(struct ibv_pd *pd);\n")).toMatch(/01-lesson\.md:12:\d+: error: conflicting types/);
    expect(problem("int ibv_post_recv(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr);\n")).toMatch(/conflicting types/);
  });

  it("rejects an integer where the header has an enum, which GCC counts as compatible, and the reverse", () => {
    expect(check("const char *ibv_wc_status_str(enum ibv_wc_status status);\n")).toEqual({ kind: "declarations", problems: [] });
    expect(problem("const char *ibv_wc_status_str(unsigned int status);\n")).toMatch(/01-lesson\.md:11: ibv_wc_status_str: parameter 1 is a plain type here and enum ibv_wc_status in the header$/);
    const initAttr = (qpType: string, sigAll: string) =>
      `struct ibv_qp_init_attr {\n\tvoid *qp_context;\n\tstruct ibv_cq *send_cq;\n\tstruct ibv_cq *recv_cq;\n\tstruct ibv_srq *srq;\n\tstruct ibv_qp_cap cap;\n\t${qpType} qp_type;\n\t${sigAll} sq_sig_all;\n};\n`;
    expect(check(initAttr("enum ibv_qp_type", "int"))).toEqual({ kind: "declarations", problems: [] });
    expect(problem(initAttr("unsigned int", "int"))).toMatch(/struct ibv_qp_init_attr: qp_type is a plain type here and enum ibv_qp_type in the header$/);
    expect(problem(initAttr("enum ibv_qp_type", "enum ibv_mtu"))).toMatch(/sq_sig_all is enum ibv_mtu here and a plain type in the header$/);
  });

  it("rejects a function the headers do not declare", () => {
    expect(problem("int ibv_alloc_everything(struct ibv_context *context);\n")).toMatch(/ibv_alloc_everything. undeclared/);
  });

  const sge = (fields: string) => `struct ibv_sge {\n${fields}};\n`;
  it("accepts a struct as the header defines it, with the lesson's own comments and spacing", () => {
    expect(check(sge("\tuint64_t addr;   /* where */\n\tuint32_t length; // how much\n\tuint32_t lkey;\n"))).toEqual({ kind: "declarations", problems: [] });
  });

  it("rejects a struct with fields reordered, missing, or of another type", () => {
    expect(problem(sge("\tuint64_t addr;\n\tuint32_t lkey;\n\tuint32_t length;\n"))).toMatch(/fields are addr, lkey, length; the header's are addr, length, lkey/);
    expect(problem(sge("\tuint64_t addr;\n\tuint32_t length;\n"))).toMatch(/the header's are addr, length, lkey/);
    expect(problem(sge("\tuint64_t addr;\n\tint32_t length;\n\tuint32_t lkey;\n"))).toMatch(/static assertion failed: "struct ibv_sge: length has another type/);
    expect(problem(sge("\tuint64_t addr;\n\tuint64_t length;\n\tuint32_t lkey;\n"))).toMatch(/length has another type[\s\S]*lkey is at another offset[\s\S]*another size/);
    expect(problem("struct ibv_nothing {\n\tint x;\n};\n")).toMatch(/defines it/);
  });

  // Three code lines from inside a real program's main(), whatever the programs are today.
  const program = readdirSync(EXAMPLES_DIR).filter(isProgram).sort()[0]!;
  const main = cFunction(readFileSync(path.join(EXAMPLES_DIR, program), "utf8"), "main")!.split("\n");
  const body = main.slice(main.indexOf("{") + 1).filter((l) => l.trim() && !/^\s*(?:\/\*|\*|\/\/)/.test(l)).slice(0, 3);

  it("accepts lines of a program, with other comments, indentation and spacing", () => {
    const excerpt = body.map((l) => `${l.trim().replace(/ /g, "   ")} /* the lesson's note */`).join("\n\n");
    expect(check(`${excerpt}\n`)).toEqual({ kind: "excerpt", problems: [] });
  });

  it("rejects code in no program: changed, or lines left out between", () => {
    expect(problem(`${body.join("\n").replace(/\w+/, "renamed")}\n`)).toMatch(/neither declarations from the headers nor lines of a program/);
    expect(problem(`${body[0]}\n${body[2]}\n`)).toMatch(/mark code that only illustrates ```c fragment/);
  });

  it("compiles a marked fragment after the declarations on its fence line", () => {
    expect(check("sge = (struct ibv_sge){ .addr = (uintptr_t)mr->addr, .length = len, .lkey = mr->lkey };\n", "c fragment struct ibv_mr *mr; uint32_t len; struct ibv_sge sge;")).toEqual({ kind: "fragment", problems: [] });
    expect(problem("int key = mr->lkey;\n", "c fragment")).toMatch(/01-lesson\.md:11:\d+: error: .mr. undeclared/);
    expect(problem("int key = mr->rkeys;\n", "c fragment struct ibv_mr *mr;")).toMatch(/has no member named .rkeys/);
  });

  it("rejects a misspelt marker", () => {
    expect(problem("x = 1;\n", "c fragmnet int x;")).toMatch(/'fragmnet' after the language is no marker/);
  });
});

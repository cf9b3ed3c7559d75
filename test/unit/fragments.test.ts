// How a lesson's C block is read before it is compiled or compared (test/fragments.test.ts checks
// the lessons themselves, with gcc).
import { describe, expect, it } from "vitest";
import { declarationsOf, fieldNames, withoutComments } from "../../src/fragments.ts";

describe("lesson C blocks", () => {
  it("lose their comments but keep their lines and strings", () => {
    expect(withoutComments('a; /* one\ntwo */ b; // three\nputs("/* not a comment */"); c = \'/\';\n')).toBe('a; \n b; \nputs("/* not a comment */"); c = \'/\';\n');
  });

  it("are declarations when they hold only prototypes and struct definitions", () => {
    expect(declarationsOf("struct ibv_sge {\n\tuint64_t addr; /* x; y */\n};\n\nint ibv_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,\n                  struct ibv_recv_wr **bad_wr);\n")).toEqual([
      { kind: "struct", tag: "ibv_sge", body: " uint64_t addr; " },
      { kind: "prototype", name: "ibv_post_recv", text: "int ibv_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)" },
    ]);
    expect(declarationsOf("void ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents);")).toEqual([{ kind: "prototype", name: "ibv_ack_cq_events", text: "void ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)" }]);
  });

  it("are not declarations when they hold a statement, a variable or an unfinished line", () => {
    for (const code of ["return die(x);\n", "ibv_ack_cq_events(cq, 1);\n", "struct ibv_wc wc;\n", "int rc = ibv_post_send(qp, &wr, &bad);\n", "int f(void);\nif (x) f();\n", "int f(void)\n"])
      expect(declarationsOf(code), code).toBeUndefined();
  });

  it("name a struct's fields in order, whatever their declarators", () => {
    expect(fieldNames(" uint64_t wr_id; struct ibv_recv_wr *next; int a, *b; uint8_t raw[16]; void (*done)(int x); union { int x; } wr; ")).toEqual(["wr_id", "next", "a", "b", "raw", "done", "{…} wr"]);
  });
});

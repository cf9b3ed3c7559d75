import { describe, expect, it } from "vitest";
import { buildCommand, exampleHtml } from "../../src/examples.ts";

describe("examples", () => {
  it("includes a real program with its path, build command and download link", () => {
    const html = exampleHtml("list_devices.c", "posts/rdma101/01-getting-started/04-first-program.md");
    expect(html).toContain('<a href="/rdma101/examples/list_devices.c" download><code>posts/rdma101/examples/list_devices.c</code></a>');
    expect(html).toContain("gcc -std=c11 -Wall -Wextra -O2 list_devices.c -o list_devices -libverbs");
    expect(html).toContain("ibv_get_device_list");
  });

  it("builds a program that includes course.h with course.c, and gives the helpers no command of their own", () => {
    expect(buildCommand("memory_region.c")).toBe("gcc -std=c11 -Wall -Wextra -O2 memory_region.c course.c -o memory_region -libverbs");
    expect(buildCommand("course.c")).toBeUndefined();
    expect(exampleHtml("course.h", "posts/rdma101/x.md")).toContain("Built into every program that includes <code>course.h</code>");
  });

  it("builds a program that uses the CUDA runtime against the toolkit, and says it needs a GPU", () => {
    expect(buildCommand("gpu_write.c")).toBe(
      "gcc -std=c11 -Wall -Wextra -O2 gpu_write.c course.c -o gpu_write -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -libverbs",
    );
    expect(exampleHtml("gpu_write.c", "posts/rdma101/x.md")).toContain("Needs an NVIDIA GPU");
    expect(exampleHtml("gpu_write.c", "posts/rdma101/x.md", "register_gpu")).toContain("Needs an NVIDIA GPU");
    expect(exampleHtml("tensor_ranges.c", "posts/rdma101/x.md")).not.toContain("Needs an NVIDIA GPU");
  });

  it("shows one function of a file, from its leading comment to its closing brace", () => {
    const html = exampleHtml("course.c", "posts/rdma101/x.md:3", "qp_to_rtr");
    expect(html).toContain("<code>qp_to_rtr()</code> from");
    expect(html).toContain("IBV_QP_MIN_RNR_TIMER");
    expect(html).not.toContain("qp_to_rts");
    expect(() => exampleHtml("course.c", "posts/rdma101/x.md:3", "nope")).toThrow("posts/rdma101/x.md:3: example course.c: no function nope() in posts/rdma101/examples/course.c");
  });

  it("names the page when a program does not exist", () => {
    expect(() => exampleHtml("nope.c", "posts/rdma101/x.md:7")).toThrow("posts/rdma101/x.md:7: example nope.c: no such program in posts/rdma101/examples/");
  });
});

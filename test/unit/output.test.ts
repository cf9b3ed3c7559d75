import { describe, expect, it } from "vitest";
import { whyNotDisposable } from "../../src/output.ts";

describe("the output folder", () => {
  const sources = ["/srv/project/_includes", "/srv/project/public", "/srv/project/posts/rdma101/examples"];

  it("may be emptied when it lies beside or away from the sources", () => {
    expect(whyNotDisposable("_site", ".")).toBeUndefined();
    expect(whyNotDisposable("/tmp/site-123", "/srv/project", sources)).toBeUndefined();
    expect(whyNotDisposable("/srv/project/_site", "/srv/project", [...sources, "/srv/project"])).toBeUndefined();
  });

  it("is never emptied when it is the sources or holds them", () => {
    expect(whyNotDisposable(".", ".")).toBe("the output folder holds the sources");
    expect(whyNotDisposable("/srv", "/srv/project")).toBe("the output folder holds the sources");
    expect(whyNotDisposable("/", "/srv/project")).toBe("the output folder holds the sources");
  });

  it("is never a folder the build reads, one inside it, or one that holds it", () => {
    expect(whyNotDisposable("/srv/project/public", "/srv/project", sources)).toBe("the output folder is public, which the build reads");
    expect(whyNotDisposable("/srv/project/public/out", "/srv/project", sources)).toBe("the output folder lies inside public, which the build reads");
    expect(whyNotDisposable("/srv/project/posts", "/srv/project", sources)).toBe("the output folder holds posts/rdma101/examples, which the build reads");
  });
});

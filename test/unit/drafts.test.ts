import { afterEach, describe, expect, it } from "vitest";
import drafts, { showDrafts } from "../../src/drafts.ts";
import { registeredFunction } from "../support/config.ts";

const preprocess = registeredFunction<(data: { draft?: unknown }) => unknown>(drafts, "drafts");
const runMode = process.env.ELEVENTY_RUN_MODE;
afterEach(() => {
  if (runMode === undefined) delete process.env.ELEVENTY_RUN_MODE;
  else process.env.ELEVENTY_RUN_MODE = runMode;
});

describe("drafts", () => {
  it("leaves a draft out of a production build and keeps every other page", () => {
    process.env.ELEVENTY_RUN_MODE = "build";
    expect(showDrafts()).toBe(false);
    expect(preprocess({ draft: true })).toBe(false);
    expect(preprocess({ draft: false })).toBeUndefined();
    expect(preprocess({})).toBeUndefined();
  });

  it("keeps drafts on the dev server", () => {
    process.env.ELEVENTY_RUN_MODE = "serve";
    expect(showDrafts()).toBe(true);
    expect(preprocess({ draft: true })).toBeUndefined();
  });
});

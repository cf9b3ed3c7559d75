import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The real site is built once into a temporary folder; build and browser tests read it.
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: builds and Chromium are heavy, so test files run two at a time at most.
    maxWorkers: 2,
  },
});

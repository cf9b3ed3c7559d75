import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: builds and Chromium are heavy, so test files run two at a time at most.
    maxWorkers: 2,
    projects: [
      // Unit tests build nothing: `npm run test:unit` runs them alone, in seconds.
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts"] } },
      // Everything else reads the real site, built once into a temporary folder, or builds its own.
      {
        extends: true,
        test: { name: "site", include: ["test/**/*.test.ts"], exclude: ["test/unit/**"], globalSetup: ["test/support/global-setup.ts"] },
      },
    ],
  },
});

import { configDefaults, defineConfig } from "vitest/config";

/** The lab's tests boot QEMU VMs whose RDMA timers run on the host's clock: they run alone. */
const LAB_TESTS = ["test/lab.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: builds and Chromium are heavy, so test files run two at a time at most.
    maxWorkers: 2,
    projects: [
      // Unit tests build nothing: `npm run test:unit` runs them alone, in seconds.
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "site",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "test/unit/**", ...LAB_TESTS],
          // The real site is built once into a temporary folder; build and browser tests read it.
          globalSetup: ["test/support/global-setup.ts"],
        },
      },
      { extends: true, test: { name: "lab", include: LAB_TESTS } },
    ],
  },
});

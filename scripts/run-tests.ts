// Runs every test with vitest and ends with the plain summary line CI reads: `N passed, N failed`.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";

const report = ".cache/vitest-report.json";
mkdirSync(".cache", { recursive: true });
rmSync(report, { force: true });

const run = spawnSync(
  process.execPath,
  ["node_modules/vitest/vitest.mjs", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { stdio: "inherit" },
);

let summary = "0 passed, 0 failed";
try {
  const results = JSON.parse(readFileSync(report, "utf8")) as { numPassedTests: number; numFailedTests: number; numTotalTests: number };
  // A file that fails before its tests run (an import error, say) reports no failed test: count it.
  const failed = results.numFailedTests + (run.status !== 0 && results.numFailedTests === 0 ? 1 : 0);
  summary = `${results.numPassedTests} passed, ${failed} failed`;
} catch {
  summary = "0 passed, 1 failed";
}
console.log(summary);
process.exit(run.status ?? 1);

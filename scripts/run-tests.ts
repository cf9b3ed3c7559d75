// `npm test` after its set-up step: the typecheck, then every test with vitest (the unit tests, the
// site's, then the lab's), ending with the plain summary line CI reads: `N passed, N failed`. The typecheck counts as
// one check in that line, and the tests run even when it fails, so the summary is always the last line.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";

mkdirSync(".cache", { recursive: true });

const typecheck = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "--noEmit"], { stdio: "inherit" });
if (typecheck.status !== 0) console.error("typecheck failed (tsc --noEmit)");

/** Runs one vitest project (see vitest.config.ts) and counts its tests. */
function runProject(project: string): { passed: number; failed: number } {
  const report = `.cache/vitest-report-${project}.json`;
  rmSync(report, { force: true });
  const run = spawnSync(
    process.execPath,
    ["node_modules/vitest/vitest.mjs", "run", `--project=${project}`, "--passWithNoTests", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...process.argv.slice(2)],
    { stdio: "inherit" },
  );
  try {
    const results = JSON.parse(readFileSync(report, "utf8")) as { numPassedTests: number; numFailedTests: number };
    // A file that fails before its tests run (an import error, say) reports no failed test: count it.
    return { passed: results.numPassedTests, failed: results.numFailedTests + (run.status !== 0 && results.numFailedTests === 0 ? 1 : 0) };
  } catch {
    return { passed: 0, failed: 1 };
  }
}

// The unit tests (they build nothing), the site's, then the lab's alone: its VMs' RDMA timers must
// not starve behind Chromium.
const counts = ["unit", "site", "lab"].map(runProject);
let passed = counts.reduce((sum, c) => sum + c.passed, 0);
let failed = counts.reduce((sum, c) => sum + c.failed, 0);
if (typecheck.status === 0) passed += 1;
else failed += 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

// `npm test` after its set-up step: the typecheck, then every test with vitest, ending with the plain
// summary line CI reads: `N passed, N failed`. The typecheck counts as one check in that line, and
// the tests run even when it fails, so the summary is always the last line.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";

const report = ".cache/vitest-report.json";
mkdirSync(".cache", { recursive: true });
rmSync(report, { force: true });

const typecheck = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "--noEmit"], { stdio: "inherit" });
if (typecheck.status !== 0) console.error("typecheck failed (tsc --noEmit)");

const run = spawnSync(
  process.execPath,
  ["node_modules/vitest/vitest.mjs", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { stdio: "inherit" },
);

let passed = 0;
let failed = 0;
try {
  const results = JSON.parse(readFileSync(report, "utf8")) as { numPassedTests: number; numFailedTests: number };
  passed = results.numPassedTests;
  // A file that fails before its tests run (an import error, say) reports no failed test: count it.
  failed = results.numFailedTests + (run.status !== 0 && results.numFailedTests === 0 ? 1 : 0);
} catch {
  failed = 1;
}
if (typecheck.status === 0) passed += 1;
else failed += 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

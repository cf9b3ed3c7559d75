// `npm run audit`: Lighthouse on the homepage in each language, a post and a lesson of a fresh production build.
// Accessibility, best practices and SEO must each score 100; performance is printed.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "../test/support/eleventy.ts";
import { audit, summary } from "../test/support/lighthouse.ts";

const outDir = await mkdtemp(path.join(tmpdir(), "site-audit-"));
try {
  const result = await build({ outDir });
  if (result.code !== 0) throw new Error(result.output);
  const results = await audit(outDir);
  for (const r of results) console.log(summary(r));
  const failures = results.flatMap((r) => r.failures.map((f) => `${r.name}: ${f}`));
  if (failures.length) {
    console.error(`Lighthouse gate failed:\n${failures.join("\n")}`);
    process.exitCode = 1;
  }
} finally {
  await rm(outDir, { recursive: true, force: true });
}

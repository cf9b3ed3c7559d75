// `npm run check`: validates content, data, links between pages and glossary references without
// building the site (see src/check.ts). Prints each problem as `file: field: reason`.
import { checkProject } from "../src/check.ts";

const start = performance.now();
const { problems, files } = checkProject();
const seconds = ((performance.now() - start) / 1000).toFixed(1);
for (const problem of problems) console.error(problem);
console.log(problems.length ? `${problems.length} problem(s) in ${files} files (${seconds} s)` : `${files} files checked, no problems (${seconds} s)`);
process.exit(problems.length ? 1 : 0);

// `npm test`'s set-up step: the tests need Debian's Chromium and a Chinese font (browser tests) and
// what the RDMA 101 lab needs (QEMU, busybox, the rdma-core libraries, headers and tools: src/lab/requirements.ts).
// Installs them with apt-get when missing and possible; otherwise says exactly what to run. The
// lab's kernel is not installed: the lab fetches it with `apt-get download` into its cache.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { candidateKernel } from "../src/lab/kernel.ts";
import { LAB_PACKAGES } from "../src/lab/requirements.ts";

const needs = [
  { pkg: "chromium", file: "/usr/bin/chromium" },
  // The browser tests lay out the Chinese pages; without a CJK font Chromium draws other glyphs in
  // other sizes. Noto Sans CJK SC is in the site's font stacks, for text and (its mono) for code.
  { pkg: "fonts-noto-cjk", file: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc" },
  ...LAB_PACKAGES,
];

const missing = needs.filter((n) => !existsSync(n.file)).map((n) => n.pkg);
// The lab fetches its kernel with `apt-get download`, which needs apt's package lists.
const kernelKnown = (() => {
  try {
    candidateKernel();
    return true;
  } catch {
    return false;
  }
})();
if (missing.length === 0 && kernelKnown) process.exit(0);

const command = ["apt-get update", ...(missing.length ? [`apt-get install -y --no-install-recommends ${missing.join(" ")}`] : [])].join(" && ");
const isRoot = process.getuid?.() === 0;
const hasAptGet = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
const hasSudo = !isRoot && spawnSync("sh", ["-c", "sudo -n true"], { stdio: "ignore" }).status === 0;
const what = missing.length ? `Debian packages that are missing: ${missing.join(", ")}` : "apt's package lists (to fetch the lab's kernel)";

if (!hasAptGet || (!isRoot && !hasSudo)) {
  console.error(`The tests need ${what}.\nRun:\n  sudo sh -c '${command}'`);
  process.exit(1);
}

console.log(`Getting what the tests need: ${what}`);
const [program, ...args] = isRoot ? ["sh", "-c", command] : ["sudo", "-n", "sh", "-c", command];
execFileSync(program!, args, {
  stdio: "inherit",
  env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
});

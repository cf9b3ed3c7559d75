// Debian's Chromium driven by playwright-core, never a downloaded browser. No vitest here: the
// benchmark (scripts/bench.ts) drives it too.
import { chromium, type Browser } from "playwright-core";

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

// The lab VM's initramfs: static busybox, the init script (init.sh beside this file), and the
// kernel modules in load order. Uncompressed: under TCG, decompressing costs more than reading.
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cachedDir, inputsKey, LAB_CACHE, runTool } from "./cache.ts";
import type { LabKernel } from "./kernel.ts";
import { BUSYBOX } from "./requirements.ts";

export const INIT_SCRIPT = fileURLToPath(new URL("./init.sh", import.meta.url));

export function labInitramfs(kernel: LabKernel, log: (message: string) => void): string {
  const init = readFileSync(INIT_SCRIPT);
  const key = inputsKey(init, readFileSync(BUSYBOX), kernel.release, kernel.loadOrder.join(","));
  const dir = cachedDir(path.join(LAB_CACHE, "initramfs"), key, (into) => {
    log("building the initramfs");
    const tree = path.join(into, "tree");
    mkdirSync(path.join(tree, "bin"), { recursive: true });
    copyFileSync(BUSYBOX, path.join(tree, "bin/busybox"));
    chmodSync(path.join(tree, "bin/busybox"), 0o755);
    symlinkSync("busybox", path.join(tree, "bin/sh"));
    for (const dir of ["proc", "sys", "dev", "modules", "host"]) mkdirSync(path.join(tree, dir), { recursive: true });
    for (const file of kernel.loadOrder) copyFileSync(path.join(kernel.modules, file), path.join(tree, "modules", file));
    writeFileSync(path.join(tree, "modules.load"), kernel.loadOrder.map((f) => `${f}\n`).join(""));
    writeFileSync(path.join(tree, "init"), init, { mode: 0o755 });
    // Sorted, owned by root: the same inputs give the same archive.
    runTool("sh", ["-c", 'find . -mindepth 1 | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0 > "$1"', "sh", path.join(into, "initramfs.cpio")], { cwd: tree });
    rmSync(tree, { recursive: true });
  });
  return path.join(dir, "initramfs.cpio");
}

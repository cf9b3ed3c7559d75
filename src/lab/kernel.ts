// The lab VM's kernel: Debian's own, from the package that linux-image-amd64 currently depends on
// (its -unsigned twin), fetched with `apt-get download` into the cache and unpacked, never
// installed. Only the kernel image and the modules the VM loads are kept.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { cachedDir, inputsKey, LAB_CACHE, runTool } from "./cache.ts";
import { LAB_MODULES, loadOrder, parseModulesDep } from "./modules.ts";
import { BUSYBOX } from "./requirements.ts";

export interface KernelPackage {
  name: string;
  version: string;
}

export interface LabKernel {
  /** What QEMU boots: the uncompressed vmlinux when it could be extracted, else the bzImage. */
  image: string;
  /** Folder of the .ko files to load. */
  modules: string;
  /** Their file names, in load order. */
  loadOrder: string[];
  release: string;
}

/**
 * From `apt-cache show --no-all-versions linux-image-amd64` (the candidate): the flavour it depends
 * on, e.g. `linux-image-6.1.0-57-amd64 (= 6.1.192-3)`, whose unsigned build carries the same kernel.
 */
export function unsignedKernelOf(aptCacheShow: string): KernelPackage {
  const match = aptCacheShow.match(/^Depends:.*?\b(linux-image-[\w.+-]+?)\s*\(=\s*([^)\s]+)\)/m);
  if (!match) throw new Error("apt-cache: linux-image-amd64 names no kernel package (run apt-get update?)");
  return { name: `${match[1]}-unsigned`, version: match[2]! };
}

export function candidateKernel(): KernelPackage {
  const shown = runTool("apt-cache", ["show", "--no-all-versions", "linux-image-amd64"]);
  return unsignedKernelOf(shown);
}

const XZ_MAGIC = Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]);

/**
 * The uncompressed kernel inside a bzImage, which QEMU boots directly (PVH entry): under TCG the
 * kernel's own decompressor takes half the boot. False when the payload is not xz (the bzImage
 * then serves as it is).
 */
export function extractVmlinux(vmlinuz: string, vmlinux: string): boolean {
  const image = readFileSync(vmlinuz);
  const start = image.indexOf(XZ_MAGIC);
  if (start < 0) return false;
  const result = spawnSync("xz", ["-dc", "--single-stream"], { input: image.subarray(start), maxBuffer: 512 << 20 });
  if (result.status !== 0 || result.stdout.subarray(0, 4).toString("latin1") !== "\x7fELF") return false;
  writeFileSync(vmlinux, result.stdout);
  return true;
}

function unpackKernel(pkg: KernelPackage, into: string): void {
  const work = path.join(into, "unpack");
  mkdirSync(work, { recursive: true });
  // As root, apt hands downloads to the _apt user, who cannot write into a user's folder.
  const sandbox = process.getuid?.() === 0 ? ["-o", "APT::Sandbox::User=root"] : [];
  runTool("apt-get", [...sandbox, "download", `${pkg.name}=${pkg.version}`], { cwd: work });
  const deb = readdirSync(work).find((f) => f.endsWith(".deb"));
  if (!deb) throw new Error(`apt-get download ${pkg.name}=${pkg.version} left no .deb`);
  const root = path.join(work, "root");
  runTool("dpkg-deb", ["-x", path.join(work, deb), root]);

  const [release] = readdirSync(path.join(root, "lib/modules"));
  if (!release) throw new Error(`${deb}: no lib/modules/<release>/`);
  const moduleDir = path.join(root, "lib/modules", release);
  // The package leaves modules.dep to depmod at install time: make it here, without installing.
  if (!existsSync(path.join(moduleDir, "modules.dep"))) runTool(BUSYBOX, ["depmod", "-b", root, release]);
  const deps = parseModulesDep(readFileSync(path.join(moduleDir, "modules.dep"), "utf8"));
  const builtinFile = path.join(moduleDir, "modules.builtin");
  const builtin = existsSync(builtinFile) ? readFileSync(builtinFile, "utf8").split("\n").filter(Boolean) : [];
  const order = loadOrder(deps, LAB_MODULES, builtin);

  mkdirSync(path.join(into, "modules"));
  for (const file of order) copyFileSync(path.join(moduleDir, file), path.join(into, "modules", path.basename(file)));
  const vmlinuz = path.join(root, "boot", `vmlinuz-${release}`);
  const vmlinux = path.join(into, "vmlinux");
  if (!extractVmlinux(vmlinuz, vmlinux)) copyFileSync(vmlinuz, path.join(into, "vmlinuz"));
  writeFileSync(path.join(into, "modules.load"), order.map((f) => `${path.basename(f)}\n`).join(""));
  writeFileSync(path.join(into, "release"), release);
  rmSync(work, { recursive: true, force: true });
}

const kernelIn = (dir: string): LabKernel => ({
  image: existsSync(path.join(dir, "vmlinux")) ? path.join(dir, "vmlinux") : path.join(dir, "vmlinuz"),
  modules: path.join(dir, "modules"),
  loadOrder: readFileSync(path.join(dir, "modules.load"), "utf8").split("\n").filter(Boolean),
  release: readFileSync(path.join(dir, "release"), "utf8"),
});

/**
 * The kernel and modules for the current candidate, fetched and unpacked once per version. When
 * apt cannot name a candidate (no package lists), the kernel already in the cache will do.
 */
export function labKernel(log: (message: string) => void): LabKernel {
  const dir = path.join(LAB_CACHE, "kernel");
  let pkg: KernelPackage;
  try {
    pkg = candidateKernel();
  } catch (error) {
    if (!existsSync(path.join(dir, "release"))) throw error;
    log(`${(error as Error).message}; using the kernel already in the cache`);
    return kernelIn(dir);
  }
  cachedDir(dir, inputsKey(pkg.name, pkg.version, LAB_MODULES.join(","), "vmlinux"), (into) => {
    log(`fetching and unpacking ${pkg.name} ${pkg.version} (once per kernel version)`);
    unpackKernel(pkg, into);
  });
  return kernelIn(dir);
}

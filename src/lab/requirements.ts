// What the lab needs from the machine: Linux, and these Debian packages. scripts/ensure-system-deps.ts
// installs them for `npm test`; the lab itself names what is missing instead of failing obscurely.
import { existsSync } from "node:fs";

export const BUSYBOX = "/bin/busybox";
export const QEMU = "/usr/bin/qemu-system-x86_64";

/** Each Debian package the lab needs, known by a file it installs. */
export const LAB_PACKAGES = [
  { pkg: "qemu-system-x86", file: QEMU },
  { pkg: "busybox-static", file: BUSYBOX }, // the VM's init; the initramfs has no libc
  { pkg: "cpio", file: "/usr/bin/cpio" },
  { pkg: "xz-utils", file: "/usr/bin/xz" }, // unpacks the kernel image, so the VM need not

  { pkg: "libibverbs-dev", file: "/usr/include/infiniband/verbs.h" },
  { pkg: "librdmacm-dev", file: "/usr/include/rdma/rdma_cma.h" },
  { pkg: "ibverbs-providers", file: "/usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so" },
  { pkg: "rdma-core", file: "/usr/sbin/rdma-ndd" },
  { pkg: "iproute2", file: "/usr/bin/rdma" }, // `rdma link add`
  { pkg: "ibverbs-utils", file: "/usr/bin/ibv_devinfo" },
  { pkg: "rdmacm-utils", file: "/usr/bin/rping" },
  { pkg: "perftest", file: "/usr/bin/ib_write_bw" },
  { pkg: "tcpdump", file: "/usr/bin/tcpdump" },
  { pkg: "tshark", file: "/usr/bin/tshark" },
  { pkg: "gcc", file: "/usr/bin/gcc" },
  // Part 3's labs: system calls, dropped packets, host topology.
  { pkg: "strace", file: "/usr/bin/strace" },
  { pkg: "nftables", file: "/usr/sbin/nft" },
  { pkg: "pciutils", file: "/usr/bin/lspci" },
  { pkg: "numactl", file: "/usr/bin/numactl" },
  { pkg: "hwloc-nox", file: "/usr/bin/lstopo-no-graphics" },
] as const;

/** Why the lab cannot run here, or an empty list. */
export function labProblems(platform: string = process.platform, arch: string = process.arch, exists = existsSync): string[] {
  if (platform !== "linux") return [`the lab runs on Linux only (this is ${platform}): it shares the host's root and programs with a Linux VM`];
  if (arch !== "x64") return [`the lab needs an x86-64 Linux host (this is ${arch}): it boots Debian's amd64 kernel`];
  const missing = LAB_PACKAGES.filter((p) => !exists(p.file));
  if (missing.length === 0) return [];
  return [
    `the lab needs Debian packages that are missing: ${missing.map((p) => p.pkg).join(" ")}`,
    `install them with: sudo apt-get install --no-install-recommends ${missing.map((p) => p.pkg).join(" ")}`,
  ];
}

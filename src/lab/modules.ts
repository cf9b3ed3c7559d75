// Which kernel modules the lab VM loads, and in what order. The order comes from the kernel's own
// modules.dep (it changes between point releases of one kernel series), never from a fixed list.

/**
 * What the VM needs by name; their dependencies come from modules.dep. crc32_generic is not a
 * symbol dependency of rdma_rxe, which asks the crypto API for "crc32" at run time.
 */
export const LAB_MODULES = [
  "sch_netem", // tc qdisc … netem: lost and delayed packets for the fault-injection runs (lesson 4.5)
  "virtio_pci", // the PCI transport of every virtio device below
  "virtio_net", // eth0
  "virtio_console", // the control port of the agent (virtio-serial)
  "9pnet_virtio",
  "9p", // the host's root, read-only, and the output folder, read-write
  "overlay", // a writable /tmp over the host's
  "crc32_generic", // rxe's ICRC
  "ib_uverbs", // /dev/infiniband/uverbs*: what libibverbs opens
  "rdma_rxe", // Soft-RoCE
  "rdma_ucm", // /dev/infiniband/rdma_cm: what librdmacm opens (lesson 2.14)
  "crc32c_generic", // libcrc32c, under nf_tables, asks the crypto API for "crc32c" when it loads
  "nft_numgen", // nft rules that drop the Nth RoCE packet (lesson 3.5), with nf_tables under it
] as const;

/** modules.dep: `path/name.ko: dep.ko dep.ko`, one module a line, paths relative to its folder. */
export function parseModulesDep(text: string): Map<string, string[]> {
  const deps = new Map<string, string[]>();
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const colon = line.indexOf(":");
    if (colon < 0) throw new Error(`modules.dep: '${line}' has no ':'`);
    deps.set(line.slice(0, colon).trim(), line.slice(colon + 1).split(/\s+/).filter(Boolean));
  }
  return deps;
}

/** A module's name as modprobe knows it: the file name without .ko(.xz…), '-' read as '_'. */
export const moduleName = (file: string): string => (file.split("/").pop() ?? file).replace(/\.ko(\.\w+)?$/, "").replace(/-/g, "_");

/**
 * The files to insmod, each after everything it depends on, for the modules named (looked up by
 * name). Modules built into the kernel (modules.builtin) need no loading. A name found in neither,
 * or a dependency cycle, is an error naming the module.
 */
export function loadOrder(deps: Map<string, string[]>, wanted: readonly string[], builtin: readonly string[] = []): string[] {
  const builtinNames = new Set(builtin.map(moduleName));
  const byName = new Map([...deps.keys()].map((file) => [moduleName(file), file]));
  const order: string[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (file: string, chain: string[]) => {
    if (state.get(file) === "done") return;
    if (state.get(file) === "visiting") throw new Error(`modules.dep: dependency cycle: ${[...chain, file].map(moduleName).join(" → ")}`);
    const fileDeps = deps.get(file);
    if (!fileDeps) throw new Error(`modules.dep: ${chain.at(-1) ?? "?"} needs ${file}, which modules.dep does not list`);
    state.set(file, "visiting");
    for (const dep of fileDeps) visit(dep, [...chain, file]);
    state.set(file, "done");
    order.push(file);
  };
  for (const name of wanted) {
    const file = byName.get(name.replace(/-/g, "_"));
    if (!file && builtinNames.has(moduleName(name))) continue;
    if (!file) throw new Error(`modules.dep: no module '${name}' (is it built in, or missing from this kernel?)`);
    visit(file, []);
  }
  return order;
}

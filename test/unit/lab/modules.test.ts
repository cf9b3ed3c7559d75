import { describe, expect, it } from "vitest";
import { loadOrder, moduleName, parseModulesDep } from "../../../src/lab/modules.ts";

// The shape of a real modules.dep (as depmod writes it): dependencies in no particular order.
const DEP = `kernel/drivers/infiniband/sw/rxe/rdma_rxe.ko: kernel/drivers/infiniband/core/ib_uverbs.ko kernel/drivers/infiniband/core/ib_core.ko kernel/net/ipv4/udp_tunnel.ko
kernel/drivers/infiniband/core/ib_uverbs.ko: kernel/drivers/infiniband/core/ib_core.ko
kernel/drivers/infiniband/core/ib_core.ko:
kernel/net/ipv4/udp_tunnel.ko:
kernel/net/9p/9pnet_virtio.ko: kernel/drivers/virtio/virtio.ko kernel/net/9p/9pnet.ko kernel/drivers/virtio/virtio_ring.ko
kernel/drivers/virtio/virtio.ko: kernel/drivers/virtio/virtio_ring.ko
kernel/drivers/virtio/virtio_ring.ko:
kernel/net/9p/9pnet.ko:
kernel/arch/x86/events/amd/amd-uncore.ko:
`;

describe("kernel modules", () => {
  const deps = parseModulesDep(DEP);

  it("loads every module after all it depends on, each once", () => {
    const order = loadOrder(deps, ["rdma_rxe", "9pnet_virtio", "ib_uverbs"]).map(moduleName);
    for (const [file, needs] of deps) {
      if (!order.includes(moduleName(file))) continue;
      for (const dep of needs) expect(order.indexOf(moduleName(dep)), `${dep} before ${file}`).toBeLessThan(order.indexOf(moduleName(file)));
    }
    expect(new Set(order).size).toBe(order.length);
    expect(order).toEqual(expect.arrayContaining(["ib_core", "udp_tunnel", "virtio_ring", "virtio", "9pnet", "9pnet_virtio", "rdma_rxe"]));
    expect(order).not.toContain("amd_uncore");
  });

  it("reads '-' in a file name as '_', as modprobe does", () => {
    expect(loadOrder(deps, ["amd_uncore"])).toEqual(["kernel/arch/x86/events/amd/amd-uncore.ko"]);
  });

  it("skips a module built into the kernel and names one that is nowhere", () => {
    expect(loadOrder(deps, ["crc32_generic"], ["kernel/crypto/crc32_generic.ko"])).toEqual([]);
    expect(() => loadOrder(deps, ["crc32_generic"])).toThrow("modules.dep: no module 'crc32_generic'");
  });

  it("names a dependency modules.dep does not list, and a cycle", () => {
    expect(() => loadOrder(parseModulesDep("a.ko: b.ko\n"), ["a"])).toThrow("modules.dep: a.ko needs b.ko, which modules.dep does not list");
    expect(() => loadOrder(parseModulesDep("a.ko: b.ko\nb.ko: a.ko\n"), ["a"])).toThrow("dependency cycle: a → b → a");
  });
});

import net from "node:net";
import { describe, expect, it } from "vitest";
import { bootRetrying, bootWithRetry, untilListening, vmNetworks, type Machines } from "../../../src/lab/machines.ts";
import type { VmConfig } from "../../../src/lab/vm.ts";

/** A boot that fails the first `failures` times it is tried. */
const flaky = (failures: number) => {
  let tries = 0;
  return {
    boot: async () => {
      if (++tries <= failures) throw new Error(`boot ${tries} failed`);
      return `up after ${tries}`;
    },
    tries: () => tries,
  };
};

describe("booting a lab VM", () => {
  it("boots once more after a failed boot, and says why the first failed", async () => {
    const vm = flaky(1);
    const heard: unknown[] = [];
    await expect(bootWithRetry(vm.boot, (error) => heard.push(error))).resolves.toBe("up after 2");
    expect(heard).toEqual([new Error("boot 1 failed")]);
  });

  it("gives up after the second failure, with its reason", async () => {
    const vm = flaky(5);
    await expect(bootWithRetry(vm.boot, () => {})).rejects.toThrow("boot 2 failed");
    expect(vm.tries()).toBe(2);
  });

  it("boots once when the first boot works", async () => {
    const vm = flaky(0);
    await bootWithRetry(vm.boot, () => {
      throw new Error("not expected");
    });
    expect(vm.tries()).toBe(1);
  });
});

describe("the VMs' networks", () => {
  it("give one VM no wire, and two VMs a UDP wire with each sending to the other's port", () => {
    expect(vmNetworks({ vms: 1 }, [])).toEqual([{ kind: "alone" }]);
    expect(vmNetworks({ vms: 2, wire: "udp" }, [4000, 4001])).toEqual([
      { kind: "udp", port: 4000, peerPort: 4001 },
      { kind: "udp", port: 4001, peerPort: 4000 },
    ]);
  });

  it("put VM 1 on the listening end of the TCP wire and VM 2 on the connecting end, on one port", () => {
    expect(vmNetworks({ vms: 2, wire: "tcp" }, [4000])).toEqual([
      { kind: "tcp", port: 4000, listens: true },
      { kind: "tcp", port: 4000, listens: false },
    ]);
  });
});

describe("booting the lab's VMs again", () => {
  /** Boots fake VMs of `machines`, where the first boot of VM `failing` fails; counts every boot and stop. */
  async function bootFailingOnce(machines: Machines, failing: number) {
    const boots = new Map<number, number>();
    const stops: number[] = [];
    const configs: VmConfig[] = vmNetworks(machines, [4000, 4001]).map((network, i) => ({ index: i + 1, network, kernel: "k", initramfs: "i", cwd: ".", bin: "b" }));
    const heard: string[] = [];
    const vms = await bootRetrying(
      configs,
      async ({ index }) => {
        boots.set(index, (boots.get(index) ?? 0) + 1);
        if (index === failing && boots.get(index) === 1) throw new Error(`VM ${index} stayed silent`);
        return { index, stop: async () => void stops.push(index) };
      },
      (message) => heard.push(message),
    );
    return { vms: vms.map((vm) => vm.index), boots: Object.fromEntries(boots), stops, heard };
  }

  it("boots only the failed VM again on the UDP wire", async () => {
    expect(await bootFailingOnce({ vms: 2, wire: "udp" }, 1)).toEqual({
      vms: [1, 2],
      boots: { 1: 2, 2: 1 },
      stops: [],
      heard: ["VM 1 did not boot; booting it once more. VM 1 stayed silent"],
    });
  });

  it("boots both VMs again on the TCP wire, stopping the one that came up, whose connection died with its peer", async () => {
    expect(await bootFailingOnce({ vms: 2, wire: "tcp" }, 1)).toEqual({
      vms: [1, 2],
      boots: { 1: 2, 2: 2 },
      stops: [2],
      heard: ["the VMs on the TCP wire did not boot; booting both once more. VM 1 stayed silent"],
    });
  });
});

describe("waiting for VM 1's end of the TCP wire", () => {
  it("reads a listener on 127.0.0.1 from /proc/net/tcp, and names a port nobody listens on", async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    await expect(untilListening(port, 0)).resolves.toBeUndefined();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await expect(untilListening(port, 0)).rejects.toThrow(`lab VM 2: VM 1's QEMU did not listen on 127.0.0.1:${port} within 0 s`);
  });
});

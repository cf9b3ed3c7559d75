// The lab: one VM alone, or two VMs on one virtual wire (a QEMU socket netdev: UDP datagrams
// between two ports on 127.0.0.1), booted together.
import dgram from "node:dgram";
import type { LabArtefacts } from "./artefacts.ts";
import { LabVm } from "./vm.ts";

export interface Lab {
  vms: LabVm[];
  stop(): Promise<void>;
}

/** Two UDP ports on 127.0.0.1 that are free now (both held open until both are known, so they differ). */
async function freeUdpPorts(): Promise<[number, number]> {
  const bind = (): Promise<dgram.Socket> =>
    new Promise((resolve, reject) => {
      const socket = dgram.createSocket("udp4");
      socket.once("error", reject);
      socket.bind(0, "127.0.0.1", () => resolve(socket));
    });
  const sockets = [await bind(), await bind()];
  const ports = sockets.map((s) => s.address().port);
  await Promise.all(sockets.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  return [ports[0]!, ports[1]!];
}

export async function bootLab(count: 1 | 2, artefacts: LabArtefacts): Promise<Lab> {
  const base = { kernel: artefacts.kernel, initramfs: artefacts.initramfs, cwd: process.cwd(), bin: artefacts.bin };
  const vms: LabVm[] = [];
  const stop = async () => {
    await Promise.all(vms.map((vm) => vm.stop()));
  };
  try {
    if (count === 1) {
      vms.push(LabVm.start({ ...base, index: 1, network: { kind: "alone" } }));
    } else {
      const [first, second] = await freeUdpPorts();
      vms.push(LabVm.start({ ...base, index: 1, network: { kind: "wire", port: first, peerPort: second } }));
      vms.push(LabVm.start({ ...base, index: 2, network: { kind: "wire", port: second, peerPort: first } }));
    }
    await Promise.all(vms.map((vm) => vm.ready()));
  } catch (error) {
    await stop();
    throw error;
  }
  return { vms, stop };
}

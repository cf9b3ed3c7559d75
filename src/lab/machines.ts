// The lab: one VM alone, or two VMs on one virtual wire (a QEMU socket netdev on 127.0.0.1, the
// first VM listening, the second connecting), booted together.
import { readFileSync } from "node:fs";
import net from "node:net";
import type { LabArtefacts } from "./artefacts.ts";
import { LabVm, sleep, type VmConfig } from "./vm.ts";

export interface Lab {
  vms: LabVm[];
  stop(): Promise<void>;
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** Whether something listens on 127.0.0.1:port, read from /proc (a test connection would be QEMU's one peer). */
const listening = (port: number): boolean =>
  readFileSync("/proc/net/tcp", "utf8").includes(`0100007F:${port.toString(16).toUpperCase().padStart(4, "0")} 00000000:0000 0A`);

async function startWhenListening(first: LabVm, port: number, config: VmConfig): Promise<LabVm> {
  const deadline = Date.now() + 30_000;
  while (!listening(port)) {
    if (Date.now() > deadline) throw new Error(first.describeFailure(`QEMU does not listen on 127.0.0.1:${port}`));
    await sleep(50);
  }
  return LabVm.start(config);
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
      const port = await freePort();
      vms.push(LabVm.start({ ...base, index: 1, network: { kind: "wire", role: "listen", port } }));
      vms.push(await startWhenListening(vms[0]!, port, { ...base, index: 2, network: { kind: "wire", role: "connect", port } }));
    }
    await Promise.all(vms.map((vm) => vm.ready()));
  } catch (error) {
    await stop();
    throw error;
  }
  return { vms, stop };
}

// The lab: one VM alone, or two VMs on one virtual wire (a QEMU socket netdev: UDP datagrams
// between two ports on 127.0.0.1), booted together.
import dgram from "node:dgram";
import type { LabArtefacts } from "./artefacts.ts";
import { LabVm, type VmConfig } from "./vm.ts";
import { errorMessage } from "../validation.ts";

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

/**
 * `boot()`, and once more if it fails. A VM that dies or stays silent before its agent answers (TCG
 * starved on a busy host can still fail to boot) is the machine's trouble, not a program's: no
 * program has run in it yet, so nothing a run checks is retried. `retrying` hears the first failure.
 */
export async function bootWithRetry<T>(boot: () => Promise<T>, retrying: (error: unknown) => void): Promise<T> {
  try {
    return await boot();
  } catch (error) {
    retrying(error);
    return await boot();
  }
}

/** Boots one VM alone, or two on one wire, in parallel. */
export async function bootLab(count: 1 | 2, artefacts: LabArtefacts, log: (message: string) => void = () => {}): Promise<Lab> {
  const base = { kernel: artefacts.kernel, initramfs: artefacts.initramfs, cwd: process.cwd(), bin: artefacts.bin };
  const configs: VmConfig[] = [];
  if (count === 1) configs.push({ ...base, index: 1, network: { kind: "alone" } });
  else {
    const [first, second] = await freeUdpPorts();
    configs.push({ ...base, index: 1, network: { kind: "wire", port: first, peerPort: second } });
    configs.push({ ...base, index: 2, network: { kind: "wire", port: second, peerPort: first } });
  }
  const booted = await Promise.allSettled(
    configs.map((config) =>
      bootWithRetry(
        () => LabVm.start(config).ready(),
        (error) => log(`VM ${config.index} did not boot; booting it once more. ${errorMessage(error)}`),
      ),
    ),
  );
  const vms = booted.flatMap((b) => (b.status === "fulfilled" ? [b.value] : []));
  const stop = async () => {
    await Promise.all(vms.map((vm) => vm.stop()));
  };
  const failed = booted.find((b) => b.status === "rejected");
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { vms, stop };
}

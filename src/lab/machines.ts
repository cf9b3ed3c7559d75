// The lab: one VM alone, or two VMs on one virtual wire (a QEMU socket netdev on 127.0.0.1: UDP
// datagrams between two ports, or the TCP stream that wire replaced), booted together.
import dgram from "node:dgram";
import { readFileSync } from "node:fs";
import net from "node:net";
import type { LabArtefacts } from "./artefacts.ts";
import { LabVm, sleep, type Network, type VmConfig } from "./vm.ts";
import type { Wire } from "../schemas.ts";
import { errorMessage } from "../validation.ts";

/** What one boot provides: one VM alone, or two on a wire of the given kind. */
export type Machines = { vms: 1 } | { vms: 2; wire: Wire };

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

/** A TCP port on 127.0.0.1 that is free now. */
const freeTcpPort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** Each VM's network, given free ports on 127.0.0.1: two UDP ports, or one TCP port VM 1 listens on. */
export function vmNetworks(machines: Machines, ports: number[]): Network[] {
  if (machines.vms === 1) return [{ kind: "alone" }];
  const [first, second] = ports as [number, number];
  if (machines.wire === "tcp") return [{ kind: "tcp", port: first, listens: true }, { kind: "tcp", port: first, listens: false }];
  return [{ kind: "udp", port: first, peerPort: second }, { kind: "udp", port: second, peerPort: first }];
}

const freePorts = async (machines: Machines): Promise<number[]> =>
  machines.vms === 1 ? [] : machines.wire === "tcp" ? [await freeTcpPort()] : await freeUdpPorts();

/**
 * Waits until a QEMU listens on 127.0.0.1:port, read from /proc: a test connection would be taken
 * for the one peer QEMU accepts.
 */
export async function untilListening(port: number, timeoutMs = 60_000): Promise<void> {
  const entry = `0100007F:${port.toString(16).toUpperCase().padStart(4, "0")} 00000000:0000 0A`;
  const deadline = Date.now() + timeoutMs;
  while (!readFileSync("/proc/net/tcp", "utf8").includes(entry)) {
    if (Date.now() > deadline) throw new Error(`lab VM 2: VM 1's QEMU did not listen on 127.0.0.1:${port} within ${timeoutMs / 1000} s`);
    await sleep(50);
  }
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

/** Boots the VMs in parallel; if one fails, stops the others and throws its error. */
async function bootAll<T extends { stop(): Promise<void> }>(configs: VmConfig[], boot: (config: VmConfig) => Promise<T>): Promise<T[]> {
  const booted = await Promise.allSettled(configs.map(boot));
  const vms = booted.flatMap((b) => (b.status === "fulfilled" ? [b.value] : []));
  const failed = booted.find((b) => b.status === "rejected");
  if (failed) {
    await Promise.all(vms.map((vm) => vm.stop()));
    throw failed.reason;
  }
  return vms;
}

/**
 * Boots the VMs, each once more if it fails; on the TCP wire both boot again together, since QEMU's
 * connecting end never connects again once its peer's QEMU has gone.
 */
export function bootRetrying<T extends { stop(): Promise<void> }>(configs: VmConfig[], boot: (config: VmConfig) => Promise<T>, log: (message: string) => void): Promise<T[]> {
  if (configs.some((c) => c.network.kind === "tcp")) {
    return bootWithRetry(() => bootAll(configs, boot), (error) => log(`the VMs on the TCP wire did not boot; booting both once more. ${errorMessage(error)}`));
  }
  return bootAll(configs, (config) => bootWithRetry(() => boot(config), (error) => log(`VM ${config.index} did not boot; booting it once more. ${errorMessage(error)}`)));
}

/** Boots one VM alone, or two on one wire, in parallel (on the TCP wire, VM 2 once VM 1 listens). */
export async function bootLab(machines: Machines, artefacts: LabArtefacts, log: (message: string) => void = () => {}): Promise<Lab> {
  const base = { kernel: artefacts.kernel, initramfs: artefacts.initramfs, cwd: process.cwd(), bin: artefacts.bin };
  const configs: VmConfig[] = vmNetworks(machines, await freePorts(machines)).map((network, i) => ({ ...base, index: i + 1, network }));
  const vms = await bootRetrying(configs, async (config) => {
    if (config.network.kind === "tcp" && !config.network.listens) await untilListening(config.network.port);
    return LabVm.start(config).ready();
  }, log);
  return {
    vms,
    stop: async () => {
      await Promise.all(vms.map((vm) => vm.stop()));
    },
  };
}

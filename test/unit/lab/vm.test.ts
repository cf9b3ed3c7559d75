import { describe, expect, it } from "vitest";
import { netdevArg, qemuArgs, shellStatus, vmAddress, type VmConfig } from "../../../src/lab/vm.ts";

const base: VmConfig = { index: 1, network: { kind: "alone" }, kernel: "/k", initramfs: "/i", cwd: "/repo", bin: "/repo/.cache/lab/bin" };
const agent = { kind: "agent", log: "/t/console.log", io: "/repo/.cache/lab/io/x", control: "/t/control.sock" } as const;
const option = (args: string[], name: string) => args.filter((_, i) => args[i - 1] === name);

describe("QEMU's command line", () => {
  it("keeps every network inside the machine: user networking restricted, or a socket on 127.0.0.1", () => {
    expect(option(qemuArgs(base, agent), "-netdev")).toEqual(["user,id=wire,restrict=on"]);
    const wire = qemuArgs({ ...base, network: { kind: "udp", port: 4000, peerPort: 4001 } }, agent);
    expect(option(wire, "-netdev")).toEqual(["socket,id=wire,udp=127.0.0.1:4001,localaddr=127.0.0.1:4000"]);
  });

  it("joins two VMs by the old TCP wire on request: the first listens on 127.0.0.1, the second connects", () => {
    expect(netdevArg({ kind: "tcp", port: 4000, listens: true })).toBe("socket,id=wire,listen=127.0.0.1:4000");
    expect(netdevArg({ kind: "tcp", port: 4000, listens: false })).toBe("socket,id=wire,connect=127.0.0.1:4000");
    const listening = qemuArgs({ ...base, network: { kind: "tcp", port: 4000, listens: true } }, agent);
    expect(option(listening, "-netdev")).toEqual(["socket,id=wire,listen=127.0.0.1:4000"]);
  });

  it("emulates (TCG), shares the host's root read-only and gives each VM its own address", () => {
    const args = qemuArgs(base, agent);
    expect(option(args, "-machine")[0]).toMatch(/accel=tcg/);
    expect(option(args, "-fsdev")[0]).toMatch(/^local,id=hostroot,path=\/,.*readonly=on/);
    expect(option(args, "-fsdev")[1]).not.toMatch(/readonly/);
    const append = option(args, "-append")[0]!;
    expect(append).toContain(`lab_ip="${vmAddress(1)}/16"`);
    expect(append).toContain('lab_cwd="/repo"');
    expect(vmAddress(2)).not.toBe(vmAddress(1));
  });

  it("puts the console on the terminal for the shell, in a log file for the agent", () => {
    expect(option(qemuArgs(base, { kind: "terminal" }), "-chardev")[0]).toMatch(/^stdio,.*signal=off/);
    expect(option(qemuArgs(base, agent), "-chardev")).toEqual(expect.arrayContaining(["file,id=console,path=/t/console.log"]));
  });

  it("has the kernel skip its boot-time timer check, which a starved emulated CPU can fail", () => {
    expect(option(qemuArgs(base, agent), "-append")[0]!.split(" ")).toContain("no_timer_check");
  });

  it("refuses a setting the kernel command line cannot carry", () => {
    expect(() => qemuArgs({ ...base, cwd: '/a"b' }, agent)).toThrow("cannot contain a double quote");
  });
});

describe("the shell's exit status", () => {
  it("comes back through QEMU's debug-exit status, apart from QEMU's own failure", () => {
    expect(shellStatus(3)).toBe(0);
    expect(shellStatus(2 * (5 + 1) + 1)).toBe(5);
    expect(shellStatus(1)).toBeUndefined();
    expect(shellStatus(0)).toBeUndefined();
  });
});

// One lab VM: QEMU (TCG) booting Debian's kernel with the lab's initramfs, the host's root shared
// read-only over 9p, and a Soft-RoCE device rxe0 on its virtio NIC. In agent mode the host drives
// it over a virtio-serial port: "run ID" starts the command line in ID.cmd (in a folder shared
// read-write, where the step's output lands as ID.out) and the VM answers "exit ID STATUS".
// The console goes to a log file, never into a step's output.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { LAB_CACHE } from "./cache.ts";
import { QEMU } from "./requirements.ts";

/** The VMs' addresses: IPv4 link-local, on a wire that leaves no VM. */
export const vmAddress = (index: number): string => `169.254.101.${index}`;
const PREFIX_LENGTH = 16;
export const vmMac = (index: number): string => `52:54:00:10:11:${String(index).padStart(2, "0")}`;

export type Network =
  /** One VM: QEMU user networking with restrict=on, so nothing reaches past the VM. */
  | { kind: "alone" }
  /**
   * Two VMs joined by a socket netdev on 127.0.0.1: each sends its frames as UDP datagrams to the
   * other's port. Not a TCP stream: QEMU sets TCP_NODELAY only on the connecting side, so the
   * listening VM's small frames would wait for delayed ACKs (Nagle), about 40 ms at a time.
   */
  | { kind: "udp"; port: number; peerPort: number }
  /** The TCP stream the UDP wire replaced, Nagle and all: VM 1 listens on the port, VM 2 connects. */
  | { kind: "tcp"; port: number; listens: boolean };

/** QEMU's -netdev for a VM's network; every kind stays on the host's loopback interface. */
export function netdevArg(network: Network): string {
  switch (network.kind) {
    case "alone":
      return "user,id=wire,restrict=on";
    case "udp":
      return `socket,id=wire,udp=127.0.0.1:${network.peerPort},localaddr=127.0.0.1:${network.port}`;
    case "tcp":
      return `socket,id=wire,${network.listens ? "listen" : "connect"}=127.0.0.1:${network.port}`;
  }
}

export interface VmConfig {
  index: number;
  network: Network;
  kernel: string;
  initramfs: string;
  /** The working folder of every command (the repository root) and the programs' folder. */
  cwd: string;
  bin: string;
}

/** Where the shell's exit status is written (init.sh writes to port 244) to end QEMU at once. */
const DEBUG_EXIT_PORT = "0xf4";
/**
 * The lab shell's exit status from QEMU's: init.sh writes status + 1 to the debug-exit port, which
 * makes QEMU exit with 2 (status + 1) + 1. Anything else is QEMU's own failure (undefined).
 */
export const shellStatus = (qemuStatus: number): number | undefined =>
  qemuStatus >= 3 && qemuStatus % 2 === 1 ? (qemuStatus - 3) / 2 : undefined;

export type Console =
  | { kind: "terminal"; term?: string; rows?: number; cols?: number }
  | { kind: "agent"; log: string; io: string; control: string };

/** A kernel command-line word `name="value"`; the kernel hands it to init as an environment variable. */
function setting(name: string, value: string): string {
  if (/["\n]/.test(value)) throw new Error(`lab: ${name} '${value}' cannot contain a double quote or a new line`);
  return `${name}="${value}"`;
}

export function qemuArgs(vm: VmConfig, console: Console): string[] {
  const append = [
    "console=ttyS0",
    "quiet",
    "loglevel=1",
    "panic=-1",
    // Under TCG on a busy host the emulated CPU may not run for the few timer ticks the kernel's
    // boot-time check waits for, and it then panics ("IO-APIC + timer doesn't work!"). QEMU's
    // timer does work: skip the check, as kernels in VMs are told to.
    "no_timer_check",
    "mitigations=off", // the VM runs only the course's programs
    setting("lab_mode", console.kind === "terminal" ? "shell" : "agent"),
    setting("lab_ip", `${vmAddress(vm.index)}/${PREFIX_LENGTH}`),
    setting("lab_cwd", vm.cwd),
    setting("lab_bin", vm.bin),
  ];
  const args = [
    "-machine", "pc,accel=tcg",
    // The plainest CPU model: nothing to emulate that the lab does not use.
    "-cpu", "qemu64",
    "-smp", "1", // one emulated CPU is one host thread: two VMs fit two cores
    "-m", "1024",
    "-nodefaults", "-no-user-config", "-display", "none", "-no-reboot",
    "-kernel", vm.kernel,
    "-initrd", vm.initramfs,
    "-fsdev", "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap",
    "-device", "virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot",
  ];
  args.push("-netdev", netdevArg(vm.network), "-device", `virtio-net-pci,netdev=wire,mac=${vmMac(vm.index)}`);

  if (console.kind === "terminal") {
    // Ctrl-C belongs to the VM's shell; Ctrl-A x still leaves QEMU.
    args.push("-chardev", "stdio,id=console,mux=on,signal=off", "-serial", "chardev:console", "-mon", "chardev=console");
    args.push("-device", `isa-debug-exit,iobase=${DEBUG_EXIT_PORT},iosize=1`);
    if (console.term && /^[\w.+-]+$/.test(console.term)) append.push(setting("lab_term", console.term));
    if (console.rows && console.cols) append.push(setting("lab_rows", String(console.rows)), setting("lab_cols", String(console.cols)));
  } else {
    args.push(
      "-chardev", `file,id=console,path=${console.log}`,
      "-serial", "chardev:console",
      "-fsdev", `local,id=labio,path=${console.io},security_model=none,multidevs=remap`,
      "-device", "virtio-9p-pci,fsdev=labio,mount_tag=labio",
      "-device", "virtio-serial-pci,id=serial",
      "-chardev", `socket,id=control,path=${console.control},server=on,wait=off`,
      "-device", "virtserialport,bus=serial.0,chardev=control,name=lab.ctl",
    );
    append.push(setting("lab_io", console.io));
  }
  return [...args, "-append", append.join(" ")];
}

export interface Step {
  id: string;
  /** Where its output lands, growing while it runs. */
  outputFile: string;
  /** What the command has printed so far (stdout and stderr, as a terminal would interleave them). */
  output(): string;
  /** Its exit status (128 + N when killed by signal N). */
  exited: Promise<number>;
  kill(): void;
}

/** TCG on a busy two-core machine: a boot takes ~7 s alone, far longer when the cores are shared. */
const BOOT_TIMEOUT_MS = 180_000;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** Folders left by a process that ended without stopping its VMs (lab-<pid>-vm<n>-…). */
function removeOrphans(root: string): void {
  if (!existsSync(root)) return;
  for (const name of readdirSync(root)) {
    const pid = Number(name.match(/^lab-(\d+)-vm\d+-/)?.[1]);
    if (pid && !alive(pid)) rmSync(path.join(root, name), { recursive: true, force: true });
  }
}

/** A VM in agent mode: boot it, run command lines in it, stop it. */
export class LabVm {
  private readonly qemu: ChildProcess;
  private control?: net.Socket;
  /** Steps still running: their exit-status callbacks. */
  private readonly running = new Map<string, (status: number) => void>();
  private readyNonce?: { nonce: string; heard: () => void };
  private qemuErrors = "";
  /** Set once the VM is gone or broken: every later call fails with it. */
  private failure?: Error;
  private steps = 0;

  private constructor(
    readonly config: VmConfig,
    private readonly dir: string,
    private readonly io: string,
  ) {
    this.qemu = spawn(QEMU, qemuArgs(config, { kind: "agent", log: this.consoleLog, io, control: this.controlSocket }), {
      stdio: ["ignore", "ignore", "pipe"],
    });
    this.qemu.stderr!.on("data", (chunk: Buffer) => (this.qemuErrors += chunk.toString()));
    this.qemu.on("exit", (code, signal) => this.fail(`QEMU exited (${signal ?? `status ${code}`})`));
    this.qemu.on("error", (error) => this.fail(`QEMU did not start: ${error.message}`));
  }

  get name(): string {
    return `VM ${this.config.index}`;
  }

  private get consoleLog(): string {
    return path.join(this.dir, "console.log");
  }

  private get controlSocket(): string {
    return path.join(this.dir, "control.sock");
  }

  /** Starts QEMU; `ready` then waits for the VM to come up. */
  static start(config: VmConfig): LabVm {
    // The control socket's path must be short (sun_path), so it lives in the temporary folder; the
    // output folder must be a path the VM can mount over inside the host's root, so not under /tmp
    // (a tmpfs there).
    const io = path.join(LAB_CACHE, "io");
    for (const root of [tmpdir(), io]) removeOrphans(root);
    const dir = mkdtempSync(path.join(tmpdir(), `lab-${process.pid}-vm${config.index}-`));
    const ioDir = path.join(io, path.basename(dir));
    mkdirSync(ioDir, { recursive: true });
    return new LabVm(config, dir, ioDir);
  }

  /** Waits until the VM's agent answers (rxe0 is then ACTIVE); stops the VM if it does not. */
  async ready(timeoutMs = BOOT_TIMEOUT_MS): Promise<this> {
    try {
      await this.handshake(Date.now() + timeoutMs);
      return this;
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  private fail(reason: string): void {
    if (this.failure) return;
    this.failure = new Error(this.describeFailure(reason));
    for (const report of this.running.values()) report(-1);
    this.running.clear();
  }

  /** What went wrong, with what QEMU and the VM's console said last. */
  describeFailure(reason: string): string {
    const tail = (text: string) => text.trimEnd().split("\n").slice(-25).join("\n");
    const console = existsSync(this.consoleLog) ? readFileSync(this.consoleLog, "utf8") : "";
    return [
      `lab ${this.name}: ${reason}`,
      this.qemuErrors.trim() && `QEMU said:\n${tail(this.qemuErrors)}`,
      `its console said${console.trim() ? ` (last lines):\n${tail(console)}` : " nothing"}`,
    ]
      .filter(Boolean)
      .join("\n");
  }

  /** Connects to the control port and says hello until the agent answers with the same nonce. */
  private async handshake(deadline: number): Promise<void> {
    const nonce = randomBytes(6).toString("hex");
    const heard = new Promise<void>((resolve) => (this.readyNonce = { nonce, heard: resolve }));
    let answered = false;
    void heard.then(() => (answered = true));
    while (!answered) {
      if (this.failure) throw this.failure;
      if (Date.now() > deadline) throw new Error(this.describeFailure("the VM did not come up: its agent never answered"));
      if (!this.control && existsSync(this.controlSocket)) this.control = await this.connect();
      this.control?.write(`hello ${nonce}\n`);
      await Promise.race([heard, sleep(500)]);
    }
  }

  private connect(): Promise<net.Socket | undefined> {
    return new Promise((resolve) => {
      const socket = net.createConnection(this.controlSocket, () => {
        let buffered = "";
        socket.setEncoding("utf8");
        socket.on("data", (chunk: string) => {
          buffered += chunk;
          const lines = buffered.split("\n");
          buffered = lines.pop()!;
          for (const line of lines) this.onLine(line.trim());
        });
        socket.on("close", () => this.fail("the control connection closed"));
        resolve(socket);
      });
      socket.once("error", () => resolve(undefined));
    });
  }

  private onLine(line: string): void {
    const [verb, id, status] = line.split(" ");
    if (verb === "ready" && this.readyNonce && id === this.readyNonce.nonce) this.readyNonce.heard();
    if (verb === "exit" && id && /^\d+$/.test(status ?? "")) {
      this.running.get(id)?.(Number(status));
      this.running.delete(id);
    }
  }

  private send(line: string): void {
    if (this.failure) throw this.failure;
    this.control!.write(`${line}\n`);
  }

  /** Starts one shell command line (bash) in the repository root; returns at once. */
  run(command: string): Step {
    if (command.includes("\n")) throw new Error(`lab ${this.name}: a step is one command line, with no new line: ${JSON.stringify(command)}`);
    const id = `s${++this.steps}`;
    writeFileSync(path.join(this.io, `${id}.cmd`), command);
    const outputFile = path.join(this.io, `${id}.out`);
    const exited = new Promise<number>((resolve, reject) =>
      this.running.set(id, (status) => (status < 0 ? reject(this.failure) : resolve(status))),
    );
    this.send(`run ${id}`);
    return {
      id,
      outputFile,
      output: () => (existsSync(outputFile) ? readFileSync(outputFile, "utf8") : ""),
      exited,
      kill: () => {
        if (!this.failure) this.send(`kill ${id}`);
      },
    };
  }

  /** Powers the VM off (killing QEMU if it does not stop by itself) and removes its files. */
  async stop(): Promise<void> {
    const running = this.qemu.exitCode === null && this.qemu.signalCode === null;
    const exited = new Promise<void>((resolve) => (running ? this.qemu.once("exit", () => resolve()) : resolve()));
    if (running && this.control && !this.failure) this.control.write("quit\n");
    else this.qemu.kill("SIGKILL");
    const timer = setTimeout(() => this.qemu.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
    this.failure ??= new Error(`lab ${this.name}: stopped`);
    this.control?.destroy();
    rmSync(this.dir, { recursive: true, force: true });
    rmSync(this.io, { recursive: true, force: true });
  }
}

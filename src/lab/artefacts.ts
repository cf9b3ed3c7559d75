// Everything a lab VM boots from, built (or taken from the cache) in one call.
import { labInitramfs } from "./initramfs.ts";
import { labKernel } from "./kernel.ts";
import { compilePrograms, LAB_BIN, type CompileFailure } from "./programs.ts";
import { labProblems } from "./requirements.ts";

export interface LabArtefacts {
  kernel: string;
  initramfs: string;
  bin: string;
  /** Programs that did not compile: the lab runs without them. */
  compileFailures: CompileFailure[];
}

export class LabUnavailable extends Error {
  override name = "LabUnavailable";
}

/** Builds what changed; `log` hears about the slow steps (a first run fetches the kernel). */
export function labArtefacts(log: (message: string) => void = () => {}): LabArtefacts {
  const problems = labProblems();
  if (problems.length) throw new LabUnavailable(problems.join("\n"));
  const kernel = labKernel(log);
  return { kernel: kernel.image, initramfs: labInitramfs(kernel, log), bin: LAB_BIN, compileFailures: compilePrograms() };
}

import { describe, expect, it } from "vitest";
import { bootWithRetry } from "../../../src/lab/machines.ts";

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

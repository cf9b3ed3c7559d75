import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { shellQuote, withoutRdmaDevice } from "../../../src/lab/shell.ts";

/** What the shell makes of a command line: one argument per line. */
const wordsOf = (line: string) => spawnSync("bash", ["-c", `printf '%s\\n' ${line}`], { encoding: "utf8" }).stdout.split("\n").slice(0, -1);

describe("shell words", () => {
  it("quotes each word so the shell reads it back unchanged", () => {
    const words = ["ibv_devinfo", "-d", "rxe0", "two words", "it's", "$HOME", "a;b", "*", "", "x=1"];
    expect(wordsOf(words.map(shellQuote).join(" "))).toEqual(words);
    expect(shellQuote("rc_pingpong")).toBe("rc_pingpong");
  });

  it("runs a line without an RDMA device by giving it a network namespace of its own", () => {
    expect(wordsOf(withoutRdmaDevice("list_devices; echo 'done'"))).toEqual(["unshare", "--net", "--", "bash", "-c", "list_devices; echo 'done'"]);
  });
});

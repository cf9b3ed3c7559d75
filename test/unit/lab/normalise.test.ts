import { describe, expect, it } from "vitest";
import { normaliseOutput } from "../../../src/lab/normalise.ts";

// The same line as two real runs printed it (rc_pingpong, memory_region, ibv_devinfo, tshark,
// tcpdump), and what it is that varies.
const VARYING: [string, string, string][] = [
  ["QPN, PSN, GID", "local: QPN 0x000012, PSN 0x112bcb, LID 0x0000, GID ::ffff:169.254.101.1", "local: QPN 0x000011, PSN 0x5c09e1, LID 0x0000, GID ::ffff:169.254.101.2"],
  ["address, rkey", "       buffer 0x55f50930f000, rkey 0x000004c8", "       buffer 0x5593101c2000, rkey 0x00000632"],
  ["timing", "[1] SEND/RECV ping-pong: 10 round trips, 9041.0 us each on average", "[1] SEND/RECV ping-pong: 10 round trips, 117312.0 us each on average"],
  ["lkey", "lkey            0x00000642  (goes in our own ibv_sge)", "lkey            0x00000822  (goes in our own ibv_sge)"],
  ["GUID", "\tnode_guid:\t\t\t5054:00ff:fe10:1101", "\tnode_guid:\t\t\t5054:00ff:fe10:1102"],
  ["capture time, IPs", "    1 0.000000000 169.254.101.2 → 169.254.101.1 RRoCE 66 RC Send Only QP=0x000013", "    1 0.019295712 169.254.101.1 → 169.254.101.2 RRoCE 66 RC Send Only QP=0x000011"],
  ["clock, ephemeral port", "08:49:54.151292 IP 169.254.101.2.49152 > 169.254.101.1.4791: UDP, length 32", "09:12:01.000001 IP 169.254.101.1.50000 > 169.254.101.2.4791: UDP, length 32"],
  ["decimal QP, PID, rates", "qp 17 pid 133 took 12 ms at 3.5 Gb/s", "qp 21 pid 4242 took 130 ms at 12.25 Gb/s"],
  ["MAC", "link/ether 52:54:00:10:11:01", "link/ether 52:54:00:10:11:02"],
  ["incarnation", "server incarnation 4f939bf2719365f9: 0 records applied before this start", "server incarnation ade8dd03a9078777: 0 records applied before this start"],
  ["qdisc handle", "qdisc netem 8001: root refcnt 2 limit 1000 loss 5%", "qdisc netem 8002: root refcnt 2 limit 1000 loss 5%"],
  ["free memory", "node 0 free: 731 MB", "node 0 free: 812 MB"],
  ["memory total", "    NUMANode L#0 (P#0 961MB)", "    NUMANode L#0 (P#0 957MB)"],
  ["tshark's UDP source port", "User Datagram Protocol, Src Port: 49441, Dst Port: 4791", "User Datagram Protocol, Src Port: 50012, Dst Port: 4791"],
  ["tshark's PSN", "        Packet Sequence Number: 11391411", "        Packet Sequence Number: 9565782"],
  ["IP identification", "    Identification: 0x6787 (26503)", "    Identification: 0x1c9a (7322)"],
  ["tcpdump's filter count", "2 packets received by filter", "1542 packets received by filter"],
];

describe("normalising program output", () => {
  it.each(VARYING)("evens out what varies: %s", (_what, a, b) => {
    expect(normaliseOutput(a)).toBe(normaliseOutput(b));
  });

  it("keeps what should not change: counts, sizes, names, states and words", () => {
    for (const [a, b] of [
      ["[1] SEND/RECV ping-pong: 10 round trips", "[1] SEND/RECV ping-pong: 11 round trips"],
      ["length          65536 bytes", "length          4096 bytes"],
      ["max_qp          1048560", "max_qp          1048561"],
      ["RTR -> RTS      QP 0x000013 is in RTS", "RTR -> RTS      QP 0x000013 is in ERR"],
      ["12 packets captured", "11 packets captured"],
      ["all steps passed", "a step failed"],
      ["qdisc netem 8001: root refcnt 2 limit 1000 loss 5%", "qdisc netem 8001: root refcnt 2 limit 1000 loss 10%"],
      ["User Datagram Protocol, Src Port: 49441, Dst Port: 4791", "User Datagram Protocol, Src Port: 49441, Dst Port: 4792"],
      ["        Message Sequence Number: 1", "        Message Sequence Number: 2"],
      ["64 MiB   touched", "16 MiB   touched"],
      ["DMA Length: 64 (0x00000040)", "DMA Length: 128 (0x00000080)"],
    ]) {
      expect(normaliseOutput(a!), `${a} vs ${b}`).not.toBe(normaliseOutput(b!));
    }
  });

  it("ignores how many spaces line columns up, trailing blanks and carriage returns", () => {
    expect(normaliseOutput("state   active  \r\nport 1\n\n")).toBe(normaliseOutput("state active\nport 1"));
  });
});

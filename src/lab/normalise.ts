// What legitimately differs between two runs of the same program in the lab, replaced by
// placeholders so that a stored transcript can be compared with a fresh run: addresses and other
// hexadecimal values (keys, QPNs, PSNs, random identifiers), GIDs, MACs, IP addresses and ephemeral
// ports, qdisc handles, amounts of memory, tcpdump's packet count, timings, rates and other measured fractions, PIDs, and
// the spacing that lines numbers up in columns. The constant parts of an output (hexadecimal
// constants included) are for a run's `expect` patterns to check.

const RULES: [RegExp, string][] = [
  // Clock times (tcpdump, tshark) and dates.
  [/\b\d{1,2}:\d{2}:\d{2}(?:\.\d+)?\b/g, "<time>"],
  [/\b\d{4}-\d{2}-\d{2}\b/g, "<date>"],
  // MACs before GIDs: both are hex groups joined by colons.
  [/\b[0-9a-f]{2}(?::[0-9a-f]{2}){5}\b/gi, "<mac>"],
  // GIDs and other IPv6 addresses, full or compressed, IPv4-mapped too; GUIDs (xxxx:xxxx:xxxx:xxxx).
  [/(?<![\w:])(?:[0-9a-f]{0,4}:){2,7}(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f]{1,4})?(?![\w:])/gi, "<gid>"],
  [/\b\d{1,3}(?:\.\d{1,3}){3}\b/g, "<ip>"],
  // Ephemeral ports after an address (tcpdump writes 169.254.101.2.49152) or a tshark field name
  // ("Src Port: 49441"): fixed ports such as 4791 stay.
  [/(<ip>[.:]|\bPort: )(?:3[2-9]\d{3}|[4-6]\d{4})\b/g, "$1<port>"],
  // A value tshark shows in hexadecimal and then in decimal: "Identification: 0x6787 (26503)".
  [/\b0x[0-9a-f]+ \(\d+\)/gi, "0x<hex> (<n>)"],
  [/\b0x[0-9a-f]+\b/gi, "0x<hex>"],
  // Random identifiers written as long bare hexadecimal (a server's incarnation).
  [/\b[0-9a-f]{16,}\b/gi, "<hex>"],
  // A qdisc's handle, numbered by the kernel in the order qdiscs were made: "qdisc netem 8001: root".
  [/\b(qdisc \w+ )[0-9a-f]+:/g, "$1<handle>:"],
  // tcpdump's count of packets its filter passed before it stopped: with -c N, the N it kept plus
  // those that arrived while it was closing.
  [/^\d+ (packets received by filter)$/gm, "<n> $1"],
  // Keys, queue pair numbers, PSNs and PIDs written in decimal.
  [/\b(lkey|rkey|key|qpn|qp|psn|packet sequence number|pid)(\s*[=:]?\s*)\d+\b/gi, "$1$2<n>"],
  // Amounts of memory as numactl and lstopo print them ("free: 731 MB", "961MB total"): what the
  // kernel leaves free differs from boot to boot and from one kernel version to the next.
  [/\b\d+(\s?)([MG]B)\b(?!\/)/g, "<n>$1$2"],
  // Timings and rates, with their unit, then any other fractional number (a measured value).
  [/\b\d+(?:\.\d+)?(\s*)(ns|us|µs|usec|ms|msec|s|sec|secs|seconds|[KMG]i?B\/s(?:ec)?|[KMG]b(?:it)?\/s|[KM]pps|ops\/s)(?![\w/])/g, "<n>$1$2"],
  [/\b\d+\.\d+\b/g, "<n>"],
  [/[ \t]+/g, " "],
];

export function normaliseOutput(output: string): string {
  let text = output.replace(/\r\n/g, "\n");
  for (const [pattern, replacement] of RULES) text = text.replace(pattern, replacement);
  return text
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .trimEnd();
}

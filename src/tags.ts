// Tags are compared and linked by slug, so "RDMA" and "rdma" are one tag. The symbols that tell
// programming languages apart are spelled out, so "C++", "C#" and "C" stay three tags.
const SPELLED: Record<string, string> = { "+": " plus ", "#": " sharp " };

export function tagSlug(tag: string): string {
  return tag
    .normalize("NFKC")
    .trim()
    .toLowerCase()
    .replace(/[+#]/g, (symbol) => SPELLED[symbol]!)
    .replace(/[^\p{Letter}\p{Number}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
}

// Tags are compared and linked by slug, so "RDMA" and "rdma" are one tag.
export function tagSlug(tag: string): string {
  return tag
    .normalize("NFKC")
    .trim()
    .toLowerCase()
    .replace(/[^\p{Letter}\p{Number}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
}

import { describe, expect, it } from "vitest";
import { parsePublications } from "../../src/bibtex.ts";
import { breadcrumbs, jsonLdHtml, structuredData } from "../../src/metadata.ts";

const site = { url: "https://example.org", timezone: "Asia/Shanghai" } as never;
const profile = { names: { en: "Feng Ren", zh: "任峰" }, headline: { en: "Researcher", zh: "研究者" }, links: [{ url: "https://github.com/alogfans" }, {}] };
const course = { title: "RDMA 101", description: "A course." } as never;
const [paper] = parsePublications("@inproceedings{k, title={A Paper}, author={Ren, Feng}, booktitle={B}, year={2024}, pages={1--9}}", "f.bib") as [never];
/** The JSON-LD of the paper page of the one entry in a BibTeX source. */
const articleOf = (source: string) => {
  const [pub] = parsePublications(source, "f.bib") as [never];
  return structuredData({ url: "/publications/k/", lang: "en", head: { title: "A Paper", description: "", type: "article" }, paper: pub }, { site, profile, course })[0]!;
};

describe("structured data", () => {
  it("describes the homepage's person with the profiles elsewhere as sameAs, and the other name", () => {
    const [person, ...rest] = structuredData({ url: "/zh/", lang: "zh", head: { description: "", type: "website" }, route: "home" }, { site, profile, course });
    expect(rest).toEqual([]);
    expect(person).toMatchObject({ "@context": "https://schema.org", "@type": "Person", name: "任峰", alternateName: ["Feng Ren"], url: "https://example.org/zh/", sameAs: ["https://github.com/alogfans"] });
  });

  it("describes a paper and its breadcrumbs with absolute addresses", () => {
    const facts = { url: "/publications/k/", lang: "en", head: { title: "A Paper", description: "", type: "article" }, paper } as const;
    const [article, trail] = structuredData(facts, { site, profile, course });
    expect(article).toMatchObject({ "@type": "ScholarlyArticle", headline: "A Paper", datePublished: "2024", pageStart: "1", pageEnd: "9", url: "https://example.org/publications/k/" });
    expect(trail).toMatchObject({ "@type": "BreadcrumbList" });
    expect((trail!.itemListElement as { item: string }[]).map((i) => i.item)).toEqual(["https://example.org/", "https://example.org/publications/", "https://example.org/publications/k/"]);
    expect(breadcrumbs(facts, course).at(-1)).toEqual({ name: "A Paper", url: "/publications/k/", lang: "en" });
  });

  it("gives a paper the abstract of its own record, not that of a preprint of it published elsewhere", () => {
    const bib = (venue: string, id: string) =>
      `@article{k, title={A Paper}, author={Ren, Feng}, journal={${venue}}, year={2024}, eprint={${id}}, archiveprefix={arXiv}, abstracturl={https://arxiv.org/abs/${id}}, abstract={Text.}}`;
    const abstractOf = (source: string) => articleOf(source).abstract;
    expect(abstractOf(bib("arXiv preprint arXiv:2604.00368", "2604.00368"))).toBe("Text.");
    expect(abstractOf(bib("ACM Transactions on Storage", "2407.00079"))).toBeUndefined();
  });

  it("names as sameAs the paper's own records, not the arXiv preprint of a paper published elsewhere", () => {
    const sameAsOf = (venue: string, id: string, doi = "") =>
      articleOf(`@article{k, title={A Paper}, author={Ren, Feng}, journal={${venue}}, year={2024}, eprint={${id}}, archiveprefix={arXiv}${doi && `, doi={${doi}}`}}`).sameAs;
    expect(sameAsOf("arXiv preprint arXiv:2604.00368", "2604.00368")).toEqual(["https://arxiv.org/abs/2604.00368"]);
    expect(sameAsOf("ACM Transactions on Storage", "2407.00079", "10.1145/1")).toEqual(["https://doi.org/10.1145/1"]);
    expect(sameAsOf("ACM Transactions on Storage", "2407.00079")).toBeUndefined();
  });

  it("gives a page that is none of the described kinds nothing", () => {
    expect(structuredData({ url: "/tags/", lang: "en", head: { description: "", type: "website" }, route: "tags" }, { site, profile, course })).toEqual([]);
  });
});

describe("jsonLdHtml", () => {
  it("writes data blocks no value can break out of, which parse back to the same data", () => {
    const thing = { name: "A </script><script>alert(1)</script>" };
    const html = jsonLdHtml([thing]);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(JSON.parse(html.replace(/^<script type="application\/ld\+json">|<\/script>$/g, ""))).toEqual(thing);
  });
});

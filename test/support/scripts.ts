// Scripts in a built page, as a browser sees them: code runs, data blocks (JSON-LD, JSON) do not.
export interface PageScript {
  attributes: string;
  /** The inline text; empty for an external script. */
  body: string;
  external: boolean;
  /** A data block: JSON-LD for search engines, JSON for the page's own use. A browser never runs it. */
  data: boolean;
}

const DATA_TYPES = /\stype="application\/(?:ld\+)?json"/;

export function scriptsIn(html: string): PageScript[] {
  return [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map(([, attributes = "", body = ""]) => ({
    attributes,
    body,
    external: /\ssrc=/.test(attributes),
    data: DATA_TYPES.test(attributes),
  }));
}

// What the dev server may serve between a change and the rebuild that covers it (src/quick-edit.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { Freshness, pushedHtml } from "../../src/quick-edit.ts";

/** A request through the middleware: what it answered from memory, or that it passed on to the files. */
function request(freshness: Freshness, url: string) {
  let answer: string | undefined;
  const response = { setHeader: () => undefined, end: (html: string) => (answer = `memory: ${html}`) } as unknown as ServerResponse;
  return freshness.middleware({ url } as IncomingMessage, response, () => (answer = "files")).then(() => answer);
}

/** Whether a promise is still pending after everything queued so far has run. */
async function pending(promise: Promise<unknown>): Promise<boolean> {
  const marker = Symbol();
  return (await Promise.race([promise, new Promise((r) => setTimeout(() => r(marker), 20))])) === marker;
}

const quick = { inputPath: "./posts/blog/a.md", url: "/posts/a/", html: "<p>new</p>", outputPath: false as const };

describe("Freshness", () => {
  it("serves the files while nothing changed since the last build", async () => {
    await expect(request(new Freshness(), "/posts/a/")).resolves.toBe("files");
  });

  it("holds requests from a change until the build that covers it ends", async () => {
    const freshness = new Freshness();
    freshness.changed();
    const held = request(freshness, "/feed.xml");
    expect(await pending(held)).toBe(true);
    freshness.buildStarted();
    expect(await pending(held)).toBe(true);
    freshness.buildEnded();
    await expect(held).resolves.toBe("files");
  });

  it("keeps holding when a change arrives during the build, until the next build ends", async () => {
    const freshness = new Freshness();
    freshness.changed();
    freshness.buildStarted();
    freshness.changed();
    freshness.buildEnded();
    const held = request(freshness, "/posts/b/");
    expect(await pending(held)).toBe(true);
    freshness.buildStarted();
    freshness.buildEnded();
    await expect(held).resolves.toBe("files");
  });

  it("answers a held request for a quick page as soon as it is shown, and nothing else", async () => {
    const freshness = new Freshness();
    freshness.changed();
    const page = request(freshness, "/posts/a/index.html?x=1");
    const list = request(freshness, "/posts/");
    freshness.buildStarted();
    expect(freshness.show(quick, freshness.changes)).toBe(true);
    await expect(page).resolves.toBe("memory: <p>new</p>");
    expect(await pending(list)).toBe(true);
    freshness.buildEnded();
    await expect(list).resolves.toBe("files");
    // Once the rebuild is done, its files are the page.
    await expect(request(freshness, "/posts/a/")).resolves.toBe("files");
  });

  it("forgets a quick page when its file changes again", async () => {
    const freshness = new Freshness();
    freshness.changed();
    freshness.show(quick, freshness.changes);
    freshness.changed();
    expect(await pending(request(freshness, "/posts/a/"))).toBe(true);
  });

  it("does not show a quick page of a version saved over while it rendered", async () => {
    const freshness = new Freshness();
    freshness.changed();
    const read = freshness.changes;
    freshness.changed();
    expect(freshness.show(quick, read)).toBe(false);
    expect(await pending(request(freshness, "/posts/a/"))).toBe(true);
  });

  it("drops quick pages as soon as another file changes during the rebuild, and when that build ends", async () => {
    const freshness = new Freshness();
    freshness.changed();
    freshness.buildStarted();
    freshness.show(quick, freshness.changes);
    // b may be a's neighbour (a's page shows its title), a data file or a layout: a's quick page is older than b's change.
    freshness.changed();
    expect(await pending(request(freshness, "/posts/a/"))).toBe(true);
    freshness.buildEnded();
    expect(await pending(request(freshness, "/posts/a/"))).toBe(true);
  });

  it("answers a request whose address cannot be decoded with 400", async () => {
    const freshness = new Freshness();
    let status = 0;
    const response = { set statusCode(code: number) { status = code; }, end: () => undefined } as unknown as ServerResponse;
    await freshness.middleware({ url: "/%" } as IncomingMessage, response, () => undefined);
    expect(status).toBe(400);
  });

  it("lets requests through when Eleventy settles without a build (a broken configuration)", async () => {
    const freshness = new Freshness();
    freshness.changed();
    const held = request(freshness, "/");
    freshness.settled();
    await expect(held).resolves.toBe("files");
  });

  it("lets requests through when a rebuild stops before writing (its configuration failed to load)", async () => {
    const freshness = new Freshness();
    freshness.changed();
    freshness.buildStarted();
    const held = request(freshness, "/");
    freshness.settled();
    await expect(held).resolves.toBe("files");
  });
});

describe("the HTML pushed to an open page", () => {
  const ld = (headline: string) => `<script type="application/ld+json">{"headline":"${headline}"}</script>`;
  const page = (title: string, ...data: string[]) => `<head><title>${title}</title>${data.join("\n")}<script>theme()</script></head><body><h1>${title}</h1></body>`;

  it("keeps the structured data the browser shows, so that Eleventy's client does not reload the page, and the rest new", () => {
    expect(pushedHtml(page("New", ld("New"), ld("Site")), page("Old", ld("Old"), ld("Site")))).toBe(page("New", ld("Old"), ld("Site")));
  });

  it("is the quick page itself when the structured data blocks do not pair up", () => {
    expect(pushedHtml(page("New", ld("New")), page("Old"))).toBe(page("New", ld("New")));
    expect(pushedHtml(page("New", ld("New")), "")).toBe(page("New", ld("New")));
  });
});

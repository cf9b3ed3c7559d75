// What the dev server may serve between a change and the rebuild that covers it (src/quick-edit.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { Freshness } from "../../src/quick-edit.ts";

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

const quick = { inputPath: "./posts/blog/a.md", url: "/posts/a/", html: "<p>new</p>" };

describe("Freshness", () => {
  it("serves the files while nothing changed since the last build", async () => {
    await expect(request(new Freshness(), "/posts/a/")).resolves.toBe("files");
  });

  it("holds requests from a change until the build that covers it ends", async () => {
    const freshness = new Freshness();
    freshness.changed("./posts/blog/a.md");
    const held = request(freshness, "/feed.xml");
    expect(await pending(held)).toBe(true);
    freshness.buildStarted();
    expect(await pending(held)).toBe(true);
    freshness.buildEnded();
    await expect(held).resolves.toBe("files");
  });

  it("keeps holding when a change arrives during the build, until the next build ends", async () => {
    const freshness = new Freshness();
    freshness.changed("./posts/blog/a.md");
    freshness.buildStarted();
    freshness.changed("./posts/blog/b.md");
    freshness.buildEnded();
    const held = request(freshness, "/posts/b/");
    expect(await pending(held)).toBe(true);
    freshness.buildStarted();
    freshness.buildEnded();
    await expect(held).resolves.toBe("files");
  });

  it("answers a held request for a quick page as soon as it is shown, and nothing else", async () => {
    const freshness = new Freshness();
    freshness.changed("./posts/blog/a.md");
    const page = request(freshness, "/posts/a/index.html?x=1");
    const list = request(freshness, "/posts/");
    freshness.show(quick);
    await expect(page).resolves.toBe("memory: <p>new</p>");
    expect(await pending(list)).toBe(true);
    freshness.buildStarted();
    freshness.buildEnded();
    await expect(list).resolves.toBe("files");
    // Once the rebuild is done, its files are the page.
    await expect(request(freshness, "/posts/a/")).resolves.toBe("files");
  });

  it("forgets a quick page when its file changes again", async () => {
    const freshness = new Freshness();
    freshness.changed("./posts/blog/a.md");
    freshness.show(quick);
    freshness.changed("posts/blog/a.md");
    expect(await pending(request(freshness, "/posts/a/"))).toBe(true);
  });

  it("lets requests through when Eleventy settles without a build (a broken configuration)", async () => {
    const freshness = new Freshness();
    freshness.changed(".eleventy.ts");
    const held = request(freshness, "/");
    freshness.settled();
    await expect(held).resolves.toBe("files");
  });

  it("does not settle while a build runs", async () => {
    const freshness = new Freshness();
    freshness.changed("./posts/blog/a.md");
    freshness.buildStarted();
    freshness.settled();
    expect(await pending(request(freshness, "/"))).toBe(true);
  });
});

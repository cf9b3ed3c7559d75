import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatTranscript } from "../../src/lab/transcript.ts";
import { readContentFile } from "../../src/content.ts";
import { createMarkdown } from "../../src/markdown.ts";
import { t } from "../../src/i18n.ts";
import { LAB_COMMANDS, lessonRefs, loadRuns, runIds } from "../../src/lab/runs.ts";
import { commandName, transcriptHtml } from "../../src/transcripts.ts";
import { routes } from "../../src/urls.ts";

const md = createMarkdown();
const root = mkdtempSync(path.join(tmpdir(), "transcripts-"));
/** A page at `relative` under a temporary folder whose front matter (one line) has been read as the build reads it. */
function page(relative: string, _body: string): { page: { inputPath: string } } {
  const inputPath = path.join(root, relative);
  readContentFile("---\ntitle: T\n---\n", inputPath);
  return { page: { inputPath } };
}
const renderError = (relative: string, body: string): string => {
  try {
    md.render(body, page(relative, body));
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected the render to fail");
};
const at = (relative: string, line: number) => `${path.relative(process.cwd(), path.join(root, relative))}:${line}`;
const text = (html: string) => html.replace(/<[^>]+>/g, "").replaceAll("&#39;", "'").replaceAll("&quot;", '"').replaceAll("&gt;", ">").replaceAll("&lt;", "<").replaceAll("&amp;", "&");

describe("the transcript directive", () => {
  it("shows every step of every captured run as `$ command` then its output, with the lab caption", () => {
    for (const run of loadRuns(runIds())) {
      const html = transcriptHtml(run.id, undefined, "page.md:1");
      expect(html).toMatch(/^<figure class="transcript">/);
      expect(html).toContain(`<a href="${routes.courseLab(run.id)}">`);
      expect(text(html)).toContain(LAB_COMMANDS.run(run.id));
      expect(html.match(/<pre tabindex="0"/g)).toHaveLength(run.steps.length);
      let from = 0;
      for (const step of run.steps) {
        const found = text(html).indexOf(`$ ${step.run}\n`, from);
        expect(found, `${run.id}: $ ${step.run}`).toBeGreaterThanOrEqual(from);
        from = found;
      }
    }
  });

  it("names each block by its command, cut at a space with an ellipsis when long, for the screen reader that speaks it at each block", () => {
    const long = `tcpdump -i eth0 -c 12 -w /tmp/p.pcap 'udp port 4791' && tshark --log-level warning -r /tmp/p.pcap`;
    expect(commandName("rc_pingpong 169.254.101.1")).toBe("rc_pingpong 169.254.101.1");
    expect(commandName(long)).toBe("tcpdump -i eth0 -c 12 -w /tmp/p.pcap 'udp port 4791' && …");
    expect(commandName("x".repeat(70))).toBe(`${"x".repeat(60)} …`);
    // Every captured run's blocks: none is named at more than that length, each by its own command.
    for (const run of loadRuns(runIds())) {
      const names = [...transcriptHtml(run.id, undefined, "page.md:1").matchAll(/<pre [^>]*aria-label="([^"]*)"/g)].map((m) => text(m[1]!));
      names.forEach((name, i) => {
        expect(name.length, `${run.id}: ${name}`).toBeLessThanOrEqual("Output of ".length + 62);
        expect(run.steps[i]!.run.startsWith(name.replace(/^Output of /, "").replace(/ …$/, "")), `${run.id}: ${name}`).toBe(true);
      });
    }
  });

  it("names each run under its first transcript on the page, and says what the lab is under the page's first only", () => {
    const [a, b] = loadRuns(runIds()).filter((r) => r.steps.length > 1);
    const fence = (run: string, step: string) => `\`\`\`transcript\nrun: ${run}\nstep: ${step}\n\`\`\`\n\n`;
    const body = fence(a!.id, a!.steps[0]!.name) + fence(a!.id, a!.steps[1]!.name) + fence(b!.id, b!.steps[0]!.name);
    const figures = md.render(body, page("lesson.md", body)).split("</figure>").slice(0, -1);
    const captions = figures.map((f) => text(f.match(/<figcaption[^>]*>(.*)<\/figcaption>/s)?.[1] ?? ""));
    const software = t("en", "transcript.software");
    expect(captions[0]).toContain(a!.title);
    expect(captions[0]).toContain(LAB_COMMANDS.run(a!.id));
    expect(captions[0]).toContain(software);
    expect(captions[1], "a second step of the same run").toBe("");
    expect(captions[2]).toContain(b!.title);
    expect(captions[2]).toContain(LAB_COMMANDS.run(b!.id));
    expect(captions[2]).not.toContain(software);
  });

  it("renders from a fenced block in Markdown, one step when asked", () => {
    // The capstone has a server and a client at least.
    const run = loadRuns(runIds()).find((r) => r.steps.length > 1);
    expect(run, "a run with several steps").toBeDefined();
    const last = run!.steps.at(-1)!;
    const body = `Intro.\n\n\`\`\`transcript\nrun: ${run!.id}\nstep: ${last.name}\n\`\`\`\n`;
    const html = md.render(body, page("post.md", body));
    expect(html.match(/<pre tabindex="0"/g)).toHaveLength(1);
    expect(text(html)).toContain(`$ ${last.run}\n`);
  });

  it("stops the build naming the page's line for a missing run, step, transcript or a stale one", () => {
    const [someRun] = runIds();
    expect(renderError("a.md", "```transcript\nrun: no-such-run\n```\n")).toBe(`${at("a.md", 4)}: transcript.run: no lab run 'no-such-run' (posts/rdma101/labs/no-such-run.yaml)`);
    expect(renderError("a.md", `\`\`\`transcript\nrun: ${someRun}\nstep: no-such-step\n\`\`\`\n`)).toMatch(new RegExp(`^${at("a.md", 4)}: transcript.step: run '${someRun}' has no step 'no-such-step' \\(it has `));
    expect(renderError("a.md", "```transcript\nrun: x\ncolour: red\n```\n")).toBe(`${at("a.md", 4)}: transcript.colour: unknown field`);

    const labs = mkdtempSync(path.join(tmpdir(), "labs-"));
    const [lesson] = lessonRefs();
    writeFileSync(path.join(labs, "demo.yaml"), `title: Demo\nlesson: ${lesson}\nsteps:\n  - name: a\n    run: echo a\n  - name: b\n    run: echo b\n`);
    expect(() => transcriptHtml("demo", undefined, "p.md:9", labs)).toThrow("p.md:9: transcript.run: 'demo' has no transcript yet: run npm run lab:capture demo");
    writeFileSync(path.join(labs, "demo.out"), formatTranscript("demo", "demo.yaml", [{ name: "a", vm: 1, run: "echo a", status: 0, output: "a\n" }]));
    expect(() => transcriptHtml("demo", undefined, "p.md:9", labs)).toThrow(`p.md:9: transcript.run: ${labs}/demo.out no longer matches ${labs}/demo.yaml`);
  });
});

describe("program output in lessons", () => {
  const lesson = "posts/rdma101/01-part/02-lesson.md";

  it("is refused as a hand-written console, output or text block, naming the file and line", () => {
    for (const lang of ["console", "output", "text", "shell-session"]) {
      expect(renderError(lesson, `Intro.\n\n\`\`\`${lang}\n$ ./list_devices\n1 RDMA device found\n\`\`\`\n`)).toBe(
        `${at(lesson, 6)}: ${lang}: a lesson shows program output only with the transcript directive (a run captured in the lab, posts/rdma101/labs/); commands to type go in a sh block`,
      );
    }
  });

  it("is allowed elsewhere, and commands stay allowed in lessons", () => {
    const post = "posts/blog/a-post.md";
    expect(md.render("```text\nsome output\n```\n", page(post, "```text\nsome output\n```\n"))).toContain("some output");
    expect(md.render("```sh\n./list_devices\n```\n", page(lesson, "```sh\n./list_devices\n```\n"))).toContain("list_devices");
  });
});

// Directives: the only Markdown syntax beyond CommonMark's own (and the ::: containers). A directive
// is a fenced block whose info string is its name and whose body is YAML, validated by the
// directive's schema in ./schemas.ts:
//
//   ```figure
//   file: write-then-notify.svg
//   alt: What the drawing shows, in words.
//   caption: The caption.
//   ```
//
// Markdown is not run through a template engine, so prose and code are always taken literally;
// this table is where every rich block a page can hold is listed.
import type { z } from "zod";
import type { Lang } from "./languages.ts";
import { validate } from "./validation.ts";
import { chartDirective } from "./charts.ts";
import { exampleDirective } from "./examples.ts";
import { figureDirective } from "./figures.ts";
import { transcriptDirective } from "./transcripts.ts";
import { readYaml } from "./yaml.ts";

/** Where a directive sits: the page's project-relative path, the fence's first line (1-based), the page's language. */
export interface DirectiveContext {
  file: string;
  line: number;
  lang: Lang;
}

export interface Directive<S extends z.ZodType = z.ZodType> {
  schema: S;
  /** `above()`: the same directive's data earlier on the page, in order (what it has already said). */
  render: (data: z.output<S>, where: DirectiveContext, above: () => z.output<S>[]) => string;
}

export const DIRECTIVES: Record<string, Directive<z.ZodType>> = {
  figure: figureDirective,
  example: exampleDirective,
  chart: chartDirective,
  transcript: transcriptDirective,
};

/**
 * Renders the directive `name` from its YAML body, given the bodies of the same directive above it
 * on the page (already rendered, so valid); mistakes read `file:line: name.field: reason`.
 */
export function renderDirective(name: string, body: string, where: DirectiveContext, above: () => string[] = () => []): string {
  const directive = DIRECTIVES[name]!;
  const at = `${where.file}:${where.line}`;
  const data = (yaml: string) => validate(directive.schema, readYaml(yaml, at, name) ?? {}, at, name);
  // Read only by a directive that asks: most never look above.
  return directive.render(data(body), where, () => above().map(data));
}

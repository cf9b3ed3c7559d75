// The one YAML reader and front matter writer: YAML 1.2's core schema, so dates and "yes"/"no"
// stay the text written, with syntax errors reported as `file: where: reason`. Every YAML the site
// reads (front matter, data, directives, UI strings) is refused with a control character in any
// text, as no feed could carry it. js-yaml reads (about five times faster than the `yaml` package
// on a thousand posts' front matter, docs/performance.md) and writes what the scaffold creates, in
// the same schema, so what it writes reads back as written.
import { CORE_SCHEMA, dump, load, YAMLException } from "js-yaml";
import { controlCharacterIn } from "./content-safety.ts";
import { contentError, fieldName } from "./validation.ts";

export function readYaml(source: string, file: string, where = "(syntax)"): unknown {
  let value: unknown;
  try {
    value = load(source, { schema: CORE_SCHEMA });
  } catch (error) {
    if (error instanceof YAMLException) throw contentError([`${file}: ${where}: ${error.reason}${error.mark ? ` at line ${error.mark.line + 1}, column ${error.mark.column + 1}` : ""}`]);
    throw error;
  }
  const control = controlCharacterIn(value);
  if (control) throw contentError([`${file}: ${fieldName(control.path)}: ${control.reason}`]);
  return value;
}

/** A Markdown file's text: the front matter as YAML between `---` lines, then the body as given. */
export const withFrontMatter = (front: object, body: string): string => `---\n${dump(front, { schema: CORE_SCHEMA, lineWidth: -1 })}---\n${body}`;

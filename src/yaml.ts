// The one YAML reader and front matter writer: YAML 1.2, so dates and "yes"/"no" stay the text
// written, with syntax errors reported as `file: where: reason`. Every YAML the site reads (front
// matter, data, directives, UI strings) is refused with a control character in any text, as no
// feed could carry it.
import { parse, stringify, YAMLParseError } from "yaml";
import { controlCharacterIn } from "./content-safety.ts";
import { contentError, fieldName } from "./validation.ts";

export function readYaml(source: string, file: string, where = "(syntax)"): unknown {
  let value: unknown;
  try {
    value = parse(source);
  } catch (error) {
    if (error instanceof YAMLParseError) throw contentError([`${file}: ${where}: ${error.message.split("\n")[0]}`]);
    throw error;
  }
  const control = controlCharacterIn(value);
  if (control) throw contentError([`${file}: ${fieldName(control.path)}: ${control.reason}`]);
  return value;
}

/** A Markdown file's text: the front matter as YAML between `---` lines, then the body as given. */
export const withFrontMatter = (front: object, body: string): string => `---\n${stringify(front)}---\n${body}`;

// The one YAML reader: YAML 1.2, so dates and "yes"/"no" stay the text written, with syntax errors
// reported as `file: where: reason`.
import { parse, YAMLParseError } from "yaml";
import { contentError } from "./validation.ts";

export function readYaml(source: string, file: string, where = "(syntax)"): unknown {
  try {
    return parse(source);
  } catch (error) {
    if (error instanceof YAMLParseError) throw contentError([`${file}: ${where}: ${error.message.split("\n")[0]}`]);
    throw error;
  }
}

/**
 * Puts cortex's entry into a JSON (or JSONC: comments, trailing commas) configuration without touching
 * anything else: jsonc-parser edits the text in place, so other servers, other settings, comments and
 * formatting stay as they were. The result is parsed again and compared with the original before it
 * may be written; a file that does not parse, or whose servers key is not an object, is refused.
 */
import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import { isDeepStrictEqual } from "node:util";
import { CortexError } from "../../core/errors.ts";

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true };

/** Parses JSON or JSONC; throws naming the file, the problem and where it is. */
export function parseJsonConfig(text: string, file: string): Record<string, unknown> {
  const errors: ParseError[] = [];
  const value = parse(text, errors, PARSE_OPTIONS) as unknown;
  if (errors.length > 0) {
    const e = errors[0]!;
    const before = text.slice(0, e.offset);
    const line = before.split("\n").length;
    const column = e.offset - before.lastIndexOf("\n");
    throw new CortexError("INVALID_INPUT", `${file} is not valid JSON: ${printParseErrorCode(e.error)} at line ${line}, column ${column}`);
  }
  if (value === undefined) return {};
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new CortexError("INVALID_INPUT", `${file} does not hold a JSON object`);
  return value as Record<string, unknown>;
}

function indentOf(text: string): { insertSpaces: boolean; tabSize: number } {
  const m = /^([ \t]+)["}]/m.exec(text);
  if (!m) return { insertSpaces: true, tabSize: 2 };
  return m[1]!.startsWith("\t") ? { insertSpaces: false, tabSize: 1 } : { insertSpaces: true, tabSize: m[1]!.length };
}

/** The text with `servers[name]` set to `entry`; everything else as it was. */
export function mergeJsonEntry(text: string, serversKey: string, name: string, entry: unknown, file: string): string {
  const before = parseJsonConfig(text, file);
  const servers = before[serversKey];
  if (servers !== undefined && (servers === null || typeof servers !== "object" || Array.isArray(servers))) {
    throw new CortexError("INVALID_INPUT", `${file}: "${serversKey}" is not an object`);
  }
  const source = text.trim() === "" ? "{}\n" : text;
  const eol = source.includes("\r\n") ? "\r\n" : "\n";
  const edits = modify(source, [serversKey, name], entry, { formattingOptions: { ...indentOf(source), eol } });
  const after = applyEdits(source, edits);
  const check = parseJsonConfig(after, file);
  const rest = (o: Record<string, unknown>) => {
    const s = { ...((o[serversKey] as Record<string, unknown> | undefined) ?? {}) };
    delete s[name];
    return { ...o, [serversKey]: s };
  };
  if (!isDeepStrictEqual((check[serversKey] as Record<string, unknown>)[name], entry) || !isDeepStrictEqual(rest(check), rest(before))) {
    throw new CortexError("INVALID_INPUT", `${file}: cortex could not add its entry without changing something else; add it by hand`);
  }
  return after;
}

/** cortex's entry in a parsed configuration, if any. */
export function jsonEntry(config: Record<string, unknown>, serversKey: string, name: string): unknown {
  const servers = config[serversKey];
  return servers && typeof servers === "object" && !Array.isArray(servers) ? (servers as Record<string, unknown>)[name] : undefined;
}

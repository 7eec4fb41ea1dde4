/**
 * Puts cortex's entry into a JSON (or JSONC: comments, trailing commas) configuration without touching
 * anything else: jsonc-parser edits the text in place, so other servers, other settings, comments and
 * formatting stay as they were. The result is parsed again and compared with the original before it
 * may be written; a file that does not parse, or whose servers key is not an object, is refused.
 */
import { applyEdits, findNodeAtLocation, modify, parse, parseTree, printParseErrorCode, type Node, type ParseError } from "jsonc-parser";
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
  const format = { ...indentOf(source), eol };
  const tree = parseTree(source, [], PARSE_OPTIONS);
  const serversNode = tree ? findNodeAtLocation(tree, [serversKey]) : undefined;
  // a new key is written in by hand: jsonc-parser's insertion reformats the other members of the object
  // (a server kept on one line was spread over six, and its trailing comment moved after cortex's entry)
  const after =
    tree?.type === "object" && (servers === undefined || (serversNode?.type === "object" && (servers as Record<string, unknown>)[name] === undefined))
      ? servers === undefined
        ? insertMember(source, tree, serversKey, { [name]: entry }, format)
        : insertMember(source, serversNode!, name, entry, format)
      : applyEdits(source, modify(source, [serversKey, name], entry, { formattingOptions: format }));
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

interface Format {
  insertSpaces: boolean;
  tabSize: number;
  eol: string;
}

/** The whitespace a line starts with. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/**
 * The text with `key: value` added as the last member of the object `node`, nothing else moved: after
 * the last member's line (its trailing comment stays with it), a comma after that member's value when it
 * has none, the value laid out with the file's indentation.
 */
function insertMember(text: string, node: Node, key: string, value: unknown, f: Format): string {
  const unit = f.insertSpaces ? " ".repeat(f.tabSize) : "\t";
  const members = node.children ?? [];
  const last = members[members.length - 1];
  const memberIndent = last ? lineIndent(text, last.offset) : lineIndent(text, node.offset) + unit;
  const body = JSON.stringify(value, null, unit)
    .split("\n")
    .join(f.eol + memberIndent);
  const member = `${memberIndent}${JSON.stringify(key)}: ${body}`;
  if (!last) {
    // an empty object: `{}` or `{ }` becomes a block with the one member
    const close = node.offset + node.length - 1;
    return `${text.slice(0, node.offset)}{${f.eol}${member}${f.eol}${lineIndent(text, node.offset)}${text.slice(close)}`;
  }
  const valueEnd = last.offset + last.length;
  // a comma already there (JSONC's trailing comma) is kept; else one goes right after the value
  const afterValue = /^(\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/.exec(text.slice(valueEnd))![0];
  const hasComma = text[valueEnd + afterValue.length] === ",";
  const commaEnd = hasComma ? valueEnd + afterValue.length + 1 : valueEnd;
  const withComma = hasComma ? text : `${text.slice(0, valueEnd)},${text.slice(valueEnd)}`;
  const from = hasComma ? commaEnd : valueEnd + 1;
  // the end of that line, when only whitespace or a comment follows there; else right after the value
  const nl = withComma.indexOf("\n", from);
  const restOfLine = withComma.slice(from, nl < 0 ? withComma.length : nl);
  const lineEnd = /^\s*(\/\/.*|\/\*.*\*\/\s*)?\r?$/.test(restOfLine) && nl >= 0 ? (withComma[nl - 1] === "\r" ? nl - 1 : nl) : from;
  return `${withComma.slice(0, lineEnd)}${f.eol}${member}${withComma.slice(lineEnd)}`;
}

/** cortex's entry in a parsed configuration, if any. */
export function jsonEntry(config: Record<string, unknown>, serversKey: string, name: string): unknown {
  const servers = config[serversKey];
  return servers && typeof servers === "object" && !Array.isArray(servers) ? (servers as Record<string, unknown>)[name] : undefined;
}

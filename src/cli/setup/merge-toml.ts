/**
 * Puts cortex's table into a TOML configuration (Codex CLI's config.toml) without touching anything else.
 * smol-toml parses and writes TOML but drops comments, so the file is edited as text instead: cortex's
 * own `[mcp_servers.cortex]` table (and its sub-tables) is cut out and a new one, written by smol-toml,
 * put where it stood (appended when there was none). The result is parsed again and compared with the original; when cortex's entry is written in
 * a form this cannot cut out (an inline table, dotted keys), the comparison fails and nothing is written.
 */
import { parse, stringify, TomlError } from "smol-toml";
import { isDeepStrictEqual } from "node:util";
import { CortexError } from "../../core/errors.ts";

export function parseTomlConfig(text: string, file: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (e) {
    const where = e instanceof TomlError ? ` at line ${e.line}, column ${e.column}` : "";
    const first = (e as Error).message.split("\n")[0];
    throw new CortexError("INVALID_INPUT", `${file} is not valid TOML: ${first}${where}`);
  }
}

/** A table header line naming `[key.name]` or one of its sub-tables, with or without quotes. */
function headerPattern(key: string, name: string): RegExp {
  const part = (s: string) => `(?:${s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}|"${s}"|'${s}')`;
  return new RegExp(`^\\s*\\[\\[?\\s*${part(key)}\\s*\\.\\s*${part(name)}\\s*(?:\\.[^\\]]*)?\\]\\]?\\s*(?:#.*)?$`);
}

const ANY_HEADER = /^\s*\[/;

export function mergeTomlEntry(text: string, serversKey: string, name: string, entry: Record<string, unknown>, file: string): string {
  const before = parseTomlConfig(text, file);
  const servers = before[serversKey];
  if (servers !== undefined && (servers === null || typeof servers !== "object" || Array.isArray(servers))) {
    throw new CortexError("INVALID_INPUT", `${file}: "${serversKey}" is not a table`);
  }
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const ours = headerPattern(serversKey, name);
  const kept: string[] = [];
  let skipped: string[] | undefined;
  // where cortex's old table stood: the new one goes there, not to the end of the file
  let insertAt: number | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (ANY_HEADER.test(line)) {
      if (skipped && !ours.test(line)) {
        // comments just above the next table belong to it
        let from = skipped.length;
        while (from > 0 && /^\s*(#.*)?$/.test(skipped[from - 1]!)) from--;
        kept.push(...skipped.slice(from));
        skipped = undefined;
      } else if (ours.test(line)) {
        insertAt ??= kept.length;
        skipped ??= [];
      }
    }
    if (skipped) skipped.push(line);
    else kept.push(line);
  }
  const block = stringify({ [serversKey]: { [name]: entry } })
    .trim()
    .split("\n");
  let lines: string[];
  if (insertAt !== undefined && insertAt < kept.length) {
    const rest = kept.slice(insertAt);
    while (rest.length > 0 && rest[0]!.trim() === "") rest.shift();
    lines = [...kept.slice(0, insertAt), ...block, ...(rest.length > 0 ? ["", ...rest] : [])];
  } else {
    while (kept.length > 0 && kept[kept.length - 1]!.trim() === "") kept.pop();
    lines = [...kept, ...(kept.length > 0 ? [""] : []), ...block];
  }
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === "") lines.pop();
  const after = lines.join(eol) + eol;
  let check: Record<string, unknown>;
  try {
    check = parse(after) as Record<string, unknown>;
  } catch {
    throw new CortexError(
      "INVALID_INPUT",
      `${file}: cortex could not add its [${serversKey}.${name}] table without breaking the file (is ${serversKey} an inline table?); add it by hand`,
    );
  }
  const rest = (o: Record<string, unknown>) => {
    const s = { ...((o[serversKey] as Record<string, unknown> | undefined) ?? {}) };
    delete s[name];
    return JSON.parse(JSON.stringify({ ...o, [serversKey]: s }));
  };
  const got = (check[serversKey] as Record<string, unknown> | undefined)?.[name];
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(got ?? null)), JSON.parse(JSON.stringify(entry))) || !isDeepStrictEqual(rest(check), rest(before))) {
    throw new CortexError(
      "INVALID_INPUT",
      `${file}: cortex could not replace its [${serversKey}.${name}] table without changing something else; edit it by hand`,
    );
  }
  return after;
}

export function tomlBlock(serversKey: string, name: string, entry: Record<string, unknown>): string {
  return stringify({ [serversKey]: { [name]: entry } }).trim();
}

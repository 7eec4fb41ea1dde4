/**
 * Puts cortex's table into a TOML configuration (Codex CLI's config.toml) without touching anything else.
 * smol-toml parses and writes TOML but drops comments, so the file is edited as text instead: cortex's
 * own `[mcp_servers.cortex]` table (and its sub-tables) is cut out and a new one, written by smol-toml,
 * put where it stood (appended when there was none), with the old table's comments (keepComments). The result is parsed again and compared with the original; when cortex's entry is written in
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
  // the lines of cortex's own table(s) as they were: their comments go into the new table
  const skippedOurs: string[] = [];
  // where cortex's old table stood: the new one goes there, not to the end of the file
  let insertAt: number | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (ANY_HEADER.test(line)) {
      if (skipped && !ours.test(line)) {
        // comments just above the next table belong to it
        let from = skipped.length;
        while (from > 0 && /^\s*(#.*)?$/.test(skipped[from - 1]!)) from--;
        kept.push(...skipped.slice(from));
        skippedOurs.push(...skipped.slice(0, from));
        skipped = undefined;
      } else if (ours.test(line)) {
        insertAt ??= kept.length;
        skipped ??= [];
      }
    }
    if (skipped) skipped.push(line);
    else kept.push(line);
  }
  if (skipped) skippedOurs.push(...skipped);
  const block = keepComments(
    stringify({ [serversKey]: { [name]: entry } })
      .trim()
      .split("\n"),
    skippedOurs,
  );
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

/**
 * The new table's lines with the old table's comments: a comment line under a table header goes under the
 * same header (its first lines when that header is gone), a comment after a key's value goes after the
 * same key of the same table. A '#' inside a string is not a comment: the line without it must parse to
 * the same value.
 */
function keepComments(block: string[], old: string[]): string[] {
  const headerOf = (line: string) => line.trim().replace(/\s+/g, "");
  const keyOf = (line: string) => /^\s*([A-Za-z0-9_-]+|"[^"]*"|'[^']*')\s*=/.exec(line)?.[1];
  const own = new Map<string, string[]>(); // header → its comment lines
  const trailing = new Map<string, string>(); // header + key → the comment after its value
  let header = "";
  for (const line of old) {
    if (ANY_HEADER.test(line)) header = headerOf(line.replace(/#.*$/, ""));
    else if (/^\s*#/.test(line)) own.set(header, [...(own.get(header) ?? []), line.trim()]);
    else {
      const key = keyOf(line);
      const comment = key === undefined ? undefined : trailingComment(line);
      if (key !== undefined && comment !== undefined) trailing.set(`${header}\u0000${key}`, comment);
    }
  }
  if (own.size === 0 && trailing.size === 0) return block;
  const out: string[] = [];
  const placed = new Set<string>();
  // after the first header and its own comments: where comments of a header now gone go
  let orphansAt: number | undefined;
  header = "";
  for (const line of block) {
    if (ANY_HEADER.test(line)) {
      header = headerOf(line);
      out.push(line);
      const comments = own.get(header);
      if (comments) {
        out.push(...comments);
        placed.add(header);
      }
      orphansAt ??= out.length;
      continue;
    }
    const key = keyOf(line);
    const comment = key === undefined ? undefined : trailing.get(`${header}\u0000${key}`);
    out.push(comment === undefined ? line : `${line} ${comment}`);
  }
  // comments of a header the new table does not have: under its first header, not lost
  const orphans = [...own].filter(([h]) => !placed.has(h)).flatMap(([, c]) => c);
  if (orphans.length > 0) out.splice(orphansAt ?? 0, 0, ...orphans);
  return out;
}

/** The comment after a `key = value` line's value, or undefined (a '#' inside a string is not one). */
function trailingComment(line: string): string | undefined {
  for (let i = line.lastIndexOf("#"); i > 0; i = line.lastIndexOf("#", i - 1)) {
    try {
      if (isDeepStrictEqual(parse(line.slice(0, i)), parse(line))) return line.slice(i).trim();
    } catch {
      // not a whole value before this '#': it is inside a string
    }
  }
  return undefined;
}

export function tomlBlock(serversKey: string, name: string, entry: Record<string, unknown>): string {
  return stringify({ [serversKey]: { [name]: entry } }).trim();
}

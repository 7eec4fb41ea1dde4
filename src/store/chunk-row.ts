/**
 * How a search chunk is stored in chunk_rows (schema.ts): what its chunker makes of a definition's
 * symbol path, kind and part (the prefix, the id key, the title, the metadata) is left NULL and named
 * again by the view "chunks", so every row reads back as it was written.
 */
import { storedPrefix } from "./chunk-text.ts";
import { SYMBOL_KINDS } from "./schema.ts";
import type { ChunkRecord } from "./types.ts";

/** The columns of chunk_rows that depend on more than the chunk itself (the file's path). */
export interface StoredChunk {
  idKey: string | null;
  idFull: string | null;
  title: string | null;
  prefix: string | Uint8Array | null;
  metadata: string | null;
  defKind: number | null;
  part: number | null;
  parts: number | null;
}

const KIND_CODES = new Map<string, number>(SYMBOL_KINDS.map((k, i) => [k, i]));
/** A repeat's suffix as the chunker adds it ("~2"), and as id_key keeps it after a usual key. */
const REPEAT = /^~[0-9]+$/;
/** Text json_object writes as JSON.stringify does: no quote, backslash or control character to escape. */
function plain(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x7f || c === 0x2028 || c === 0x2029) return false;
  }
  return true;
}

/** A definition's metadata the view can name again: its kind code, part and parts; undefined otherwise. */
function definitionCodes(c: ChunkRecord): { kind: string; code: number; part: number; parts: number } | undefined {
  const m = c.metadata;
  const path = c.symbolPath;
  if (c.chunkType !== "definitions" || !m || path == null || Object.keys(m).join(",") !== "kind,name,part,parts") return undefined;
  const { kind, name, part, parts } = m as { kind: unknown; name: unknown; part: unknown; parts: unknown };
  const code = typeof kind === "string" ? KIND_CODES.get(kind) : undefined;
  if (code === undefined || !Number.isInteger(part) || !Number.isInteger(parts)) return undefined;
  if (typeof name !== "string" || name !== path.slice(path.lastIndexOf(".") + 1) || !plain(name) || !plain(kind as string)) return undefined;
  return { kind: kind as string, code, part: part as number, parts: parts as number };
}

/**
 * A data chunk's usual title, `<path> values: <its first six names>[, …]` (indexer/chunker.ts), from its
 * metadata `{names}`; undefined when the metadata is not that (the view names the title from the names).
 */
export function usualDataTitle(c: ChunkRecord, path: string): string | undefined {
  const names = c.metadata?.names;
  if (c.chunkType !== "data" || Object.keys(c.metadata ?? {}).join(",") !== "names" || !Array.isArray(names) || names.length === 0) return undefined;
  if (!names.every((n) => typeof n === "string")) return undefined;
  return `${path} values: ${names.slice(0, 6).join(", ")}${names.length > 6 ? ", …" : ""}`;
}

/** The stored form of chunk `c` of the file at `path`. */
export function storedChunk(c: ChunkRecord, path: string): StoredChunk {
  const idStart = `${c.chunkType}:${path}#`;
  const key = c.id.startsWith(idStart) ? c.id.slice(idStart.length) : undefined;
  const prefix = storedPrefix(c.prefix, path);
  const kind = typeof c.metadata?.kind === "string" ? c.metadata.kind : undefined;
  // the view names a definition's usual title, a file overview's and a data chunk's, again (schema.ts)
  const usualTitle =
    (kind !== undefined && c.symbolPath != null && c.title === `${c.symbolPath} (${kind})`) ||
    (c.chunkType === "symbols" && c.title === `${path} symbols`) ||
    (c.title !== undefined && c.title === usualDataTitle(c, path));
  const out: StoredChunk = {
    idKey: key ?? null,
    idFull: key === undefined ? c.id : null,
    title: usualTitle ? null : c.title,
    prefix,
    metadata: c.metadata ? JSON.stringify(c.metadata) : null,
    defKind: null,
    part: null,
    parts: null,
  };
  // a data chunk's header, `values in <path>:<start>-<end>`, too
  if (c.chunkType === "data" && prefix === `values in \u0001:${c.startLine}-${c.endLine}\n`) out.prefix = null;
  const def = definitionCodes(c);
  if (!def) return out;
  const symbolPath = c.symbolPath!;
  const usualKey = def.parts > 1 ? `${symbolPath}@${def.part}` : symbolPath;
  if (key === usualKey) out.idKey = null;
  else if (key?.startsWith(usualKey) && REPEAT.test(key.slice(usualKey.length))) out.idKey = key.slice(usualKey.length);
  else if (key !== undefined && REPEAT.test(key)) {
    // a key that would read as a repeat: kept whole
    out.idKey = null;
    out.idFull = c.id;
  }
  if (prefix === `${def.kind} ${symbolPath} (\u0001:${c.startLine}-${c.endLine})\n`) out.prefix = null;
  out.metadata = null;
  out.defKind = def.code;
  out.part = def.part;
  out.parts = def.parts;
  return out;
}

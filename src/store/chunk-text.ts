/**
 * A search chunk's text as the index keeps it: a prefix the chunker wrote (a header such as
 * `function Server.Serve (net/http/server.go:120-180)`, or a whole file overview) and the spans of the
 * file's lines that follow it, read back from the stored content when the text is needed (a search
 * result, a text to embed). Chunks repeat most of their file, and overlapping windows repeat it more:
 * stored whole they were 87 MiB of go-src's 628 MiB index and 2 GiB of the kernel's 7 GiB.
 *
 * The chunker builds every chunk's text with renderChunk from the same prefix and spans, so the text read
 * back is the text that was hashed, embedded and indexed.
 */

import { compressText, contentText } from "./content-codec.ts";

/** Longest part of one line a chunk carries (minified code is a few lines of hundreds of KB). */
export const MAX_LINE_CHARS = 2000;

/**
 * Lines [from, to] of the file (1-based, inclusive), the first from column `col` when over-long; or an
 * elision. With `end` (a definition sharing its line with others), the first line always from `col` and
 * the last up to (not including) column `end`.
 */
export type ChunkSpan = { from: number; to: number; col?: number; end?: number } | "…";

/** A file's lines as chunks count them: a final newline ends the last line rather than starting one. */
export function contentLines(text: string): string[] {
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  return lines;
}

/** A line, clipped to MAX_LINE_CHARS: from `fromColumn` (1-based) when the line is over-long. */
export function clipLine(line: string, fromColumn = 1): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  const start = Math.min(Math.max(0, fromColumn - 1), line.length);
  return line.length - start <= MAX_LINE_CHARS ? line.slice(start) : line.slice(start, start + MAX_LINE_CHARS) + " …";
}

/** The chunk's text: the prefix, then its spans' lines (an elision is a line `    …`), joined by newlines. */
export function renderChunk(prefix: string, spans: ChunkSpan[], lines: string[]): string {
  const out: string[] = [];
  chunkLines(
    spans,
    lines,
    (l) => out.push(lines[l - 1]!),
    (text) => out.push(text),
  );
  return prefix + out.join("\n");
}

/**
 * The lines of a chunk's text after its prefix, in order, as renderChunk renders them: `whole(l)` for a
 * line that is the file's line l (1-based) as it is, `part(text)` for any other (a line cut at a column,
 * clipped, or an elision).
 */
export function chunkLines(spans: ChunkSpan[], lines: string[], whole: (l: number) => void, part: (text: string) => void): void {
  for (const sp of spans) {
    if (sp === "…") {
      part("    …");
      continue;
    }
    for (let l = sp.from; l <= sp.to && l <= lines.length; l++) {
      let line = lines[l - 1]!;
      if (sp.end === undefined && line.length <= MAX_LINE_CHARS) {
        whole(l);
        continue;
      }
      let col = l === sp.from ? (sp.col ?? 1) : 1;
      if (sp.end !== undefined) {
        // a part of a line shared with other definitions: exactly its columns
        line = line.slice(l === sp.from ? col - 1 : 0, l === sp.to ? Math.max(0, sp.end - 1) : line.length);
        col = 1;
      }
      part(clipLine(line, col));
    }
  }
}

/**
 * Spans as stored, each line number relative to the line before it (the previous span's last, 0 for the
 * first): `<from>[+<lines after it>][@<first column>][:<last line's end column>]`, comma-separated, and
 * `~` for an elision (no comma beside it). `10+30`, `10+30@5`, `10@5:30`, `3+4@12~3,1@5:30`. With
 * absolute numbers (`56-58,…,62-62,…,69-69` for `56+2~4~7`) boost's 78,000 chunks with several spans
 * kept 3.6 MB of them, 1.3 MB this way.
 */
export function encodeSpans(spans: ChunkSpan[]): string {
  let out = "";
  let previous = 0;
  for (const s of spans) {
    if (s === "…") {
      out += "~";
      continue;
    }
    if (out !== "" && !out.endsWith("~")) out += ",";
    out += `${s.from - previous}${s.to > s.from ? `+${s.to - s.from}` : ""}${s.col !== undefined && s.col > 1 ? `@${s.col}` : ""}${s.end !== undefined ? `:${s.end}` : ""}`;
    previous = s.to;
  }
  return out;
}

const SPAN = /^(-?\d+)(?:\+(\d+))?(?:@(\d+))?(?::(\d+))?$/;

export function decodeSpans(encoded: string): ChunkSpan[] {
  const out: ChunkSpan[] = [];
  let previous = 0;
  for (const piece of encoded.split(/(~)|,/)) {
    if (piece === undefined || piece === "") continue;
    if (piece === "~") {
      out.push("…");
      continue;
    }
    const m = SPAN.exec(piece);
    if (!m) throw new Error(`malformed chunk span '${piece}' in '${encoded}'`);
    const from = previous + Number(m[1]);
    const span: ChunkSpan = { from, to: from + Number(m[2] ?? 0) };
    if (m[3]) span.col = Number(m[3]);
    if (m[4]) span.end = Number(m[4]);
    out.push(span);
    previous = span.to;
  }
  return out;
}

/**
 * How a prefix is stored: its file's path (in every header: `method Server.Serve (net/http/server.go:120-180)`)
 * as a placeholder, and zstd-compressed when long (a file overview lists every definition with its
 * signature: 2.4 KB on average in the kernel, 134 MB in all). A prefix that holds either control
 * character used here is stored as it is after a leading RAW_MARK.
 */
export function storedPrefix(prefix: string, path: string): string | Uint8Array {
  const stored = prefix.includes(PATH_MARK) || prefix.includes(RAW_MARK) ? RAW_MARK + prefix : path ? prefix.replaceAll(path, PATH_MARK) : prefix;
  return stored.length > 240 ? compressText(stored) : stored;
}

/** The prefix `stored` (storedPrefix) of a chunk of the file at `path`. */
export function prefixText(stored: string | Uint8Array, path: string): string {
  const text = typeof stored === "string" ? stored : contentText(stored);
  if (text.startsWith(RAW_MARK)) return text.slice(1);
  return text.includes(PATH_MARK) ? text.replaceAll(PATH_MARK, path) : text;
}

/** Stands for the file's path in a stored prefix. */
const PATH_MARK = "\u0001";
/** Starts a prefix stored as it is. */
const RAW_MARK = "\u0002";

/** The stored parts of a chunk. */
export interface StoredChunkText {
  filePath: string;
  prefix: string | Uint8Array;
  spans: string;
}

/**
 * Texts of stored chunks, each file's content read once (`content` returns a file's indexed text, or
 * undefined when the file is gone: its chunks then read as their prefix alone).
 */
export function chunkTexts<T extends StoredChunkText>(rows: Iterable<T>, content: (path: string) => string | undefined): Map<T, string> {
  const lines = new Map<string, string[]>();
  const out = new Map<T, string>();
  for (const r of rows) {
    const spans = decodeSpans(r.spans);
    const prefix = prefixText(r.prefix, r.filePath);
    if (spans.length === 0) {
      out.set(r, prefix);
      continue;
    }
    let l = lines.get(r.filePath);
    if (!l) lines.set(r.filePath, (l = contentLines(content(r.filePath) ?? "")));
    out.set(r, renderChunk(prefix, spans, l));
  }
  return out;
}

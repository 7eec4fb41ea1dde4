/**
 * Turns ast-grep's raw matches into cortex's: 1-based lines (ast-grep counts from 0), columns in UTF-16
 * code units from 1 like every cortex position, the real lines around each match, metavariables as the
 * source text they captured (a `$$$ARGS` spans from its first node to its last, separators included), and
 * for a rewrite the replacement with its diff. Each file is read once; a file that changed after ast-grep
 * read it is reported with ast-grep's own text and a warning rather than with mismatched context.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { RawMatch } from "./runner.ts";
import { lineEndAt, lineStartAt, unifiedDiff } from "./diff.ts";

export interface PatternMatch {
  /** Root-relative, forward slashes. */
  file_path: string;
  start_line: number;
  end_line: number;
  start_column: number;
  /** Column just past the match's last character. */
  end_column: number;
  match_text: string;
  /** The match's lines with up to `context_lines` lines before and after, as they are in the file. */
  context: string;
  context_start_line: number;
  metavars: Record<string, string>;
  /** With `rewrite`: the text that would replace the match. */
  replacement?: string;
  /** With `rewrite`: the change as a unified diff. Nothing is written. */
  diff?: string;
  /** Fields shortened to the output budget. */
  truncated_fields?: string[];
}

export const MAX_MATCH_TEXT = 4000;
export const MAX_CONTEXT_LINE = 400;
export const MAX_DIFF = 12000;

const decoder = new TextDecoder("utf-8");

function cap(text: string, max: number, field: string, truncated: Set<string>): string {
  if (text.length <= max) return text;
  truncated.add(field);
  return text.slice(0, max - 1) + "…";
}

function contextOf(bytes: Uint8Array, start: number, end: number, n: number, truncated: Set<string>): { text: string; before: number } {
  let from = lineStartAt(bytes, start);
  let before = 0;
  while (before < n && from > 0) {
    from = lineStartAt(bytes, from - 1);
    before++;
  }
  let to = lineEndAt(bytes, end > start ? end - 1 : start);
  for (let after = 0; after < n && to < bytes.length; after++) to = lineEndAt(bytes, to);
  let text = decoder.decode(bytes.subarray(from, to));
  if (text.endsWith("\n")) text = text.slice(0, -1);
  const lines = text.split("\n").map((l) => cap(l.endsWith("\r") ? l.slice(0, -1) : l, MAX_CONTEXT_LINE, "context", truncated));
  return { text: lines.join("\n"), before };
}

/** 1-based column in UTF-16 code units of a byte offset. */
function columnAt(bytes: Uint8Array, offset: number): number {
  return decoder.decode(bytes.subarray(lineStartAt(bytes, offset), offset)).length + 1;
}

function endLineOf(m: RawMatch): number {
  // A match ending at column 0 of a later line ends on the line before (its last character is a newline).
  const { start, end } = m.range;
  return end.column === 0 && end.line > start.line ? end.line : end.line + 1;
}

export interface BuildOptions {
  root: string;
  contextLines: number;
  rewrite: boolean;
}

export interface BuiltMatches {
  matches: PatternMatch[];
  warnings: string[];
}

/** Builds the output matches (already selected and ordered). */
export function buildMatches(raw: RawMatch[], o: BuildOptions): BuiltMatches {
  const files = new Map<string, Uint8Array | undefined>();
  const warnings: string[] = [];
  const changed = new Set<string>();
  const matches = raw.map((m) => {
    if (!files.has(m.file)) {
      try {
        files.set(m.file, readFileSync(join(o.root, m.file)));
      } catch {
        files.set(m.file, undefined);
      }
    }
    let bytes = files.get(m.file);
    const { start, end } = m.range.byteOffset;
    if (bytes && (end > bytes.length || decoder.decode(bytes.subarray(start, end)) !== m.text)) bytes = undefined;
    if (!bytes && !changed.has(m.file)) {
      changed.add(m.file);
      warnings.push(`${m.file} changed or disappeared while it was searched: its matches carry ast-grep's text without surrounding lines`);
    }
    return bytes ? fromFile(m, bytes, o) : fromRaw(m, o);
  });
  return { matches, warnings };
}

function metavarsOf(m: RawMatch, bytes: Uint8Array | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const mv = m.metaVariables;
  for (const [name, v] of Object.entries(mv?.single ?? {})) out[name] = v.text;
  for (const [name, all] of Object.entries(mv?.multi ?? {})) {
    // Some grammars end statements with newline tokens; a capture reads from its first to its last real node.
    let first = 0;
    let last = all.length - 1;
    while (first <= last && all[first]!.text.trim() === "") first++;
    while (last >= first && all[last]!.text.trim() === "") last--;
    const nodes = all.slice(first, last + 1);
    if (nodes.length === 0) out[name] = "";
    else if (bytes) out[name] = decoder.decode(bytes.subarray(nodes[0]!.range.byteOffset.start, nodes[nodes.length - 1]!.range.byteOffset.end));
    else out[name] = nodes.map((n) => n.text).join(" ");
  }
  for (const [name, text] of Object.entries(mv?.transformed ?? {})) out[name] = text;
  // A statement list can end with its newline; the value is the code, not the line break after it.
  for (const [name, text] of Object.entries(out)) if (/\n\s*$/.test(text)) out[name] = text.trimEnd();
  return out;
}

function fromFile(m: RawMatch, bytes: Uint8Array, o: BuildOptions): PatternMatch {
  const truncated = new Set<string>();
  const { start, end } = m.range.byteOffset;
  const startLine = m.range.start.line + 1;
  const ctx = contextOf(bytes, start, end, o.contextLines, truncated);
  const out: PatternMatch = {
    file_path: m.file,
    start_line: startLine,
    end_line: endLineOf(m),
    start_column: columnAt(bytes, start),
    // a match that ends with its newline ends on that line, just past its last character
    end_column: end > start && bytes[end - 1] === 0x0a ? columnAt(bytes, end - 1) : columnAt(bytes, end),
    match_text: cap(m.text, MAX_MATCH_TEXT, "match_text", truncated),
    context: ctx.text,
    context_start_line: startLine - ctx.before,
    metavars: metavarsOf(m, bytes),
  };
  if (o.rewrite && m.replacement !== undefined) {
    out.replacement = cap(m.replacement, MAX_MATCH_TEXT, "replacement", truncated);
    const at = m.replacementOffsets ?? { start, end };
    out.diff = cap(unifiedDiff(m.file, bytes, at.start, at.end, m.replacement, o.contextLines), MAX_DIFF, "diff", truncated);
  }
  if (truncated.size > 0) out.truncated_fields = [...truncated];
  return out;
}

function fromRaw(m: RawMatch, o: BuildOptions): PatternMatch {
  const truncated = new Set<string>();
  const out: PatternMatch = {
    file_path: m.file,
    start_line: m.range.start.line + 1,
    end_line: endLineOf(m),
    start_column: m.range.start.column + 1,
    end_column: m.range.end.column + 1,
    match_text: cap(m.text, MAX_MATCH_TEXT, "match_text", truncated),
    context: (m.lines ?? m.text)
      .split("\n")
      .map((l) => cap(l, MAX_CONTEXT_LINE, "context", truncated))
      .join("\n"),
    context_start_line: m.range.start.line + 1,
    metavars: metavarsOf(m, undefined),
  };
  if (o.rewrite && m.replacement !== undefined) out.replacement = cap(m.replacement, MAX_MATCH_TEXT, "replacement", truncated);
  if (truncated.size > 0) out.truncated_fields = [...truncated];
  return out;
}

/**
 * A literal search as one SQL condition on a file's text, which the shared store's reader checks on the
 * files the trigram posting lists admit (reader.ts). For a selective literal the lists admit many files
 * that hold its trigrams apart (over twenty repositories, 74 files for "ErrNoDeadline", 6 of which hold
 * it); the server checks them where the text is, and only those holding the literal travel to the engine.
 *
 * `strpos`, not LIKE: both read every candidate's whole text, but strpos searches it with
 * Boyer-Moore-Horspool where LIKE's '%…%' matcher tries the pattern at every byte, and ILIKE first
 * lowers the text and then runs that matcher. Over those 74 files (6.9 MB of text, EXPLAIN ANALYZE,
 * best of seven at load 11): LIKE 27 ms, strpos 18 ms; ILIKE 77 ms, strpos of the lowered text 38 ms.
 */
import type { PgValue } from "./client.ts";

/** A condition's placeholder for a bound value. */
type Bind = (v: PgValue) => string;

/**
 * The condition on `column` (text in collation C), its literal bound through `bind`; undefined when it
 * could miss a match. Case-blind, both sides are lowered: `lower` in collation C folds ASCII letters only,
 * as the engine's case-blind matching of an ASCII literal does, but the engine folds other letters too
 * (a case-insensitive literal with non-ASCII text is left to the engine). Text cannot hold NUL, so a
 * literal with one matches nothing the store holds (the engine says so).
 */
export function literalCondition(literal: { text: string; caseSensitive: boolean }, column: string, bind: Bind): string | undefined {
  const { text, caseSensitive } = literal;
  if (text === "" || text.includes("\u0000")) return undefined;
  if (caseSensitive) return `strpos(${column}, ${bind(text)}) > 0`;
  if ([...text].some((c) => c.charCodeAt(0) > 0x7f)) return undefined;
  return `strpos(lower(${column}), ${bind(text.toLowerCase())}) > 0`;
}

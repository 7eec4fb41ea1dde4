/**
 * A literal search as one SQL condition on a file's text, which the shared store's reader checks on the
 * files the trigram posting lists admit (reader.ts): `content LIKE '%text%'`, ILIKE when case does not
 * matter. For a selective literal the lists admit many files that hold its trigrams apart (over twenty
 * repositories, 74 files for "ErrNoDeadline", 6 of which hold it); the server checks them where the text
 * is, and only those holding the literal travel to the engine.
 */
import type { PgValue } from "./client.ts";

/** A condition's placeholder for a bound value. */
type Bind = (v: PgValue) => string;

/** `LIKE` text matching `s` literally (backslash is PostgreSQL's default LIKE escape). */
const likeLiteral = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The condition on `column` (text in collation C), its pattern bound through `bind`; undefined when it
 * could miss a match: ILIKE in collation C folds ASCII letters only, as the engine's case-blind matching
 * of an ASCII literal does, but the engine folds other letters too (a case-insensitive literal with
 * non-ASCII text is left to the engine).
 */
export function likeCondition(literal: { text: string; caseSensitive: boolean }, column: string, bind: Bind): string | undefined {
  if (literal.text === "") return undefined;
  if (!literal.caseSensitive && [...literal.text].some((c) => c.charCodeAt(0) > 0x7f)) return undefined;
  return `${column} ${literal.caseSensitive ? "LIKE" : "ILIKE"} ${bind(`%${likeLiteral(literal.text)}%`)}`;
}

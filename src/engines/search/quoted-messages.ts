/**
 * The files that hold, word for word, a message a question quotes: the exception lines of a pasted
 * traceback (`TypeError: A Vector must be supplied`, `ValueError: Unknown format code 'd' for object of
 * type 'float'`). The code that raises a message usually writes it as a literal, so its fixed parts (what
 * a format string does not fill in: quoted values, numbers, addresses) are looked up in the trigram index
 * and checked in the stored text. A part many files hold (`object has no attribute`, the language's own
 * wording) says nothing of where and is left out; each part a file holds weighs its rarity.
 */
import type { IndexReader } from "../../store/contract.ts";
import { planLiteral } from "../exact/plan.ts";

/** An exception or warning line: `ValueError: …`, `django.db.utils.ProgrammingError: …`, `E   TypeError: …` (pytest). */
const EXCEPTION_LINE = /^[\sE>|]*(?:[A-Za-z_][\w]*\.)*[A-Za-z_]*(?:Error|Exception|Warning|Exit|Failure|Fault)\s*:\s*(.+)$/gm;
/** What a format string fills in, where a message is cut into its fixed parts. */
const FILLED = /'[^'\n]*'|"[^"\n]*"|`[^`\n]*`|\b0x[0-9a-fA-F]+\b|\b\d+(?:\.\d+)?\b|<[^<>\n]*>|\([^()\n]*\)|\[[^[\]\n]*\]|\{[^{}\n]*\}/g;
/** A part shorter than this, or of one word, matches by chance. */
const MIN_PART_CHARS = 12;
/** Parts looked up at most, per question. */
const MAX_PARTS = 8;
/** A part more files hold than this is the language's or a library's wording, not a place. */
const MAX_FILES_PER_PART = 10;
/** Candidate files read at most per part (beyond, the part is too common to place anything). */
const MAX_CANDIDATES = 200;

/** The fixed parts of the messages a question quotes, longest first. */
export function quotedMessageParts(question: string): string[] {
  const parts = new Set<string>();
  for (const m of question.matchAll(EXCEPTION_LINE)) {
    for (const piece of m[1]!.split(FILLED)) {
      const part = piece.replace(/^[\s:;,.\-–—=]+|[\s:;,.\-–—=]+$/g, "");
      if (part.length >= MIN_PART_CHARS && /\S\s+\S/.test(part)) parts.add(part);
    }
  }
  return [...parts].sort((a, b) => b.length - a.length).slice(0, MAX_PARTS);
}

/** Each file holding a quoted message's part, scored by the parts it holds, each by ln(1 + files / its holders). */
export async function quotedMessageFiles(store: IndexReader, parts: readonly string[]): Promise<Map<string, number>> {
  const scores = new Map<string, number>();
  if (parts.length === 0) return scores;
  const total = await store.textFileCount();
  for (const part of parts) {
    const ids = await store.textCandidates(planLiteral(part, false).query, { text: part, caseSensitive: true });
    if (ids === null || ids.length === 0 || ids.length > MAX_CANDIDATES) continue;
    const texts = await store.texts(ids, "string");
    const holding: number[] = [];
    texts.forEach((t, i) => {
      if (t?.includes(part)) holding.push(ids[i]!);
    });
    if (holding.length === 0 || holding.length > MAX_FILES_PER_PART) continue;
    const weight = Math.log(1 + total / holding.length);
    for (const row of await store.textFiles(holding, false)) scores.set(row.path, (scores.get(row.path) ?? 0) + weight);
  }
  return scores;
}

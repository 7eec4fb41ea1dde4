/**
 * Function-level ranking of a chunk list: when a function answers the question, its own chunk should
 * lead, not its file's overview, the class around it or a neighbour. Measured on the docstring and
 * SWE-bench dev splits (docs/benchmarks.md, "Function-level answers"), the fused chunk ranking put the
 * right file first twice as often as the right function: chunk-level BM25 cannot tell the functions of one
 * file apart, class chunks (which list every member's signature) outranked their own methods, and a
 * chunk of a weak file could lead a chunk of the file the whole-file ranking trusts.
 *
 * So each candidate's fused score is scaled by three signals, then the list is collapsed as before:
 *   file     the whole-file ranking's score of its file (searchFiles, scaled to the best file)
 *   name     the share of the definition's name words the query uses ("Writes a definition list" and
 *            `write_dl`), compared by a crude stem
 *   members  a type whose own members are also candidates gives way to them: the member is the answer,
 *            the type's chunk is its outline
 * Weights in FUNCTION_RANKING, tuned on the dev splits only.
 */
import { identifierParts } from "../../core/words.ts";
import type { AnalyzedQuery } from "./query.ts";
import type { Candidate } from "./rank.ts";

export const FUNCTION_RANKING = {
  /** Files asked of the whole-file ranking; chunks of other files get no file support. */
  files: 50,
  /** Multiplier (1 + file · score share of the best file). */
  file: 2,
  /** Multiplier (1 + name · share of the name's words in the query). */
  name: 1,
  /** Multiplier for a type chunk whose members are candidates too. */
  typeWithMembers: 0.2,
  /** Multiplier for a file overview (symbols chunk): a list of names, not an answer. */
  overview: 0.7,
  /** Multiplier (1 + bm25 · the chunk's keyword score share of the best chunk's). */
  bm25: 0,
};

/** Kinds of definition that hold members: their chunk is an outline of the members' own chunks. */
const TYPE_KINDS = new Set(["class", "struct", "interface", "enum", "trait", "impl", "module", "namespace", "object", "record", "union", "type_alias"]);

/** A crude English stem, enough to meet `writes` and `writing` with `write`, `adds` with `add`. */
export function stem(word: string): string {
  let w = word.toLowerCase();
  for (const suffix of ["ing", "ed", "s"]) {
    if (w.length - suffix.length >= 3 && w.endsWith(suffix) && !w.endsWith("ss")) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  return w.length > 3 && w.endsWith("e") ? w.slice(0, -1) : w;
}

/** The last segment of a symbol path (`Handler.ServeHTTP`, `a::b`, `Class#method`). */
export function lastSegment(symbolPath: string): string {
  const parts = symbolPath.split(/\.|::|#|\//);
  return parts[parts.length - 1] ?? symbolPath;
}

/** Share (0-1) of a name's words that the query's terms contain, by stem. */
export function nameMatch(name: string, queryStems: Set<string>): number {
  const parts = identifierParts(name).filter((p) => p.length >= 2);
  if (parts.length === 0) return 0;
  let hit = 0;
  for (const p of parts) if (queryStems.has(stem(p))) hit++;
  return hit / parts.length;
}

/**
 * Re-scores and re-sorts candidates for a function-level answer. `files` is the whole-file ranking (best
 * first, with scores); candidates are changed in place and returned sorted.
 */
export function promoteFunctions(
  ranked: Candidate[],
  q: AnalyzedQuery,
  files: ReadonlyArray<{ filePath: string; score: number }>,
  weights: typeof FUNCTION_RANKING = FUNCTION_RANKING,
): Candidate[] {
  const best = files[0]?.score ?? 0;
  const fileShare = new Map<string, number>();
  if (best > 0) for (const f of files) fileShare.set(f.filePath, f.score / best);
  const queryStems = new Set(q.terms.map(stem));
  let bestKeyword = 0;
  for (const c of ranked) if ((c.keywordScore ?? 0) > bestKeyword) bestKeyword = c.keywordScore!;
  // types whose members are among the candidates: `path#Type` for each member `Type.member`
  const withMembers = new Set<string>();
  for (const c of ranked) {
    if (c.chunkType !== "definitions" || !c.symbolPath || TYPE_KINDS.has(c.kind ?? "")) continue;
    const cut = Math.max(c.symbolPath.lastIndexOf("."), c.symbolPath.lastIndexOf("::"), c.symbolPath.lastIndexOf("#"));
    if (cut > 0) withMembers.add(`${c.filePath}#${c.symbolPath.slice(0, cut)}`);
  }
  for (const c of ranked) {
    let s = c.score * (1 + weights.file * (fileShare.get(c.filePath) ?? 0));
    if (bestKeyword > 0) s *= 1 + weights.bm25 * ((c.keywordScore ?? 0) / bestKeyword);
    if (c.chunkType === "definitions" && c.symbolPath) {
      s *= 1 + weights.name * nameMatch(lastSegment(c.symbolPath), queryStems);
      if (TYPE_KINDS.has(c.kind ?? "") && withMembers.has(`${c.filePath}#${c.symbolPath}`)) s *= weights.typeWithMembers;
    } else if (c.chunkType === "symbols") s *= weights.overview;
    c.score = s;
  }
  return ranked.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

/**
 * Widens a plain-language question with the neighbours of its words (word-neighbours.ts), at a lower
 * weight: the question says "remove", "sign in", "keep after restart"; the code says `evict`,
 * `authenticate`, `storage`. Only prose words are widened, never the words of identifiers, paths or
 * symbols the query writes as code (an identifier means exactly itself), and never a query that is a
 * symbol name. Measured through the engine's file ranking and not shipped: it did not help
 * (docs/benchmarks.md, "Word neighbours from general English").
 */
import { wordsOf } from "../../../src/core/words.ts";
import type { AnalyzedQuery } from "../../../src/engines/search/query.ts";
import type { NeighbourTable } from "./word-neighbours.ts";

export interface ExpansionSettings {
  /** An added word weighs this × its similarity × the weight of the query word it came from. */
  weight: number;
  /** Neighbours less similar than this are not added. */
  minSimilarity: number;
  /** At most this many neighbours per query word (the table holds them best first). */
  perWord: number;
  /** At most this many added words per query, the heaviest (each costs a keyword look-up). */
  maxTerms: number;
  /**
   * Which neighbours: all of them, only the word's other forms (removed, removal: a shared stem, see
   * sameStem), or only the other words (delete, evict).
   */
  kind: "all" | "forms" | "others";
}

/**
 * Two words are forms of one word when they share their first four letters (or the whole of the shorter
 * one, at least three): remove, removed, removal; fix, fixes; colour, color. Vector neighbours that are not
 * forms are the related words: delete, evict.
 */
export function sameStem(a: string, b: string): boolean {
  const need = Math.min(4, a.length, b.length);
  if (need < 3) return false;
  for (let i = 0; i < need; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return false;
  return true;
}

/** The words a query writes as code: parts of its identifiers, symbols and paths. */
function codeWords(q: AnalyzedQuery): Set<string> {
  const out = new Set<string>();
  for (const s of [...q.identifiers, ...q.symbols, ...q.paths]) for (const w of wordsOf(s)) out.add(w);
  return out;
}

/**
 * The query's weighted terms plus the neighbours of its prose words, each at
 * `weight × similarity × the source word's weight` (the heaviest source when several give the same word),
 * the `maxTerms` heaviest. A query that is one symbol, or has fewer than two prose words, is returned as it is.
 */
export function expandedWeights(q: AnalyzedQuery, table: NeighbourTable, s: ExpansionSettings): Map<string, number> {
  if (q.isSymbolQuery || s.weight <= 0) return q.weights;
  const code = codeWords(q);
  const prose = [...q.weights].filter(([w]) => !code.has(w));
  if (prose.length < 2) return q.weights;
  const added = new Map<string, number>();
  for (const [word, weight] of prose) {
    let taken = 0;
    for (const n of table.get(word) ?? []) {
      if (taken >= s.perWord || n.similarity < s.minSimilarity) break;
      if (s.kind !== "all" && sameStem(word, n.word) !== (s.kind === "forms")) continue;
      taken++;
      if (q.weights.has(n.word)) continue;
      const w = s.weight * n.similarity * weight;
      if (w > (added.get(n.word) ?? 0)) added.set(n.word, w);
    }
  }
  if (added.size === 0) return q.weights;
  const kept = [...added].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, s.maxTerms);
  return new Map([...q.weights, ...kept]);
}

/**
 * Fusion and re-ranking: keyword and vector candidates merged by reciprocal rank fusion, then the
 * structural signals — a definition of a symbol the query names comes first, files the query names rise,
 * tests sink unless the query is about tests, the intent shifts weight between chunk types — and finally
 * split parts of one definition (and, if asked, chunks of one file) collapse to the best. Weights live in
 * RANKING and were tuned on the SWE-bench data (docs/benchmarks.md), not guessed.
 */
import type { AnalyzedQuery } from "./query.ts";

export type Intent = "explore" | "edit" | "refactor" | "migrate";

export const RANKING = {
  /** Reciprocal rank fusion constant. */
  rrfK: 60,
  keywordWeight: 1,
  vectorWeight: 1,
  /** Multiplier for a definition whose name the query mentions. */
  definitionBoost: 2.5,
  /** Multiplier for chunks of a file whose path or name the query mentions. */
  pathMentionBoost: 2,
  /** Multiplier for chunks of a file whose name (stem) is one of the query terms. */
  fileNameBoost: 1.15,
  /** Multiplier for chunks of test files when the query is not about tests. */
  testPenalty: 0.55,
  /** Multiplier for chunks of test files when the query is about tests. */
  testBoost: 1.5,
  intentWeights: {
    explore: { symbols: 1.2, definitions: 1, data: 0.9, documentation: 1.3 },
    edit: { symbols: 0.9, definitions: 1.25, data: 1, documentation: 0.7 },
    refactor: { symbols: 1, definitions: 1.3, data: 0.9, documentation: 0.6 },
    migrate: { symbols: 1.1, definitions: 1.15, data: 1.2, documentation: 0.9 },
  } as Record<Intent, Record<string, number>>,
};

export interface Candidate {
  id: string;
  filePath: string;
  chunkType: string;
  symbolPath: string | null;
  /** What a definition chunk defines (function, method, class…), from the chunk's metadata. */
  kind?: string;
  isTest: boolean;
  keywordRank?: number;
  keywordScore?: number;
  vectorRank?: number;
  vectorScore?: number;
  score: number;
}

const stem = (path: string) => {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.indexOf(".");
  return (dot > 0 ? base.slice(0, dot) : base).toLowerCase();
};

export function fuse(candidates: Map<string, Candidate>, q: AnalyzedQuery, intent: Intent | undefined, definitionIds: Set<string>): Candidate[] {
  const terms = new Set(q.terms);
  const mentioned = q.paths.map((p) => p.replace(/^\.?\//, ""));
  for (const c of candidates.values()) {
    let s = 0;
    if (c.keywordRank !== undefined) s += RANKING.keywordWeight / (RANKING.rrfK + c.keywordRank);
    if (c.vectorRank !== undefined) s += RANKING.vectorWeight / (RANKING.rrfK + c.vectorRank);
    if (definitionIds.has(c.id)) s *= RANKING.definitionBoost;
    if (mentioned.some((p) => c.filePath === p || c.filePath.endsWith("/" + p))) s *= RANKING.pathMentionBoost;
    else if (terms.has(stem(c.filePath))) s *= RANKING.fileNameBoost;
    if (c.isTest) s *= q.aboutTests ? RANKING.testBoost : RANKING.testPenalty;
    if (intent) s *= RANKING.intentWeights[intent][c.chunkType] ?? 1;
    c.score = s;
  }
  return [...candidates.values()].sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

/** Keeps the best chunk per definition (split parts), and per file when `onePerFile`. */
export function collapse(ranked: Candidate[], onePerFile: boolean): Candidate[] {
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const c of ranked) {
    const key = onePerFile ? c.filePath : c.symbolPath ? `${c.filePath}#${c.chunkType}#${c.symbolPath}` : c.id;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(c);
  }
  return out;
}

/**
 * Function-level ranking of a chunk list: when a function answers the question, its own chunk should
 * lead, not its file's overview, the class around it or a neighbour. Measured on the docstring and
 * SWE-bench dev splits (docs/benchmarks.md, "Function-level answers"), the fused chunk ranking put the
 * right file first twice as often as the right function: chunk-level BM25 cannot tell the functions of one
 * file apart, class chunks (which list every member's signature) outranked their own methods, and a
 * chunk of a weak file could lead a chunk of the file the whole-file ranking trusts.
 *
 * So each candidate's fused score is scaled by three signals, then the list is collapsed as before:
 *   file     its file's support among the candidates: the sum of the file's two best chunks (keyword and
 *            vector scores, each scaled to the best), as a share of the best file's. Asking the whole-file
 *            ranking (searchFiles) instead was 0.6 points better at Acc@1 on the docstring dev split and
 *            equal at Acc@5, for one more full-text query per term (53 ms p50 on go-src)
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
  /** Chunks of a file that count towards its support. */
  supportChunks: 2,
  /** Multiplier (1 + file · the file's support as a share of the best file's). */
  file: 2,
  /** Multiplier (1 + name · share of the name's words in the query). */
  name: 1,
  /** Multiplier for a type chunk whose members are candidates too. */
  typeWithMembers: 0.2,
  /** Multiplier for a file overview (symbols chunk): a list of names, not an answer. */
  overview: 0.7,
  /** EXPERIMENT: name weight for a long question = name × (1 − fade × (1 − shortness)). */
  nameLongFade: 0,
  /** EXPERIMENT: multiplier (1 + identifier) for a definition whose name the question writes as code. */
  identifier: 0,
  /** EXPERIMENT: (lines / sizeRef)^size for a function's chunk, faded by the question's shortness. */
  size: 0,
  sizeRef: 20,
  /** EXPERIMENT: multiplier (1 + fileRank / (1 + rank)^fileRankPower) from the whole-file ranking. */
  fileRank: 0,
  fileRankPower: 1,
  /** EXPERIMENT: file support from the whole-file ranking replaces the candidates' support. */
  fileRankOnly: false,
  /** EXPERIMENT: file support = whole-file score share (fileScore), faded for short questions when fileScoreLong. */
  fileScore: false,
  fileScoreLong: false,
  /** EXPERIMENT: RRF weight of the weighted chunk BM25 list, × (1 − shortness). */
  weightedRrf: 0,
  /** EXPERIMENT: the weighted chunk BM25 list replaces the keyword list's RRF for long questions. */
  weightedReplace: false,
  /** EXPERIMENT: multipliers for non-function chunks (data, documentation, overview) and types, for a long question. */
  otherLong: 1,
  typeLong: 1,
  /** Up to this many terms a question is short (FILE_RANKING.shortQueryTerms). */
  shortQueryTerms: 12,
};

/** Evidence from the whole-file ranking: its files best first with their scores, and chunk scores under its term weights. */
export interface FileRanking {
  files?: ReadonlyArray<{ filePath: string; score: number }>;
  weighted?: ReadonlyMap<string, number>;
}

/** 1 for a question of a few words, falling towards 0 for a pasted issue. */
export function shortnessOf(q: AnalyzedQuery, terms = FUNCTION_RANKING.shortQueryTerms): number {
  return Math.min(1, (terms / Math.max(1, q.terms.length)) ** 2);
}

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
 * Each file's support (0-1): the sum of its best chunks' keyword and vector scores (each scaled to the
 * best candidate's), as a share of the best file's sum.
 */
export function fileSupport(ranked: readonly Candidate[], chunks = FUNCTION_RANKING.supportChunks): Map<string, number> {
  let maxKeyword = 0;
  let maxVector = 0;
  for (const c of ranked) {
    if ((c.keywordScore ?? 0) > maxKeyword) maxKeyword = c.keywordScore!;
    if ((c.vectorScore ?? 0) > maxVector) maxVector = c.vectorScore!;
  }
  const perFile = new Map<string, number[]>();
  for (const c of ranked) {
    const s = (maxKeyword > 0 ? (c.keywordScore ?? 0) / maxKeyword : 0) + (maxVector > 0 ? Math.max(0, c.vectorScore ?? 0) / maxVector : 0);
    if (s <= 0) continue;
    const list = perFile.get(c.filePath);
    if (list) list.push(s);
    else perFile.set(c.filePath, [s]);
  }
  const sums = new Map<string, number>();
  let best = 0;
  for (const [file, scores] of perFile) {
    const sum = scores
      .sort((a, b) => b - a)
      .slice(0, chunks)
      .reduce((a, b) => a + b, 0);
    sums.set(file, sum);
    if (sum > best) best = sum;
  }
  for (const [file, sum] of sums) sums.set(file, sum / best);
  return sums;
}

/** Re-scores and re-sorts candidates for a function-level answer; candidates are changed in place. */
export function promoteFunctions(
  ranked: Candidate[],
  q: AnalyzedQuery,
  weights: typeof FUNCTION_RANKING = FUNCTION_RANKING,
  files?: FileRanking,
): Candidate[] {
  const fileShare = fileSupport(ranked, weights.supportChunks);
  const queryStems = new Set(q.terms.map(stem));
  const shortness = shortnessOf(q, weights.shortQueryTerms);
  const nameWeight = weights.name * (1 - weights.nameLongFade * (1 - shortness));
  const identifiers = new Set(q.identifiers.map((i) => lastSegment(i).toLowerCase()));
  const fileRank = new Map<string, number>();
  const fileScore = new Map<string, number>();
  const bestFile = files?.files?.[0]?.score ?? 0;
  files?.files?.forEach((f, i) => {
    fileRank.set(f.filePath, i);
    if (bestFile > 0) fileScore.set(f.filePath, f.score / bestFile);
  });
  const sizeExp = weights.size * (1 - shortness);
  const long = 1 - shortness;
  if (files?.weighted && (weights.weightedRrf > 0 || weights.weightedReplace)) {
    const order = [...files.weighted].sort((a, b) => b[1] - a[1]);
    const wrank = new Map(order.map(([id], i) => [id, i + 1]));
    for (const c of ranked) {
      const r = wrank.get(c.id);
      const own = c.keywordRank !== undefined ? 1 / (60 + c.keywordRank) : 0;
      // the fused score's factors (definition named, test, path) are kept as the ratio score / own
      const add = r === undefined ? 0 : 1 / (60 + r);
      if (own === 0) {
        c.score += (c.isTest ? 0.55 : 1) * (weights.weightedReplace ? 1 : weights.weightedRrf) * long * add;
        continue;
      }
      const factor = c.score / own;
      if (weights.weightedReplace) c.score = factor * (own * (1 - long) + add * long);
      else c.score = factor * (own + weights.weightedRrf * long * add);
    }
  }
  // types whose members are among the candidates: `path#Type` for each member `Type.member`
  const withMembers = new Set<string>();
  for (const c of ranked) {
    if (c.chunkType !== "definitions" || !c.symbolPath || TYPE_KINDS.has(c.kind ?? "")) continue;
    const cut = Math.max(c.symbolPath.lastIndexOf("."), c.symbolPath.lastIndexOf("::"), c.symbolPath.lastIndexOf("#"));
    if (cut > 0) withMembers.add(`${c.filePath}#${c.symbolPath.slice(0, cut)}`);
  }
  for (const c of ranked) {
    const r = fileRank.get(c.filePath);
    const rankSupport = r === undefined ? 0 : 1 / (1 + r) ** weights.fileRankPower;
    const candidateSupport = fileShare.get(c.filePath) ?? 0;
    const scoreSupport = fileScore.get(c.filePath) ?? 0;
    const support = weights.fileRankOnly
      ? rankSupport
      : weights.fileScore
        ? weights.fileScoreLong
          ? candidateSupport * (1 - long) + scoreSupport * long
          : scoreSupport
        : candidateSupport;
    let s = c.score * (1 + weights.file * support);
    if (weights.fileRank > 0) s *= 1 + weights.fileRank * long * rankSupport;
    if (c.chunkType === "definitions" && c.symbolPath) {
      const last = lastSegment(c.symbolPath);
      s *= 1 + nameWeight * nameMatch(last, queryStems);
      if (weights.identifier > 0 && identifiers.has(last.toLowerCase())) s *= 1 + weights.identifier;
      if (TYPE_KINDS.has(c.kind ?? "") && withMembers.has(`${c.filePath}#${c.symbolPath}`)) s *= weights.typeWithMembers;
      if (TYPE_KINDS.has(c.kind ?? "")) s *= 1 - (1 - weights.typeLong) * long;
      if (sizeExp > 0 && !TYPE_KINDS.has(c.kind ?? "") && c.lines !== undefined) s *= (Math.max(1, c.lines) / weights.sizeRef) ** sizeExp;
    } else if (c.chunkType === "symbols") s *= weights.overview;
    if (c.chunkType !== "definitions") s *= 1 - (1 - weights.otherLong) * long;
    c.score = s;
  }
  return ranked.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

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
 * A long question (a pasted issue: SWE-bench's hundreds of words) is read differently, in proportion to how
 * long it is (the shortness of file ranking, (12 / terms)²): its words name many definitions by chance, so
 * the name signal fades; the file support comes from the whole-file ranking (searchFiles, which weighs the
 * issue's title and saturates its repeated words); and type chunks and chunks that are not definitions
 * (data, documentation, overviews) weigh less, since an issue is fixed in a function. SWE-bench
 * Verified-tune function-level Acc@5 41.4 → 47.6 (374 labelled instances), the docstring and commit-subject
 * dev splits unchanged at Acc@5 (docs/benchmarks.md, "Function-level answers for pasted issues").
 * A pasted issue's title (a first line with more lines after it) is read apart: a definition it writes as
 * code is lifted, and when the whole-file ranking is sure of its best file (ahead of the second by 1.2×),
 * that file's three best functions lead the list, since its chunks otherwise interleave with other files'
 * (Verified-tune Acc@5 +7 / −3 instances, Acc@1 23.7 → 25.5; one-line questions untouched; docs/benchmarks.md,
 * "Function-level answers for pasted issues: the title and the leading file").
 * Weights in FUNCTION_RANKING, tuned on the dev and tune splits only.
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
  /** Up to this many terms a question is short; above, the long-question weights grow as 1 − (this / terms)². */
  shortQueryTerms: 12,
  /** The name weight of a long question: name × (1 − nameLongFade × longness); 1 = none for a pasted issue. */
  nameLongFade: 1,
  /** Multiplier for a type chunk (class, struct…) of a long question, at full length: an outline, rarely the fix. */
  typeLong: 0.3,
  /** Multiplier for a chunk that is no definition (data, documentation, overview) of a long question, at full length. */
  otherLong: 0.5,
  /**
   * A pasted issue's title (its first line, when more lines follow) that writes a definition's name as code
   * (`Field.__hash__()`, `get_context_data`, `SpanSelector`): × (1 + titleName · longness) for that
   * definition. The body names the APIs the reporter called; the title names what is wrong.
   */
  titleName: 1,
  /**
   * When the whole-file ranking's best file leads the second by at least leadFileGap (score ratio), its best
   * leadFileFunctions functions lead a long question's chunk list (0: off).
   */
  leadFileFunctions: 3,
  leadFileGap: 1.2,
};

/** The whole-file ranking (searchFiles) of the question, best first: the file support of a long question. */
export type FileRanking = ReadonlyArray<{ filePath: string; score: number }>;

/** 1 for a question of a few words, falling towards 0 for a pasted issue (FILE_RANKING's shortness). */
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
  return stemShare(nameStems(name), queryStems);
}

/** The stems of a name's words of two letters or more. */
export function nameStems(name: string): string[] {
  return identifierParts(name)
    .filter((p) => p.length >= 2)
    .map(stem);
}

/** Share (0-1) of `stems` the query's stems contain. */
export function stemShare(stems: readonly string[], queryStems: Set<string>): number {
  if (stems.length === 0) return 0;
  let hit = 0;
  for (const x of stems) if (queryStems.has(x)) hit++;
  return hit / stems.length;
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

/**
 * Re-scores and re-sorts candidates for a function-level answer; candidates are changed in place. `files`
 * is the whole-file ranking, which a long question's file support blends in (without it the candidates'
 * support stands alone).
 */
export function promoteFunctions(ranked: Candidate[], q: AnalyzedQuery, weights: typeof FUNCTION_RANKING = FUNCTION_RANKING, files?: FileRanking): Candidate[] {
  const candidateShare = fileSupport(ranked, weights.supportChunks);
  const queryStems = new Set(q.terms.map(stem));
  const long = 1 - shortnessOf(q, weights.shortQueryTerms);
  const nameWeight = weights.name * (1 - weights.nameLongFade * long);
  // a long question's file support: the whole-file ranking's score as a share of its best file's
  const rankedShare = new Map<string, number>();
  const bestFile = files?.[0]?.score ?? 0;
  if (files && bestFile > 0 && long > 0) for (const f of files) rankedShare.set(f.filePath, f.score / bestFile);
  const fromRanking = rankedShare.size > 0 ? long : 0;
  const typeWeight = 1 - (1 - weights.typeLong) * long;
  const otherWeight = 1 - (1 - weights.otherLong) * long;
  // types whose members are among the candidates: `path#Type` for each member `Type.member`
  const withMembers = new Set<string>();
  for (const c of ranked) {
    if (c.chunkType !== "definitions" || !c.symbolPath || TYPE_KINDS.has(c.kind ?? "")) continue;
    const cut = Math.max(c.symbolPath.lastIndexOf("."), c.symbolPath.lastIndexOf("::"), c.symbolPath.lastIndexOf("#"));
    if (cut > 0) withMembers.add(`${c.filePath}#${c.symbolPath.slice(0, cut)}`);
  }
  // a pasted issue's title: the definitions it writes as code
  const title = long > 0 ? titleOf(q.raw) : "";
  const titleNames = weights.titleName > 0 && title !== "" ? codeNamesOf(title) : new Set<string>();
  for (const c of ranked) {
    const support = (candidateShare.get(c.filePath) ?? 0) * (1 - fromRanking) + (rankedShare.get(c.filePath) ?? 0) * fromRanking;
    let s = c.score * (1 + weights.file * support);
    if (c.chunkType === "definitions" && c.symbolPath) {
      const name = lastSegment(c.symbolPath);
      s *= 1 + nameWeight * nameMatch(name, queryStems);
      if (titleNames.has(name)) s *= 1 + weights.titleName * long;
      if (TYPE_KINDS.has(c.kind ?? "")) {
        if (withMembers.has(`${c.filePath}#${c.symbolPath}`)) s *= weights.typeWithMembers;
        s *= typeWeight;
      }
    } else if (c.chunkType === "symbols") s *= weights.overview;
    if (c.chunkType !== "definitions") s *= otherWeight;
    c.score = s;
  }
  ranked.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  if (weights.leadFileFunctions > 0 && title !== "" && long > 0.5 && files && files.length > 0) {
    const [first, second] = files;
    if (first!.score > 0 && first!.score >= weights.leadFileGap * (second?.score ?? 0)) leadWith(ranked, first!.filePath, weights.leadFileFunctions);
  }
  return ranked;
}

/**
 * Moves the best `n` functions (distinct definitions, not types) of `filePath` to the head of a sorted
 * candidate list, in their order: their scores rise by the list's best, so the order holds through collapse.
 */
function leadWith(ranked: Candidate[], filePath: string, n: number): void {
  const lift = ranked[0]?.score ?? 0;
  const taken = new Set<string>();
  for (const c of ranked) {
    if (taken.size >= n) break;
    if (c.filePath !== filePath || c.chunkType !== "definitions" || !c.symbolPath || TYPE_KINDS.has(c.kind ?? "")) continue;
    taken.add(c.symbolPath);
  }
  for (const c of ranked) if (c.filePath === filePath && c.chunkType === "definitions" && c.symbolPath && taken.has(c.symbolPath)) c.score += lift;
  ranked.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

/** The first line of a question that has more lines after it (a pasted issue's title); "" otherwise. */
export function titleOf(raw: string): string {
  const lines = raw.split("\n").filter((l) => l.trim() !== "");
  return lines.length > 1 ? lines[0]!.trim() : "";
}

/** Names a line writes as code: snake_case, camelCase or PascalCase with an inner capital, a call `name(`, a member `.name`. */
export function codeNamesOf(line: string): Set<string> {
  const out = new Set<string>();
  for (const m of line.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
    const w = m[0];
    const at = m.index ?? 0;
    if (/_/.test(w) || /[a-z0-9][A-Z]|^[A-Z][a-z0-9]+[A-Z]/.test(w) || line[at + w.length] === "(" || line[at - 1] === ".") out.add(w);
  }
  return out;
}

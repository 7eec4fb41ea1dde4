/**
 * The best `limit` rows of an FTS5 OR of phrases by bm25, without ranking every row that holds a common
 * word. FTS5 ranks every matching row (a bm25 per row: its positions and its size), and a question of
 * common words matches a fifth of the kernel's 1.3 million chunks; counting them costs a tenth of ranking them.
 *
 * The bound (exact, as MaxScore): FTS5's bm25 is a sum over the expression's phrases of
 * idf · f·(k1+1) / (f + k1·(1 − b + b·|D|/avgdl)), with k1 = 1.2, b = 0.75 and f the phrase's weighted count
 * in the row; each part is below idf·(k1+1), whatever the row (f/(f + k1·…) < 1). With the phrases in order
 * of how many rows hold them, rarest first, a row whose first phrase present is the i-th scores below
 * R_i = Σ_{j≥i} idf_j·(k1+1). So the rows are ranked by groups, rarest first:
 * - `P_i AND (P_{i+1} OR … OR P_n) NOT (P_1 OR … OR P_{i-1})`: the rows whose first phrase is the i-th and
 *   which hold another; skipped once R_i cannot reach the k-th best score found so far;
 * - then `P_i NOT (every other)`, the rows holding the i-th phrase alone, where idf_i·(k1+1) can still
 *   reach it (rare: questions of one or two words);
 * and when those lone rows are many, every row is ranked as before. Every row left out scores below
 * the k-th best kept: the answer is the same rows in the same order as ranking all.
 *
 * The scores are the same bits, too: FTS5 adds the phrases' parts in the order the expression names them,
 * and a phrase a row does not hold adds exactly 0. A group's expression names its phrases in the global
 * order from its first (the earlier ones, absent from its rows, come last in the NOT), and the full
 * ranking uses that order too, so a row's score is one sum whichever statement computes it. Ties are
 * broken by rowid everywhere.
 */

/** A ranked row: rowid, score (bm25 negated: higher is better), and whatever the source adds. */
export interface RankedRow {
  rowid: number;
  score: number;
}

/** What the bounded ranking asks of the keyword index. */
export interface RankSource<R extends RankedRow> {
  /** The best `limit` rows matching an FTS5 expression, by bm25 negated then rowid (filters applied). */
  rank(expression: string, limit: number): R[];
  /** How many rows hold a phrase: FTS5's own count for its idf (no filters). */
  rowsHolding(phrase: string): number;
  /** The number of rows FTS5 counts for its idf (its averages record); undefined when unknown. */
  rowCount(): number | undefined;
}

/** FTS5's bm25 constants (sqlite/ext/fts5/fts5_aux.c). */
const K1 = 1.2;

/**
 * Below this many rows holding any phrase (the sum of the phrases' counts) every row is ranked at once:
 * a few thousand bm25 calls cost less than the groups' extra statements.
 */
const BOUNDED_MIN_ROWS = 5_000;

/**
 * Each group's statement makes FTS5 count every row of each of its phrases again (for their idf), so
 * questions of many words (an issue's text: up to 64) are ranked at once, in the question's order, and a
 * question needing more groups than this is ranked at once after them.
 */
export const BOUNDED_MAX_TERMS = 8;
const MAX_GROUPS = 4;

/** The lone rows of phrases are ranked group by group only while they are at most this share of all. */
const LONE_SHARE = 0.25;

/** Relative margin on the bounds: JavaScript's and C's log may differ in their last bit. */
const MARGIN = 1e-9;

export interface TopK<R> {
  rows: R[];
  /** `all`: every matching row ranked at once; `bounded`: by groups (the module comment). */
  plan: "all" | "bounded";
  /** The FTS5 expressions ranked, in order. */
  expressions: string[];
}

/** Quotes a term as an FTS5 phrase (terms are lower-cased words). */
function phrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

function anyOf(phrases: string[]): string {
  return phrases.length === 1 ? phrases[0]! : `(${phrases.join(" OR ")})`;
}

/** The best `limit` rows of `terms` OR-ed, exactly as ranking every row would give them (see above). */
export function boundedTopK<R extends RankedRow>(terms: readonly string[], limit: number, source: RankSource<R>, minRows = BOUNDED_MIN_ROWS): TopK<R> {
  const expressions: string[] = [];
  const rank = (expression: string) => {
    expressions.push(expression);
    return source.rank(expression, limit);
  };
  const distinct = [...new Set(terms)];
  if (distinct.length === 0 || limit <= 0) return { rows: [], plan: "all", expressions };
  if (distinct.length > BOUNDED_MAX_TERMS) return { rows: rank(distinct.map(phrase).join(" OR ")), plan: "all", expressions };
  // rarest first; equal counts keep the question's order
  const counted = distinct.map((t, at) => ({ phrase: phrase(t), at, rows: source.rowsHolding(phrase(t)) })).sort((a, b) => a.rows - b.rows || a.at - b.at);
  const all = () => ({ rows: rank(counted.map((c) => c.phrase).join(" OR ")), plan: "all" as const, expressions });
  const total = counted.reduce((s, c) => s + c.rows, 0);
  const n = source.rowCount();
  // phrases no row holds add 0 to every score: left out of the groups
  const held = counted.filter((c) => c.rows > 0);
  if (held.length < 2 || total < minRows || n === undefined || n < held.at(-1)!.rows) return all();
  const most = held.map((c) => partBound(c.rows, n));
  const suffix = most.map((_, i) => most.slice(i).reduce((s, m) => s + m, 0));
  const phrases = held.map((c) => c.phrase);

  const best = new Map<number, R>();
  let kth = -Infinity;
  const merge = (rows: R[]) => {
    for (const r of rows) best.set(r.rowid, r);
    if (best.size >= limit) kth = ordered(best).at(limit - 1)!.score;
  };
  for (let i = 0; i + 1 < phrases.length && suffix[i]! > kth; i++) {
    if (i === MAX_GROUPS) return all();
    const first = phrases[i]!;
    const others = `${first} AND ${anyOf(phrases.slice(i + 1))}`;
    merge(rank(i === 0 ? others : `(${others}) NOT ${anyOf(phrases.slice(0, i))}`));
  }
  const lone = held.map((c, i) => ({ c, i })).filter(({ i }) => most[i]! > kth);
  if (lone.reduce((s, { c }) => s + c.rows, 0) > LONE_SHARE * total) return all();
  for (const { i } of lone) merge(rank(`${phrases[i]} NOT ${anyOf(phrases.filter((_, j) => j !== i))}`));
  return { rows: ordered(best).slice(0, limit), plan: "bounded", expressions };
}

/**
 * More than the most a phrase held by `rows` of `rowCount` rows adds to any row's bm25: idf·(k1+1), with
 * FTS5's idf (floored at 1e-6 where not positive) and a margin for the last bit of log.
 */
export function partBound(rows: number, rowCount: number): number {
  return Math.max(Math.log((rowCount - rows + 0.5) / (rows + 0.5)), 1e-6) * (K1 + 1) * (1 + MARGIN);
}

function ordered<R extends RankedRow>(rows: Map<number, R>): R[] {
  return [...rows.values()].sort((a, b) => b.score - a.score || a.rowid - b.rowid);
}

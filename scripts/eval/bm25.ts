/**
 * Okapi BM25 over a changing document set. Documents are added and removed one at a time (the corpus
 * moves from one base commit to the next), so term statistics are kept as running counts and a query
 * costs one pass over the postings of its terms.
 *
 *   score(d, q) = Σ_{t ∈ q} idf(t) · tf(t,d)·(k1+1) / (tf(t,d) + k1·(1 − b + b·|d|/avgdl))
 *   idf(t)      = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))
 */

export interface Bm25Params {
  k1: number;
  b: number;
}

export const DEFAULT_BM25: Bm25Params = { k1: 1.2, b: 0.75 };

/** A document's term frequencies and length, computed once per content. */
export interface TermBag {
  tf: Map<string, number>;
  length: number;
}

export function termBag(tokens: Iterable<string>): TermBag {
  const tf = new Map<string, number>();
  let length = 0;
  for (const t of tokens) {
    tf.set(t, (tf.get(t) ?? 0) + 1);
    length++;
  }
  return { tf, length };
}

export class Bm25Index {
  private readonly docs = new Map<string, TermBag>();
  /** term → (document id → tf) */
  private readonly postings = new Map<string, Map<string, number>>();
  private totalLength = 0;

  constructor(readonly params: Bm25Params = DEFAULT_BM25) {}

  get size(): number {
    return this.docs.size;
  }

  has(id: string): boolean {
    return this.docs.has(id);
  }

  /** Adds or replaces a document. */
  set(id: string, bag: TermBag): void {
    this.delete(id);
    this.docs.set(id, bag);
    this.totalLength += bag.length;
    for (const [term, n] of bag.tf) {
      let p = this.postings.get(term);
      if (!p) this.postings.set(term, (p = new Map()));
      p.set(id, n);
    }
  }

  delete(id: string): void {
    const bag = this.docs.get(id);
    if (!bag) return;
    this.docs.delete(id);
    this.totalLength -= bag.length;
    for (const term of bag.tf.keys()) {
      const p = this.postings.get(term)!;
      p.delete(id);
      if (p.size === 0) this.postings.delete(term);
    }
  }

  idf(term: string): number {
    const df = this.postings.get(term)?.size ?? 0;
    const n = this.docs.size;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /**
   * Scores every document that holds at least one query term. `weights` gives each query term's
   * multiplier (its count in the query for plain BM25 over the whole issue text).
   */
  score(weights: Map<string, number>): Map<string, number> {
    const { k1, b } = this.params;
    const avgdl = this.docs.size > 0 ? this.totalLength / this.docs.size : 0;
    const scores = new Map<string, number>();
    for (const [term, w] of weights) {
      const p = this.postings.get(term);
      if (!p) continue;
      const idf = this.idf(term) * w;
      for (const [id, tf] of p) {
        const len = this.docs.get(id)!.length;
        const s = (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * len) / avgdl));
        scores.set(id, (scores.get(id) ?? 0) + s);
      }
    }
    return scores;
  }

  /** Document ids ordered by score (highest first); ties and unmatched documents keep id order. */
  rank(weights: Map<string, number>): string[] {
    const scores = this.score(weights);
    return [...this.docs.keys()].sort((a, c) => (scores.get(c) ?? 0) - (scores.get(a) ?? 0) || (a < c ? -1 : a > c ? 1 : 0));
  }
}

/** Query weights: each distinct token with the number of times it occurs. */
export function queryWeights(tokens: Iterable<string>): Map<string, number> {
  const w = new Map<string, number>();
  for (const t of tokens) w.set(t, (w.get(t) ?? 0) + 1);
  return w;
}

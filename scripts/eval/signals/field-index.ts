/**
 * BM25F over named fields (path, defined names, docstrings and comments, code): each field's term
 * frequency is length-normalized against that field's average, weighted, summed, and saturated once:
 *
 *   tf~(t,d) = Σ_f w_f · tf_f(t,d) / (1 − b + b·|d_f|/avg|f|)
 *   score    = Σ_{t ∈ q} idf(t) · tf~·(k1+1) / (tf~ + k1)          idf over documents holding t in any field
 *
 * Weights are given per query, so one index serves every weighting the research tries.
 */
import type { TermBag } from "../bm25.ts";

export const FIELDS = ["path", "defs", "doc", "code"] as const;
export type Field = (typeof FIELDS)[number];
export type FieldWeights = Record<Field, number>;

export class FieldIndex {
  private readonly docs = new Map<string, Record<Field, TermBag>>();
  private readonly postings = FIELDS.map(() => new Map<string, Map<string, number>>());
  private readonly totals = FIELDS.map(() => 0);
  private readonly df = new Map<string, number>();

  constructor(
    readonly k1 = 1.2,
    readonly b = 0.75,
  ) {}

  set(id: string, fields: Record<Field, TermBag>): void {
    this.delete(id);
    this.docs.set(id, fields);
    const union = new Set<string>();
    FIELDS.forEach((f, i) => {
      const bag = fields[f];
      this.totals[i]! += bag.length;
      for (const [term, n] of bag.tf) {
        let p = this.postings[i]!.get(term);
        if (!p) this.postings[i]!.set(term, (p = new Map()));
        p.set(id, n);
        union.add(term);
      }
    });
    for (const t of union) this.df.set(t, (this.df.get(t) ?? 0) + 1);
  }

  delete(id: string): void {
    const fields = this.docs.get(id);
    if (!fields) return;
    this.docs.delete(id);
    const union = new Set<string>();
    FIELDS.forEach((f, i) => {
      const bag = fields[f];
      this.totals[i]! -= bag.length;
      for (const term of bag.tf.keys()) {
        const p = this.postings[i]!.get(term)!;
        p.delete(id);
        if (p.size === 0) this.postings[i]!.delete(term);
        union.add(term);
      }
    });
    for (const t of union) {
      const n = this.df.get(t)! - 1;
      if (n === 0) this.df.delete(t);
      else this.df.set(t, n);
    }
  }

  score(query: Map<string, number>, weights: FieldWeights): Map<string, number> {
    const n = this.docs.size;
    const scores = new Map<string, number>();
    const avg = this.totals.map((t) => (n > 0 ? t / n : 0));
    for (const [term, qw] of query) {
      const df = this.df.get(term);
      if (!df) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5)) * qw;
      const acc = new Map<string, number>();
      FIELDS.forEach((f, i) => {
        const w = weights[f];
        if (w === 0) return;
        const p = this.postings[i]!.get(term);
        if (!p) return;
        for (const [id, tf] of p) {
          const len = this.docs.get(id)![f].length;
          const norm = avg[i]! > 0 ? 1 - this.b + (this.b * len) / avg[i]! : 1;
          acc.set(id, (acc.get(id) ?? 0) + (w * tf) / norm);
        }
      });
      for (const [id, t] of acc) scores.set(id, (scores.get(id) ?? 0) + (idf * t * (this.k1 + 1)) / (t + this.k1));
    }
    return scores;
  }
}

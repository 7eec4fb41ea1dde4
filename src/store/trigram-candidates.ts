/**
 * Evaluates a trigram query against SQLite's own trigram index (content-index.ts), or posting lists in
 * the same form from elsewhere (the shared store's, postgres/reader.ts): the ids of the files
 * that may match, ascending, or null for "every file". ANDs intersect the shortest lists first and stop
 * as soon as nothing is left.
 */
import type { ContentIndex } from "./content-index.ts";
import { intersectSorted, unionSorted } from "./trigrams.ts";
import type { TrigramQuery } from "./contract.ts";

export class CandidateFinder {
  private readonly lists = new Map<number, Uint32Array>();

  /** Over the local index's lists, or any other source of them (the shared store's reader). */
  constructor(private readonly index: Pick<ContentIndex, "postings">) {}

  private postings(t: number): Uint32Array {
    let l = this.lists.get(t);
    if (!l) {
      l = this.index.postings(t);
      this.lists.set(t, l);
    }
    return l;
  }

  /** Files satisfying `q` (null: all files). */
  evaluate(q: TrigramQuery): Uint32Array | null {
    switch (q.op) {
      case "all":
        return null;
      case "tri":
        return this.postings(q.t);
      case "or": {
        let out: Uint32Array = new Uint32Array(0);
        for (const a of q.args) {
          const r = this.evaluate(a);
          if (r === null) return null;
          out = unionSorted(out, r);
        }
        return out;
      }
      case "and": {
        // single trigrams first, smallest list first; compound arguments after
        const tris = q.args.filter((a): a is { op: "tri"; t: number } => a.op === "tri").map((a) => this.postings(a.t));
        tris.sort((a, b) => a.length - b.length);
        let out: Uint32Array | null = null;
        for (const l of tris) {
          out = out === null ? l : intersectSorted(out, l);
          if (out.length === 0) return out;
        }
        for (const a of q.args) {
          if (a.op === "tri") continue;
          const r = this.evaluate(a);
          if (r === null) continue;
          out = out === null ? r : intersectSorted(out, r);
          if (out.length === 0) return out;
        }
        return out;
      }
    }
  }
}

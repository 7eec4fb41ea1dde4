/**
 * An in-memory vector index: unit vectors by key, exact top-k by dot product (the cosine, for unit vectors).
 *
 * Brute force on purpose: 100k vectors of 384 floats are 38M multiply-adds per query, tens of
 * milliseconds, exact, with no build step, and vectors can be added one batch at a time while embedding
 * goes on. Vectors live in one growing Float32Array (row per key) so a scan is a tight loop over
 * contiguous memory.
 */
import { CortexError } from "../core/errors.ts";

export interface VectorHit {
  key: string;
  score: number;
}

export class VectorIndex {
  readonly dimensions: number;
  private data: Float32Array;
  private keys: string[] = [];
  private readonly slots = new Map<string, number>();

  constructor(dimensions: number, initialCapacity = 1024) {
    if (!Number.isInteger(dimensions) || dimensions <= 0) throw new CortexError("INVALID_INPUT", `dimensions: must be a positive integer, got ${dimensions}`);
    this.dimensions = dimensions;
    this.data = new Float32Array(Math.max(1, initialCapacity) * dimensions);
  }

  get size(): number {
    return this.keys.length;
  }

  has(key: string): boolean {
    return this.slots.has(key);
  }

  /** Adds or replaces the vector of `key` (copied). */
  set(key: string, vector: Float32Array): void {
    if (vector.length !== this.dimensions) {
      throw new CortexError("INVALID_INPUT", `vector of ${key}: has ${vector.length} dimensions, the index holds ${this.dimensions}`);
    }
    let slot = this.slots.get(key);
    if (slot === undefined) {
      slot = this.keys.length;
      if ((slot + 1) * this.dimensions > this.data.length) {
        const grown = new Float32Array(this.data.length * 2);
        grown.set(this.data);
        this.data = grown;
      }
      this.keys.push(key);
      this.slots.set(key, slot);
    }
    this.data.set(vector, slot * this.dimensions);
  }

  /** Removes `key`; the last row moves into its place. */
  delete(key: string): boolean {
    const slot = this.slots.get(key);
    if (slot === undefined) return false;
    const last = this.keys.length - 1;
    if (slot !== last) {
      const d = this.dimensions;
      this.data.copyWithin(slot * d, last * d, (last + 1) * d);
      const moved = this.keys[last]!;
      this.keys[slot] = moved;
      this.slots.set(moved, slot);
    }
    this.keys.pop();
    this.slots.delete(key);
    return true;
  }

  /** The `k` keys whose vectors score highest against `query`, best first; `accept` filters keys. */
  search(query: Float32Array, k: number, accept?: (key: string) => boolean): VectorHit[] {
    if (query.length !== this.dimensions) {
      throw new CortexError("INVALID_INPUT", `query vector: has ${query.length} dimensions, the index holds ${this.dimensions}`);
    }
    if (k <= 0 || this.keys.length === 0) return [];
    const d = this.dimensions;
    const data = this.data;
    // a min-heap of the best k so far: slot numbers ordered by score
    const heapSlots = new Int32Array(k);
    const heapScores = new Float32Array(k);
    let n = 0;
    const siftDown = (i: number) => {
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < n && heapScores[l]! < heapScores[m]!) m = l;
        if (r < n && heapScores[r]! < heapScores[m]!) m = r;
        if (m === i) return;
        [heapScores[i], heapScores[m]] = [heapScores[m]!, heapScores[i]!];
        [heapSlots[i], heapSlots[m]] = [heapSlots[m]!, heapSlots[i]!];
        i = m;
      }
    };
    for (let slot = 0; slot < this.keys.length; slot++) {
      if (accept && !accept(this.keys[slot]!)) continue;
      // four accumulators: about twice as fast as one (independent adds pipeline; measured 67 vs 120 ms)
      const base = slot * d;
      let a0 = 0;
      let a1 = 0;
      let a2 = 0;
      let a3 = 0;
      let j = 0;
      for (; j + 3 < d; j += 4) {
        a0 += data[base + j]! * query[j]!;
        a1 += data[base + j + 1]! * query[j + 1]!;
        a2 += data[base + j + 2]! * query[j + 2]!;
        a3 += data[base + j + 3]! * query[j + 3]!;
      }
      for (; j < d; j++) a0 += data[base + j]! * query[j]!;
      const score = a0 + a1 + a2 + a3;
      if (n < k) {
        // sift up
        let i = n++;
        heapScores[i] = score;
        heapSlots[i] = slot;
        while (i > 0) {
          const p = (i - 1) >> 1;
          if (heapScores[p]! <= heapScores[i]!) break;
          [heapScores[i], heapScores[p]] = [heapScores[p]!, heapScores[i]!];
          [heapSlots[i], heapSlots[p]] = [heapSlots[p]!, heapSlots[i]!];
          i = p;
        }
      } else if (score > heapScores[0]!) {
        heapScores[0] = score;
        heapSlots[0] = slot;
        siftDown(0);
      }
    }
    const out: VectorHit[] = [];
    for (let i = 0; i < n; i++) out.push({ key: this.keys[heapSlots[i]!]!, score: heapScores[i]! });
    return out.sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : 1));
  }
}

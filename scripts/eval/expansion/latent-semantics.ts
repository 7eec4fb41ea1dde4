/**
 * Latent semantic indexing of one project's files, for the measurement in lsi.ts (issue 15, item 2: a
 * semantic channel learned from the project itself, with no download). Each file is a bag of its words
 * (identifier parts and whole identifiers, stemmed, stop words out: the keyword index's vocabulary),
 * weighted log(1 + tf) · idf and scaled to unit length; a truncated SVD of that files × words matrix
 * (randomized: Halko, Martinsson & Tropp 2011, with two power iterations) gives each file k coordinates,
 * and a question is folded into the same space by the words' right singular vectors. Files that use the
 * words which go together with the question's, not only its own words, come out near it.
 */
import { wordsOf } from "../../../src/core/words.ts";
import { STOP } from "../../../src/engines/search/query.ts";
import { stem } from "../../../src/engines/search/function-promotion.ts";

/** The words a text contributes: stemmed, stop words, numbers and one-letter words out. */
export function lsiWords(text: string): string[] {
  const out: string[] = [];
  for (const w of wordsOf(text)) {
    if (w.length < 2 || STOP.has(w) || /^\d+$/.test(w)) continue;
    out.push(stem(w));
  }
  return out;
}

export interface LatentSpace {
  /** Each file's coordinates (U_k · Σ_k), unit length, by file. */
  files: Map<string, Float64Array>;
  /** The coordinates a text's words fold into (its weighted words times V_k), unit length; undefined when it has none of the vocabulary. */
  fold(text: string): Float64Array | undefined;
}

/** A deterministic normal sampler (the measurement must give the same space twice). */
function gaussian(seed: number): () => number {
  let s = seed >>> 0 || 1;
  const uniform = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return (s + 0.5) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

/** Orthonormalizes the columns of a rows × cols row-major matrix in place (modified Gram-Schmidt). */
function orthonormalize(a: Float64Array, rows: number, cols: number): void {
  for (let j = 0; j < cols; j++) {
    for (let p = 0; p < j; p++) {
      let dot = 0;
      for (let i = 0; i < rows; i++) dot += a[i * cols + j]! * a[i * cols + p]!;
      for (let i = 0; i < rows; i++) a[i * cols + j]! -= dot * a[i * cols + p]!;
    }
    let norm = 0;
    for (let i = 0; i < rows; i++) norm += a[i * cols + j]! ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < rows; i++) a[i * cols + j]! /= norm;
  }
}

/** Eigenvalues and eigenvectors (columns) of a symmetric n × n matrix, by cyclic Jacobi rotations. */
function symmetricEigen(m: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(m);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 50; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q]! ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * n + q]! - a[p * n + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p]!;
          const akq = a[k * n + q]!;
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k]!;
          const aqk = a[q * n + k]!;
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p]!;
          const vkq = v[k * n + q]!;
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = a[i * n + i]!;
  return { values, vectors: v };
}

function unit(x: Float64Array): Float64Array {
  let n = 0;
  for (const v of x) n += v * v;
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < x.length; i++) x[i]! /= n;
  return x;
}

/**
 * The latent space of `docs` (file → text) with `k` dimensions. Words in fewer than `minFiles` files or
 * in more than half of them are left out (they relate nothing, or everything).
 */
export function latentSpace(docs: Map<string, string>, k: number, minFiles = 2): LatentSpace {
  const paths = [...docs.keys()];
  const bags = paths.map((p) => {
    const tf = new Map<string, number>();
    for (const w of lsiWords(docs.get(p)!)) tf.set(w, (tf.get(w) ?? 0) + 1);
    return tf;
  });
  const df = new Map<string, number>();
  for (const bag of bags) for (const w of bag.keys()) df.set(w, (df.get(w) ?? 0) + 1);
  const m = paths.length;
  const vocab = new Map<string, number>();
  const idf: number[] = [];
  for (const [w, n] of df) {
    if (n < minFiles || n > m / 2) continue;
    vocab.set(w, vocab.size);
    idf.push(Math.log(m / n));
  }
  const nTerms = vocab.size;
  // the files × words matrix, rows scaled to unit length, as compressed rows
  const rowStart = new Int32Array(m + 1);
  const cols: number[] = [];
  const vals: number[] = [];
  bags.forEach((bag, i) => {
    const row: Array<[number, number]> = [];
    for (const [w, n] of bag) {
      const j = vocab.get(w);
      if (j !== undefined) row.push([j, Math.log(1 + n) * idf[j]!]);
    }
    const norm = Math.sqrt(row.reduce((s, [, x]) => s + x * x, 0)) || 1;
    for (const [j, x] of row) {
      cols.push(j);
      vals.push(x / norm);
    }
    rowStart[i + 1] = cols.length;
  });
  const l = Math.max(1, Math.min(k + 10, m, nTerms));
  const kk = Math.min(k, l);
  // A · X (m × l) for X nTerms × l, and Aᵀ · Y (nTerms × l) for Y m × l, all row-major
  const times = (x: Float64Array): Float64Array => {
    const y = new Float64Array(m * l);
    for (let i = 0; i < m; i++)
      for (let e = rowStart[i]!; e < rowStart[i + 1]!; e++) {
        const j = cols[e]!;
        const a = vals[e]!;
        for (let c = 0; c < l; c++) y[i * l + c]! += a * x[j * l + c]!;
      }
    return y;
  };
  const transposeTimes = (y: Float64Array): Float64Array => {
    const z = new Float64Array(nTerms * l);
    for (let i = 0; i < m; i++)
      for (let e = rowStart[i]!; e < rowStart[i + 1]!; e++) {
        const j = cols[e]!;
        const a = vals[e]!;
        for (let c = 0; c < l; c++) z[j * l + c]! += a * y[i * l + c]!;
      }
    return z;
  };
  const normal = gaussian(0x5eed);
  const omega = new Float64Array(nTerms * l);
  for (let i = 0; i < omega.length; i++) omega[i] = normal();
  let q = times(omega);
  orthonormalize(q, m, l);
  for (let it = 0; it < 2; it++) {
    const z = transposeTimes(q);
    orthonormalize(z, nTerms, l);
    q = times(z);
    orthonormalize(q, m, l);
  }
  // B = Qᵀ A, held as Bᵀ = Aᵀ Q (nTerms × l); B Bᵀ's eigenvectors W give A ≈ (Q W) Σ (Bᵀ W Σ⁻¹)ᵀ
  const bt = transposeTimes(q);
  const gram = new Float64Array(l * l);
  for (let t = 0; t < nTerms; t++)
    for (let i = 0; i < l; i++) {
      const x = bt[t * l + i]!;
      if (x === 0) continue;
      for (let j = i; j < l; j++) gram[i * l + j]! += x * bt[t * l + j]!;
    }
  for (let i = 0; i < l; i++) for (let j = 0; j < i; j++) gram[i * l + j] = gram[j * l + i]!;
  const { values, vectors } = symmetricEigen(gram, l);
  const order = [...values.keys()].sort((a, b) => values[b]! - values[a]!).slice(0, kk);
  const sigma = order.map((c) => Math.sqrt(Math.max(0, values[c]!)));
  const files = new Map<string, Float64Array>();
  for (let i = 0; i < m; i++) {
    const u = new Float64Array(kk);
    order.forEach((c, d) => {
      let s = 0;
      for (let r = 0; r < l; r++) s += q[i * l + r]! * vectors[r * l + c]!;
      u[d] = s * sigma[d]!;
    });
    files.set(paths[i]!, unit(u));
  }
  // V_k (nTerms × kk): a word's coordinates
  const v = new Float64Array(nTerms * kk);
  for (let t = 0; t < nTerms; t++)
    order.forEach((c, d) => {
      if (sigma[d]! <= 0) return;
      let s = 0;
      for (let r = 0; r < l; r++) s += bt[t * l + r]! * vectors[r * l + c]!;
      v[t * kk + d] = s / sigma[d]!;
    });
  return {
    files,
    fold(text: string) {
      const tf = new Map<number, number>();
      for (const w of lsiWords(text)) {
        const j = vocab.get(w);
        if (j !== undefined) tf.set(j, (tf.get(j) ?? 0) + 1);
      }
      if (tf.size === 0) return undefined;
      const out = new Float64Array(kk);
      for (const [j, n] of tf) {
        const x = Math.log(1 + n) * idf[j]!;
        for (let d = 0; d < kk; d++) out[d]! += x * v[j * kk + d]!;
      }
      return unit(out);
    },
  };
}

/** The cosine of two unit vectors. */
export function cosine(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

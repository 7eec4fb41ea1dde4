import { describe, expect, test } from "bun:test";
import { VectorIndex } from "../../src/embed/index.ts";

/** Deterministic unit vectors. */
function vectors(n: number, d: number, seed = 7): Float32Array[] {
  let s = seed;
  const rnd = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32 - 0.5;
  return Array.from({ length: n }, () => {
    const v = Float32Array.from({ length: d }, rnd);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe("VectorIndex", () => {
  test("returns exactly the k best by dot product, best first, across growth beyond its capacity", () => {
    const vs = vectors(3000, 16);
    const index = new VectorIndex(16, 8);
    vs.forEach((v, i) => index.set(`k${i}`, v));
    expect(index.size).toBe(3000);
    for (const q of vectors(5, 16, 99)) {
      const expected = vs
        .map((v, i) => ({ key: `k${i}`, score: dot(v, q) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, 10);
      const got = index.search(q, 10);
      expect(got.map((h) => h.key)).toEqual(expected.map((h) => h.key));
      got.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i]!.score, 5));
    }
  });

  test("filters keys, replaces vectors, and deletes by moving the last row into the gap", () => {
    const [a, b, c] = vectors(3, 4);
    const index = new VectorIndex(4);
    index.set("a", a!);
    index.set("b", b!);
    index.set("c", c!);
    expect(index.search(a!, 1)[0]!.key).toBe("a");
    expect(index.search(a!, 3, (k) => k !== "a").map((h) => h.key)).not.toContain("a");
    index.set("a", c!); // now a and c are the same vector
    expect(
      index
        .search(c!, 2)
        .map((h) => h.key)
        .sort(),
    ).toEqual(["a", "c"]);
    expect(index.delete("a")).toBe(true);
    expect(index.delete("a")).toBe(false);
    expect(index.size).toBe(2);
    // c moved into a's row and is still itself
    expect(index.search(c!, 1)).toEqual([{ key: "c", score: expect.closeTo(1, 5) }]);
    expect(index.search(b!, 1)[0]!.key).toBe("b");
  });

  test("asks nothing of an empty index and refuses vectors of another size", () => {
    const index = new VectorIndex(3);
    expect(index.search(Float32Array.from([1, 0, 0]), 5)).toEqual([]);
    expect(() => index.set("x", Float32Array.from([1, 0]))).toThrow("vector of x: has 2 dimensions, the index holds 3");
    index.set("x", Float32Array.from([1, 0, 0]));
    expect(() => index.search(Float32Array.from([1, 0]), 1)).toThrow("query vector: has 2 dimensions, the index holds 3");
    expect(index.search(Float32Array.from([1, 0, 0]), 0)).toEqual([]);
    expect(() => new VectorIndex(0)).toThrow("dimensions: must be a positive integer, got 0");
  });
});

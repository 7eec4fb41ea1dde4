import { describe, expect, test } from "bun:test";
import { collectIfOver, collectionStats, collectNow, collectYoungEvery } from "../../src/core/memory.ts";

describe("collectYoungEvery", () => {
  test("collects once every n rows, counting across calls", () => {
    const at: number[] = [];
    let row = 0;
    const written = collectYoungEvery(3, () => at.push(row));
    for (row = 1; row <= 10; row++) written();
    expect(at).toEqual([3, 6, 9]);
  });

  test("runs JavaScriptCore's young collection by default without disturbing live objects", () => {
    const written = collectYoungEvery(2);
    const kept = Array.from({ length: 1000 }, (_, i) => ({ i }));
    for (let i = 0; i < 10; i++) written();
    expect(kept.reduce((sum, o) => sum + o.i, 0)).toBe(499_500);
  });
});

describe("collectionStats", () => {
  test("counts this thread's full collections, with or without the budget", () => {
    const before = collectionStats();
    collectNow();
    expect(collectIfOver(Number.MAX_SAFE_INTEGER)).toBe(false); // under the budget: nothing to count
    const after = collectionStats();
    expect(after.count).toBe(before.count + 1);
    expect(after.ms).toBeGreaterThanOrEqual(before.ms);
  });
});

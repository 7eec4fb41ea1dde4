import { describe, expect, test } from "bun:test";
import { collectIfOver, collectionStats, collectNow, collectOnGrowth, collectYoungEvery, residentBytes } from "../../src/core/memory.ts";

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

describe("collectOnGrowth", () => {
  test("over the budget, collects only once the process has grown by the given amount since the last collection", async () => {
    // the minimum interval between two collections of a thread must not be what holds it back: 250 ms,
    // or twice the last collection's duration, which on a loaded machine can be the longer one
    const start = collectionStats().ms;
    collectNow();
    await Bun.sleep(Math.max(250, 2 * (collectionStats().ms - start)) + 50);
    const before = collectionStats().count;
    // over any budget, but not 1 GiB above the size just after the last collection
    expect(collectOnGrowth(1, 2 ** 30)).toBe(false);
    expect(collectionStats().count).toBe(before);
    // no growth asked for: over the budget is enough, as for collectIfOver
    expect(collectOnGrowth(1, -(2 ** 40))).toBe(true);
    expect(collectionStats().count).toBe(before + 1);
    // and under the budget nothing, whatever the growth (decided before the interval is looked at)
    expect(collectOnGrowth(Number.MAX_SAFE_INTEGER, -(2 ** 40))).toBe(false);
  });
});

describe("residentBytes", () => {
  test("gives the process's resident size as Bun's rss does, read again at each call", () => {
    const ours = residentBytes();
    const bun = process.memoryUsage.rss();
    // two reads a moment apart: the same size give or take what the process touched between them
    expect(Math.abs(ours - bun)).toBeLessThan(16 * 2 ** 20);
    const grown = new Uint8Array(64 * 2 ** 20).fill(1); // 64 MiB made resident
    expect(residentBytes()).toBeGreaterThan(ours + 32 * 2 ** 20);
    expect(grown[grown.length - 1]).toBe(1);
  });
});

/**
 * The index progress bar's lines (src/cli/progress.ts): each tier named with what it makes ready, its
 * rate counted from the tier's own start, the steps after the parse tier by name.
 */
import { expect, test } from "bun:test";
import { progressLine } from "../../src/cli/progress.ts";
import { progressLabel } from "../../src/indexer/progress.ts";

test("the text and parse tiers are named, with their own rate and the time left", () => {
  expect(progressLine({ phase: "walk", done: 0, total: 0 }, 0)).toBe("cortex: scanning files…");
  const text = progressLine({ phase: "text", done: 30_000, total: 78_168 }, 10)!;
  expect(text).toBe("cortex: text tier ██████░░░░░░░░░░ 30,000/78,168 files 3000/s 16 s left");
  // 2 s into the parse tier: its rate is its own, not the run's since the walk
  const parse = progressLine({ phase: "parse", done: 500, total: 78_168 }, 2)!;
  expect(parse).toBe("cortex: parse tier ░░░░░░░░░░░░░░░░ 500/78,168 files 250/s 5 min left");
  // the longest line, at the kernel's counts, fits an 80-column terminal
  expect(progressLine({ phase: "parse", done: 10_000, total: 78_168 }, 10)!.length).toBeLessThan(80);
  expect(progressLabel({ phase: "parse", done: 1, total: 2 })).toBe("parse tier (grep and exact search ready; symbols, graph and search when done)");
  expect(progressLine({ phase: "text", done: 0, total: 0 }, 0)).toBe("cortex: nothing changed");
});

test("the steps after the parse tier are named, one of how many", () => {
  expect(progressLine({ phase: "finish", done: 1, total: 4, step: "reference resolution" }, 30)).toBe("cortex: finishing: reference resolution (step 2 of 4)…");
  expect(progressLine({ phase: "finish", done: 4, total: 4, step: "done" }, 31)).toBeUndefined();
  expect(progressLabel({ phase: "finish", done: 0, total: 1 })).toBe("finishing");
});

import { describe, expect, test } from "bun:test";
import { OffsetIndex } from "../../src/lang/offset-index.ts";

describe("OffsetIndex", () => {
  // a [0,100) contains b [10,40) which contains c [20,30); d [40,60) starts where b ends; e [70,71)
  const index = new OffsetIndex([
    { start: 40, end: 60, item: "d" },
    { start: 0, end: 100, item: "a" },
    { start: 20, end: 30, item: "c" },
    { start: 10, end: 40, item: "b" },
    { start: 70, end: 71, item: "e" },
  ]);

  test("finds the innermost span around an offset, ends exclusive", () => {
    expect([0, 9, 10, 19, 20, 29, 30, 39, 40, 59, 60, 70, 71, 99].map((o) => index.find(o))).toEqual([
      "a",
      "a",
      "b",
      "b",
      "c",
      "c",
      "b",
      "b",
      "d",
      "d",
      "a",
      "e",
      "a",
      "a",
    ]);
  });

  test("answers undefined outside every span and for an empty index", () => {
    expect(index.find(100)).toBeUndefined();
    expect(index.find(-1)).toBeUndefined();
    expect(new OffsetIndex<string>([]).find(0)).toBeUndefined();
  });

  test("spans on one line of minified code stay apart", () => {
    const oneLine = new OffsetIndex([
      { start: 0, end: 27, item: "p" },
      { start: 27, end: 58, item: "q" },
    ]);
    expect([oneLine.find(26), oneLine.find(27), oneLine.find(58)]).toEqual(["p", "q", undefined]);
  });
});

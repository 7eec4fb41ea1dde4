/**
 * The keyword indexes store each word 1 + floor(log2(n)) times for its n occurrences in a field
 * and numbers not at all (src/store/keyword-words.ts).
 */
import { describe, expect, test } from "bun:test";
import { compactWords } from "../../src/store/keyword-words.ts";

describe("compacted keyword words", () => {
  test("a word's count becomes 1 + floor(log2(count)), in order of first appearance", () => {
    const words = (n: number, w: string) => Array.from({ length: n }, () => w).join(" ");
    expect(compactWords(`${words(1, "read")} ${words(3, "err")} ${words(8, "buf")} ${words(2, "read")}`)).toBe("read read err err buf buf buf buf");
    for (const [n, kept] of [
      [1, 1],
      [2, 2],
      [3, 2],
      [4, 3],
      [7, 3],
      [16, 5],
      [1000, 10],
    ] as const) {
      expect(compactWords(words(n, "x")).split(" ").length).toBe(kept);
    }
  });
  test("numbers are left out, identifiers holding digits kept", () => {
    expect(compactWords("func parse 2157 2188 int64 64 utf8 0x1f")).toBe("func parse int64 utf8 0x1f");
  });
  test("nothing in, nothing out; stray spaces are no words", () => {
    expect(compactWords("")).toBe("");
    expect(compactWords("  a  b ")).toBe("a b");
  });
});

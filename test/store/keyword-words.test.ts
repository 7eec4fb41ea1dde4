/**
 * The keyword indexes store each word 1 + floor(log2(n)) times for its n occurrences in a field
 * and numbers not at all (src/store/keyword-words.ts).
 */
import { describe, expect, test } from "bun:test";
import { wordsText } from "../../src/core/words.ts";
import { keywordText, textWords } from "../../src/store/keyword-words.ts";

/** The same compaction written plainly over wordsText's string (slow, obviously right). */
function reference(text: string): string {
  const counts = new Map<string, number>();
  for (const w of wordsText(text).split(" ")) if (w !== "" && !/^[0-9]+$/.test(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  const out: string[] = [];
  for (const [w, n] of counts) for (let k = n; k >= 1; k >>= 1) out.push(w);
  return out.join(" ");
}

describe("compacted keyword words", () => {
  const words = (n: number, w: string) => Array.from({ length: n }, () => w).join(" ");
  test("a word's count becomes 1 + floor(log2(count)), in order of first appearance", () => {
    expect(keywordText(`${words(1, "read")} ${words(3, "err")} ${words(8, "buf")} ${words(2, "read")}`)).toBe("read read err err buf buf buf buf");
    for (const [n, kept] of [
      [1, 1],
      [2, 2],
      [3, 2],
      [4, 3],
      [7, 3],
      [16, 5],
      [1000, 10],
    ] as const) {
      expect(keywordText(words(n, "xy")).split(" ").length).toBe(kept);
    }
  });
  test("identifiers are split as wordsText splits them, then compacted", () => {
    expect(keywordText("handleLogin(handle_login); handleLogin")).toBe("handlelogin handlelogin handle handle login login handle_login");
  });
  test("numbers are left out, identifiers holding digits kept", () => {
    expect(keywordText("func parse 2157 2188 int64 64 utf8 0x1f")).toBe("func parse int64 int utf8 utf x1f");
  });
  test("nothing in, nothing out", () => {
    expect(keywordText("")).toBe("");
    expect(keywordText("  + 7 ")).toBe("");
  });
  test("agrees with the plain reference on texts with many distinct words (the table grows) and repeats", () => {
    let seed = 11; // mulberry32: a fixed sequence, so a failure reproduces
    const next = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const vocabulary = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}${"abcXyz_Q"[i % 8]}${i % 13}`);
    for (const size of [1, 10, 1_000, 50_000]) {
      const text = Array.from({ length: size }, () => vocabulary[next(size < 1_000 ? 50 : vocabulary.length)]).join(next(2) ? " " : "(");
      expect(keywordText(text)).toBe(reference(text));
    }
    // a small text after a big one: the table's slots of the big one must not count
    expect(keywordText("alpha beta alpha")).toBe("alpha alpha beta");
    // a text whose words outgrow the scanner's buffer in one call
    const long = Array.from({ length: 100_000 }, (_, i) => `q${i}x`).join(" ");
    expect(keywordText(long)).toBe(reference(long));
    // words past the size whose buffers are let go after the call, then a small text again
    const huge = Array.from({ length: 700_000 }, (_, i) => `w${i % 300_000}z`).join(" ");
    expect(keywordText(huge)).toBe(reference(huge));
    expect(keywordText("alpha beta alpha")).toBe("alpha alpha beta");
  });
});

describe("a file's words numbered once (TextWords)", () => {
  let seed = 7; // mulberry32: a fixed sequence, so a failure reproduces
  const next = (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  // identifiers of every shape the scanner splits, numbers, non-ASCII, over-long tokens, separators
  const pieces = [
    "parseHTTPRequest2",
    "x86_64",
    "MAX_ITEMS",
    "i",
    "_",
    "Foo",
    "foo",
    "0x1f",
    "2157",
    "utf8",
    "é",
    "日本",
    "😀",
    "a".repeat(70),
    "A_b_C",
    "__init__",
    "err",
  ];
  const separators = [" ", "\n", "(", ") {\n\t", ".", "\r\n", "\n\n", "-", "é"];
  const randomText = (tokens: number) => {
    let s = "";
    for (let i = 0; i < tokens; i++) s += pieces[next(pieces.length)]! + (next(9) < 2 ? `w${next(50)}` : "") + separators[next(separators.length)]!;
    return s;
  };
  test("the whole text, any run of its lines and another text compact as keywordText does", () => {
    for (const size of [0, 1, 30, 2_000, 40_000]) {
      const text = randomText(size) + (next(2) ? "\n" : "");
      const words = textWords(text);
      words.begin();
      words.addRange(0, words.occurrences);
      expect(words.finish()).toBe(keywordText(text));
      const lines = text.split("\n");
      if (text.endsWith("\n")) lines.pop();
      expect(words.lines).toBe(lines.length);
      for (let k = 0; k < 20 && lines.length > 0; k++) {
        const a = 1 + next(lines.length);
        const b = a + next(Math.min(90, lines.length - a + 1));
        expect(words.lineLength(a)).toBe(lines[a - 1]!.length);
        const other = randomText(next(20));
        words.begin();
        words.addText(other);
        words.addLines(a, b);
        // a text added between words ends between words: the other text's words, then the lines'
        expect(words.finish()).toBe(keywordText(`${other}\n${lines.slice(a - 1, b).join("\n")}`));
        expect(words.keywordText(other)).toBe(keywordText(other));
      }
    }
  });
});

/**
 * A file's keyword words split into comments and code (src/indexer/file-words.ts), taken from the file's
 * one scan: the same as the comments' and the code's texts scanned apart, whatever the comments' offsets.
 */
import { describe, expect, test } from "bun:test";
import { fileWords } from "../../src/indexer/file-words.ts";
import { keywordText, textWords } from "../../src/store/keyword-words.ts";

/** The comments' and the code's words as the parts' texts give them (slow, obviously right). */
function reference(text: string, comments: Array<[number, number]>): { doc: string; code: string } {
  const sorted = [...comments].sort((a, b) => a[0] - b[0]);
  const doc: string[] = [];
  const code: string[] = [];
  let at = 0;
  for (const [s, e] of sorted) {
    if (s > at) code.push(text.slice(at, s));
    doc.push(text.slice(Math.max(s, at), e));
    at = Math.max(at, e);
  }
  code.push(text.slice(at));
  return { doc: keywordText(doc.join("\n")), code: keywordText(code.join("\n")) };
}

describe("file words", () => {
  const text = [
    "// Package cart holds the shopping cart. See HTTPServer and max_items.",
    "package cart",
    "",
    "/* addItem adds one item */ func addItem(it Item) error { return nil } // trailing note",
    "const maxItems = 10 # not_a_comment",
    "x86_64 utf8Decoder 0x1f é日本 __init__",
  ].join("\n");
  test("no comments: everything is code", () => {
    const w = fileWords("a/cart.go", text, undefined, undefined, textWords(text));
    expect(w.doc).toBe("");
    expect(w.code).toBe(keywordText(text));
  });
  test("comments at any offsets, overlapping, nested, empty or cutting a word, give the parts' words", () => {
    let seed = 3;
    const next = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const real: Array<[number, number]> = [];
    for (const m of text.matchAll(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g)) real.push([m.index!, m.index! + m[0].length]);
    const cases: Array<Array<[number, number]>> = [real];
    for (let k = 0; k < 300; k++) {
      const list: Array<[number, number]> = [];
      for (let c = 1 + next(4); c > 0; c--) {
        const s = next(text.length + 1);
        list.push([s, Math.min(text.length, s + next(40))]);
      }
      cases.push(list);
    }
    for (const comments of cases) {
      const w = fileWords("a/cart.go", text, undefined, comments, textWords(text));
      const r = reference(text, comments);
      expect({ doc: w.doc, code: w.code }).toEqual(r);
      // without a scan given, the same
      const alone = fileWords("a/cart.go", text, undefined, comments);
      expect({ doc: alone.doc, code: alone.code }).toEqual(r);
    }
  });
});

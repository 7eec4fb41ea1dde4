import { describe, expect, test } from "bun:test";
import { identifierParts, wordsByLine, wordsOf, wordsText } from "../../src/core/words.ts";

/** What wordsText means, written plainly with regular expressions (slow, obviously right). */
function reference(text: string): string {
  const words: string[] = [];
  for (const m of text.matchAll(/[0-9]+|[A-Za-z_][A-Za-z0-9_]*/g)) {
    const token = m[0];
    if (token.length > 64) continue;
    if (/^[0-9]/.test(token)) {
      if (token.length >= 2) words.push(token);
      continue;
    }
    const whole = token.toLowerCase();
    if (whole.length >= 2) words.push(whole);
    for (const part of identifierParts(token)) if (part.length >= 2 && part !== whole) words.push(part);
  }
  return words.join(" ");
}

describe("keyword words", () => {
  test("identifiers whole and split, numbers, separators", () => {
    expect(wordsText("parseHTTPRequest2(ctx) // handle_login, XMLHttpRequest __init__ A1 héllo 42 7")).toBe(
      "parsehttprequest2 parse http request ctx handle_login handle login xmlhttprequest xml http request __init__ init a1 llo 42",
    );
    expect(wordsOf("fooBar foo_bar fooBar", true)).toEqual(["foobar", "foo", "bar", "foo_bar"]);
    expect(wordsText("x".repeat(65) + " ok")).toBe("ok");
  });

  test("the scanner agrees with the regular-expression reference on generated identifiers", () => {
    // upper-case runs, capitals, digits and underscores in every order: where hand-written splitting errs
    const pieces = ["a", "ab", "A", "AB", "ABC", "Ab", "Abc", "1", "12", "_", "__", "x9", "HTTP", "Request", "ID", "s"];
    let seed = 7; // mulberry32: a fixed sequence, so a failure reproduces
    const next = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    for (let round = 0; round < 5000; round++) {
      let token = "";
      for (let k = 1 + next(5); k > 0; k--) token += pieces[next(pieces.length)];
      const text = `${token} ${token.toUpperCase()}.${token.toLowerCase()}`;
      expect(wordsText(text)).toBe(reference(text));
    }
  });
});

test("wordsByLine gives wordsText and where each line's words begin", () => {
  const text = "package main\n\n// parseHTTPRequest reads\r\nfunc x_y(a int) {}\n\t42 7 abc\n";
  const { words, starts } = wordsByLine(text);
  expect(words).toBe(wordsText(text));
  const lines = text.split("\n");
  expect(starts.length).toBe(lines.length + 1);
  lines.forEach((line, i) => expect(words.slice(starts[i]!, starts[i + 1]!).trim()).toBe(wordsText(line)));
  // whole lines' words are a slice of the file's
  expect(words.slice(starts[2]!, starts[4]!).trim()).toBe(wordsText(lines.slice(2, 4).join("\n")));
  expect(wordsByLine("")).toEqual({ words: "", starts: Int32Array.from([0, 0]) });
});

/**
 * The words of a whole file for file-level keyword search, in four fields weighted apart at query time:
 * its path, the names it defines, its comments (docstrings included: what the language module marks as
 * comments) and its code. Separating prose from code and lifting defined names and the path is what the
 * retrieval research measured to help most (docs/benchmarks.md, "Retrieval"). Each field is in the keyword
 * index's compacted form (store/keyword-words.ts).
 */
import type { FileFacts } from "../lang/types.ts";
import type { FileWords } from "../store/types.ts";
import { keywordText, textWords, type TextWords } from "../store/keyword-words.ts";

/**
 * The file's words; `words`, when given, has scanned `text` (the chunker takes its chunks' words from the
 * same scan).
 */
export function fileWords(
  path: string,
  text: string,
  facts: FileFacts | undefined,
  comments: Array<[number, number]> | undefined,
  words?: TextWords,
): FileWords {
  const names = facts ? [...facts.types, ...facts.functions, ...facts.variables].map((d) => d.name).join(" ") : "";
  const prose = proseAndCode(text, comments, words);
  return { path: keywordText(path), defs: keywordText(names), doc: prose.doc, code: prose.code };
}

/** Whether a character code is one of a word's (core/words.ts: ASCII letters, digits, _). */
function wordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/**
 * The compacted words of the comments and of the rest: the keyword words of the comments' texts (overlaps
 * once) joined by newlines, and of the code between them joined the same way. Taken from the file's scan
 * by where each word's token starts, which gives the same words whenever no comment starts or ends inside
 * a token (two word characters either side of the cut); else the parts are scanned on their own.
 */
function proseAndCode(text: string, comments: Array<[number, number]> | undefined, given: TextWords | undefined): { doc: string; code: string } {
  if (!comments || comments.length === 0) {
    const words = given ?? textWords(text);
    words.begin();
    words.addRange(0, words.occurrences);
    return { doc: "", code: words.finish() };
  }
  const sorted = [...comments].sort((a, b) => a[0] - b[0]);
  // the parts as [start, end) offsets, prose and code alternately as the slices of the text would be
  const doc: number[] = [];
  const code: number[] = [];
  let at = 0;
  let cutInToken = false;
  const cut = (p: number): void => {
    if (p > 0 && p < text.length && wordChar(text.charCodeAt(p - 1)) && wordChar(text.charCodeAt(p))) cutInToken = true;
  };
  for (const [s, e] of sorted) {
    if (s > at) {
      code.push(at, s);
      cut(at);
      cut(s);
    }
    const from = Math.max(s, at);
    if (e > from) {
      doc.push(from, e);
      cut(from);
      cut(e);
    }
    at = Math.max(at, e);
  }
  code.push(at, text.length);
  cut(at);
  if (cutInToken) return scannedApart(text, sorted);
  const words = given ?? textWords(text);
  return { doc: wordsIn(words, doc), code: wordsIn(words, code) };
}

/** The compacted words of the occurrences whose tokens start in the ranges (ascending [start, end) pairs). */
function wordsIn(words: TextWords, ranges: number[]): string {
  words.begin();
  const at = words.at;
  const n = words.occurrences;
  let k = 0;
  for (let r = 0; r < ranges.length; r += 2) {
    const start = ranges[r]!;
    const end = ranges[r + 1]!;
    while (k < n && at[k]! < start) k++;
    const from = k;
    while (k < n && at[k]! < end) k++;
    if (k > from) words.addRange(from, k);
  }
  return words.finish();
}

/** proseAndCode's words from the comments' and the code's texts themselves. */
function scannedApart(text: string, sorted: Array<[number, number]>): { doc: string; code: string } {
  const docParts: string[] = [];
  const codeParts: string[] = [];
  let at = 0;
  for (const [s, e] of sorted) {
    if (s > at) codeParts.push(text.slice(at, s));
    docParts.push(text.slice(Math.max(s, at), e));
    at = Math.max(at, e);
  }
  codeParts.push(text.slice(at));
  return { doc: keywordText(docParts.join("\n")), code: keywordText(codeParts.join("\n")) };
}

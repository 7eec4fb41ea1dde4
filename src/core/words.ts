/**
 * Words for keyword search over code: identifiers are kept whole (lower-cased) and also split into their
 * parts (camelCase, PascalCase, snake_case, SCREAMING_CASE, digits), so `handleLogin`, `handle_login`
 * and "handle login" meet. Shared by the indexer (what is stored) and the search (what is asked).
 */

const PARTS = /[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+/g;

/** The parts of one identifier, lower-cased: `parseHTTPRequest2` → parse, http, request, 2. */
export function identifierParts(id: string): string[] {
  const out: string[] = [];
  for (const seg of id.split("_")) {
    if (!seg) continue;
    for (const m of seg.matchAll(PARTS)) out.push(m[0].toLowerCase());
  }
  return out;
}

/** ASCII character classes of the scanner; everything else (non-ASCII included) separates words. */
const OTHER = 0,
  LOWER = 1,
  UPPER = 2,
  DIGIT = 3,
  UNDERSCORE = 4;
const CLASS = new Uint8Array(128);
for (let c = 97; c <= 122; c++) CLASS[c] = LOWER;
for (let c = 65; c <= 90; c++) CLASS[c] = UPPER;
for (let c = 48; c <= 57; c++) CLASS[c] = DIGIT;
CLASS[95] = UNDERSCORE;
const classOf = (c: number) => (c < 128 ? CLASS[c]! : OTHER);

/** Longest token that still yields words: longer runs are data (hashes, base64), not names. */
export const MAX_TOKEN = 64;

/**
 * Output buffer of wordsText, grown on demand and kept: decoding it once beats joining slices. Words are
 * ASCII (lower-cased letters, digits, underscores, spaces), so one byte each, decoded as Latin-1: ten
 * times faster than the same text decoded from UTF-16 code units.
 */
let out = new Uint8Array(1 << 16);
const latin1 = new TextDecoder("latin1");

/** Grows the output buffer so that `need` more bytes fit after the first `used`. */
function ensure(used: number, need: number): void {
  if (used + need <= out.length) return;
  const bigger = new Uint8Array(Math.max(out.length * 2, used + need));
  bigger.set(out.subarray(0, used));
  out = bigger;
}

/** Writes text[a, b) lower-cased (ASCII) at `o`, after a space when words precede; returns the new end. */
function put(text: string, a: number, b: number, o: number): number {
  if (o > 0) out[o++] = 32;
  for (let x = a; x < b; x++) {
    const c = text.charCodeAt(x);
    out[o++] = c >= 65 && c <= 90 ? c + 32 : c;
  }
  return o;
}

/**
 * The words of a compound identifier text[i, j) (an upper-case letter after the first, an underscore or a
 * digit): the whole of it, then its parts by identifierParts' rules written out as a scan (underscores
 * separate; an upper-case run before a capitalised word ends before that word's capital, HTTPRequest →
 * http request; a capital takes the lower-case letters after it; an upper-case run; a digit run), each
 * of 2 characters or more and not the whole again. The scan replaced a cache of split identifiers whose
 * look-ups (a substring and its hash per occurrence) were 2.5 of 3.2 s of words on go-src. Needs room
 * for 3 × (j - i) + 2 bytes.
 */
function putCompound(text: string, i: number, j: number, o: number): number {
  const len = j - i;
  if (len >= 2) o = put(text, i, j, o);
  let p = i;
  while (p < j) {
    const k = classOf(text.charCodeAt(p));
    if (k === UNDERSCORE) {
      p++;
      continue;
    }
    let b = p + 1;
    if (k === UPPER) {
      while (b < j && classOf(text.charCodeAt(b)) === UPPER) b++;
      if (b < j && classOf(text.charCodeAt(b)) === LOWER) {
        if (b - p >= 2) b--;
        else while (b < j && classOf(text.charCodeAt(b)) === LOWER) b++;
      }
    } else {
      while (b < j && classOf(text.charCodeAt(b)) === k) b++; // a lower-case or a digit run
    }
    if (b - p >= 2 && b - p !== len) o = put(text, p, b, o);
    p = b;
  }
  return o;
}

/**
 * Every searchable word of a text, space-separated: whole identifiers and their parts, lower-cased, at
 * least 2 characters, numbers of 2 digits or more. A hand-written scanner writing char codes: this runs
 * over every chunk and file at index time, where creating a string per token cost twice as much.
 */
export function wordsText(text: string): string {
  const o = scanWords(text);
  return o === 0 ? "" : latin1.decode(out.subarray(0, o));
}

/**
 * The bytes of wordsText(text) (ASCII, words one space apart), for a caller that reworks them before
 * decoding (store/keyword-words.ts). A view of a shared buffer: valid until the next call of either.
 */
export function wordBytes(text: string): Uint8Array {
  const n = scanWords(text); // first: the scan may replace the buffer with a bigger one
  return out.subarray(0, n);
}

/**
 * wordsText(text) with, for each line of the text (split at '\n'), the offset in the words at which that
 * line's words begin (the space before its first word, when words precede it), the words' length last:
 * line i's words are words.slice(starts[i], starts[i + 1]). A word never spans lines ('\n' separates),
 * so a part of the text made of whole lines has those lines' words (the shared store's publisher reads
 * each file's words once for its chunks: store/postgres/source.ts).
 */
export function wordsByLine(text: string): { words: string; starts: Int32Array } {
  const lines: number[] = [0];
  const o = scanWords(text, lines);
  lines.push(o);
  return { words: o === 0 ? "" : latin1.decode(out.subarray(0, o)), starts: Int32Array.from(lines) };
}

/** Writes the words of `text` into `out`; returns how many bytes they took. `lines` gets the offset at each line's start. */
function scanWords(text: string, lines?: number[]): number {
  const n = text.length;
  let o = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    const k = classOf(c);
    if (k === OTHER) {
      if (c === 10 && lines !== undefined) lines.push(o);
      i++;
      continue;
    }
    let j = i + 1;
    if (k === DIGIT) {
      while (j < n && classOf(text.charCodeAt(j)) === DIGIT) j++;
      const len = j - i;
      if (len >= 2 && len <= MAX_TOKEN) {
        ensure(o, len + 1);
        o = put(text, i, j, o);
      }
      i = j;
      continue;
    }
    // a simple identifier is one lower-case word, or capitalised: its only word is itself lower-cased
    let simple = k !== UNDERSCORE;
    while (j < n) {
      const kd = classOf(text.charCodeAt(j));
      if (kd === OTHER) break;
      if (kd !== LOWER) simple = false;
      j++;
    }
    const len = j - i;
    if (len <= MAX_TOKEN) {
      if (simple) {
        if (len >= 2) {
          ensure(o, len + 1);
          o = put(text, i, j, o);
        }
      } else {
        ensure(o, 3 * len + 2);
        o = putCompound(text, i, j, o);
      }
    }
    i = j;
  }
  return o;
}

/**
 * The words of the one token text[i, j) (a run of digits, or of letters, digits and underscores not
 * starting with a digit, as scanWords cuts them), as scanWords writes them: at the start of the buffer
 * `wordBuffer` returns, one space apart; returns how many bytes they took. For store/keyword-words.ts,
 * which splits each distinct token of a file once.
 */
export function tokenWords(text: string, i: number, j: number): number {
  const len = j - i;
  if (len > MAX_TOKEN) return 0;
  const k = classOf(text.charCodeAt(i));
  if (k === DIGIT) {
    if (len < 2) return 0;
    ensure(0, len + 1);
    return put(text, i, j, 0);
  }
  let simple = k !== UNDERSCORE;
  for (let x = i + 1; simple && x < j; x++) if (classOf(text.charCodeAt(x)) !== LOWER) simple = false;
  if (simple) {
    if (len < 2) return 0;
    ensure(0, len + 1);
    return put(text, i, j, 0);
  }
  ensure(0, 3 * len + 2);
  return putCompound(text, i, j, 0);
}

/** The buffer the scans write into (tokenWords): valid until the next scan. */
export function wordBuffer(): Uint8Array {
  return out;
}

/** The words of wordsText as a list, optionally without repeats (query side). */
export function wordsOf(text: string, unique = false): string[] {
  const joined = wordsText(text);
  if (joined === "") return [];
  const words = joined.split(" ");
  return unique ? [...new Set(words)] : words;
}

/**
 * The first word of a sentence, lower case, letters only ("Fix the parser" → "fix", "fix(parser): …" →
 * "fix", "Returns the …" → "returns"); undefined when it opens with no letter. How a question opens
 * says what kind it is: a change request ("Fix", "Add") or a description ("Returns", "Creates").
 */
export function openingWord(text: string): string | undefined {
  return /^[^A-Za-z]*([A-Za-z]+)/.exec(text)?.[1]?.toLowerCase();
}

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

/**
 * The words of one compound identifier (an upper-case letter after the first, an underscore or a digit),
 * space-separated and cached: code repeats its identifiers constantly, so splitting each distinct one
 * once saves most of the work. Bounded so a huge vocabulary cannot grow it without end.
 */
const compoundCache = new Map<string, string>();
const CACHE_LIMIT = 200_000;

function compoundWords(w: string): string {
  let words = compoundCache.get(w);
  if (words !== undefined) return words;
  const lw = w.toLowerCase();
  const list: string[] = lw.length >= 2 ? [lw] : [];
  for (const p of identifierParts(w)) if (p.length >= 2 && p !== lw) list.push(p);
  words = list.join(" ");
  if (compoundCache.size >= CACHE_LIMIT) compoundCache.clear();
  compoundCache.set(w, words);
  return words;
}

/** ASCII character classes of the scanner; everything else (non-ASCII included) separates words. */
const OTHER = 0, LOWER = 1, UPPER = 2, DIGIT = 3, UNDERSCORE = 4;
const CLASS = new Uint8Array(128);
for (let c = 97; c <= 122; c++) CLASS[c] = LOWER;
for (let c = 65; c <= 90; c++) CLASS[c] = UPPER;
for (let c = 48; c <= 57; c++) CLASS[c] = DIGIT;
CLASS[95] = UNDERSCORE;
const classOf = (c: number) => (c < 128 ? CLASS[c]! : OTHER);

/** Longest token that still yields words: longer runs are data (hashes, base64), not names. */
const MAX_TOKEN = 64;

/** Output buffer of wordsText, grown on demand and kept: decoding UTF-16 once beats joining slices. */
let out = new Uint16Array(1 << 16);
const utf16 = new TextDecoder("utf-16le");

/**
 * Every searchable word of a text, space-separated: whole identifiers and their parts, lower-cased, at
 * least 2 characters, numbers of 2 digits or more. A hand-written scanner writing char codes: this runs
 * over every chunk and file at index time, where creating a string per token cost twice as much.
 */
export function wordsText(text: string): string {
  const n = text.length;
  // words are never longer than their text plus the parts of compounds; grow when one does not fit
  let o = 0;
  const room = (len: number) => {
    if (o + len + 1 <= out.length) return;
    const bigger = new Uint16Array(Math.max(out.length * 2, o + len + 1));
    bigger.set(out.subarray(0, o));
    out = bigger;
  };
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    const k = classOf(c);
    if (k === OTHER) {
      i++;
      continue;
    }
    let j = i + 1;
    if (k === DIGIT) {
      while (j < n && classOf(text.charCodeAt(j)) === DIGIT) j++;
      const len = j - i;
      if (len >= 2 && len <= MAX_TOKEN) {
        room(len);
        if (o > 0) out[o++] = 32;
        for (let x = i; x < j; x++) out[o++] = text.charCodeAt(x);
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
          room(len);
          if (o > 0) out[o++] = 32;
          out[o++] = k === UPPER ? c + 32 : c;
          for (let x = i + 1; x < j; x++) out[o++] = text.charCodeAt(x);
        }
      } else {
        const w = compoundWords(text.slice(i, j));
        const wl = w.length;
        if (wl > 0) {
          room(wl);
          if (o > 0) out[o++] = 32;
          for (let x = 0; x < wl; x++) out[o++] = w.charCodeAt(x);
        }
      }
    }
    i = j;
  }
  return o === 0 ? "" : utf16.decode(out.subarray(0, o));
}

/** The words of wordsText as a list, optionally without repeats (query side). */
export function wordsOf(text: string, unique = false): string[] {
  const joined = wordsText(text);
  if (joined === "") return [];
  const words = joined.split(" ");
  return unique ? [...new Set(words)] : words;
}

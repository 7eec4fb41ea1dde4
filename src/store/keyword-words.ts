/**
 * What the keyword indexes (FTS5, detail=full) store of a field's words: each distinct word
 * 1 + floor(log2(n)) times for its n occurrences, repeats side by side, in order of first appearance;
 * numbers (words of digits only) not at all.
 * - FTS5 keeps a position per occurrence; in code most of them are repeats (`err` fifty times in a file),
 *   and BM25 saturates in the count anyway (k1 = 1.2: a word's 8th occurrence adds 2 % to its part of the
 *   score). The count stays monotone (1, 2, 2, 3, 3, 3, 3, 4…), so the words still rank files that use
 *   them more. go-src: keyword indexes 81 → 65 MiB.
 * - Numbers are mostly the line numbers of chunk headers (`(net/http/server.go:120-180)`) and literals;
 *   a search never asks for one (engines/search/query.ts drops them from queries), and they took 5 MiB
 *   of go-src's chunk index. Identifiers holding digits (`int64`, `utf8`) are kept whole.
 * The words are compacted where they are found (the parse workers, in parallel), over the scanner's bytes:
 * a Map of word strings on the keyword load's thread cost 3.5 of its 7.5 s of CPU on go-src.
 */
import { wordBytes } from "../core/words.ts";

/** The keyword-index form of a text's words (core/words.ts wordsText), compacted as above. */
export function keywordText(text: string): string {
  return compactWordBytes(wordBytes(text));
}

/**
 * An open-addressing table of the distinct words of one text, reused from call to call: a slot holds a
 * word's number + 1 while its stamp is the current call's, so nothing is cleared between calls.
 */
let slots = new Int32Array(1 << 12);
let stamps = new Uint32Array(1 << 12);
let stamp = 0;
/** Per distinct word, by number (order of first appearance): where it starts, its length, count, hash. */
let starts = new Int32Array(1 << 10);
let lengths = new Int32Array(1 << 10);
let counts = new Int32Array(1 << 10);
let hashes = new Int32Array(1 << 10);
let packed = new Uint8Array(1 << 16);
const latin1 = new TextDecoder("latin1");

/** Compacts words one space apart (ASCII bytes) and decodes the result. */
function compactWordBytes(bytes: Uint8Array): string {
  const n = bytes.length;
  if (n === 0) return "";
  if (++stamp === 0xffffffff) {
    stamps.fill(0);
    stamp = 1;
  }
  // module variables read into locals: JavaScriptCore reads a local far faster in these loops
  let now = stamp;
  let sl = slots;
  let st = stamps;
  let ws = starts;
  let wl = lengths;
  let wc = counts;
  let wh = hashes;
  let mask = sl.length - 1;
  let distinct = 0;
  let at = 0;
  while (at < n) {
    let end = at;
    let hash = 0x811c9dc5 | 0;
    let digits = true;
    for (; end < n; end++) {
      const c = bytes[end]!;
      if (c === 32) break;
      if (c < 48 || c > 57) digits = false;
      hash = Math.imul(hash ^ c, 0x01000193);
    }
    const len = end - at;
    if (len > 0 && !digits) {
      let slot = hash & mask;
      for (;;) {
        if (st[slot] !== now) {
          if (distinct === ws.length) {
            growWords();
            ws = starts;
            wl = lengths;
            wc = counts;
            wh = hashes;
          }
          if (2 * (distinct + 1) > sl.length) {
            // kept at most half full
            mask = growSlots(distinct);
            sl = slots;
            st = stamps;
            now = stamp;
            slot = hash & mask;
            while (st[slot] === now) slot = (slot + 1) & mask;
          }
          st[slot] = now;
          sl[slot] = distinct;
          ws[distinct] = at;
          wl[distinct] = len;
          wc[distinct] = 1;
          wh[distinct] = hash;
          distinct++;
          break;
        }
        const w = sl[slot]!;
        if (wh[w] === hash && wl[w] === len) {
          const s = ws[w]!;
          let i = 0;
          while (i < len && bytes[s + i] === bytes[at + i]) i++;
          if (i === len) {
            wc[w]!++;
            break;
          }
        }
        slot = (slot + 1) & mask;
      }
    }
    at = end + 1;
  }
  // 1 + floor(log2 n) copies of n occurrences never take more room than the words did
  if (packed.length < n + 1) packed = new Uint8Array(Math.max(packed.length * 2, n + 1));
  const p = packed;
  let o = 0;
  for (let w = 0; w < distinct; w++) {
    const s = ws[w]!;
    const len = wl[w]!;
    for (let k = wc[w]!; k >= 1; k >>= 1) {
      if (o > 0) p[o++] = 32;
      for (let i = 0; i < len; i++) p[o + i] = bytes[s + i]!;
      o += len;
    }
  }
  const result = latin1.decode(p.subarray(0, o));
  if (n > KEEP_BYTES) shrink();
  return result;
}

/**
 * Past this many bytes of words (a generated header's megabytes) the buffers grown for them are let go
 * after the call: a parse worker lives for the whole build, and most texts need a few kilobytes.
 */
const KEEP_BYTES = 1 << 22;

function shrink(): void {
  slots = new Int32Array(1 << 12);
  stamps = new Uint32Array(1 << 12);
  stamp = 0;
  starts = new Int32Array(1 << 10);
  lengths = new Int32Array(1 << 10);
  counts = new Int32Array(1 << 10);
  hashes = new Int32Array(1 << 10);
  packed = new Uint8Array(1 << 16);
}

/** Doubles the slots and places the first `distinct` words again; returns the new mask. */
function growSlots(distinct: number): number {
  slots = new Int32Array(slots.length * 2);
  stamps = new Uint32Array(stamps.length * 2);
  stamp = 1;
  const mask = slots.length - 1;
  for (let w = 0; w < distinct; w++) {
    let slot = hashes[w]! & mask;
    while (stamps[slot] === stamp) slot = (slot + 1) & mask;
    stamps[slot] = stamp;
    slots[slot] = w;
  }
  return mask;
}

function growWords(): void {
  const grow = (a: Int32Array) => {
    const bigger = new Int32Array(a.length * 2);
    bigger.set(a);
    return bigger;
  };
  starts = grow(starts);
  lengths = grow(lengths);
  counts = grow(counts);
  hashes = grow(hashes);
}

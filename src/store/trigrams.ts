/**
 * Trigram primitives of the exact-search index, shared by the indexer (which extracts trigrams from
 * stored content) and the query planner (which turns literals into trigrams): both MUST fold text the
 * same way, so the folding lives here once.
 *
 * A trigram is three consecutive bytes of the UTF-8 text after folding, packed into 24 bits. Folding
 * maps ASCII A-Z to a-z, and the two non-ASCII characters that case-insensitive Unicode regexes equate
 * with ASCII letters (U+017F LONG S → 's', U+212A KELVIN SIGN → 'k') to those letters, so one index
 * serves case-sensitive and case-insensitive searches. Folding only ever merges trigrams, so a search
 * gets extra candidates (removed by verification), never fewer.
 *
 * Posting lists are ascending file ids, delta-encoded as LEB128 varints.
 */

/** Bytes after ASCII case folding. */
const FOLD = new Uint8Array(256);
for (let i = 0; i < 256; i++) FOLD[i] = i >= 65 && i <= 90 ? i + 32 : i;

const TRIGRAM_SPACE = 1 << 24;

/**
 * Extracts the distinct trigrams of UTF-8 texts. It owns a 16 MiB table of generation stamps (one byte
 * per possible trigram, cleared every 255 texts), which makes de-duplication a single array probe.
 */
export class TrigramExtractor {
  private readonly stamp = new Uint8Array(TRIGRAM_SPACE);
  private gen = 0;
  private out = new Uint32Array(1 << 16);

  /** The distinct trigrams of one text, in order of first appearance (a view valid until the next call). */
  extract(bytes: Uint8Array): Uint32Array {
    const n = bytes.length;
    if (n < 3) return this.out.subarray(0, 0);
    if (++this.gen === 256) {
      this.stamp.fill(0);
      this.gen = 1;
    }
    const gen = this.gen;
    const stamp = this.stamp;
    let out = this.out;
    let count = 0;
    let k = 0;
    let have = 0;
    for (let i = 0; i < n; i++) {
      let b = bytes[i]!;
      if (b < 0x80) b = FOLD[b]!;
      else if (b === 0xc5 && bytes[i + 1] === 0xbf) {
        b = 0x73; // ſ
        i += 1;
      } else if (b === 0xe2 && bytes[i + 1] === 0x84 && bytes[i + 2] === 0xaa) {
        b = 0x6b; // K (Kelvin)
        i += 2;
      }
      k = ((k << 8) | b) & 0xffffff;
      if (++have < 3) continue;
      if (stamp[k] !== gen) {
        stamp[k] = gen;
        if (count === out.length) {
          const grown = new Uint32Array(out.length * 2);
          grown.set(out);
          out = this.out = grown;
        }
        out[count++] = k;
      }
    }
    return out.subarray(0, count);
  }
}

/** UTF-8 bytes of a string after the index's folding (the planner's view of a literal). */
export function foldedBytes(s: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let cp = s.codePointAt(i)!;
    if (cp > 0xffff) i++;
    if (cp < 0x80) bytes.push(FOLD[cp]!);
    else if (cp === 0x17f) bytes.push(0x73);
    else if (cp === 0x212a) bytes.push(0x6b);
    else if (cp < 0x800) bytes.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) {
      // lone surrogates were replaced by U+FFFD when the content was stored
      if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
      bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    } else bytes.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  return bytes;
}

/** The distinct trigrams of a literal string (empty when it is shorter than three bytes). */
export function trigramsOf(s: string): number[] {
  const b = foldedBytes(s);
  const seen = new Set<number>();
  for (let i = 2; i < b.length; i++) seen.add((b[i - 2]! << 16) | (b[i - 1]! << 8) | b[i]!);
  return [...seen];
}

/** A trigram as readable text (for plans shown to people); non-ASCII bytes as \xHH. */
export function trigramText(t: number): string {
  let s = "";
  for (const b of [(t >> 16) & 255, (t >> 8) & 255, t & 255]) {
    s += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, "0")}`;
  }
  return s;
}

/** Appends ids[from..to) (ascending) as delta varints to `out` at `pos`; returns the new position. */
export function encodePostings(ids: Uint32Array, from: number, to: number, out: Uint8Array, pos: number): number {
  let prev = 0;
  for (let i = from; i < to; i++) {
    let d = ids[i]! - prev;
    prev = ids[i]!;
    while (d >= 0x80) {
      out[pos++] = (d & 0x7f) | 0x80;
      d >>>= 7;
    }
    out[pos++] = d;
  }
  return pos;
}

/** Decodes one posting list. */
export function decodePostings(blob: Uint8Array): Uint32Array {
  const out = new Uint32Array(blob.length); // at most one id per byte
  let n = 0;
  let prev = 0;
  let shift = 0;
  let d = 0;
  for (let i = 0; i < blob.length; i++) {
    const b = blob[i]!;
    d |= (b & 0x7f) << shift;
    if (b & 0x80) {
      shift += 7;
      continue;
    }
    prev += d >>> 0;
    out[n++] = prev;
    d = 0;
    shift = 0;
  }
  return out.subarray(0, n);
}

/** Intersection of two ascending id lists. */
export function intersectSorted(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      out[n++] = x;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return out.subarray(0, n);
}

/** Union of two ascending id lists (duplicates merged). */
export function unionSorted(a: Uint32Array, b: Uint32Array): Uint32Array {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      out[n++] = x;
      i++;
      j++;
    } else if (x < y) {
      out[n++] = x;
      i++;
    } else {
      out[n++] = y;
      j++;
    }
  }
  while (i < a.length) out[n++] = a[i++]!;
  while (j < b.length) out[n++] = b[j++]!;
  return out.subarray(0, n);
}

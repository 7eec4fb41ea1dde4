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
import { MAX_TOKEN, tokenWords, wordBuffer, wordBytes } from "../core/words.ts";

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
  ({ slots, stamps } = rehashed(hashes, distinct, slots.length * 2));
  stamp = 1;
  return slots.length - 1;
}

function growWords(): void {
  const size = starts.length * 2;
  starts = grown(starts, new Int32Array(size));
  lengths = grown(lengths, new Int32Array(size));
  counts = grown(counts, new Int32Array(size));
  hashes = grown(hashes, new Int32Array(size));
}

/**
 * A file's words scanned once and numbered (each distinct word of the file gets a number), for the parse
 * tier: the keyword words of the file's code and comments (indexer/file-words.ts) and of each chunk's body
 * (indexer/chunker.ts) are compacted from the numbers of their lines' words instead of scanning each text
 * again. A kernel file's lines were scanned and their words hashed three times or more (its code, each
 * chunk holding them, overlapping windows), and each chunk's text split into lines and joined again for
 * it: 16 s of a parse worker's 140 s of CPU.
 *
 * The scan numbers tokens (core/words.ts: a run of digits, or of letters, digits and underscores not
 * starting with a digit) as they are met, by their characters: a token met before takes its words'
 * numbers from its first meeting, only a new token is split into words (wordBytes of the token alone,
 * which are its words in any text). Most of a file's tokens are repeats.
 *
 * One per thread (`textWords`): its buffers grow with the largest file and are kept.
 */
export class TextWords {
  /** The text last scanned. */
  text = "";
  /** The number of each occurrence of a word, in the text's order, and where its token starts in the text. */
  ids = new Int32Array(1 << 12);
  at = new Int32Array(1 << 12);
  occurrences = 0;
  /**
   * Where each piece of the text split at '\n' starts, then the text's length + 1 (line l, 1-based, is
   * text[lineStarts[l - 1], lineStarts[l] - 1)); and each piece's first occurrence, then `occurrences`
   * (line l's words are occurrences [lineWords[l - 1], lineWords[l])).
   */
  lineStarts = new Int32Array(1 << 10);
  lineWords = new Int32Array(1 << 10);
  /** Lines as store/chunk-text.ts contentLines counts them: a final newline ends the last line. */
  lines = 0;

  // the distinct words: an open-addressing table over their bytes, stamped per text as compactWordBytes'
  private slots = new Int32Array(1 << 12);
  private stamps = new Uint32Array(1 << 12);
  private stamp = 0;
  private starts = new Int32Array(1 << 10);
  private lengths = new Int32Array(1 << 10);
  private hashes = new Int32Array(1 << 10);
  private distinct = 0;
  private bytes = new Uint8Array(1 << 14);
  private used = 0;

  // the distinct tokens met since the scan (the text's, then those of the texts added): their characters
  // (ASCII: chars[tokenAt, tokenAt + tokenLength)), hash, and their words' numbers (pool[first, first + count))
  private tokenSlots = new Int32Array(1 << 12);
  private tokenStamps = new Uint32Array(1 << 12);
  private tokenStamp = 0;
  private chars = new Uint8Array(1 << 14);
  private charsUsed = 0;
  private tokenAt = new Int32Array(1 << 10);
  private tokenLength = new Int32Array(1 << 10);
  private tokenHash = new Int32Array(1 << 10);
  private tokenFirst = new Int32Array(1 << 10);
  private tokenCount = new Int32Array(1 << 10);
  private tokens = 0;
  private pool = new Int32Array(1 << 11);
  private pooled = 0;

  // one compaction at a time (begin, add…, finish): each word's count, stamped per compaction
  private seen = new Uint32Array(1 << 10);
  private counts = new Int32Array(1 << 10);
  private order = new Int32Array(1 << 10);
  private ordered = 0;
  private round = 0;
  private packed = new Uint8Array(1 << 14);

  /** Scans `text`: its words' numbers, its lines and each line's words. */
  scan(text: string): this {
    if (this.ids.length > KEEP_WORDS) this.shrink();
    this.text = text;
    if (++this.stamp === 0xffffffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
    if (++this.tokenStamp === 0xffffffff) {
      this.tokenStamps.fill(0);
      this.tokenStamp = 1;
    }
    this.distinct = 0;
    this.used = 0;
    this.tokens = 0;
    this.pooled = 0;
    this.charsUsed = 0;
    const n = text.length;
    // the arrays in locals, read again after anything that may replace them: JavaScriptCore reads a local
    // far faster than a field in this loop
    let slots = this.tokenSlots;
    let stamps = this.tokenStamps;
    let now = this.tokenStamp;
    let mask = slots.length - 1;
    let hashes = this.tokenHash;
    let lengths = this.tokenLength;
    let starts = this.tokenAt;
    let chars = this.chars;
    let firsts = this.tokenFirst;
    let counts = this.tokenCount;
    let pool = this.pool;
    let ids = this.ids;
    let ats = this.at;
    let k = 0;
    let pieces = 1;
    this.lineStarts[0] = 0;
    this.lineWords[0] = 0;
    let i = 0;
    while (i < n) {
      const c = text.charCodeAt(i);
      const kind = c < 128 ? TOKEN_CHAR[c]! : 0;
      if (kind === 0) {
        if (c === 10) {
          if (pieces + 2 > this.lineStarts.length) this.growLines();
          this.lineStarts[pieces] = i + 1;
          this.lineWords[pieces] = k;
          pieces++;
        }
        i++;
        continue;
      }
      // the token's end as core/words.ts scans it, hashing its characters on the way; a number is one
      // word the keyword indexes leave out (keywordText), so it is skipped
      let j = i + 1;
      if (kind === DIGIT_CHAR) {
        while (j < n && TOKEN_CHAR[text.charCodeAt(j)] === DIGIT_CHAR) j++;
        i = j;
        continue;
      }
      let hash = Math.imul(0x811c9dc5 ^ c, 0x01000193);
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (d >= 128 || TOKEN_CHAR[d] === 0) break;
        hash = Math.imul(hash ^ d, 0x01000193);
      }
      // a token met before, looked up here (the table's arrays in locals), else numbered by token()
      const len = j - i;
      let slot = hash & mask;
      let t = -1;
      while (stamps[slot] === now) {
        const u = slots[slot]!;
        if (hashes[u] === hash && lengths[u] === len) {
          const s = starts[u]!;
          let x = 0;
          while (x < len && chars[s + x] === text.charCodeAt(i + x)) x++;
          if (x === len) {
            t = u;
            break;
          }
        }
        slot = (slot + 1) & mask;
      }
      if (t < 0) {
        t = this.token(text, i, len, hash);
        slots = this.tokenSlots;
        stamps = this.tokenStamps;
        now = this.tokenStamp;
        mask = slots.length - 1;
        hashes = this.tokenHash;
        lengths = this.tokenLength;
        starts = this.tokenAt;
        chars = this.chars;
        firsts = this.tokenFirst;
        counts = this.tokenCount;
        pool = this.pool;
      }
      const count = counts[t]!;
      if (count > 0) {
        if (k + count > ids.length) {
          this.growOccurrences(k + count);
          ids = this.ids;
          ats = this.at;
        }
        const first = firsts[t]!;
        for (let q = 0; q < count; q++) {
          ids[k] = pool[first + q]!;
          ats[k] = i;
          k++;
        }
      }
      i = j;
    }
    this.occurrences = k;
    this.lineStarts[pieces] = n + 1;
    this.lineWords[pieces] = k;
    this.lines = n > 0 && text.charCodeAt(n - 1) === 10 ? pieces - 1 : pieces;
    return this;
  }

  /** Line l's length (1-based; 0 past the last line, as a missing line of contentLines). */
  lineLength(l: number): number {
    return l >= 1 && l <= this.lines ? this.lineStarts[l]! - this.lineStarts[l - 1]! - 1 : 0;
  }

  /** Starts a compaction (keywordText's form) of the words added until `finish`. */
  begin(): void {
    if (++this.round === 0xffffffff) {
      this.seen.fill(0);
      this.round = 1;
    }
    this.ordered = 0;
  }

  /** Adds occurrences [from, to) of the scanned text. */
  addRange(from: number, to: number): void {
    const ids = this.ids;
    const seen = this.seen;
    const counts = this.counts;
    const order = this.order;
    const now = this.round;
    let ordered = this.ordered;
    for (let k = from; k < to; k++) {
      const id = ids[k]!;
      if (seen[id] === now) counts[id]!++;
      else {
        seen[id] = now;
        counts[id] = 1;
        order[ordered++] = id;
      }
    }
    this.ordered = ordered;
  }

  /** Adds the words of lines [from, to] (1-based) of the scanned text. */
  addLines(from: number, to: number): void {
    this.addRange(this.lineWords[from - 1]!, this.lineWords[to]!);
  }

  /**
   * Adds the words of another text (a chunk's header or overview, a line cut at a column, a title), its
   * tokens numbered with the file's.
   */
  addText(text: string): void {
    const n = text.length;
    let i = 0;
    while (i < n) {
      const c = text.charCodeAt(i);
      const kind = c < 128 ? TOKEN_CHAR[c]! : 0;
      if (kind === 0) {
        i++;
        continue;
      }
      let j = i + 1;
      if (kind === DIGIT_CHAR) {
        while (j < n && TOKEN_CHAR[text.charCodeAt(j)] === DIGIT_CHAR) j++;
        i = j;
        continue;
      }
      let hash = Math.imul(0x811c9dc5 ^ c, 0x01000193);
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (d >= 128 || TOKEN_CHAR[d] === 0) break;
        hash = Math.imul(hash ^ d, 0x01000193);
      }
      const t = this.token(text, i, j - i, hash);
      const first = this.tokenFirst[t]!;
      const last = first + this.tokenCount[t]!;
      for (let q = first; q < last; q++) {
        const id = this.pool[q]!;
        if (this.seen[id] === this.round) this.counts[id]!++;
        else {
          this.seen[id] = this.round;
          this.counts[id] = 1;
          this.order[this.ordered++] = id;
        }
      }
      i = j;
    }
  }

  /** keywordText(text), its tokens numbered with the file's: a compaction of its own. */
  keywordText(text: string): string {
    this.begin();
    this.addText(text);
    return this.finish();
  }

  /** The words added since `begin`, compacted as keywordText compacts a text's. */
  finish(): string {
    const ordered = this.ordered;
    if (ordered === 0) return "";
    const order = this.order;
    const counts = this.counts;
    const lengths = this.lengths;
    const starts = this.starts;
    const b = this.bytes;
    let p = this.packed;
    let o = 0;
    for (let i = 0; i < ordered; i++) {
      const id = order[i]!;
      const s = starts[id]!;
      const len = lengths[id]!;
      // 1 + floor(log2(count)) copies, each after a space
      const copies = 32 - Math.clz32(counts[id]!);
      if (o + copies * (len + 1) > p.length) {
        p = grown(p, new Uint8Array(Math.max(p.length * 2, o + copies * (len + 1))));
        this.packed = p;
      }
      for (let c = 0; c < copies; c++) {
        if (o > 0) p[o++] = 32;
        for (let j = 0; j < len; j++) p[o + j] = b[s + j]!;
        o += len;
      }
    }
    return latin1.decode(p.subarray(0, o));
  }

  /** The number of the token text[at, at + len), its words numbered when not met since the scan. */
  private token(text: string, at: number, len: number, hash: number): number {
    let mask = this.tokenSlots.length - 1;
    let slot = hash & mask;
    const now = this.tokenStamp;
    for (;;) {
      if (this.tokenStamps[slot] !== now) break;
      const t = this.tokenSlots[slot]!;
      if (this.tokenHash[t] === hash && this.tokenLength[t] === len) {
        const s = this.tokenAt[t]!;
        const chars = this.chars;
        let i = 0;
        while (i < len && chars[s + i] === text.charCodeAt(at + i)) i++;
        if (i === len) return t;
      }
      slot = (slot + 1) & mask;
    }
    const t = this.tokens;
    if (t === this.tokenAt.length) this.growTokens();
    if (2 * (t + 1) > this.tokenSlots.length) {
      // kept at most half full
      mask = this.growTokenSlots();
      slot = hash & mask;
      while (this.tokenStamps[slot] === this.tokenStamp) slot = (slot + 1) & mask;
    }
    this.tokenStamps[slot] = this.tokenStamp;
    this.tokenSlots[slot] = t;
    if (this.charsUsed + len > this.chars.length) {
      const bigger = new Uint8Array(Math.max(this.chars.length * 2, this.charsUsed + len));
      bigger.set(this.chars.subarray(0, this.charsUsed));
      this.chars = bigger;
    }
    const chars = this.chars;
    const u = this.charsUsed;
    let lower = true;
    for (let i = 0; i < len; i++) {
      const c = text.charCodeAt(at + i);
      chars[u + i] = c;
      if (c < 97 || c > 122) lower = false;
    }
    this.charsUsed = u + len;
    this.tokenAt[t] = u;
    this.tokenLength[t] = len;
    this.tokenHash[t] = hash;
    this.tokens = t + 1;
    const first = this.pooled;
    if (lower && len >= 2 && len <= MAX_TOKEN) {
      // a lower-case word is its only word, its characters and hash the word's bytes and hash
      if (this.pooled === this.pool.length) this.pool = grown(this.pool, new Int32Array(this.pool.length * 2));
      this.pool[this.pooled++] = this.word(chars, u, len, hash);
      this.tokenFirst[t] = first;
      this.tokenCount[t] = 1;
      return t;
    }
    // its words, as the scanner writes them in any text
    const n = tokenWords(text, at, at + len);
    const bytes = wordBuffer();
    let w = 0;
    while (w < n) {
      let end = w;
      let h = 0x811c9dc5 | 0;
      let digits = true;
      for (; end < n; end++) {
        const c = bytes[end]!;
        if (c === 32) break;
        if (c < 48 || c > 57) digits = false;
        h = Math.imul(h ^ c, 0x01000193);
      }
      // a number (a digit run inside an identifier: `86` of x86) is left out as keywordText leaves it
      if (end > w && !digits) {
        if (this.pooled === this.pool.length) {
          const bigger = new Int32Array(this.pool.length * 2);
          bigger.set(this.pool);
          this.pool = bigger;
        }
        this.pool[this.pooled++] = this.word(bytes, w, end - w, h);
      }
      w = end + 1;
    }
    this.tokenFirst[t] = first;
    this.tokenCount[t] = this.pooled - first;
    return t;
  }

  /** The number of the word bytes[at, at + len), given a new one when the text has not had it. */
  private word(bytes: Uint8Array, at: number, len: number, hash: number): number {
    let mask = this.slots.length - 1;
    let slot = hash & mask;
    const now = this.stamp;
    for (;;) {
      if (this.stamps[slot] !== now) break;
      const w = this.slots[slot]!;
      if (this.hashes[w] === hash && this.lengths[w] === len) {
        const s = this.starts[w]!;
        const b = this.bytes;
        let i = 0;
        while (i < len && b[s + i] === bytes[at + i]) i++;
        if (i === len) return w;
      }
      slot = (slot + 1) & mask;
    }
    const id = this.distinct;
    if (id === this.starts.length) this.growWords();
    if (2 * (id + 1) > this.slots.length) {
      // kept at most half full
      mask = this.growSlots();
      slot = hash & mask;
      while (this.stamps[slot] === this.stamp) slot = (slot + 1) & mask;
    }
    if (this.used + len > this.bytes.length) {
      const bigger = new Uint8Array(Math.max(this.bytes.length * 2, this.used + len));
      bigger.set(this.bytes.subarray(0, this.used));
      this.bytes = bigger;
    }
    // copied by hand: a subarray per new word cost more than the copy
    const b = this.bytes;
    const u = this.used;
    for (let i = 0; i < len; i++) b[u + i] = bytes[at + i]!;
    this.stamps[slot] = this.stamp;
    this.slots[slot] = id;
    this.starts[id] = u;
    this.lengths[id] = len;
    this.hashes[id] = hash;
    this.used = u + len;
    this.distinct = id + 1;
    return id;
  }

  private growSlots(): number {
    ({ slots: this.slots, stamps: this.stamps } = rehashed(this.hashes, this.distinct, this.slots.length * 2));
    this.stamp = 1;
    return this.slots.length - 1;
  }

  private growTokenSlots(): number {
    ({ slots: this.tokenSlots, stamps: this.tokenStamps } = rehashed(this.tokenHash, this.tokens, this.tokenSlots.length * 2));
    this.tokenStamp = 1;
    return this.tokenSlots.length - 1;
  }

  private growWords(): void {
    const size = this.starts.length * 2;
    this.starts = grown(this.starts, new Int32Array(size));
    this.lengths = grown(this.lengths, new Int32Array(size));
    this.hashes = grown(this.hashes, new Int32Array(size));
    this.seen = grown(this.seen, new Uint32Array(size));
    this.counts = grown(this.counts, new Int32Array(size));
    this.order = grown(this.order, new Int32Array(size));
  }

  private growTokens(): void {
    const size = this.tokenAt.length * 2;
    this.tokenAt = grown(this.tokenAt, new Int32Array(size));
    this.tokenLength = grown(this.tokenLength, new Int32Array(size));
    this.tokenHash = grown(this.tokenHash, new Int32Array(size));
    this.tokenFirst = grown(this.tokenFirst, new Int32Array(size));
    this.tokenCount = grown(this.tokenCount, new Int32Array(size));
  }

  private growOccurrences(need: number): void {
    const size = Math.max(this.ids.length * 2, need);
    this.ids = grown(this.ids, new Int32Array(size));
    this.at = grown(this.at, new Int32Array(size));
  }

  private growLines(): void {
    const size = this.lineStarts.length * 2;
    this.lineStarts = grown(this.lineStarts, new Int32Array(size));
    this.lineWords = grown(this.lineWords, new Int32Array(size));
  }

  /** Lets go of the buffers a big file grew (a parse worker lives for the whole build). */
  private shrink(): void {
    const round = this.round;
    Object.assign(this, new TextWords());
    this.round = round;
  }
}

/** `bigger` holding `a` at its start. */
function grown<T extends Int32Array | Uint32Array | Uint8Array>(a: T, bigger: T): T {
  bigger.set(a);
  return bigger;
}

/** The scanner's classes (core/words.ts) as the token scan needs them: 0 separates, DIGIT_CHAR, or another word character. */
const DIGIT_CHAR = 2;
const TOKEN_CHAR = new Uint8Array(128);
for (let c = 97; c <= 122; c++) TOKEN_CHAR[c] = 1;
for (let c = 65; c <= 90; c++) TOKEN_CHAR[c] = 1;
for (let c = 48; c <= 57; c++) TOKEN_CHAR[c] = DIGIT_CHAR;
TOKEN_CHAR[95] = 1;

/** Past this many word occurrences, the buffers grown for a file are let go before the next one. */
const KEEP_WORDS = 1 << 20;

let shared: TextWords | undefined;

/**
 * An open-addressing table of `size` slots (a power of two) holding entries 0..count-1 by their hashes,
 * each slot stamped 1: compactWordBytes' table and TextWords' words' and tokens' tables grown, their
 * next stamp 1 as well.
 */
function rehashed(hashes: Int32Array, count: number, size: number): { slots: Int32Array<ArrayBuffer>; stamps: Uint32Array<ArrayBuffer> } {
  const slots = new Int32Array(size);
  const stamps = new Uint32Array(size);
  const mask = size - 1;
  for (let i = 0; i < count; i++) {
    let slot = hashes[i]! & mask;
    while (stamps[slot] === 1) slot = (slot + 1) & mask;
    stamps[slot] = 1;
    slots[slot] = i;
  }
  return { slots, stamps };
}

/** This thread's TextWords, having scanned `text`: valid until the next call. */
export function textWords(text: string): TextWords {
  shared ??= new TextWords();
  return shared.scan(text);
}

/**
 * Keyword vectors built by the publisher, equal to what the server's
 * `setweight(to_tsvector('english', words), weight) || …` makes of the same words texts.
 *
 * A publication's largest server cost was to_tsvector (40 % of the server's CPU for go-src: its parser
 * and the English stemmer over every file's and every chunk's words). The words are already split
 * (core/words.ts: lower-case ASCII letters, digits and _, one space apart) and code repeats few distinct
 * words many times, so the server is asked once per distinct token what it makes of it, and the publisher
 * writes the vector itself, its weight classes joined by tsvector_concat's rules, in binary COPY's
 * format (writeVector; the rows go to the server by COPY, which computes nothing there: the tests compare
 * the joined vectors with the server's `||`, at the limits of positions too). vector() gives the same
 * vector as tsvector text.
 *
 * A first try (reverted, see docs/benchmarks.md) cost the publisher more than it saved the server: a
 * regex split, a Map lookup of a new string per token, and a string per position. This one hashes the
 * char codes of each token as it scans, looks tokens up in a table of its own, keeps each lexeme's
 * positions in a reused array and writes positions from texts made once. A text is scanned once
 * (tokenize: its tokens' ids, the tokens not seen before registered for learn), and its vectors are
 * built from those ids: scanning and looking every token up a second time, to build the vectors, was
 * a third of the keyword work.
 */
import type { PgQueryable } from "./client.ts";
import type { BinaryCopy } from "./copy-binary.ts";

/** What one token becomes: its lexemes at positions relative to the token, and the positions it takes. */
interface Token {
  ids: number[];
  rel: number[];
  span: number;
}

/** PostgreSQL's limits: the largest position, and how many positions one lexeme keeps in to_tsvector. */
const MAX_POS = 16383;
const MAX_POSITIONS = 255;
/** How many positions a lexeme keeps when vectors are joined with || (tsvector_concat's MAXNUMPOS). */
const MAX_JOINED_POSITIONS = 256;

/** single[] of a token join reads through its Token. */
const NOT_ONE_LEXEME = -1;

/** Appended to each token asked about: its position tells how many positions the token takes. */
const SENTINEL = "qqcortexspanqq";

const SPACE = 32;
const UNDERSCORE = 95;

/** FNV-1a over a token's char codes, as scan() computes it while it reads them. */
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;

/**
 * Calls `each(start, end, hash)` for every token of words text, runs between spaces and underscores
 * (PostgreSQL's parser reads _ as a blank), with the token's FNV-1a hash taken on the way: the learnt
 * tokens are looked up by it without making a string per token.
 */
function scan(text: string, each: (a: number, b: number, h: number) => void): void {
  const n = text.length;
  let a = 0;
  let h = FNV_OFFSET;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : SPACE;
    if (c !== SPACE && c !== UNDERSCORE) {
      h = Math.imul(h ^ c, FNV_PRIME);
      continue;
    }
    if (i > a) each(a, i, h);
    a = i + 1;
    h = FNV_OFFSET;
  }
}

/** Tokens of words text, as the server's parser reads them (exported for the tests). */
export function tokensOf(words: string): string[] {
  const out: string[] = [];
  scan(words, (a, b) => out.push(words.slice(a, b)));
  return out;
}

export type Weight = "A" | "B" | "C" | "D";

/**
 * Words of one weight class: the words text, or its tokens as tokenize() gave them (the publisher's
 * form: the text is then not scanned again).
 */
export type Words = string | Int32Array;

/** Whether text[a, b) is `token`. */
function sameAt(token: string, text: string, a: number, b: number): boolean {
  if (token.length !== b - a) return false;
  for (let i = 0; i < token.length; i++) if (token.charCodeAt(i) !== text.charCodeAt(a + i)) return false;
  return true;
}

export class KeywordVectors {
  /**
   * Learnt tokens in an open-addressing table keyed by their hash, looked up from the words text's char
   * codes: a string and a Map lookup per token cost three times as much over a publication's words.
   */
  private slots = new Int32Array(1 << 16);
  private readonly hashes: number[] = [];
  private readonly names: string[] = [];
  /** Token id → what it becomes; undefined until learnt (tokenize registers, learn asks the server). */
  private readonly tokens: Array<Token | undefined> = [];
  /**
   * Token id → the one lexeme it becomes at its own position, taking one position (nearly every token:
   * a word the stemmer reduces), or NOT_ONE_LEXEME (a stop word, a token the parser splits, one not
   * learnt: join reads its Token). Looked up first, without the Token's arrays.
   */
  private single = new Int32Array(1 << 16).fill(NOT_ONE_LEXEME);
  /** Tokens registered and not learnt yet. */
  private pending: number[] = [];
  /** Room for one text's token ids while it is scanned. */
  private scratch = new Int32Array(4096);
  /** Where each token of scratch starts in its text (tokenizeWithStarts). */
  private scratchStarts = new Int32Array(4096);
  /** Lexeme id → its tsvector text up to the positions: `'lexeme':`. */
  private readonly quoted: string[] = [];
  /** Lexeme id → the lexeme. */
  private readonly lexemes: string[] = [];
  private readonly lexemeIds = new Map<string, number>();
  /** Lexeme id → where its UTF-8 bytes are in `bytes` (binary COPY copies them byte by byte: they are short). */
  private readonly lexemeStart: number[] = [];
  private readonly lexemeLength: number[] = [];
  private bytes = new Uint8Array(1 << 16);
  private bytesUsed = 0;
  /**
   * Per lexeme id: its positions in the vector being built (`(position << 2) | weight code`), and the
   * build that last touched them; and its positions in the part being read, and that part.
   */
  private readonly positions: number[][] = [];
  private stamp = new Int32Array(1024);
  private build = 0;
  private readonly partPositions: number[][] = [];
  private partStamp = new Int32Array(1024);
  private partBuild = 0;

  /** The known token text[a, b) of hash h (learnt or registered), or -1. */
  private find(text: string, a: number, b: number, h: number): number {
    const mask = this.slots.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const slot = this.slots[i]!;
      if (slot === 0) return -1;
      const t = slot - 1;
      if (this.hashes[t] === h && sameAt(this.names[t]!, text, a, b)) return t;
    }
  }

  /** Registers a token not seen before (learnt by the next learn()); returns its id. */
  private insert(name: string, h: number): number {
    if (2 * (this.names.length + 1) > this.slots.length) {
      const old = this.slots;
      this.slots = new Int32Array(old.length * 2);
      for (let t = 0; t < this.names.length; t++) this.place(this.hashes[t]!, t);
    }
    const t = this.names.length;
    this.hashes.push(h);
    this.names.push(name);
    this.tokens.push(undefined);
    if (t >= this.single.length) {
      const bigger = new Int32Array(this.single.length * 2).fill(NOT_ONE_LEXEME);
      bigger.set(this.single);
      this.single = bigger;
    }
    this.pending.push(t);
    this.place(h, t);
    return t;
  }

  /**
   * The ids of the tokens of words text, in order; tokens not seen before are registered, and must be
   * learnt (learn) before a vector is built from them.
   */
  tokenize(text: string): Int32Array {
    let n = 0;
    scan(text, (a, b, h) => {
      let t = this.find(text, a, b, h);
      if (t < 0) t = this.insert(text.slice(a, b), h);
      if (n === this.scratch.length) this.growScratch();
      this.scratch[n++] = t;
    });
    return this.scratch.slice(0, n);
  }

  /**
   * tokenize(text), and where each token starts in the text (ascending): a range of the text's offsets
   * names the tokens within it.
   */
  tokenizeWithStarts(text: string): { ids: Int32Array; starts: Int32Array } {
    let n = 0;
    scan(text, (a, b, h) => {
      let t = this.find(text, a, b, h);
      if (t < 0) t = this.insert(text.slice(a, b), h);
      if (n === this.scratch.length) this.growScratch();
      this.scratch[n] = t;
      this.scratchStarts[n++] = a;
    });
    return { ids: this.scratch.slice(0, n), starts: this.scratchStarts.slice(0, n) };
  }

  private growScratch(): void {
    const bigger = new Int32Array(this.scratch.length * 2);
    bigger.set(this.scratch);
    this.scratch = bigger;
    const starts = new Int32Array(bigger.length);
    starts.set(this.scratchStarts);
    this.scratchStarts = starts;
  }

  private place(h: number, t: number): void {
    const mask = this.slots.length - 1;
    let i = h & mask;
    while (this.slots[i] !== 0) i = (i + 1) & mask;
    this.slots[i] = t + 1;
  }

  private lexemeId(lexeme: string): number {
    let id = this.lexemeIds.get(lexeme);
    if (id === undefined) {
      id = this.quoted.length;
      this.lexemeIds.set(lexeme, id);
      this.lexemes.push(lexeme);
      this.quoted.push(`'${lexeme.replaceAll("\\", "\\\\").replaceAll("'", "''")}':`);
      const utf8 = Buffer.from(lexeme, "utf8");
      if (this.bytesUsed + utf8.length > this.bytes.length) {
        const bigger = new Uint8Array(Math.max(this.bytes.length * 2, this.bytesUsed + utf8.length));
        bigger.set(this.bytes.subarray(0, this.bytesUsed));
        this.bytes = bigger;
      }
      this.bytes.set(utf8, this.bytesUsed);
      this.lexemeStart.push(this.bytesUsed);
      this.lexemeLength.push(utf8.length);
      this.bytesUsed += utf8.length;
      this.positions.push([]);
      this.partPositions.push([]);
      if (id >= this.stamp.length) {
        const bigger = new Int32Array(this.stamp.length * 2);
        bigger.set(this.stamp);
        this.stamp = bigger;
        const biggerPart = new Int32Array(this.partStamp.length * 2);
        biggerPart.set(this.partStamp);
        this.partStamp = biggerPart;
      }
    }
    return id;
  }

  /**
   * Asks the server, in one statement, about the tokens registered since the last call (by tokenize) and
   * those of `texts` it was not asked about yet.
   */
  async learn(db: PgQueryable, texts: Iterable<string> = []): Promise<void> {
    for (const text of texts) this.tokenize(text);
    if (this.pending.length === 0) return;
    const asked = this.pending;
    this.pending = [];
    // the vectors as text, parsed here (json_agg over unnest() cost the server three times as much), in
    // one row, a line per token in order: a row per token cost the publisher the driver's work on each
    // (go-src's 300,000 tokens: 2.4 → 1.9 s of its CPU). Tokens hold no line break (words texts are
    // letters, digits and _ between spaces), so neither does their vector's text.
    const [row] = await db.query<{ v: string | null }>(
      `SELECT string_agg(to_tsvector('english', t || ' ${SENTINEL}')::text, E'\\n' ORDER BY i) AS v
       FROM json_array_elements_text($1::text::json) WITH ORDINALITY AS x(t, i)`,
      [JSON.stringify(asked.map((t) => this.names[t]))],
    );
    const lines = (row?.v ?? "").split("\n");
    if (lines.length !== asked.length) throw new Error(`keyword tokens: ${asked.length} asked, ${lines.length} vectors answered`);
    for (let k = 0; k < lines.length; k++) {
      const l = parseVectorText(lines[k]!);
      // the sentinel's position is the largest; every position before it is the token's
      let last = 0;
      for (const [, ps] of l) for (const p of ps) last = Math.max(last, p);
      const token: Token = { ids: [], rel: [], span: last - 1 };
      for (const [lexeme, ps] of l)
        for (const p of ps)
          if (p < last) {
            token.ids.push(this.lexemeId(lexeme));
            token.rel.push(p);
          }
      this.tokens[asked[k]!] = token;
      if (token.ids.length === 1 && token.rel[0] === 1 && token.span === 1) this.single[asked[k]!] = token.ids[0]!;
    }
  }

  /**
   * The tsvector text of `setweight(to_tsvector('english', w1), W1) || setweight(to_tsvector('english', w2), W2) || …`
   * for the parts [w1, W1], [w2, W2]…, as tsvector text (join() says how). Every token of the words must
   * have been learnt. The publisher joins the classes itself so that its rows go to the server as plain
   * values (COPY), with nothing left to compute there.
   */
  vector(parts: ReadonlyArray<readonly [Words, Weight]>): string {
    const seen = this.join(parts);
    const texts: string[] = new Array(seen.length);
    for (let i = 0; i < seen.length; i++) {
      const id = seen[i]!;
      const list = this.positions[id]!;
      let s = this.quoted[id]! + POSITION_TEXT[list[0]!]!;
      for (let j = 1; j < list.length; j++) s += `,${POSITION_TEXT[list[j]!]!}`;
      texts[i] = s;
    }
    return texts.join(" ");
  }

  /**
   * The same vector as vector(), written as a field of a binary COPY in tsvectorsend's format: the
   * number of lexemes, then each lexeme's bytes and a NUL, its number of positions and each position
   * as two bytes (weight in the top two bits). The server sorts the lexemes as it reads them. Returns the
   * vector's lexemes' ids (lexeme() names them), valid until the next vector is built.
   */
  writeVector(out: BinaryCopy, parts: ReadonlyArray<readonly [Words, Weight]>): readonly number[] {
    return this.write(out, this.join(parts));
  }

  /**
   * writeVector(out, heads) and then writeVector(out, [...heads, body]), the second continuing the first
   * (the heads are read once). Returns the second's lexeme ids, of which the first `heads` are the
   * first's; valid until the next vector is built.
   */
  writeHeadsAndWords(
    out: BinaryCopy,
    heads: ReadonlyArray<readonly [Words, Weight]>,
    body: readonly [Words, Weight],
  ): { lexemes: readonly number[]; heads: number } {
    const seen = this.join(heads);
    this.write(out, seen);
    const n = seen.length;
    this.joinPart(body[0], body[1]);
    return { lexemes: this.write(out, seen), heads: n };
  }

  /** Writes the vector built (join) as a field of `out`; returns its lexeme ids. */
  private write(out: BinaryCopy, seen: number[]): number[] {
    let size = 4;
    for (const id of seen) size += this.lexemeLength[id]! + 3 + 2 * this.positions[id]!.length;
    const { buffer, offset } = out.field(size);
    let at = buffer.writeInt32BE(seen.length, offset);
    const bytes = this.bytes;
    for (const id of seen) {
      for (let i = this.lexemeStart[id]!, end = i + this.lexemeLength[id]!; i < end; i++) buffer[at++] = bytes[i]!;
      buffer[at++] = 0;
      const list = this.positions[id]!;
      buffer[at++] = list.length >> 8;
      buffer[at++] = list.length & 0xff;
      for (const x of list) {
        const v = ((x & 3) << 14) | (x >> 2);
        buffer[at++] = v >> 8;
        buffer[at++] = v & 0xff;
      }
    }
    return seen;
  }

  /** The lexeme of an id writeVector returned. */
  lexeme(id: number): string {
    return this.lexemes[id]!;
  }

  /** The ids of the tokens of words text, every one of which must be known (tokenize, learn). */
  private learntIds(text: string): Int32Array {
    const out: number[] = [];
    scan(text, (a, b, h) => {
      const t = this.find(text, a, b, h);
      if (t < 0) throw new Error(`keyword token '${text.slice(a, b)}' was not learnt`);
      out.push(t);
    });
    return Int32Array.from(out);
  }

  /**
   * Builds the joined vector of `parts` in `positions` and returns its lexeme ids. Within one part,
   * positions are as to_tsvector gives them: a stop word takes one, they stop at 16,383, a lexeme keeps
   * 255 and no position twice. `||` is done as the server's tsvector_concat does it: the right part's
   * positions are shifted by the largest position of everything on its left (none past 16,383),
   * appended after a lexeme's positions on the left, 256 at most, and none after one that reached 16,383.
   */
  private join(parts: ReadonlyArray<readonly [Words, Weight]>): number[] {
    this.build++;
    this.seen.length = 0;
    this.maxPos = 0;
    for (const [words, weight] of parts) this.joinPart(words, weight);
    return this.seen;
  }

  /** The lexeme ids of the vector being built, in the order met; and its largest position so far. */
  private readonly seen: number[] = [];
  private maxPos = 0;
  /** The lexeme ids of the part being read, in the order met. */
  private readonly inPart: number[] = [];

  /** Joins one part on the right of the vector being built (join). */
  private joinPart(words: Words, weight: Weight): void {
    const part = ++this.partBuild;
    const inPart = this.inPart;
    inPart.length = 0;
    const partStamp = this.partStamp;
    const partPositions = this.partPositions;
    const single = this.single;
    let pos = 0;
    const ids = typeof words === "string" ? this.learntIds(words) : words;
    for (let i = 0; i < ids.length; i++) {
      const t = ids[i]!;
      const one = single[t]!;
      if (one >= 0) {
        // the usual token: one lexeme at its own position
        const p = pos < MAX_POS ? pos + 1 : MAX_POS;
        const list = partPositions[one]!;
        if (partStamp[one] !== part) {
          partStamp[one] = part;
          list.length = 0;
          list.push(p);
          inPart.push(one);
        } else {
          const end = list[list.length - 1]!;
          if (list.length < MAX_POSITIONS && end !== MAX_POS && end !== p) list.push(p);
        }
        pos++;
        continue;
      }
      const token = this.tokens[t];
      if (token === undefined) throw new Error(`keyword token '${this.names[t]}' was not learnt`);
      for (let k = 0; k < token.ids.length; k++) {
        const id = token.ids[k]!;
        const p = Math.min(MAX_POS, pos + token.rel[k]!);
        const list = partPositions[id]!;
        if (partStamp[id] !== part) {
          partStamp[id] = part;
          list.length = 0;
          list.push(p);
          inPart.push(id);
          continue;
        }
        const end = list[list.length - 1]!;
        if (list.length < MAX_POSITIONS && end !== MAX_POS && end !== p) list.push(p);
      }
      pos += token.span;
    }
    // the part joined on the right of what came before it, as tsvector_concat joins two vectors
    const code = WEIGHT_CODE[weight];
    const build = this.build;
    const maxPos = this.maxPos;
    let top = maxPos;
    for (const id of inPart) {
      const from = partPositions[id]!;
      if (this.stamp[id] !== build) {
        // the lexeme's first part: its positions, shifted and weighted in place, become its joined list
        // (the two lists swap arrays), up to the first that reaches the last position
        this.stamp[id] = build;
        this.seen.push(id);
        let n = 0;
        while (n < from.length) {
          const q = Math.min(MAX_POS, from[n]! + maxPos);
          from[n++] = (q << 2) | code;
          if (q > top) top = q;
          if (q === MAX_POS) break;
        }
        from.length = n;
        partPositions[id] = this.positions[id]!;
        this.positions[id] = from;
        continue;
      }
      const joined = this.positions[id]!;
      for (const p of from) {
        if (joined.length >= MAX_JOINED_POSITIONS) break;
        if (joined.length > 0 && joined[joined.length - 1]! >> 2 === MAX_POS) break;
        const q = Math.min(MAX_POS, p + maxPos);
        joined.push((q << 2) | code);
        if (q > top) top = q;
      }
    }
    this.maxPos = top;
  }
}

/**
 * The lexemes and positions of tsvector text as to_tsvector prints it: `'lexeme':1,2 'other':3`, a quote
 * in a lexeme doubled and a backslash escaped (positions carry no weight letter there: weight D).
 */
export function parseVectorText(text: string): Array<[string, number[]]> {
  const out: Array<[string, number[]]> = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    if (text[i] === " ") {
      i++;
      continue;
    }
    if (text[i] !== "'") throw new Error(`tsvector text: a lexeme must be quoted at ${i} of ${text}`);
    let lexeme = "";
    // a lexeme without a quote or backslash inside (nearly all) is one slice; the loop reads the others
    const close = text.indexOf("'", i + 1);
    if (close > i && text.charCodeAt(close + 1) !== 39 && !text.slice(i + 1, close).includes("\\")) {
      lexeme = text.slice(i + 1, close);
      i = close + 1;
    } else
      for (i++; ; ) {
        if (i >= n) throw new Error(`tsvector text: an unclosed lexeme in ${text}`);
        const c = text[i]!;
        if (c === "'" && text[i + 1] === "'") {
          lexeme += "'";
          i += 2;
        } else if (c === "'") {
          i++;
          break;
        } else if (c === "\\") {
          lexeme += text[i + 1] ?? "";
          i += 2;
        } else {
          lexeme += c;
          i++;
        }
      }
    const positions: number[] = [];
    if (text[i] === ":") {
      do {
        i++;
        let p = 0;
        while (i < n && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) p = p * 10 + text.charCodeAt(i++) - 48;
        positions.push(p);
        while (i < n && text[i] !== "," && text[i] !== " ") i++; // a weight letter
      } while (text[i] === ",");
    }
    out.push([lexeme, positions]);
  }
  return out;
}

/** A weight as the two low bits of a joined position (D is 0, as in PostgreSQL). */
const WEIGHT_CODE: Record<Weight, number> = { D: 0, C: 1, B: 2, A: 3 };

/** The text of every position and weight, `(position << 2) | weight code` → "12A" (D has no letter), made once. */
const POSITION_TEXT: string[] = Array.from({ length: (MAX_POS + 1) << 2 }, (_, x) => `${x >> 2}${["", "C", "B", "A"][x & 3]}`);

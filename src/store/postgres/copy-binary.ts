/**
 * Rows in the binary format of `COPY … FROM STDIN (FORMAT binary)`: a header, then per row the number of
 * fields and each field as its length and its bytes as the type's receive function reads them (int4,
 * int8 and int2 big-endian, a boolean one byte, text its UTF-8 bytes, bytea its bytes), and a trailer.
 *
 * Binary rather than COPY's text format because of the keyword vectors: as text they were the larger
 * part of a publication's bytes (go-src: 160 of 500 MB) and the server parsed them back, position by
 * position, for about a quarter of its CPU; in binary a position is two bytes the server copies, and the
 * publisher writes them without making a string per lexeme.
 */

/** The columns' types as the store's tables declare them: binary COPY needs each exactly. */
export type CopyType = "integer" | "bigint" | "boolean" | "text" | "bytea" | "tsvector";

const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");
/** Pieces of about this size go to the socket one at a time. */
const PIECE_BYTES = 1 << 20;
/** The first piece's size: a publication writes a COPY per table and batch, many of them a few rows. */
const FIRST_PIECE_BYTES = 64 << 10;
const TWO_32 = 2 ** 32;
/** The element type of a bigint[] (pg_type's oid of int8). */
const INT8_OID = 20;

export class BinaryCopy {
  private readonly pieces: Buffer[] = [];
  private buf = Buffer.allocUnsafe(FIRST_PIECE_BYTES);
  private at = 0;
  rows = 0;

  constructor() {
    this.room(SIGNATURE.length + 8);
    SIGNATURE.copy(this.buf, 0);
    this.at = SIGNATURE.length;
    this.buf.writeInt32BE(0, this.at); // flags
    this.buf.writeInt32BE(0, this.at + 4); // header extension length
    this.at += 8;
  }

  /** Makes room for `n` more bytes in the current piece, starting a new piece when it is full. */
  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    if (this.at > 0) this.pieces.push(this.buf.subarray(0, this.at));
    this.buf = Buffer.allocUnsafe(Math.max(PIECE_BYTES, n));
    this.at = 0;
  }

  /** Starts a row of `fields` fields. */
  row(fields: number): void {
    this.room(2);
    this.buf.writeInt16BE(fields, this.at);
    this.at += 2;
    this.rows++;
  }

  /** One field of the given type; null and undefined are SQL NULL. */
  value(type: CopyType, v: unknown): void {
    if (v === null || v === undefined) {
      this.room(4);
      this.buf.writeInt32BE(-1, this.at);
      this.at += 4;
      return;
    }
    switch (type) {
      case "integer":
        this.room(8);
        this.buf.writeInt32BE(4, this.at);
        this.buf.writeInt32BE(integer(v), this.at + 4);
        this.at += 8;
        return;
      case "bigint": {
        const n = integer(v);
        this.room(12);
        this.buf.writeInt32BE(8, this.at);
        this.buf.writeInt32BE(Math.floor(n / TWO_32), this.at + 4);
        this.buf.writeUInt32BE(n >>> 0, this.at + 8);
        this.at += 12;
        return;
      }
      case "boolean":
        this.room(5);
        this.buf.writeInt32BE(1, this.at);
        this.buf[this.at + 4] = v ? 1 : 0;
        this.at += 5;
        return;
      case "text":
        this.text(typeof v === "string" ? v : String(v));
        return;
      case "bytea": {
        if (!(v instanceof Uint8Array)) throw new Error("COPY binary: a bytea value must be bytes");
        const out = this.field(v.length);
        out.buffer.set(v, out.offset);
        return;
      }
      case "tsvector":
        throw new Error("COPY binary: a tsvector is written by KeywordVectors.writeVector");
    }
  }

  /**
   * A bigint[] field (one dimension, no NULL): array_recv's header (dimensions, flags, element type
   * int8, length, lower bound 1), then each element as a length and eight bytes. `values[from, to)`.
   */
  bigintArray(values: ArrayLike<number>, from = 0, to = values.length): void {
    const n = to - from;
    const { buffer, offset } = this.field(20 + 12 * n);
    let at = offset;
    at = buffer.writeInt32BE(1, at);
    at = buffer.writeInt32BE(0, at);
    at = buffer.writeInt32BE(INT8_OID, at);
    at = buffer.writeInt32BE(n, at);
    at = buffer.writeInt32BE(1, at);
    // byte by byte: three writeInt32BE calls per element were most of the keyword lists' writing
    for (let i = from; i < to; i++) {
      const v = values[i]!;
      const hi = Math.floor(v / TWO_32);
      const lo = v >>> 0;
      buffer[at] = 0;
      buffer[at + 1] = 0;
      buffer[at + 2] = 0;
      buffer[at + 3] = 8;
      buffer[at + 4] = hi >>> 24;
      buffer[at + 5] = (hi >>> 16) & 0xff;
      buffer[at + 6] = (hi >>> 8) & 0xff;
      buffer[at + 7] = hi & 0xff;
      buffer[at + 8] = lo >>> 24;
      buffer[at + 9] = (lo >>> 16) & 0xff;
      buffer[at + 10] = (lo >>> 8) & 0xff;
      buffer[at + 11] = lo & 0xff;
      at += 12;
    }
  }

  private text(s: string): void {
    // UTF-8 takes at most three bytes per UTF-16 unit
    this.room(4 + s.length * 3);
    const n = s.length <= SHORT_TEXT ? asciiInto(s, this.buf, this.at + 4) : -1;
    const written = n >= 0 ? n : this.buf.write(s, this.at + 4, "utf8");
    this.buf.writeInt32BE(written, this.at);
    this.at += 4 + written;
  }

  /**
   * A field of `size` bytes that the caller writes itself (a tsvector): its length is written here, and
   * the bytes go into `buffer` from `offset`.
   */
  field(size: number): { buffer: Buffer; offset: number } {
    this.room(4 + size);
    this.buf.writeInt32BE(size, this.at);
    const out = { buffer: this.buf, offset: this.at + 4 };
    this.at += 4 + size;
    return out;
  }

  /** Every row so far with the trailer, in pieces (call once). */
  data(): Buffer[] {
    this.room(2);
    this.buf.writeInt16BE(-1, this.at);
    this.at += 2;
    this.pieces.push(this.buf.subarray(0, this.at));
    this.at = 0;
    return this.pieces;
  }
}

/**
 * Texts up to this length are copied char by char when they are ASCII: most of a publication's texts
 * are short (a reference's name, kind, qualifier: five of them for each of go-src's 785,000 references),
 * and a call into Buffer.write costs twice the loop for them (5 million names: 640 against 330-400 ms).
 */
const SHORT_TEXT = 64;

/** Copies ASCII `s` into `buf` at `at` and returns its length; -1 (having written part of it) when it is not ASCII. */
function asciiInto(s: string, buf: Buffer, at: number): number {
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) return -1;
    buf[at + i] = c;
  }
  return n;
}

/** A number as an integer column takes it (rows from SQLite: numbers, or numeric text). */
function integer(v: unknown): number {
  const n = typeof v === "number" ? v : typeof v === "boolean" ? Number(v) : Number(String(v));
  if (!Number.isSafeInteger(n)) throw new Error(`COPY binary: ${String(v)} is not an integer`);
  return n;
}

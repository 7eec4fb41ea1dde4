/**
 * Rows in the text format of `COPY … FROM STDIN`: a line per row, fields apart by tabs, `\N` for null,
 * and backslash escapes for backslash, newline, carriage return and tab in text.
 *
 * The publisher sent its rows as one JSON array of objects per table and batch (json_to_recordset): the
 * keys, repeated on every row, were most of the bytes (go-src's references alone 175 MB of JSON), the
 * publisher's JSON.stringify a fifth of its CPU, and the server's JSON parsing a tenth of its own. COPY
 * text carries the values alone and the server parses it with no JSON in between.
 */

/** COPY text of one value: integers and text as they are (text escaped), booleans t/f, null \N. */
function field(v: unknown): string {
  if (v === null || v === undefined) return "\\N";
  if (typeof v === "string") return escapeText(v);
  if (typeof v === "boolean") return v ? "t" : "f";
  if (typeof v === "number" || typeof v === "bigint") return String(v);
  // rows come from SQLite (numbers, text, null): anything else is a publisher bug, not data to write
  throw new Error(`COPY text: cannot write a value of type ${typeof v}`);
}

const NEEDS_ESCAPE = /[\\\n\r\t]/;

/** Text with COPY's four escapes (the native replaceAll passes cost less than one JavaScript loop). */
export function escapeText(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return s;
  return s.replaceAll("\\", "\\\\").replaceAll("\n", "\\n").replaceAll("\r", "\\r").replaceAll("\t", "\\t");
}

/** Pieces of about this many characters go to the socket one at a time. */
const PIECE_CHARS = 1 << 20;

/** The rows of one COPY, gathered into pieces of about a megabyte. */
export class CopyText {
  private readonly pieces: string[] = [];
  private current: string[] = [];
  private chars = 0;
  rows = 0;

  /** Adds one row: its values in the COPY's column order. */
  add(values: readonly unknown[]): void {
    let line = field(values[0]);
    for (let i = 1; i < values.length; i++) line += `\t${field(values[i])}`;
    line += "\n";
    this.current.push(line);
    this.chars += line.length;
    this.rows++;
    if (this.chars >= PIECE_CHARS) this.flush();
  }

  private flush(): void {
    if (this.current.length === 0) return;
    this.pieces.push(this.current.join(""));
    this.current = [];
    this.chars = 0;
  }

  /** Every row so far, in pieces. */
  data(): string[] {
    this.flush();
    return this.pieces;
  }
}

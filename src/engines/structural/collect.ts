/**
 * Keeping the first `limit` matches in (file, offset) order while counting all of them, in bounded memory
 * and without parsing every line: ast-grep prints each match as one JSON object whose text can be large
 * (a whole function), so a line is first ranked by its file and offsets read straight from the bytes,
 * and only the lines that end up returned are parsed. This keeps a search with thousands of matches
 * close to ast-grep's own cost.
 *
 * The bytes are read where serde writes them, `{"text":"…","range":{"byteOffset":{"start":N,"end":M},…},
 * "file":"…"`: the first `","range":{"byteOffset":{"start":` of a line ends the text, because inside a JSON
 * string every quote is escaped. A line that does not look like that is parsed instead.
 */
import { CortexError } from "../../core/errors.ts";
import type { RawMatch } from "./runner.ts";

interface Key {
  file: string;
  start: number;
  end: number;
}

interface Kept extends Key {
  line: Uint8Array;
}

const RANGE = Buffer.from('","range":{"byteOffset":{"start":');
const END = Buffer.from(',"end":');
const FILE = Buffer.from(',"file":"');
const decoder = new TextDecoder("utf-8");

function readInt(b: Buffer, at: number): [number, number] {
  let n = 0;
  let i = at;
  while (i < b.length && b[i]! >= 0x30 && b[i]! <= 0x39) n = n * 10 + (b[i++]! - 0x30);
  return [n, i === at ? -1 : i];
}

/** The ranking key of one output line, read from its bytes; undefined when the line looks different. */
export function keyOf(line: Uint8Array): Key | undefined {
  const b = Buffer.from(line.buffer, line.byteOffset, line.byteLength);
  const r = b.indexOf(RANGE);
  if (r < 0) return undefined;
  const [start, afterStart] = readInt(b, r + RANGE.length);
  if (afterStart < 0 || b.compare(END, 0, END.length, afterStart, afterStart + END.length) !== 0) return undefined;
  const [end, afterEnd] = readInt(b, afterStart + END.length);
  if (afterEnd < 0) return undefined;
  const f = b.indexOf(FILE, afterEnd);
  if (f < 0) return undefined;
  const open = f + FILE.length - 1;
  let i = open + 1;
  let escaped = false;
  while (i < b.length && b[i] !== 0x22) {
    if (b[i] === 0x5c) {
      escaped = true;
      i++;
    }
    i++;
  }
  if (i >= b.length) return undefined;
  const file = escaped ? (JSON.parse(decoder.decode(b.subarray(open, i + 1))) as string) : decoder.decode(b.subarray(open + 1, i));
  return { file, start, end };
}

function parse(line: Uint8Array): RawMatch {
  try {
    return JSON.parse(decoder.decode(line)) as RawMatch;
  } catch (e) {
    throw new CortexError("IO", `ast-grep printed output cortex cannot read: ${(e as Error).message}`, {
      data: { line: decoder.decode(line.subarray(0, 200)) },
    });
  }
}

const compare = (a: Key, b: Key) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.start - b.start || a.end - b.end);

export class TopMatches {
  total = 0;
  private kept: Kept[] = [];
  /** The last kept key after a trim: a line ranking at or after it can no longer be returned. */
  private threshold: Key | undefined;

  constructor(private readonly limit: number) {}

  /** One line of ast-grep's JSON stream. */
  add(line: Uint8Array): void {
    this.total++;
    let key = keyOf(line);
    if (!key) {
      const m = parse(line);
      key = { file: m.file, start: m.range.byteOffset.start, end: m.range.byteOffset.end };
    }
    if (this.threshold && compare(key, this.threshold) >= 0) return;
    this.kept.push({ ...key, line: line.slice() });
    if (this.kept.length >= this.limit * 4 + 64) this.trim();
  }

  private trim(): void {
    this.kept.sort(compare);
    if (this.kept.length >= this.limit) {
      this.kept.length = this.limit;
      this.threshold = this.kept[this.limit - 1];
    }
  }

  /** The first `limit` matches in file order, parsed. */
  result(): RawMatch[] {
    this.trim();
    return this.kept.map((k) => parse(k.line));
  }
}

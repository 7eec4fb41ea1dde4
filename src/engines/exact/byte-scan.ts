/**
 * Literal search on the UTF-8 bytes of stored content. Turning a whole file into a JavaScript string
 * costs more than searching it (half the time of a large literal search went there), so a literal is
 * found with Buffer.indexOf (memchr speed) and only the lines that match, and their context, are decoded.
 *
 * It gives exactly the LineHits of LineMatcher on the decoded text (test/engines/exact-plan.test.ts
 * compares the two on random input): a UTF-8 needle occurs in the bytes where the literal occurs in the
 * text, lines are split at the same LF bytes, and columns are counted on the decoded line. Case-insensitive
 * search works on bytes only for ASCII literals (ASCII letters fold only to ASCII under non-unicode /i);
 * other literals go through the string scanner.
 */
import type { PatternSpec } from "./text-query.ts";
import { MAX_DETAILS, MAX_LINE_CHARS, lineWindow, type LineHit, type MatchDetail } from "./line-scan.ts";
import { escapeRegex } from "./regex-parse.ts";

const CR = 13;
const LF = 10;

/** The text of bytes [from, to) without a trailing CR (Bun's UTF-8 decoder has its own ASCII fast path). */
function lineText(buf: Buffer, from: number, to: number): string {
  if (to > from && buf[to - 1] === CR) to--;
  return buf.toString("utf8", from, to);
}

export class ByteLiteralScanner {
  private readonly needle: Buffer;
  private readonly literal: string;
  private readonly ci: boolean;
  /** Case-insensitive: the literal over a latin1 view of the bytes (offsets are byte offsets). */
  private readonly bytesRe: RegExp | undefined;
  /** Case-insensitive: the literal over a decoded line (columns in UTF-16 code units). */
  private readonly lineRe: RegExp | undefined;

  private constructor(literal: string, ci: boolean) {
    this.literal = literal;
    this.ci = ci;
    this.needle = Buffer.from(literal, "utf8");
    if (ci) {
      this.bytesRe = new RegExp(escapeRegex(literal), "gi");
      this.lineRe = new RegExp(escapeRegex(literal), "gi");
    }
  }

  /** A scanner for the spec, or undefined when the search must run on strings. */
  static for(spec: PatternSpec): ByteLiteralScanner | undefined {
    const lit = spec.literal;
    if (lit === undefined || lit.length === 0) return undefined;
    const ci = spec.flags.includes("i");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included
    if (ci && !/^[\x00-\x7f]*$/.test(lit)) return undefined;
    return new ByteLiteralScanner(lit, ci);
  }

  scan(bytes: Uint8Array, contextLines: number, max: number): LineHit[] {
    const hits: LineHit[] = [];
    const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const n = buf.length;
    if (n === 0 || max <= 0) return hits;
    const end = buf[n - 1] === LF ? n - 1 : n;
    let view: string | undefined;
    const locate = (from: number): number => {
      if (!this.ci) return buf.indexOf(this.needle, from);
      view ??= buf.toString("latin1", 0, n);
      const re = this.bytesRe!;
      re.lastIndex = from;
      const m = re.exec(view);
      return m ? m.index : -1;
    };
    let countedPos = 0;
    let countedLine = 1;
    let pos = 0;
    while (pos <= end && hits.length < max) {
      const at = locate(pos);
      if (at < 0 || at > end) break;
      const lineStart = at === 0 ? 0 : buf.lastIndexOf(LF, at - 1) + 1;
      let lineEnd = buf.indexOf(LF, at);
      if (lineEnd < 0) lineEnd = n;
      for (let nl = buf.indexOf(LF, countedPos); nl >= 0 && nl < lineStart; nl = buf.indexOf(LF, nl + 1)) countedLine++;
      countedPos = lineStart;
      const hit = this.hit(buf, lineStart, lineEnd, countedLine, contextLines);
      if (hit) hits.push(hit);
      pos = lineEnd + 1;
    }
    return hits;
  }

  private hit(buf: Buffer, lineStart: number, lineEnd: number, lineNo: number, contextLines: number): LineHit | undefined {
    const line = lineText(buf, lineStart, lineEnd);
    const matches: MatchDetail[] = [];
    if (this.ci) {
      const re = this.lineRe!;
      re.lastIndex = 0;
      let m: RegExpExecArray | null;
      while (matches.length < MAX_DETAILS && (m = re.exec(line)) !== null) matches.push({ text: m[0], column: m.index + 1 });
    } else {
      const lit = this.literal;
      for (let at = line.indexOf(lit); at >= 0 && matches.length < MAX_DETAILS; at = line.indexOf(lit, at + lit.length))
        matches.push({ text: lit, column: at + 1 });
    }
    if (matches.length === 0) return undefined; // a needle spanning the line's CR cannot match the line
    const before: string[] = [];
    let p = lineStart;
    while (before.length < contextLines && p > 0) {
      const s = p >= 2 ? buf.lastIndexOf(LF, p - 2) + 1 : 0;
      before.unshift(capped(lineText(buf, s, p - 1)));
      p = s;
    }
    const after: string[] = [];
    let q = lineEnd;
    while (after.length < contextLines && q < buf.length - 1) {
      let e = buf.indexOf(LF, q + 1);
      if (e < 0) e = buf.length;
      after.push(capped(lineText(buf, q + 1, e)));
      q = e;
    }
    const hit: LineHit = { line: lineNo, text: line, contextStart: lineNo - before.length, context: [...before, ...after], matches };
    if (line.length > MAX_LINE_CHARS) {
      hit.text = lineWindow(line, matches[0]!.column - 1).text;
      hit.truncated = true;
    }
    return hit;
  }
}

function capped(line: string): string {
  return line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS) : line;
}

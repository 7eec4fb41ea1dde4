/**
 * Finds the matching lines of one file's text. Results are lines (as ripgrep reports them): a line
 * matches when the regex matches somewhere inside it, with the line's ending (LF or CRLF) removed.
 *
 * Running a regex once per line is slow, so lines are first located by something cheaper, then each
 * located line is confirmed by the regex on that line alone, which also yields the match details:
 *  - a literal every match contains (indexOf, or an alternation regex when there are several or case is
 *    ignored): lines without it cannot match;
 *  - otherwise the regex itself over the whole text: when a line holds a match, the whole-text search
 *    from any earlier position finds a match starting no later than it, so no matching line is skipped
 *    (lookarounds break that argument, since they see across line ends; such patterns check every line).
 * Lines, columns and context are cut from the same text, so they are right for non-ASCII text and CRLF.
 */
import type { PatternSpec } from "./text-query.ts";
import { escapeRegex } from "./regex-parse.ts";

export interface MatchDetail {
  /** The matched text. */
  text: string;
  /** 1-based column of the match start in the line, in UTF-16 code units (as in FileFacts). */
  column: number;
  /** Capture groups in order (null for a group that did not take part). */
  groups?: Array<string | null>;
  /** Named capture groups. */
  named_groups?: Record<string, string | null>;
}

export interface LineHit {
  line: number;
  text: string;
  /** True when the line was longer than MAX_LINE_CHARS and `text` is a window around the first match. */
  truncated?: boolean;
  /** Line number of the first context line. */
  contextStart: number;
  /** Context lines before, then after, the matched line (each capped at MAX_LINE_CHARS). */
  context: string[];
  matches: MatchDetail[];
}

export const MAX_LINE_CHARS = 1000;
/** Match details kept per line (a pattern like `x*` matches at every position). */
export const MAX_DETAILS = 16;

function stripCr(line: string): string {
  return line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line;
}

/**
 * A line over MAX_LINE_CHARS as the result shows it: a window of it holding its first hit (`first`, a
 * 0-based offset) with some text before it, from `start`; a line cut at its start hid a hit far into it.
 */
export function lineWindow(line: string, first: number): { text: string; start: number } {
  const start = first < MAX_LINE_CHARS - 200 ? 0 : first - 200;
  return { text: line.slice(start, start + MAX_LINE_CHARS), start };
}

function capLine(line: string): string {
  return line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS) : line;
}

type Locator = (text: string, from: number) => number;

/** A compiled pattern, reusable across files (one per worker per search). */
export class LineMatcher {
  private readonly confirm: RegExp;
  private readonly locate: Locator | undefined;
  private readonly wholeText: RegExp | undefined;
  /** A case-sensitive literal: matches within a line are found with indexOf, no regex needed. */
  private readonly literal: string | undefined;

  constructor(spec: PatternSpec) {
    this.confirm = new RegExp(spec.source, "gm" + spec.flags);
    const ci = spec.flags.includes("i");
    if (spec.literal !== undefined && !ci && spec.literal.length > 0) this.literal = spec.literal;
    if (spec.factors && spec.factors.length > 0) {
      const factors = spec.factors;
      if (factors.length === 1 && !ci) {
        const needle = factors[0]!;
        this.locate = (text, from) => text.indexOf(needle, from);
      } else {
        const re = new RegExp(factors.map(escapeRegex).join("|"), "g" + spec.flags);
        this.locate = (text, from) => {
          re.lastIndex = from;
          const m = re.exec(text);
          return m ? m.index : -1;
        };
      }
    } else if (spec.wholeText) {
      this.wholeText = new RegExp(spec.source, "gm" + spec.flags);
    }
  }

  /**
   * The matching lines of `text`, at most `max`. `shouldStop` is polled between lines of long scans so a
   * caller can cancel (it never interrupts a single regex execution; workers are terminated for that).
   */
  scan(text: string, contextLines: number, max: number, shouldStop?: () => boolean): LineHit[] {
    const hits: LineHit[] = [];
    if (max <= 0 || text.length === 0) return hits;
    const end = text.charCodeAt(text.length - 1) === 10 ? text.length - 1 : text.length;
    // line numbers: counted forward from the last line start we numbered
    let countedPos = 0;
    let countedLine = 1;
    const lineNumberAt = (lineStart: number): number => {
      let p = countedPos;
      let n = countedLine;
      for (;;) {
        const nl = text.indexOf("\n", p);
        if (nl < 0 || nl >= lineStart) break;
        n++;
        p = nl + 1;
      }
      countedPos = lineStart;
      countedLine = n;
      return n;
    };
    const visit = (lineStart: number, lineEnd: number): void => {
      const hit = this.confirmLine(text, lineStart, lineEnd, contextLines, lineNumberAt);
      if (hit) hits.push(hit);
    };

    let pos = 0;
    let polls = 0;
    while (pos <= end && hits.length < max) {
      if (shouldStop && (++polls & 63) === 0 && shouldStop()) break;
      let at: number;
      if (this.locate) at = this.locate(text, pos);
      else if (this.wholeText) {
        const re = this.wholeText;
        re.lastIndex = pos;
        const m = re.exec(text);
        at = m ? m.index : -1;
      } else at = pos; // every line
      if (at < 0 || at > end) break;
      const lineStart = at === 0 ? 0 : text.lastIndexOf("\n", at - 1) + 1;
      let lineEnd = text.indexOf("\n", at);
      if (lineEnd < 0) lineEnd = text.length;
      visit(lineStart, lineEnd);
      pos = lineEnd + 1;
    }
    return hits;
  }

  private confirmLine(text: string, lineStart: number, lineEnd: number, contextLines: number, lineNumberAt: (p: number) => number): LineHit | undefined {
    const line = stripCr(text.slice(lineStart, lineEnd));
    const matches: MatchDetail[] = [];
    if (this.literal !== undefined) {
      const lit = this.literal;
      for (let at = line.indexOf(lit); at >= 0 && matches.length < MAX_DETAILS; at = line.indexOf(lit, at + lit.length)) {
        matches.push({ text: lit, column: at + 1 });
      }
    } else this.regexMatches(line, matches);
    if (matches.length === 0) return undefined;
    return this.finishHit(text, line, lineStart, lineEnd, contextLines, lineNumberAt, matches);
  }

  /** Every match of the pattern in one line (at most MAX_DETAILS), with capture groups. */
  private regexMatches(line: string, matches: MatchDetail[]): void {
    const re = this.confirm;
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while (matches.length < MAX_DETAILS && (m = re.exec(line)) !== null) {
      const d: MatchDetail = { text: m[0], column: m.index + 1 };
      if (m.length > 1) d.groups = m.slice(1).map((g) => g ?? null);
      if (m.groups) d.named_groups = Object.fromEntries(Object.entries(m.groups).map(([k, v]) => [k, v ?? null]));
      matches.push(d);
      if (m[0].length === 0) {
        if (re.lastIndex >= line.length) break;
        re.lastIndex++;
      }
    }
  }

  private finishHit(
    text: string,
    line: string,
    lineStart: number,
    lineEnd: number,
    contextLines: number,
    lineNumberAt: (p: number) => number,
    matches: MatchDetail[],
  ): LineHit {
    const lineNo = lineNumberAt(lineStart);
    const before: string[] = [];
    let p = lineStart;
    while (before.length < contextLines && p > 0) {
      const s = p >= 2 ? text.lastIndexOf("\n", p - 2) + 1 : 0;
      before.unshift(capLine(stripCr(text.slice(s, p - 1))));
      p = s;
    }
    const after: string[] = [];
    let q = lineEnd;
    while (after.length < contextLines && q < text.length - 1) {
      let e = text.indexOf("\n", q + 1);
      if (e < 0) e = text.length;
      after.push(capLine(stripCr(text.slice(q + 1, e))));
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

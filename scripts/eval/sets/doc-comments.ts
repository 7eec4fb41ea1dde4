/**
 * A function's own description: its docstring (Python) or the run of comments directly above it (every
 * other language, and Python functions without a docstring), read from cortex's own parse (src/lang), as
 * a query, and the string ranges that hold it, to blank in the copy the evaluation indexes. Blanking keeps
 * every newline, so line numbers (and the labelled function's span) do not move.
 */
import type { FunctionFact } from "../../../src/lang/types.ts";

export interface DocComment {
  /** The comment's cleaned first paragraph, the function's own name taken out. */
  query: string;
  /** [start, end) string offsets of each comment to blank. */
  ranges: Array<[number, number]>;
}

/** Lines between a doc comment and its function that are not code: attributes, annotations, decorators. */
const ATTRIBUTE_LINE = /^\s*(#!?\[|@[A-Za-z]|\[[A-Z])/;
/** Comments that are directives or boilerplate rather than a description. */
const NOT_A_DESCRIPTION =
  /^(todo|fixme|xxx|hack|note:|safety|eslint|prettier|tslint|noinspection|@ts-|istanbul|nolint|go:|\+build|copyright|spdx|license|inheritdoc|\{@inheritdoc|phpcs|rubocop|clippy|deprecated|see\b|implements\b|overrides?\b|type:|pylint:|noqa|pragma|region|endregion|-\*-)/i;
const MAX_QUERY_CHARS = 400;
const MIN_WORDS = 4;

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** 1-based line of a string offset. */
function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** Comment text without its markers: the first paragraph, tags and parameter lists left out. */
export function cleanComment(raw: string, functionName: string): string | undefined {
  const lines = raw
    .replace(/^\s*[rRuUbB]{0,2}("""|''')/, "")
    .replace(/("""|''')\s*$/, "")
    .split("\n")
    .map((l) =>
      l
        .trim()
        .replace(/^(\/\/[/!]?|\/\*+!?|\*+\/|\*|#+|--)\s?/, "")
        .replace(/\*+\/\s*$/, "")
        .trim(),
    );
  const paragraph: string[] = [];
  for (const l of lines) {
    if (l === "") {
      if (paragraph.length > 0) break;
      continue;
    }
    if (/^(@\w|:param|:return|:raises|:type|args:|arguments:|returns?:|raises:|parameters\b|example)/i.test(l)) break;
    paragraph.push(l);
  }
  let text = paragraph
    .join(" ")
    .replace(/\{@(?:link|linkplain|code|literal)\s+([^}]*)\}/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
  if (text === "" || NOT_A_DESCRIPTION.test(text)) return undefined;
  // The description, not the name: Go's "Name does …" convention would make the query a name look-up.
  const name = functionName.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  text = text
    .replace(new RegExp(`\\b${name}\\b(\\(\\))?`, "g"), "")
    .replace(/\s+/g, " ")
    .replace(/^[\s,:;.-]+/, "")
    .trim();
  if (text.length > MAX_QUERY_CHARS) text = text.slice(0, text.lastIndexOf(" ", MAX_QUERY_CHARS)).trim();
  if ((text.match(/[A-Za-z]{2,}/g) ?? []).length < MIN_WORDS) return undefined;
  return text;
}

export interface ParsedForDocs {
  language: string;
  functions: FunctionFact[];
  /** [start, end) string offsets of every comment (Python docstrings included), as src/lang reports them. */
  comments: Array<[number, number]>;
}

/**
 * The doc comment of each function that has one, by the function's index in `parsed.functions`.
 * Functions without a body beyond their docstring are left out: blanking would leave nothing to find.
 */
export function docComments(text: string, parsed: ParsedForDocs): Map<number, DocComment> {
  const starts = lineStarts(text);
  const comments = [...parsed.comments]
    .sort((a, b) => a[0] - b[0])
    .map(([s, e]) => ({ s, e, first: lineOf(starts, s), last: lineOf(starts, Math.max(s, e - 1)) }));
  const byLastLine = new Map<number, (typeof comments)[number]>();
  const byFirstLine = new Map<number, (typeof comments)[number]>();
  for (const c of comments) {
    byLastLine.set(c.last, c);
    if (!byFirstLine.has(c.first)) byFirstLine.set(c.first, c);
  }
  const lineText = (n: number) => text.slice(starts[n - 1] ?? text.length, (starts[n] ?? text.length + 1) - 1);
  const out = new Map<number, DocComment>();
  parsed.functions.forEach((fn, i) => {
    if (fn.bodyLines === 0) return;
    let picked: Array<(typeof comments)[number]> = [];
    if (parsed.language === "python" && fn.docStartLine !== undefined && fn.docStartLine > fn.startLine) {
      const doc = byFirstLine.get(fn.docStartLine);
      if (doc && doc.last < fn.endLine && /^\s*[rRuUbB]{0,2}("""|'''|"|')/.test(text.slice(doc.s, doc.e))) picked = [doc];
    } else {
      let expected = fn.startLine - 1;
      while (expected > 0 && ATTRIBUTE_LINE.test(lineText(expected)) && !byLastLine.has(expected)) expected--;
      for (;;) {
        const c = byLastLine.get(expected);
        // a comment ending on this line, alone on its lines (not a trailing comment after code)
        if (!c || text.slice(starts[c.first - 1]!, c.s).trim() !== "") break;
        picked.unshift(c);
        expected = c.first - 1;
      }
    }
    if (picked.length === 0) return;
    const raw = picked.map((c) => text.slice(c.s, c.e)).join("\n");
    const query = cleanComment(raw, fn.name);
    if (query === undefined) return;
    out.set(i, { query, ranges: picked.map((c) => [c.s, c.e] as [number, number]) });
  });
  return out;
}

/** The text with each range's characters replaced by spaces, newlines kept (lines do not move). */
export function blankRanges(text: string, ranges: ReadonlyArray<readonly [number, number]>): string {
  if (ranges.length === 0) return text;
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  let out = "";
  let at = 0;
  for (const [s, e] of sorted) {
    if (s < at || e > text.length || s > e) throw new Error(`range [${s}, ${e}) overlaps another or lies outside a text of ${text.length} characters`);
    out += text.slice(at, s) + text.slice(s, e).replace(/[^\n]/g, " ");
    at = e;
  }
  return out + text.slice(at);
}

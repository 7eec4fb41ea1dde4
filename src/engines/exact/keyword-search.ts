/**
 * Keyword search (cortex_exact): a boolean query decides which files match; the lines of those files
 * that hold a query term are the results, ranked by BM25 (each line a document: term frequency in the
 * line, line length in tokens, idf from the number of files the trigram index admits for the term),
 * ties broken by path and line number.
 *
 * A term matches case-insensitively where it starts and ends on a word-part boundary: the edge of a word,
 * an underscore, or a camelCase hump. So `login` finds `handle_login`, `LoginForm` and `userLogin` but
 * not `blogin`; `mutex` finds `sync.RWMutex`; `handle*` finds `handler`; quoted phrases match as written
 * (whitespace runs are flexible) with no boundary rule.
 */
import type { ContentFileRow } from "../../store/contract.ts";
import { and, or, planLiteral, type TrigramQuery } from "./plan.ts";
import { escapeRegex } from "./regex-parse.ts";
import { describeKeywordQuery, parseKeywordQuery, positiveTerms, type KeywordNode } from "./keyword-query.ts";
import type { PathFilter } from "./path-filter.ts";
import type { ExactIndexView } from "./view.ts";
import { MAX_LINE_CHARS, lineWindow } from "./line-scan.ts";

export interface KeywordSearchRequest {
  query: string;
  limit: number;
  contextLines: number;
  paths: PathFilter;
  /** Language ids (files.language); empty for all. */
  languages: string[];
  deadline: number;
  signal?: AbortSignal;
}

export interface KeywordHit {
  file_path: string;
  line_number: number;
  line: string;
  before: string[];
  after: string[];
  /** Term occurrences in the line: 1-based column (UTF-16 code units), length, and the term as typed. */
  highlights: Array<{ column: number; length: number; term: string }>;
  score: number;
  /** The file changed on disk since it was indexed: the line is as indexed. */
  stale?: true;
  /**
   * Only for a line longer than MAX_LINE_CHARS: `line` is a window of it around the first highlight, and
   * this is the column (1-based) the window starts at; highlights keep the whole line's columns.
   */
  line_start_column?: number;
}

export interface KeywordSearchOutcome {
  /** The query as understood. */
  query: string;
  results: KeywordHit[];
  /** Matching lines found (results holds the best `limit` of them). */
  total_lines: number;
  files_matched: number;
  truncated: boolean;
  /** The deadline or a cancellation stopped the search: ranks are over the files searched so far. */
  partial: boolean;
  stats: { candidate_files: number; searched_files: number; took_ms: number };
}

const K1 = 1.2;
const B = 0.75;

type TermNode = Extract<KeywordNode, { kind: "term" }>;

interface Term {
  key: string;
  label: string;
  re: RegExp;
  boundaryStart: boolean;
  boundaryEnd: boolean;
  positive: boolean;
  query: TrigramQuery;
  idf: number;
}

const WORD_ASCII = /[A-Za-z0-9_]/;
const WORD_OTHER = /[\p{L}\p{N}]/u;
const isWord = (c: string | undefined) => c !== undefined && (c.charCodeAt(0) < 128 ? WORD_ASCII.test(c) : WORD_OTHER.test(c));
const isUpper = (c: string) => c !== c.toLowerCase();
const isLower = (c: string) => c !== c.toUpperCase();
const isDigit = (c: string) => c >= "0" && c <= "9";

/** Whether a word part starts or ends between text[i - 1] and text[i]. */
export function isPartBoundary(text: string, i: number): boolean {
  if (i <= 0 || i >= text.length) return true;
  const a = text[i - 1]!;
  const b = text[i]!;
  if (!isWord(a) || !isWord(b)) return true;
  if (a === "_" || b === "_") return true;
  if ((isLower(a) || isDigit(a)) && isUpper(b)) return true;
  const c = text[i + 1];
  return isUpper(a) && isUpper(b) && c !== undefined && isLower(c);
}

function termKey(t: TermNode): string {
  return `${t.phrase ? "p" : t.prefix ? "x" : "t"}:${t.text.toLowerCase()}`;
}

function compileTerm(t: TermNode, positive: boolean): Term {
  const pieces = t.phrase ? t.text.trim().split(/\s+/) : [t.text];
  const source = pieces.map(escapeRegex).join("[^\\S\\r\\n]+");
  const query = and(...pieces.map((p) => planLiteral(p, true).query));
  return {
    key: termKey(t),
    label: t.phrase ? JSON.stringify(t.text) : t.text + (t.prefix ? "*" : ""),
    re: new RegExp(source, "gi"),
    boundaryStart: !t.phrase && isWord(t.text[0]),
    boundaryEnd: !t.phrase && !t.prefix && isWord(t.text[t.text.length - 1]),
    positive,
    query,
    idf: 0,
  };
}

/** Offsets where a term occurs in `text` (ascending), each with its length. */
function occurrences(term: Term, text: string, firstOnly: boolean): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const re = term.re;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const s = m.index;
    const e = s + m[0].length;
    if (m[0].length === 0) re.lastIndex++;
    else if ((!term.boundaryStart || isPartBoundary(text, s)) && (!term.boundaryEnd || isPartBoundary(text, e))) {
      out.push([s, m[0].length]);
      if (firstOnly) break;
    } else re.lastIndex = s + 1; // a rejected occurrence may overlap an accepted one
  }
  return out;
}

function holds(node: KeywordNode, present: (key: string) => boolean): boolean {
  switch (node.kind) {
    case "term":
      return present(termKey(node));
    case "not":
      return !holds(node.item, present);
    case "and":
      return node.items.every((n) => holds(n, present));
    case "or":
      return node.items.some((n) => holds(n, present));
  }
}

function candidateQuery(node: KeywordNode, terms: Map<string, Term>): TrigramQuery {
  switch (node.kind) {
    case "term":
      return terms.get(termKey(node))!.query;
    case "not":
      return { op: "all" }; // absence cannot be read from trigrams
    case "and":
      return and(...node.items.map((n) => candidateQuery(n, terms)));
    case "or":
      return or(...node.items.map((n) => candidateQuery(n, terms)));
  }
}

interface LineRecord {
  file: number;
  line: number;
  start: number;
  end: number;
  /** [offset in file, length, term index] */
  occ: Array<[number, number, number]>;
  tokens: number;
  score: number;
}

const TOKEN = /[\p{L}\p{N}_]+/gu;

function countTokens(s: string): number {
  let n = 0;
  TOKEN.lastIndex = 0;
  while (TOKEN.exec(s) !== null) n++;
  return n;
}

export async function searchKeywords(view: ExactIndexView, req: KeywordSearchRequest): Promise<KeywordSearchOutcome> {
  const started = performance.now();
  const ast = parseKeywordQuery(req.query);
  const positiveKeys = new Set(positiveTerms(ast).map(termKey));
  const terms = new Map<string, Term>();
  const collect = (n: KeywordNode) => {
    if (n.kind === "term") {
      if (!terms.has(termKey(n))) terms.set(termKey(n), compileTerm(n, positiveKeys.has(termKey(n))));
    } else if (n.kind === "not") collect(n.item);
    else n.items.forEach(collect);
  };
  collect(ast);
  const termList = [...terms.values()];

  const languages = new Set(req.languages);
  const keep = (r: ContentFileRow) => req.paths.matches(r.path) && (languages.size === 0 || languages.has(r.language!));
  const rows = (await view.rows(await view.candidates(candidateQuery(ast, terms)), languages.size > 0)).filter(keep);
  rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  const n = Math.max(1, await view.fileCount());
  const positive = termList.filter((t) => t.positive);
  const counts = await view.candidateCounts(positive.map((t) => t.query));
  positive.forEach((t, i) => {
    const df = Math.min(n, Math.max(1, counts[i]!));
    t.idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
  });

  const records: LineRecord[] = [];
  let filesMatched = 0;
  let searched = 0;
  let partial = false;
  let batch: Array<string | undefined> = [];
  let batchStart = 0;
  for (let f = 0; f < rows.length; f++) {
    if (f === batchStart + batch.length) {
      if (Date.now() >= req.deadline || req.signal?.aborted) {
        partial = true;
        break;
      }
      // stored texts are read 64 files per statement
      batchStart = f;
      batch = await view.texts(
        rows.slice(f, f + 64).map((r) => r.fileId),
        "string",
      );
    }
    const text = batch[f - batchStart];
    searched++;
    if (text === undefined) continue;
    // Terms are searched only as the boolean evaluation asks for them (a AND b stops when a is absent).
    const found = new Map<string, Array<[number, number]>>();
    const occurrencesOf = (t: Term) => {
      let o = found.get(t.key);
      if (!o) found.set(t.key, (o = occurrences(t, text, !t.positive)));
      return o;
    };
    if (!holds(ast, (k) => occurrencesOf(terms.get(k)!).length > 0)) continue;
    const occ: Array<[number, number, number]> = [];
    termList.forEach((t, i) => {
      if (t.positive) for (const [s, l] of occurrencesOf(t)) occ.push([s, l, i]);
    });
    if (occ.length === 0) continue;
    filesMatched++;
    occ.sort((a, b) => a[0] - b[0]);
    let lineNo = 1;
    let pos = 0; // start of line lineNo
    let current: LineRecord | undefined;
    for (const o of occ) {
      if (current && o[0] < current.end) {
        current.occ.push(o);
        continue;
      }
      for (;;) {
        const nl = text.indexOf("\n", pos);
        if (nl < 0 || nl >= o[0]) break;
        lineNo++;
        pos = nl + 1;
      }
      let end = text.indexOf("\n", o[0]);
      if (end < 0) end = text.length;
      current = { file: f, line: lineNo, start: pos, end, occ: [o], tokens: Math.max(1, countTokens(text.slice(pos, end))), score: 0 };
      records.push(current);
    }
  }

  let totalTokens = 0;
  for (const r of records) totalTokens += r.tokens;
  const avg = records.length > 0 ? totalTokens / records.length : 1;
  for (const r of records) {
    const tf = new Map<number, number>();
    for (const o of r.occ) tf.set(o[2], (tf.get(o[2]) ?? 0) + 1);
    let score = 0;
    for (const [i, f] of tf) score += termList[i]!.idf * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * r.tokens) / avg)));
    r.score = score;
  }
  records.sort(
    (a, b) => b.score - a.score || (rows[a.file]!.path < rows[b.file]!.path ? -1 : rows[a.file]!.path > rows[b.file]!.path ? 1 : 0) || a.line - b.line,
  );

  // Only the returned lines are cut out (with their context), from the stored texts read once more, in one batch.
  const shown = records.slice(0, req.limit);
  const ids = [...new Set(shown.map((r) => rows[r.file]!.fileId))];
  const stored = await view.texts(ids, "string");
  const texts = new Map(ids.map((id, i) => [id, stored[i] ?? ""]));
  const results = shown.map((r) => hitOf(view, texts.get(rows[r.file]!.fileId)!, rows[r.file]!, r, termList, req.contextLines));
  return {
    query: describeKeywordQuery(ast),
    results,
    total_lines: records.length,
    files_matched: filesMatched,
    truncated: records.length > results.length,
    partial,
    stats: { candidate_files: rows.length, searched_files: searched, took_ms: Math.round((performance.now() - started) * 100) / 100 },
  };
}

const stripCr = (s: string) => (s.endsWith("\r") ? s.slice(0, -1) : s);

function hitOf(view: ExactIndexView, text: string, row: ContentFileRow, r: LineRecord, terms: Term[], contextLines: number): KeywordHit {
  const line = stripCr(text.slice(r.start, r.end));
  const before: string[] = [];
  let p = r.start;
  while (before.length < contextLines && p > 0) {
    const s = p >= 2 ? text.lastIndexOf("\n", p - 2) + 1 : 0;
    before.unshift(stripCr(text.slice(s, p - 1)).slice(0, MAX_LINE_CHARS));
    p = s;
  }
  const after: string[] = [];
  let q = r.end;
  while (after.length < contextLines && q < text.length - 1) {
    let e = text.indexOf("\n", q + 1);
    if (e < 0) e = text.length;
    after.push(stripCr(text.slice(q + 1, e)).slice(0, MAX_LINE_CHARS));
    q = e;
  }
  const highlights = r.occ.map(([s, l, i]) => ({ column: s - r.start + 1, length: Math.min(l, r.end - s), term: terms[i]!.label }));
  // a long line is shown around its first highlight, as grep shows it
  const first = highlights.length > 0 ? Math.min(...highlights.map((h) => h.column - 1)) : 0;
  const window = line.length > MAX_LINE_CHARS ? lineWindow(line, first) : undefined;
  const windowStart = window?.start ?? 0;
  const hit: KeywordHit = {
    file_path: row.path,
    line_number: r.line,
    line: window?.text ?? line,
    before,
    after,
    highlights,
    score: Math.round(r.score * 1000) / 1000,
  };
  if (windowStart > 0) hit.line_start_column = windowStart + 1;
  if (view.diskState(row) !== "same") hit.stale = true;
  return hit;
}

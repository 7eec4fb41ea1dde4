/**
 * What a search query asks for: its keyword terms (identifier words, stop words dropped), the symbol
 * names it mentions (CamelCase, snake_case, dotted, call-like), file paths it names, and whether it is
 * about tests. The ranker boosts on these signals.
 */
import { identifierParts, wordsOf } from "../../core/words.ts";

/** Words too common in questions and issue text to carry meaning for code search. */
export const STOP = new Set(
  (
    "a about above after again against all also am an and any are as at be because been before being below between both but by can " +
    "could did do does doing done down during each else etc few for from further get gets got had has have having he her here hers him his how " +
    "i if in into is it its itself just let like may me might more most must my no nor not now of off on once only or other our ours out " +
    "over own same she should so some such than that the their them then there these they this those through to too under until up upon " +
    "us very was we were what when where which while who whom why will with would you your yours e g ie eg vs via use used using want " +
    "wants way ways work works working one two new see also able make makes made need needs find found thing things seem seems try tried " +
    "please thanks hi hello issue problem bug error expected actual behavior behaviour reproduce steps version example code case cases following " +
    "currently instead however still already always never something anything everything"
  ).split(" "),
);

export interface AnalyzedQuery {
  raw: string;
  /** Keyword terms for BM25, de-duplicated, in order of first appearance. */
  terms: string[];
  /** Identifiers as written that look like code symbols (`UserService`, `get_user`, `Model.save`). */
  symbols: string[];
  /** File paths or file names the query mentions (`src/auth/login.py`, `views.py`). */
  paths: string[];
  /** The query is (mostly) one symbol name: definitions should come first. */
  isSymbolQuery: boolean;
  /** The query is about tests: do not demote test files. */
  aboutTests: boolean;
  /**
   * Weighted terms for file ranking: every occurrence counts (an issue repeating a word means it), words the
   * query writes as code count double, stop words are out. Capped to the heaviest MAX_WEIGHTED terms.
   */
  weights: Map<string, number>;
  /** Identifiers as written in code-like form (backticks, CamelCase, snake_case, dotted, calls). */
  identifiers: string[];
  /** Project paths a dotted module name could be (`django.db.models.query` → django/db/models/query.py …). */
  modulePaths: string[];
  /**
   * The words of the place a commit-subject question names in its header: a conventional-commit scope
   * (`fix(parser): …` → parser; `feat(middleware/cache): …` → middleware, cache), lower case. Empty otherwise.
   */
  scope: string[];
}

const MAX_WEIGHTED = 120;
const BACKTICK = /`([^`\n]{1,200})`/g;
const DOTTED = /\b[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+\b/g;
const CALL = /\b([A-Za-z_][A-Za-z0-9_]*)\(/g;
const CAMEL = /\b[A-Za-z][a-z0-9]*[A-Z][A-Za-z0-9]*\b/g;
const SNAKE = /\b[A-Za-z0-9]+_[A-Za-z0-9_]+\b/g;
const WORDLIKE = /[A-Za-z_][A-Za-z0-9_]*/g;

function codeIdentifiers(raw: string): string[] {
  const ids = new Set<string>();
  const add = (s: string) => {
    for (const m of s.matchAll(WORDLIKE)) if (m[0].length >= 3 && !STOP.has(m[0].toLowerCase())) ids.add(m[0]);
  };
  for (const m of raw.matchAll(BACKTICK)) add(m[1]!);
  for (const re of [CAMEL, SNAKE, DOTTED]) for (const m of raw.matchAll(re)) add(m[0]);
  for (const m of raw.matchAll(CALL)) if (m[1]!.length >= 3 && !STOP.has(m[1]!.toLowerCase())) ids.add(m[1]!);
  return [...ids];
}

function modulePathsOf(raw: string): string[] {
  const out = new Set<string>();
  for (const m of raw.matchAll(DOTTED)) {
    const parts = m[0].split(".");
    const last = parts[parts.length - 1]!;
    if (/^(py|go|ts|js|rs|java|kt|cs|rb|php|c|h|cpp|md)$/.test(last)) continue;
    for (let n = parts.length; n >= 2; n--) {
      const p = parts.slice(0, n).join("/");
      for (const ext of [".py", "/__init__.py", ".rb", ".go", ".ts", ".js", ".rs", ".java", ".kt", ".php"]) out.add(p + ext);
    }
  }
  return [...out];
}

function weightedTerms(raw: string, identifiers: string[]): Map<string, number> {
  const codeWords = new Set<string>();
  for (const id of identifiers) for (const w of wordsOf(id)) codeWords.add(w);
  const weights = new Map<string, number>();
  for (const w of wordsOf(raw)) {
    if (STOP.has(w) || /^\d+$/.test(w)) continue;
    weights.set(w, (weights.get(w) ?? 0) + (codeWords.has(w) ? 2 : 1));
  }
  if (weights.size <= MAX_WEIGHTED) return weights;
  return new Map([...weights.entries()].sort((a, b) => b[1] - a[1] || b[0].length - a[0].length).slice(0, MAX_WEIGHTED));
}

const PATH = /(?:[A-Za-z0-9_.-]+\/)+[A-Za-z0-9_.-]+\.[A-Za-z0-9]{1,6}\b|\b[A-Za-z0-9_-]+\.(?:py|go|ts|tsx|js|jsx|rs|java|kt|cs|cpp|cc|c|h|hpp|php|rb|md)\b/g;
const IDENT = /[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/g;

function looksLikeSymbol(id: string): boolean {
  if (id.includes(".")) return id.split(".").every((s) => s.length > 0) && id.split(".").length <= 6 && /[A-Z_]|\.[a-z]/.test(id);
  if (id.includes("_") && id.replace(/_/g, "").length > 1) return true;
  return /[a-z][A-Z]|^[A-Z][a-z0-9]+[A-Z]/.test(id); // camelCase / PascalCase with an inner capital
}

/**
 * A conventional-commit header (`fix(parser): …`, `feat!: …`, `docs: …`) at the start of a question: a
 * task written as a commit subject. The type says what kind of change (a fix, a feature, documentation),
 * never where, and read as code it misled: `fix(parser)` looks like a call, so "fix" weighed as an
 * identifier and stemmed onto every "fixed" (clap's `range.rs` came first for 13 of 60 such subjects,
 * none its own), and "docs" matched files named for documentation. The scope often names the place, so
 * it stays, as plain words. Dev commit subjects: clap Acc@1 26.7 -> 38.3, all 960 42.9 -> 43.6
 * (docs/benchmarks.md, "Two dev repositories per language").
 */
export const COMMIT_TYPE_HEADER = /^\s*(?:feat|fix|docs?|chore|refactor|perf|style|tests?|build|ci|revert)(?:\(([^)]*)\))?!?:\s*/i;

/** The lower-case words (identifier parts too) of a header's place, two letters or more. */
function placeWords(place: string): string[] {
  const out = new Set<string>();
  for (const w of place.split(/[^A-Za-z0-9_]+/)) for (const p of [w.toLowerCase(), ...identifierParts(w)]) if (p.length >= 2 && !/^\d+$/.test(p)) out.add(p);
  return [...out];
}

/** The question without a conventional-commit type (its scope kept): see COMMIT_TYPE_HEADER. */
export function withoutCommitType(question: string): string {
  return question.replace(COMMIT_TYPE_HEADER, (_, scope: string | undefined) => (scope ? `${scope}: ` : ""));
}

/**
 * A line of a pasted environment report (`xr.show_versions()`, sklearn's `show_versions()`, scooby's
 * `Report()`, a "Versions:" list): `key: value` with a key of at most three words and a value that is a
 * version, None / True / False, a path, `K=V` flags, one token, or nothing (a section header: `BLAS:`).
 */
const REPORT_KEY_VALUE = /^\s*([A-Za-z][\w.+\- ]{0,30}?)\s*:\s*(.*?)\s*$/;
const REPORT_VERSION = /^(?:v?\d[\w.+-]*(?:\s.*)?|None)$/;
const REPORT_VALUE = /^(?:True|False|unknown|(?:not )?installed|\/\S*|[A-Za-z]:\\\S*|\S{1,40}|[\w.+-]+=[^\s,]*(?:,\s*[\w.+-]+=[^\s,]*)*)$/i;
/** A report's rulers and heading. */
const REPORT_RULE = /^\s*(?:[-=]{3,}|INSTALLED VERSIONS)\s*$/i;

/** What a line is to a report: a version line, another value line, a header (no value, a ruler), or none of these. */
function reportLine(line: string): "version" | "value" | "header" | undefined {
  if (REPORT_RULE.test(line)) return "header";
  const m = REPORT_KEY_VALUE.exec(line);
  if (!m || m[1]!.trim().split(/\s+/).length > 3) return undefined;
  const value = m[2]!;
  if (value === "") return "header";
  if (REPORT_VERSION.test(value)) return "version";
  return REPORT_VALUE.test(value) ? "value" : undefined;
}

/** Markup around a pasted block: a code fence, a details / summary tag, an HTML comment's ends. */
const REPORT_MARKUP = /^\s*(?:```[\w-]*|<\/?details>|<\/?summary>|<!--|-->)\s*$/i;
/** A short heading that introduces a report: "#### Versions", "Output of `xr.show_versions()`", "### Environment", "System Information". */
const REPORT_HEADING = /\b(?:versions?|environment|show_versions|system info(?:rmation)?)\b/i;

/** A line just above a report that belongs to it: blank, markup, or a short heading that names versions or the environment. */
function leadsReport(line: string): boolean {
  if (line.trim() === "" || REPORT_MARKUP.test(line)) return true;
  const bare = line.replace(/<!--|-->|<[^>]*>|`+|^\s*#+/g, " ").trim();
  return bare.length <= 60 && REPORT_HEADING.test(bare);
}

/** A report has at least this many value lines, this many of them versions: a few such lines belong to the question. */
const REPORT_MIN_LINES = 6;
const REPORT_MIN_VERSIONS = 3;

/**
 * `text` without the environment reports pasted into it: runs of `key: value` lines (blank lines, headers
 * and one stray line between them allowed) with at least REPORT_MIN_LINES values, REPORT_MIN_VERSIONS of
 * them versions, with the few lines above that introduce them (leadsReport). Issue templates ask for the
 * versions of the platform and the dependencies; the block describes the reporter's machine, not the code
 * to change, and its words (python, numpy, machine, processor, byteorder, lib_dirs…) are the very ones the
 * project's own report code holds: xarray's print_versions.py led the whole-file ranking of 10 of the 21
 * xarray issues of SWE-bench Verified-tune, none of them about it; dropped, file Acc@1 there 50.9 → 52.1 and
 * function Acc@5 49.2 → 50.0 (docs/benchmarks.md, "Function-level answers: where pasted issues miss, and
 * pasted environment reports").
 */
export function withoutEnvironmentReport(text: string): string {
  const lines = text.split("\n");
  const drop = environmentReportMask(lines);
  return drop ? lines.filter((_, i) => !drop[i]).join("\n") : text;
}

/** How many of `text`'s lines are pasted environment reports the search does not read (withoutEnvironmentReport). */
export function environmentReportLines(text: string): number {
  const drop = environmentReportMask(text.split("\n"));
  return drop ? drop.filter(Boolean).length : 0;
}

/** Which of `lines` belong to an environment report (withoutEnvironmentReport); undefined when none does. */
function environmentReportMask(lines: readonly string[]): boolean[] | undefined {
  if (lines.length < REPORT_MIN_LINES) return undefined;
  const drop = new Array<boolean>(lines.length).fill(false);
  let start = -1;
  let end = -1;
  let values = 0;
  let versions = 0;
  let stray = false;
  const close = () => {
    if (start >= 0 && values >= REPORT_MIN_LINES && versions >= REPORT_MIN_VERSIONS) {
      // with its heading: the template's "Output of xr.show_versions()" names the report code itself
      let first = start;
      for (let seen = 0; first > 0 && seen < 4 && leadsReport(lines[first - 1]!); first--) if (lines[first - 1]!.trim() !== "") seen++;
      drop.fill(true, first, end + 1);
    }
    start = -1;
    values = 0;
    versions = 0;
    stray = false;
  };
  lines.forEach((line, i) => {
    const kind = reportLine(line);
    if (kind !== undefined) {
      if (start < 0) start = end = i;
      if (kind !== "header") {
        values++;
        if (kind === "version") versions++;
        end = i;
      } else if (values === 0) end = i;
      stray = false;
    } else if (start >= 0 && line.trim() === "") {
      // blank lines separate a report's sections
    } else if (start >= 0 && !stray) stray = true;
    else close();
  });
  close();
  return drop.includes(true) ? drop : undefined;
}

/**
 * `question` as written; what is read from it leaves a conventional-commit type out (COMMIT_TYPE_HEADER)
 * and pasted environment reports (withoutEnvironmentReport).
 */
export function analyzeQuery(question: string, maxTerms = 64): AnalyzedQuery {
  const raw = withoutEnvironmentReport(withoutCommitType(question));
  const paths = [...new Set([...raw.matchAll(PATH)].map((m) => m[0]))];
  const symbols: string[] = [];
  for (const m of raw.matchAll(IDENT)) {
    const id = m[0];
    if (looksLikeSymbol(id) && !paths.some((p) => p.includes(id))) symbols.push(id);
    // calls like `save(` name a symbol too
    else if (/^[A-Za-z_]\w*$/.test(id) && raw[m.index! + id.length] === "(" && !STOP.has(id.toLowerCase())) symbols.push(id);
  }
  const counts = new Map<string, number>();
  for (const w of wordsOf(raw)) {
    if (STOP.has(w) || w.length < 2 || /^\d+$/.test(w)) continue;
    counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  // the words of named symbols and paths always count, even when frequent in English
  for (const s of [...symbols, ...paths]) {
    const whole = s
      .split(/[./]/)
      .filter((x) => /^\w+$/.test(x))
      .map((x) => x.toLowerCase());
    for (const p of [...whole, ...identifierParts(s.replace(/[./-]/g, "_"))]) if (p.length >= 2) counts.set(p, (counts.get(p) ?? 0) + 1);
  }
  let terms = [...counts.keys()];
  if (terms.length > maxTerms) {
    // keep the rarest-looking words: long identifiers and repeated words first
    terms = [...counts.entries()]
      .sort((a, b) => b[1] * Math.min(b[0].length, 12) - a[1] * Math.min(a[0].length, 12))
      .slice(0, maxTerms)
      .map(([w]) => w);
  }
  const words = raw.trim().split(/\s+/);
  const identifiers = codeIdentifiers(raw);
  let weights = weightedTerms(raw, identifiers);
  if (terms.length === 0) {
    // every word is a stop word: a name written as code (`Use`, `New`, `get()`, a one-word query) is the
    // question, not filler; failing those, the words themselves, rather than an empty query
    const named = new Set<string>();
    for (const m of raw.matchAll(WORDLIKE)) {
      const id = m[0];
      if (words.length === 1 || /^[A-Z]/.test(id) || raw[m.index! + id.length] === "(") named.add(id);
    }
    for (const id of named) symbols.push(id);
    terms = [...new Set((named.size > 0 ? [...named].map((w) => w.toLowerCase()) : wordsOf(raw)).filter((w) => w.length >= 2 && !/^\d+$/.test(w)))];
    weights = new Map(terms.map((t) => [t, named.size > 0 ? 2 : 1]));
  }
  const isSymbolQuery = symbols.length > 0 && words.length <= 3;
  // "how is the cors middleware tested" asks about tests; "so that it can be easily tested" (a docstring) does not
  const aboutTests =
    /\btests?\b|\btesting\b|\bspecs?\b|\bunit ?test|\bfixtures?\b|\bpytest\b|\bjest\b/i.test(raw) || /\b(how|where|which|what)\b.{0,80}\btested\b/i.test(raw);
  return {
    raw: question,
    terms,
    symbols: [...new Set(symbols)],
    paths,
    isSymbolQuery,
    aboutTests,
    weights,
    identifiers,
    modulePaths: modulePathsOf(raw),
    scope: placeWords(COMMIT_TYPE_HEADER.exec(question)?.[1] ?? ""),
  };
}

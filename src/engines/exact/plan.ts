/**
 * Plans a search: which files can match (a boolean query over trigrams, evaluated on the trigram index)
 * and which literal strings every matching line must contain (a cheap line prefilter before the regex).
 *
 * The trigram analysis is the method of Google Code Search (Russ Cox, "Regular Expression Matching with a
 * Trigram Index", 2012): for each node of the regex it computes whether the node can match the empty
 * string, its exact set of matched strings (when small), sets of prefixes and suffixes every match starts
 * and ends with, and a trigram query every match satisfies. Each rule only states facts that hold for
 * every string the node matches, and every simplification only weakens them, so the final query never
 * rejects a file that holds a match (test/engines/exact-plan.test.ts checks this on random patterns).
 */
import type { RegexNode } from "./regex-parse.ts";
import { trigramsOf, trigramText } from "../../store/trigrams.ts";
import type { TrigramQuery } from "../../store/contract.ts";

export type { TrigramQuery };

export interface SearchPlan {
  /** Files that may match: those satisfying this query (`all` means every file). */
  query: TrigramQuery;
  /**
   * Every matching line contains one of these strings (folded to lower case for case-insensitive
   * searches), or null when no useful set exists.
   */
  factors: string[] | null;
}

const ALL: TrigramQuery = { op: "all" };
/** Exact sets larger than this become trigram queries. */
const MAX_EXACT = 16;
/** Prefix and suffix sets larger than this are shortened. */
const MAX_SET = 16;
/** Queries with more nodes than this are weakened (an OR becomes `all`). */
const MAX_QUERY_NODES = 400;
/** Line prefilters need strings at least this long to pay off. */
const MIN_FACTOR = 2;

function keyOf(q: TrigramQuery): string {
  switch (q.op) {
    case "all":
      return "*";
    case "tri":
      return String(q.t);
    default:
      return `${q.op}(${q.args.map(keyOf).sort().join(",")})`;
  }
}

function dedupe(args: TrigramQuery[]): TrigramQuery[] {
  const seen = new Map<string, TrigramQuery>();
  for (const a of args) seen.set(keyOf(a), a);
  return [...seen.values()];
}

export function and(...qs: TrigramQuery[]): TrigramQuery {
  const args: TrigramQuery[] = [];
  for (const q of qs) {
    if (q.op === "all") continue;
    if (q.op === "and") args.push(...q.args);
    else args.push(q);
  }
  const d = dedupe(args);
  if (d.length === 0) return ALL;
  return d.length === 1 ? d[0]! : { op: "and", args: d };
}

export function or(...qs: TrigramQuery[]): TrigramQuery {
  const args: TrigramQuery[] = [];
  for (const q of qs) {
    if (q.op === "all") return ALL;
    if (q.op === "or") args.push(...q.args);
    else args.push(q);
  }
  const d = dedupe(args);
  if (d.length === 0) return ALL;
  return d.length === 1 ? d[0]! : { op: "or", args: d };
}

function size(q: TrigramQuery): number {
  return q.op === "and" || q.op === "or" ? 1 + q.args.reduce((n, a) => n + size(a), 0) : 1;
}

/** Weakens a query that grew too large: drops ORs (each becomes `all`) until it fits. */
function cap(q: TrigramQuery): TrigramQuery {
  if (size(q) <= MAX_QUERY_NODES) return q;
  if (q.op === "or") return ALL;
  if (q.op === "and") {
    const kept: TrigramQuery[] = [];
    let n = 1;
    for (const a of [...q.args].sort((x, y) => size(x) - size(y))) {
      const c = cap(a);
      if (n + size(c) > MAX_QUERY_NODES) continue;
      kept.push(c);
      n += size(c);
    }
    return and(...kept);
  }
  return q;
}

/** Every string of the set contains all its trigrams: OR over strings of AND over trigrams. */
function stringsQuery(set: Iterable<string>): TrigramQuery {
  const alternatives: TrigramQuery[] = [];
  for (const s of set) {
    const t = trigramsOf(s);
    if (t.length === 0) return ALL; // a string too short to constrain anything
    alternatives.push(and(...t.map((x): TrigramQuery => ({ op: "tri", t: x }))));
  }
  return or(...alternatives);
}

interface Info {
  emptyable: boolean;
  /** Every match is one of these strings (null: unknown or too many). */
  exact: Set<string> | null;
  /** Every match starts with one of these. */
  prefix: Set<string>;
  /** Every match ends with one of these. */
  suffix: Set<string>;
  /** Every match satisfies this. */
  match: TrigramQuery;
  /** Every match contains one of these (null: no such set). */
  factors: Set<string> | null;
}

const EMPTY_SET = () => new Set([""]);

function emptyInfo(): Info {
  return { emptyable: true, exact: EMPTY_SET(), prefix: EMPTY_SET(), suffix: EMPTY_SET(), match: ALL, factors: null };
}

function anyInfo(emptyable: boolean): Info {
  return { emptyable, exact: null, prefix: EMPTY_SET(), suffix: EMPTY_SET(), match: ALL, factors: null };
}

function cross(a: Set<string>, b: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const x of a) for (const y of b) out.add(x + y);
  return out;
}

const codePoints = (s: string) => Array.from(s);

/** The match constraint of a node including what its exact set implies. */
function fullMatch(x: Info): TrigramQuery {
  return x.exact ? and(x.match, stringsQuery(x.exact)) : x.match;
}

function factorScore(f: Set<string> | null): number {
  if (!f || f.size === 0) return -1;
  let min = Infinity;
  // UTF-16 length, not code points: counting code points copied every string at every step of a
  // concatenation, so a 16,000-character literal took 2.5 s to plan; the lengths differ only for
  // characters outside the BMP, and MIN_FACTOR is still checked in code points (planRegex)
  for (const s of f) min = Math.min(min, s.length);
  return min * 100 - f.size;
}

function bestFactors(...sets: Array<Set<string> | null>): Set<string> | null {
  let best: Set<string> | null = null;
  for (const s of sets) if (s && s.size <= MAX_SET && factorScore(s) > factorScore(best)) best = s;
  return best;
}

/** Keeps sets small. Each step only weakens what the info claims. */
function simplify(x: Info): Info {
  if (x.exact && x.exact.size > MAX_EXACT) {
    x.match = and(x.match, stringsQuery(x.exact));
    x.prefix = x.exact;
    x.suffix = x.exact;
    x.exact = null;
  }
  if (!x.exact) {
    x.prefix = shorten(x, x.prefix, (cps, n) => cps.slice(0, n));
    x.suffix = shorten(x, x.suffix, (cps, n) => cps.slice(cps.length - n));
  }
  if (x.factors && x.factors.size > MAX_SET) x.factors = null;
  x.match = cap(x.match);
  return x;
}

/** Shortens the strings of a prefix or suffix set until it is small, first recording their trigrams in the match. */
function shorten(x: Info, set: Set<string>, cut: (cps: string[], n: number) => string[]): Set<string> {
  if (set.size <= MAX_SET) return set;
  x.match = and(x.match, stringsQuery(set));
  for (let n = 2; n >= 0; n--) {
    const out = new Set<string>();
    for (const s of set) {
      const cps = codePoints(s);
      out.add(cps.length <= n ? s : cut(cps, n).join(""));
    }
    if (out.size <= MAX_SET) return out;
  }
  return EMPTY_SET();
}

function concat(x: Info, y: Info): Info {
  if (x.exact && y.exact && x.exact.size * y.exact.size <= MAX_EXACT) {
    const exact = cross(x.exact, y.exact);
    return simplify({
      emptyable: x.emptyable && y.emptyable,
      exact,
      prefix: exact,
      suffix: exact,
      match: and(x.match, y.match),
      factors: bestFactors(exact, x.factors, y.factors),
    });
  }
  const prefix = x.exact ? cross(x.exact, y.prefix) : x.emptyable ? new Set([...x.prefix, ...y.prefix]) : x.prefix;
  const suffix = y.exact ? cross(x.suffix, y.exact) : y.emptyable ? new Set([...x.suffix, ...y.suffix]) : y.suffix;
  // A match joins some suffix of x to some prefix of y: that joint string is in the text.
  const joint = x.suffix.size * y.prefix.size <= MAX_SET * MAX_SET ? cross(x.suffix, y.prefix) : null;
  return simplify({
    emptyable: x.emptyable && y.emptyable,
    exact: null,
    prefix,
    suffix,
    match: and(fullMatch(x), fullMatch(y), joint ? stringsQuery(joint) : ALL),
    factors: bestFactors(x.factors, y.factors, joint),
  });
}

function alternate(x: Info, y: Info): Info {
  const factors = x.factors && y.factors ? new Set([...x.factors, ...y.factors]) : null;
  if (x.exact && y.exact) {
    return simplify({
      emptyable: x.emptyable || y.emptyable,
      exact: new Set([...x.exact, ...y.exact]),
      prefix: new Set([...x.exact, ...y.exact]),
      suffix: new Set([...x.exact, ...y.exact]),
      match: or(x.match, y.match),
      factors,
    });
  }
  return simplify({
    emptyable: x.emptyable || y.emptyable,
    exact: null,
    prefix: new Set([...x.prefix, ...y.prefix]),
    suffix: new Set([...x.suffix, ...y.suffix]),
    match: or(fullMatch(x), fullMatch(y)),
    factors,
  });
}

/** One or more repetitions: every match starts like x, ends like x and contains a match of x. */
function plus(x: Info): Info {
  return simplify({
    emptyable: x.emptyable,
    exact: null,
    prefix: x.exact ?? x.prefix,
    suffix: x.exact ?? x.suffix,
    match: fullMatch(x),
    factors: x.exact ? bestFactors(x.exact, x.factors) : x.factors,
  });
}

/** The character as the index and the prefilter see it, or null when case folding makes it unknowable. */
function foldChar(c: string, caseInsensitive: boolean): string | null {
  if (!caseInsensitive) return c;
  if (c.codePointAt(0)! < 0x80) return c.toLowerCase();
  return c.toLowerCase() === c && c.toUpperCase() === c ? c : null;
}

function analyze(n: RegexNode, ci: boolean): Info {
  switch (n.type) {
    case "char": {
      if (!n.chars) return anyInfo(false);
      const folded = new Set<string>();
      for (const c of n.chars) {
        const f = foldChar(c, ci);
        if (f === null) return anyInfo(false);
        folded.add(f);
      }
      return { emptyable: false, exact: folded, prefix: folded, suffix: folded, match: ALL, factors: folded };
    }
    case "assert":
      return emptyInfo();
    case "unknown":
      return anyInfo(true);
    case "concat": {
      let info = emptyInfo();
      for (const item of n.items) info = concat(info, analyze(item, ci));
      return info;
    }
    case "alt": {
      let info = analyze(n.items[0]!, ci);
      for (const item of n.items.slice(1)) info = alternate(info, analyze(item, ci));
      return info;
    }
    case "repeat": {
      const { min, max } = n;
      if (max === 0) return emptyInfo();
      const x = analyze(n.item, ci);
      if (min === 0) return max === 1 ? alternate(x, emptyInfo()) : anyInfo(true);
      if (min === 1 && max === Infinity) return plus(x);
      // the first copies are certain (three are enough for trigrams); whatever follows is unknown text
      let info = x;
      for (let k = 1; k < Math.min(min, 3); k++) info = concat(info, x);
      return min > 3 || max > min ? concat(info, anyInfo(true)) : info;
    }
  }
}

/** Plans a parsed regular expression. */
export function planRegex(root: RegexNode, caseInsensitive: boolean): SearchPlan {
  const info = analyze(root, caseInsensitive);
  let query = fullMatch(info);
  if (!info.exact) query = and(query, stringsQuery(info.prefix), stringsQuery(info.suffix));
  const factors = info.factors && factorScore(info.factors) >= MIN_FACTOR * 100 - MAX_SET ? [...info.factors] : null;
  return { query: cap(query), factors: factors?.every((f) => codePoints(f).length >= MIN_FACTOR) ? factors : null };
}

/** Plans a literal string search. */
export function planLiteral(text: string, caseInsensitive: boolean): SearchPlan {
  const items: RegexNode[] = codePoints(text).map((c) => ({ type: "char", chars: [c] }));
  return planRegex({ type: "concat", items }, caseInsensitive);
}

/** A readable form of a query, for plans shown to people (`"abc" AND ("def" OR "ghi")`). */
export function describeQuery(q: TrigramQuery): string {
  switch (q.op) {
    case "all":
      return "ALL";
    case "tri":
      return `"${trigramText(q.t).replace(/"/g, '\\"')}"`;
    case "and":
      return q.args.map((a) => (a.op === "or" ? `(${describeQuery(a)})` : describeQuery(a))).join(" AND ");
    case "or":
      return q.args.map((a) => (a.op === "and" ? `(${describeQuery(a)})` : describeQuery(a))).join(" OR ");
  }
}

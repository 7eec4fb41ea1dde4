/**
 * A trigram query (store/contract.ts) as a SQL condition on a file's text that pg_trgm's GIN index
 * answers: each trigram of ASCII letters and digits is `content ILIKE '%tri%'`.
 *
 * PostgreSQL rechecks every such condition against the text of each file the index admits, and each
 * check decompresses the text anew: on six repositories the regex `func \(\w+ \*?Context\)` planned to
 * about fifty conditions (the regex planner repeats a branch's trigrams in every alternative), 1 s of
 * rechecks for 20 files. So the query is first rewritten to an equal one with fewer conditions: nested
 * ANDs flattened, repeats dropped, the trigrams every alternative of an OR requires lifted out of it, and
 * an OR dropped when one of its alternatives is already required beside it.
 */
import type { TrigramQuery } from "../contract.ts";
import { trigramText } from "../trigrams.ts";
import type { PgValue } from "./client.ts";

/** A condition's placeholder for a bound value. */
type Bind = (v: PgValue) => string;

/** `LIKE` text matching `s` literally (backslash is PostgreSQL's default LIKE escape). */
const likeLiteral = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Does pg_trgm's index narrow `ILIKE '%tri%'` for this trigram? pg_trgm indexes the words of a text (runs
 * of letters and digits, padded: a word starts with two spaces and ends with one), so a trigram counts
 * when it holds three letters or digits, or two of them at a word's start (" co") or end ("nc "). Any
 * other (`c (`, `_id`) is found only by rechecking each file's text, which costs more than the engine's
 * own verification of the few more files it lets through. A trigram with a non-ASCII byte may be part of
 * one character, which LIKE cannot express at all. (pg_trgm and ILIKE fold ASCII case as cortex's index
 * does.)
 */
const indexedTrigram = (t: number): boolean =>
  /^(?:[a-zA-Z0-9]{3}|[^a-zA-Z0-9\x80-\xff][a-zA-Z0-9]{2}|[a-zA-Z0-9]{2}[^a-zA-Z0-9\x80-\xff])$/.test(trigramText(t));

/** The query with every trigram the index cannot narrow by taken as true: it admits a superset. */
function indexable(q: TrigramQuery): TrigramQuery {
  switch (q.op) {
    case "all":
      return q;
    case "tri":
      return indexedTrigram(q.t) ? q : { op: "all" };
    case "and":
    case "or":
      return { op: q.op, args: q.args.map(indexable) };
  }
}

/** A canonical text of a query, for spotting repeats. */
function key(q: TrigramQuery): string {
  switch (q.op) {
    case "all":
      return "*";
    case "tri":
      return String(q.t);
    case "and":
    case "or":
      return `${q.op}(${q.args.map(key).join(",")})`;
  }
}

/** The conjuncts of `q` (itself when it is no AND). */
const conjuncts = (q: TrigramQuery): TrigramQuery[] => (q.op === "and" ? q.args : q.op === "all" ? [] : [q]);

function and(args: TrigramQuery[]): TrigramQuery {
  const seen = new Map<string, TrigramQuery>();
  for (const a of args.flatMap(conjuncts)) seen.set(key(a), a);
  const out = [...seen.values()];
  if (out.length === 0) return { op: "all" };
  return out.length === 1 ? out[0]! : { op: "and", args: out };
}

/** An equal query with fewer trigram conditions (see the module comment). */
export function simplifyTrigramQuery(q: TrigramQuery): TrigramQuery {
  switch (q.op) {
    case "all":
    case "tri":
      return q;
    case "or": {
      const alts: TrigramQuery[] = [];
      const seen = new Set<string>();
      for (const a of q.args.map(simplifyTrigramQuery).flatMap((a) => (a.op === "or" ? a.args : [a]))) {
        if (a.op === "all") return a;
        if (!seen.has(key(a))) {
          seen.add(key(a));
          alts.push(a);
        }
      }
      if (alts.length <= 1) return alts[0] ?? q;
      // conjuncts every alternative requires hold for the OR as a whole
      const shared = conjuncts(alts[0]!).filter((c) => alts.every((a) => conjuncts(a).some((d) => key(d) === key(c))));
      if (shared.length === 0) return { op: "or", args: alts };
      const sharedKeys = new Set(shared.map(key));
      const rest = alts.map((a) => and(conjuncts(a).filter((c) => !sharedKeys.has(key(c)))));
      // an alternative left with nothing more to require makes the rest of the OR always true
      return and(rest.some((r) => r.op === "all") ? shared : [...shared, simplifyTrigramQuery({ op: "or", args: rest })]);
    }
    case "and": {
      const parts = and(q.args.map(simplifyTrigramQuery));
      if (parts.op !== "and") return parts;
      const required = new Set(parts.args.filter((a) => a.op !== "or").map(key));
      // an OR one of whose alternatives is required beside it adds nothing
      const kept = parts.args.filter((a) => a.op !== "or" || !a.args.some((alt) => conjuncts(alt).every((c) => required.has(key(c)))));
      return and(kept);
    }
  }
}

function condition(q: TrigramQuery, column: string, bind: Bind): string {
  switch (q.op) {
    case "all":
      return "TRUE";
    case "tri":
      return `${column} ILIKE ${bind(`%${likeLiteral(trigramText(q.t))}%`)}`;
    case "and":
      return q.args.length === 0 ? "TRUE" : `(${q.args.map((a) => condition(a, column, bind)).join(" AND ")})`;
    case "or":
      return q.args.length === 0 ? "FALSE" : `(${q.args.map((a) => condition(a, column, bind)).join(" OR ")})`;
  }
}

/**
 * The query as a condition on `column` (the text), its patterns bound through `bind`: its indexed
 * trigrams only, simplified. It admits every file the query admits, and maybe a few more.
 */
export function trigramCondition(q: TrigramQuery, column: string, bind: Bind): string {
  return condition(simplifyTrigramQuery(indexable(q)), column, bind);
}

/**
 * A literal search as one condition: `content LIKE '%text%'` (ILIKE when case does not matter). pg_trgm's
 * index narrows it by the literal's own trigrams and PostgreSQL rechecks one pattern per file, where the
 * trigram query's conditions cost a recheck each (a selective literal over twenty repositories: nine
 * conditions 310 ms, one 55-65 ms). Undefined when it would not narrow (no run of three ASCII letters or
 * digits for the index to use) or could miss a match (ILIKE folds ASCII case only: a case-insensitive
 * literal with other letters).
 */
export function likeCondition(literal: { text: string; caseSensitive: boolean }, column: string, bind: Bind): string | undefined {
  if (!/[a-zA-Z0-9]{3}/.test(literal.text)) return undefined;
  if (!literal.caseSensitive && [...literal.text].some((c) => c.charCodeAt(0) > 0x7f)) return undefined;
  return `${column} ${literal.caseSensitive ? "LIKE" : "ILIKE"} ${bind(`%${likeLiteral(literal.text)}%`)}`;
}

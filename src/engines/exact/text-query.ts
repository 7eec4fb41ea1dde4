/**
 * Turns a search_text_pattern query (a literal or a JavaScript regular expression, with its case mode)
 * into a PatternSpec: plain data that crosses to verification workers, plus the plan that picks the
 * candidate files. The JavaScript engine is the judge of validity; its message is the error the user sees.
 */
import { CortexError } from "../../core/errors.ts";
import { escapeRegex, parseRegex } from "./regex-parse.ts";
import { planLiteral, planRegex, type SearchPlan } from "./plan.ts";

export interface PatternSpec {
  /** Regular expression source (the escaped query for literal searches). */
  source: string;
  /** "i" for case-insensitive searches, plus "u" when the pattern is valid in unicode mode. */
  flags: string;
  /** Every matching line contains one of these (lower-cased when case-insensitive), or null. */
  factors: string[] | null;
  /** False when the pattern has lookarounds: those see across line ends, so each line is matched alone. */
  wholeText: boolean;
  /** The query of a literal search (its matches are found with indexOf when case matters). */
  literal?: string;
}

export interface CompiledPattern {
  spec: PatternSpec;
  plan: SearchPlan;
}

/**
 * How deep a regular expression may nest its groups. The engine compiles deeper ones and then runs out of
 * stack on some threads and not others (a search worker's stack is smaller): a pattern nested 15,000 deep
 * found "no matches" or matched depending on where it ran. ripgrep's regex crate stops at 250 too.
 */
const MAX_GROUP_DEPTH = 250;

/** The deepest nesting of groups in a pattern: `(` outside character classes, escapes skipped. */
function groupDepth(pattern: string): number {
  let depth = 0;
  let deepest = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") deepest = Math.max(deepest, ++depth);
    else if (c === ")") depth = Math.max(0, depth - 1);
  }
  return deepest;
}

/** Compiles a query; throws INVALID_INPUT with the regex engine's message when the pattern is invalid. */
export function compilePattern(query: string, isRegex: boolean, caseSensitive: boolean): CompiledPattern {
  if (query.length === 0) throw new CortexError("INVALID_INPUT", "query: must not be empty");
  const ci = caseSensitive ? "" : "i";
  if (!isRegex) {
    if (/[\n\r]/.test(query)) throw new CortexError("INVALID_INPUT", "query: a search matches within one line, and the query contains a line break");
    // No unicode flag: case-insensitive literals fold character by character (é ~ É), and 's' does not
    // match 'ſ' as it would under /iu.
    const plan = planLiteral(query, !caseSensitive);
    return { spec: { source: escapeRegex(query), flags: ci, factors: plan.factors, wholeText: true, literal: query }, plan };
  }
  const depth = groupDepth(query);
  if (depth > MAX_GROUP_DEPTH)
    throw new CortexError(
      "INVALID_INPUT",
      `query: the regular expression nests groups ${depth} deep; at most ${MAX_GROUP_DEPTH} (ripgrep's engine has the same limit)`,
    );
  let unicode = true;
  try {
    new RegExp(query, "gmu" + ci);
  } catch {
    unicode = false;
    try {
      new RegExp(query, "gm" + ci);
    } catch (e) {
      throw new CortexError("INVALID_INPUT", `query: ${(e as Error).message}`, { data: { query } });
    }
  }
  let plan: SearchPlan = { query: { op: "all" }, factors: null };
  let wholeText = false;
  try {
    const parsed = parseRegex(query, unicode);
    plan = planRegex(parsed.root, !caseSensitive);
    wholeText = !parsed.hasLookaround;
  } catch {
    // Syntax the planner does not follow: search every file, line by line. Correct, only slower.
  }
  return { spec: { source: query, flags: ci + (unicode ? "u" : ""), factors: plan.factors, wholeText }, plan };
}

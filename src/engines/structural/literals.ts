/**
 * Required literals: words every match of a pattern must contain, so files without them are never handed
 * to ast-grep (parsing is what costs; reading a file and searching its bytes is a hundred times cheaper).
 *
 * Soundness comes from ast-grep's own view of the pattern (`--debug-query=pattern`) and its matching rules:
 * a named leaf of the pattern (an identifier, a literal) matches only a node with exactly the same text,
 * in every strictness but `signature`; an unnamed leaf (a keyword such as `defer`) matches by node kind,
 * whose text is the keyword up to letter case (PHP keywords are case-insensitive), and only in the
 * strictness levels that do not skip unnamed nodes (cst, smart, template). Words are taken only from
 * leaves, never from node kinds, and only if the user's pattern contains them.
 */
import type { Rule, Strictness } from "./rule.ts";

export interface LiteralRequirement {
  /** Byte strings a file must contain exactly. */
  exact: string[];
  /** ASCII words a file must contain in some letter case. */
  caseless: string[];
}

export const NO_REQUIREMENT: LiteralRequirement = { exact: [], caseless: [] };

const WORD = /[\p{L}\p{N}_]+/gu;
const KEYWORD = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What the pattern's leaves require, read from ast-grep's `--debug-query=pattern` output (stderr). */
export function parseDebugPattern(debugOutput: string, pattern: string, strictness: Strictness): LiteralRequirement {
  if (strictness === "signature") return NO_REQUIREMENT;
  const all = debugOutput.split("\n");
  const head = all.findIndex((l) => l.trim() === "Debug Pattern:");
  if (head < 0) return NO_REQUIREMENT;
  const lines: string[] = [];
  for (let i = head + 1; i < all.length && all[i]!.trim() !== ""; i++) lines.push(all[i]!);
  const indent = (l: string) => l.length - l.trimStart().length;
  const exact = new Set<string>();
  const caseless = new Set<string>();
  const keepsUnnamed = strictness === "cst" || strictness === "smart" || strictness === "template";
  for (let i = 0; i < lines.length; i++) {
    const content = lines[i]!.trim();
    if (content.startsWith("MetaVar ")) continue;
    const sp = content.indexOf(" ");
    if (sp > 0) {
      // a named leaf: "identifier err", "interpreted_string_literal_content hello world"
      for (const w of content.slice(sp + 1).match(WORD) ?? []) if (w.length >= 2 && pattern.includes(w)) exact.add(w);
      continue;
    }
    const next = lines[i + 1];
    const isInternal = next !== undefined && indent(next) > indent(lines[i]!);
    if (isInternal || !keepsUnnamed) continue;
    if (content.length >= 2 && KEYWORD.test(content) && content !== "ERROR" && content !== "MISSING" && new RegExp(`\\b${content}\\b`).test(pattern)) {
      caseless.add(content.toLowerCase());
    }
  }
  return simplify({ exact: [...exact], caseless: [...caseless] });
}

/** Keeps the few longest literals (longer ones are rarer and as cheap to find) and drops implied ones. */
export function simplify(r: LiteralRequirement, maxExact = 4, maxCaseless = 2): LiteralRequirement {
  const exact = [...new Set(r.exact)].sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).slice(0, maxExact);
  const lowered = exact.map((e) => e.toLowerCase());
  const caseless = [...new Set(r.caseless.map((c) => c.toLowerCase()))]
    .filter((c) => !lowered.some((e) => e.includes(c)))
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
    .slice(0, maxCaseless);
  return { exact, caseless };
}

export function mergeRequirements(parts: LiteralRequirement[]): LiteralRequirement {
  return simplify({ exact: parts.flatMap((p) => p.exact), caseless: parts.flatMap((p) => p.caseless) });
}

/**
 * What a rule requires of a file. Everything a relation names lies in the same file, so `inside`, `has`,
 * `precedes`, `follows` and every member of `all` add their requirements; `any`, `not`, `kind`, `regex`,
 * `nthChild` and stop rules require nothing; a pattern with a selector is matched on a part of its
 * context only, so it requires nothing either. `analyze` reads one pattern (and validates it).
 */
export async function ruleRequirement(
  rule: Rule,
  path: string,
  analyze: (pattern: string, strictness: Strictness, path: string) => Promise<LiteralRequirement>,
): Promise<LiteralRequirement> {
  const parts: Array<Promise<LiteralRequirement>> = [];
  const p = rule.pattern;
  if (typeof p === "string") parts.push(analyze(p, "smart", `${path}.pattern`));
  else if (p && p.selector === undefined) parts.push(analyze(p.context, p.strictness ?? "smart", `${path}.pattern.context`));
  for (const k of ["inside", "has", "precedes", "follows"] as const) {
    const r = rule[k];
    if (r) parts.push(ruleRequirement(r, `${path}.${k}`, analyze));
  }
  rule.all?.forEach((r, i) => parts.push(ruleRequirement(r, `${path}.all[${i}]`, analyze)));
  return mergeRequirements(await Promise.all(parts));
}

/** Tests file contents against a requirement; built once per search. */
export class LiteralFilter {
  private readonly exact: Buffer[];
  private readonly caseless: Array<{ lower: Buffer; first: number; firstUpper: number }>;

  constructor(readonly requirement: LiteralRequirement) {
    this.exact = requirement.exact.map((e) => Buffer.from(e, "utf8"));
    this.caseless = requirement.caseless.map((c) => {
      const lower = Buffer.from(c.toLowerCase(), "latin1");
      return { lower, first: lower[0]!, firstUpper: lower[0]! >= 0x61 && lower[0]! <= 0x7a ? lower[0]! - 0x20 : lower[0]! };
    });
  }

  get active(): boolean {
    return this.exact.length > 0 || this.caseless.length > 0;
  }

  accepts(bytes: Buffer): boolean {
    for (const e of this.exact) if (bytes.indexOf(e) < 0) return false;
    for (const c of this.caseless) if (!containsCaseless(bytes, c.lower, c.first, c.firstUpper)) return false;
    return true;
  }
}

function containsCaseless(bytes: Buffer, lower: Buffer, first: number, firstUpper: number): boolean {
  if (bytes.indexOf(lower) >= 0) return true;
  const n = lower.length;
  for (const start of first === firstUpper ? [first] : [first, firstUpper]) {
    let i = bytes.indexOf(start);
    while (i >= 0 && i + n <= bytes.length) {
      let j = 1;
      for (; j < n; j++) {
        const b = bytes[i + j]!;
        const folded = b >= 0x41 && b <= 0x5a ? b + 0x20 : b;
        if (folded !== lower[j]) break;
      }
      if (j === n) return true;
      i = bytes.indexOf(start, i + 1);
    }
  }
  return false;
}

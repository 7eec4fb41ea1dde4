/**
 * ast-grep rule objects, for what a bare pattern cannot say: a pattern with context and selector, node
 * kinds, regexes, position among siblings, relations (inside, has, precedes, follows) and logic (all,
 * any, not). The schema mirrors ast-grep's rule reference and refuses unknown keys, so a typo is an
 * error naming the key rather than a rule that silently matches everything; what only ast-grep can judge
 * (is this kind valid for the language, does this regex compile) it judges, and its message is returned.
 */
import { z } from "zod";

export const STRICTNESS = ["cst", "smart", "ast", "relaxed", "signature", "template"] as const;
export type Strictness = (typeof STRICTNESS)[number];

export interface PatternObject {
  context: string;
  selector?: string;
  strictness?: Strictness;
}

export interface Rule {
  pattern?: string | PatternObject;
  kind?: string;
  regex?: string;
  nthChild?: number | string | { position: number | string; reverse?: boolean; ofRule?: Rule };
  inside?: Relation;
  has?: Relation;
  precedes?: Relation;
  follows?: Relation;
  all?: Rule[];
  any?: Rule[];
  not?: Rule;
}

export interface Relation extends Rule {
  /** How far the relation looks: the direct neighbour (default), to the end, or until a node matches a rule. */
  stopBy?: "neighbor" | "end" | Rule;
  /** Only the related node in this field of its parent (e.g. "name", "body"). */
  field?: string;
}

export const RULE_KEYS = ["pattern", "kind", "regex", "nthChild", "inside", "has", "precedes", "follows", "all", "any", "not"] as const;

const patternObjectSchema = z
  .object({
    context: z.string().min(1).describe("Code around the part to match, so it parses as intended"),
    selector: z.string().min(1).optional().describe("The node kind inside the context that is the actual match"),
    strictness: z.enum(STRICTNESS).optional().describe("How strictly this pattern matches"),
  })
  .strict();

function ruleFields(rule: z.ZodType<Rule>, relation: z.ZodType<Relation>) {
  return {
    pattern: z
      .union([z.string().min(1), patternObjectSchema])
      .optional()
      .describe("A code pattern, or {context, selector, strictness}"),
    kind: z.string().min(1).optional().describe("A tree-sitter node kind, e.g. call_expression"),
    regex: z.string().min(1).optional().describe("A Rust regex the node's whole text must match"),
    nthChild: z
      .union([
        z.number().int().min(1),
        z.string().min(1),
        z.object({ position: z.union([z.number().int().min(1), z.string().min(1)]), reverse: z.boolean().optional(), ofRule: rule.optional() }).strict(),
      ])
      .optional()
      .describe("Position among the named siblings: 1, '2n+1', or {position, reverse, ofRule}"),
    inside: relation.optional().describe("The node lies inside a node matching this rule"),
    has: relation.optional().describe("The node has a descendant matching this rule"),
    precedes: relation.optional().describe("The node comes before a node matching this rule"),
    follows: relation.optional().describe("The node comes after a node matching this rule"),
    all: z.array(rule).min(1).optional().describe("Every rule matches the node"),
    any: z.array(rule).min(1).optional().describe("At least one rule matches the node"),
    not: rule.optional().describe("The rule does not match the node"),
  };
}

const needsOneKey = (r: Record<string, unknown>) => RULE_KEYS.some((k) => r[k] !== undefined);
const oneKeyMessage = `must set at least one of ${RULE_KEYS.join(", ")}`;

export const ruleSchema: z.ZodType<Rule> = z.lazy(() =>
  z.object(ruleFields(ruleSchema, relationSchema)).strict().refine(needsOneKey, { message: oneKeyMessage }),
);

export const relationSchema: z.ZodType<Relation> = z.lazy(() =>
  z
    .object({
      ...ruleFields(ruleSchema, relationSchema),
      stopBy: z
        .union([z.enum(["neighbor", "end"]), ruleSchema])
        .optional()
        .describe("'neighbor' (default), 'end', or a rule where the search stops"),
      field: z.string().min(1).optional().describe("Only the related node in this field of its parent"),
    })
    .strict()
    .refine(needsOneKey, { message: oneKeyMessage }),
);

/** A copy of the rule in which every pattern that sets no strictness of its own gets `strictness`. */
export function withStrictness(rule: Rule, strictness: Strictness): Rule {
  const out: Rule & Partial<Relation> = { ...rule };
  if (typeof rule.pattern === "string") out.pattern = { context: rule.pattern, strictness };
  else if (rule.pattern && rule.pattern.strictness === undefined) out.pattern = { ...rule.pattern, strictness };
  for (const k of ["inside", "has", "precedes", "follows"] as const) {
    const r = rule[k];
    if (!r) continue;
    const rel: Relation = { ...(withStrictness(r, strictness) as Relation) };
    if (r.stopBy && typeof r.stopBy === "object") rel.stopBy = withStrictness(r.stopBy, strictness);
    out[k] = rel;
  }
  if (rule.not) out.not = withStrictness(rule.not, strictness);
  if (rule.all) out.all = rule.all.map((r) => withStrictness(r, strictness));
  if (rule.any) out.any = rule.any.map((r) => withStrictness(r, strictness));
  const nth = rule.nthChild;
  if (nth && typeof nth === "object" && nth.ofRule) out.nthChild = { ...nth, ofRule: withStrictness(nth.ofRule, strictness) };
  return out;
}

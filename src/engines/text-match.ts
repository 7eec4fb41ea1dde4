/**
 * Ranking small collections of prose (team memories, style rules) against a query with Orama's BM25 and
 * typo tolerance: "retires" still finds "retries". Built per call: these collections are hundreds of
 * entries, where building costs less than a millisecond.
 */
import { create, insertMultiple, search } from "@orama/orama";
import { STOP } from "./search/query.ts";

export interface TextDoc {
  id: string;
  /** Searchable fields, by name. */
  fields: Record<string, string>;
}

/**
 * Words the code search's stop list drops because every pasted issue has them ("bug", "error", "issue"),
 * which name what a memory or a rule is about: here they are kept.
 */
const KEPT_HERE = new Set(["bug", "error", "issue", "problem", "version", "example", "code", "case", "cases", "behavior", "behaviour", "expected", "steps"]);

/** `apply_discount` and `applyDiscount` are found by `discount` too: a text with its identifiers' parts added. */
function withIdentifierParts(text: string): string {
  const parts: string[] = [];
  // snake_case, camelCase and PascalCase with two humps or more; not an acronym's letters (SQLite is no "Lite")
  for (const m of text.matchAll(/[A-Za-z0-9]+(?:_+[A-Za-z0-9]+)+|[a-z0-9]+(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+/g))
    parts.push(...m[0].split(/_+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/).filter((w) => w.length > 2));
  return parts.length === 0 ? text : `${text} ${parts.join(" ")}`;
}

/** Ids of the documents matching `query`, best first, with their scores. */
export async function rankText(docs: TextDoc[], query: string, boost: Record<string, number> = {}): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  // "the" or "how" in a question must not make every entry containing them relevant
  const term = query
    .split(/[^\p{L}\p{N}_]+/u)
    .filter((w) => w.length > 1 && (!STOP.has(w.toLowerCase()) || KEPT_HERE.has(w.toLowerCase())))
    .join(" ");
  if (docs.length === 0 || term.length === 0) return out;
  const names = Object.keys(docs[0]!.fields);
  const schema = Object.fromEntries(names.map((n) => [n, "string"])) as Record<string, "string">;
  const db = create({ schema });
  await insertMultiple(
    db,
    docs.map((d) => ({ id: d.id, ...Object.fromEntries(Object.entries(d.fields).map(([k, v]) => [k, withIdentifierParts(v)])) })),
  );
  const r = await search(db, { term, properties: names, tolerance: 1, limit: docs.length, boost, threshold: 1 });
  for (const h of r.hits) out.set(h.id, h.score);
  return out;
}

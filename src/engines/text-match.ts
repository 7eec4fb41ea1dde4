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

/** Ids of the documents matching `query`, best first, with their scores. */
export async function rankText(docs: TextDoc[], query: string, boost: Record<string, number> = {}): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  // "the" or "how" in a question must not make every entry containing them relevant
  const term = query
    .split(/[^\p{L}\p{N}_]+/u)
    .filter((w) => w.length > 1 && !STOP.has(w.toLowerCase()))
    .join(" ");
  if (docs.length === 0 || term.length === 0) return out;
  const names = Object.keys(docs[0]!.fields);
  const schema = Object.fromEntries(names.map((n) => [n, "string"])) as Record<string, "string">;
  const db = create({ schema });
  await insertMultiple(
    db,
    docs.map((d) => ({ id: d.id, ...d.fields })),
  );
  const r = await search(db, { term, properties: names, tolerance: 1, limit: docs.length, boost, threshold: 1 });
  for (const h of r.hits) out.set(h.id, h.score);
  return out;
}

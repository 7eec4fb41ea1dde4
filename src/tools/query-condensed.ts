/**
 * What the search tools say when a long question was condensed (src/engines/search/long-query.ts): the
 * same field on cortex_search, search_codebase and search_semantic_concept.
 */
import { z } from "zod";

export const queryCondensedSchema = z
  .object({
    original_chars: z.number().int(),
    kept_chars: z.number().int(),
    original_lines: z.number().int(),
    kept_lines: z.number().int(),
    repeated_lines_dropped: z.number().int(),
    other_lines_dropped: z.number().int(),
    note: z.string(),
  })
  .describe("Present when the query was longer than the search reads: what was kept and dropped");

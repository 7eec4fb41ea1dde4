/**
 * Long questions on the search tools (src/engines/search/long-query.ts): the query field that accepts them
 * and what cortex_search and search_codebase say when one was condensed, or when part of it is not read.
 */
import { z } from "zod";
import { MAX_QUERY_CHARS, QUERY_BUDGET_CHARS } from "../engines/search/long-query.ts";
import { environmentReportLines } from "../engines/search/query.ts";

/** A search question that may be a whole pasted issue: `examples` says what it usually is. */
export function longQueryField(examples: string) {
  return z
    .string()
    .trim()
    .min(1)
    .max(MAX_QUERY_CHARS)
    .describe(
      `${examples}, or a whole issue with its traceback (over ${QUERY_BUDGET_CHARS} characters it is condensed to its informative lines; the result says what was dropped)`,
    );
}

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

export const queryUnreadSchema = z
  .string()
  .describe("Present when part of the question is not read by the ranking (a pasted environment report): what and why");

/**
 * What of `query` (as the search receives it) the ranking leaves out, said so that nothing is dropped
 * silently: a pasted environment report describes the reporter's machine, not the code to change, and its
 * words are the project's own report code's (src/engines/search/query.ts, withoutEnvironmentReport).
 */
export function queryUnread(query: string): string | undefined {
  const lines = environmentReportLines(query);
  if (lines === 0) return undefined;
  return `not read: a pasted environment report (${lines} line${lines === 1 ? "" : "s"}: versions of the platform and dependencies, with its heading); it describes the reporter's machine, not the code`;
}

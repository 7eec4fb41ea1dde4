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
  const notes: string[] = [];
  const lines = environmentReportLines(query);
  if (lines > 0)
    notes.push(
      `not read: a pasted environment report (${lines} line${lines === 1 ? "" : "s"}: versions of the platform and dependencies, with its heading); it describes the reporter's machine, not the code`,
    );
  const foreign = wordsOutsideAscii(query);
  if (foreign.length > 0)
    notes.push(
      `not read: words with letters outside ASCII (${foreign.slice(0, 5).join(", ")}${foreign.length > 5 ? ", …" : ""}): the keyword index holds ASCII words only; cortex_exact and search_text_pattern find them`,
    );
  return notes.length > 0 ? notes.join("; ") : undefined;
}

/** The query's words that hold a letter or digit outside ASCII (顧客, für, Wéird), which the keyword channel cannot read. */
function wordsOutsideAscii(query: string): string[] {
  return [...new Set((query.match(/[\p{L}\p{N}_]+/gu) ?? []).filter((w) => /\P{ASCII}/u.test(w)))];
}

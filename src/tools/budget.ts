/**
 * The output budget every tool result respects. A result larger than `max_tokens` (≈ 4 characters a
 * token) is cut where it is long — the biggest list first, then over-long strings — and says so with
 * `truncated: true` and a note, never silently.
 */
import { z } from "zod";

export const DEFAULT_MAX_TOKENS = 8000;
const CHARS_PER_TOKEN = 4;

export const budgetField = z
  .number()
  .int()
  .min(200)
  .max(200_000)
  .optional()
  .describe(`Output budget in tokens (≈4 characters each; default ${DEFAULT_MAX_TOKENS}); longer results are cut and marked truncated`);

type Json = unknown;

interface ArraySite {
  holder: Record<string, unknown> | unknown[];
  key: string | number;
  array: unknown[];
  path: string;
  size: number;
}

function arraysOf(value: Json, path: string, depth: number, out: ArraySite[]): void {
  if (depth > 4 || value === null || typeof value !== "object") return;
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [k, v] of entries) {
    if (Array.isArray(v)) {
      out.push({ holder: value as Record<string, unknown>, key: k, array: v, path: path ? `${path}.${k}` : String(k), size: JSON.stringify(v).length });
    }
    if (v && typeof v === "object" && !Array.isArray(value)) arraysOf(v, path ? `${path}.${k}` : String(k), depth + 1, out);
  }
}

function capStrings(value: Json, max: number): Json {
  if (typeof value === "string") return value.length > max ? value.slice(0, max) + `… [${value.length - max} more characters]` : value;
  if (Array.isArray(value)) return value.map((v) => capStrings(v, max));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, capStrings(v, max)]));
  return value;
}

/** Returns the result unchanged when it fits, else a trimmed copy marked truncated. */
export function applyBudget<T>(result: T, maxTokens = DEFAULT_MAX_TOKENS): T {
  const maxChars = maxTokens * CHARS_PER_TOKEN;
  let text = JSON.stringify(result);
  if (text === undefined || text.length <= maxChars || result === null || typeof result !== "object" || Array.isArray(result)) return result;
  let copy = JSON.parse(text) as Record<string, unknown>;
  const notes: string[] = [];
  for (let round = 0; round < 6 && text.length > maxChars; round++) {
    const sites: ArraySite[] = [];
    arraysOf(copy, "", 0, sites);
    sites.sort((a, b) => b.size - a.size);
    const site = sites.find((s) => s.array.length > 1);
    if (!site) break;
    const before = site.array.length;
    // keep as many leading items (the best ranked) as fit, found by bisection
    let lo = 1;
    let hi = before - 1;
    const over = text.length - maxChars;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      const cut = JSON.stringify(site.array.slice(0, mid)).length;
      if (site.size - cut >= over) lo = mid;
      else hi = mid - 1;
    }
    site.array.length = lo;
    notes.push(`${site.path}: ${lo} of ${before} items`);
    text = JSON.stringify(copy);
  }
  if (text.length > maxChars) {
    copy = capStrings(copy, Math.max(200, Math.floor(maxChars / 8))) as Record<string, unknown>;
    notes.push("long texts shortened");
  }
  copy.truncated = true;
  copy.truncated_note = `cut to fit max_tokens=${maxTokens}: ${notes.join("; ")}`;
  return copy as T;
}

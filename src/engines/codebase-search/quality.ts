/**
 * How far to trust a result list. A ranker always returns something; what tells an agent the list is
 * a guess is that the words and names it asked about are not in the top results. Confidence is the
 * share of the query's significant terms found in the top three results (text and path), lowered when
 * the query names code identifiers none of the results contain.
 */
import { analyzeQuery } from "../search/query.ts";

export interface SearchQuality {
  status: "ok" | "low_confidence";
  /** 0–1. */
  confidence: number;
  /** Significant query terms found in the top results / all significant terms. */
  matchedTerms: string[];
  missingTerms: string[];
  /** What to do about it, when status is low_confidence. */
  hint?: string;
}

/** Below this share of matched terms the results are a guess. */
export const LOW_CONFIDENCE_BELOW = 0.5;
const TOP = 3;

export function assessQuality(query: string, top: Array<{ text: string; file: string }>): SearchQuality {
  const q = analyzeQuery(query);
  const terms = [...new Set([...q.weights.keys()].filter((t) => t.length >= 3))];
  const identifiers = q.identifiers.filter((i) => i.length >= 3);
  if (top.length === 0) {
    return {
      status: "low_confidence",
      confidence: 0,
      matchedTerms: [],
      missingTerms: terms,
      hint: "Nothing matched. Use the words the code uses (names of functions, types, files), or cortex_exact for an exact string.",
    };
  }
  const haystack = top
    .slice(0, TOP)
    .map((t) => `${t.file}\n${t.text}`)
    .join("\n")
    .toLowerCase();
  // a crude stem: "checked" is found as "check", "sessions" as "sessio"
  const found = (t: string) => haystack.includes(t.length > 5 ? t.slice(0, Math.max(5, t.length - 2)) : t);
  const matched = terms.filter(found);
  const missing = terms.filter((t) => !found(t));
  let confidence = terms.length === 0 ? 0.5 : matched.length / terms.length;
  const namedButAbsent = identifiers.length > 0 && identifiers.every((i) => !haystack.includes(i.toLowerCase().split(".").pop()!));
  if (namedButAbsent) confidence = Math.min(confidence, 0.3);
  if (top.length < 2) confidence *= 0.8;
  confidence = Math.round(confidence * 100) / 100;
  if (confidence >= LOW_CONFIDENCE_BELOW) return { status: "ok", confidence, matchedTerms: matched, missingTerms: missing };
  const hint = namedButAbsent
    ? `None of the results contains ${identifiers.map((i) => `'${i}'`).join(", ")}: check the name with find_symbol_occurrences, or search for what it does.`
    : terms.length === 0
      ? "The query has no distinctive words: name the function, type, file or behaviour you are after."
      : `Only ${matched.length} of ${terms.length} query terms appear in the top results (missing: ${missing.slice(0, 6).join(", ")}). Use the words the code uses, add a file path, or use cortex_exact for exact strings.`;
  return { status: "low_confidence", confidence, matchedTerms: matched, missingTerms: missing, hint };
}

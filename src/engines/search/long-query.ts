/**
 * Long questions: an agent pastes a whole issue with its traceback and logs. Past a budget, a query is
 * condensed rather than refused: repeated lines (a traceback's recurring frames, log lines that differ
 * only in their numbers) and lines without a word go first; then the opening of the text (the issue's
 * title and description) is kept whole, then every later line that names an identifier or path not seen
 * before, then lines that bring a word not seen before, while they fit. Lines that add nothing new are
 * dropped even when budget is left: repeated prose would only weigh on the ranking. What was dropped is
 * reported, so the caller knows the search did not see everything.
 */

/** Characters of query text a search reads; longer queries are condensed to this. */
export const QUERY_BUDGET_CHARS = 20_000;
/** Longest query accepted at all (a pasted issue with a long log fits; a whole dump does not). */
export const MAX_QUERY_CHARS = 1_000_000;
/** Share of the budget kept verbatim from the start of the text. */
const HEAD_SHARE = 0.1;
/** A kept line longer than this is cut (a minified line or a base64 blob carries few identifiers per character). */
const MAX_LINE_CHARS = 400;

export interface QueryCondensed {
  original_chars: number;
  kept_chars: number;
  original_lines: number;
  kept_lines: number;
  /** Repeats of an earlier line (after trimming, digits aside), and lines without a letter. */
  repeated_lines_dropped: number;
  /** Lines past the opening that named nothing new, or did not fit the budget. */
  other_lines_dropped: number;
  note: string;
}

export interface CondensedQuery {
  query: string;
  /** Present only when the query was longer than the budget. */
  condensed?: QueryCondensed;
}

/** Code-like tokens: paths and file names, dotted names, snake_case, camelCase, calls. */
const IDENTIFIER =
  /(?:[\w.-]+\/)+[\w.-]+|\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|\b\w*[a-z0-9]_\w+|\b[a-z]+[A-Z]\w*|\b[A-Z][a-z0-9]+[A-Z]\w*|\b[A-Za-z_]\w{2,}(?=\()/g;

function identifiersOf(line: string): string[] {
  return [...line.matchAll(IDENTIFIER)].map((m) => m[0]);
}

function wordsOf(line: string): string[] {
  return line.toLowerCase().match(/[a-z]{3,}/g) ?? [];
}

/** Returns the query as is when it fits the budget, otherwise a condensed copy and what was dropped. */
export function condenseQuery(raw: string, budget = QUERY_BUDGET_CHARS): CondensedQuery {
  if (raw.length <= budget) return { query: raw };
  const lines = raw.split("\n");
  const seenLines = new Set<string>();
  let repeated = 0;
  // Candidates in text order, each cut to a bounded length; repeats and lines without letters go.
  const candidates: string[] = [];
  for (const line of lines) {
    // log lines that differ only in counters, times or addresses are one line
    const key = line.trim().replace(/\d+/g, "0");
    if (key === "") continue;
    if (seenLines.has(key)) {
      repeated++;
      continue;
    }
    seenLines.add(key);
    if (!/[A-Za-z]/.test(key)) {
      repeated++; // numbers, rulers, hex dumps: nothing a search can use, counted with the noise
      continue;
    }
    candidates.push(line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS) : line);
  }
  const keep = new Array<boolean>(candidates.length).fill(false);
  let used = 0;
  const fits = (line: string) => used + line.length + 1 <= budget;
  const seenIds = new Set<string>();
  const seenWords = new Set<string>();
  const take = (j: number) => {
    keep[j] = true;
    used += candidates[j]!.length + 1;
    for (const id of identifiersOf(candidates[j]!)) seenIds.add(id);
    for (const w of wordsOf(candidates[j]!)) seenWords.add(w);
  };
  // 1. the opening, verbatim
  let headEnd = 0;
  while (headEnd < candidates.length && used + candidates[headEnd]!.length + 1 <= budget * HEAD_SHARE) take(headEnd++);
  // 2. later lines that name an identifier or path not seen before
  for (let j = headEnd; j < candidates.length; j++) {
    if (identifiersOf(candidates[j]!).some((id) => !seenIds.has(id)) && fits(candidates[j]!)) take(j);
  }
  // 3. later lines that bring a word not seen before
  for (let j = headEnd; j < candidates.length; j++) {
    if (!keep[j] && wordsOf(candidates[j]!).some((w) => !seenWords.has(w)) && fits(candidates[j]!)) take(j);
  }
  const kept = candidates.filter((_, j) => keep[j]);
  const query = kept.join("\n");
  const blank = lines.filter((l) => l.trim() === "").length;
  const other = lines.length - blank - repeated - kept.length;
  const condensed: QueryCondensed = {
    original_chars: raw.length,
    kept_chars: query.length,
    original_lines: lines.length,
    kept_lines: kept.length,
    repeated_lines_dropped: repeated,
    other_lines_dropped: other,
    note:
      `query of ${raw.length} characters condensed to ${query.length} (budget ${budget}): kept the opening, every line naming an ` +
      `identifier or path not seen before and lines bringing a new word, while they fit; dropped ${repeated} repeated or wordless lines and ` +
      `${other} other lines${kept.some((l) => l.length === MAX_LINE_CHARS) ? `, and cut lines to ${MAX_LINE_CHARS} characters` : ""}`,
  };
  return { query, condensed };
}

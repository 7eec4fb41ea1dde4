/**
 * Pseudo-relevance feedback for the file ranking: the words that the first files of a ranking share, and
 * that the project's other files seldom use, asked as one more whole-file keyword list. A question worded
 * otherwise than the code ("keep after restart" for `storage`) still finds the files whose words the first
 * answers hold: the first files stand in for the vocabulary the question lacks.
 */
import { keywordText } from "../../store/keyword-words.ts";
import { STOP } from "./query.ts";
import { stem } from "./function-promotion.ts";

export interface FeedbackSettings {
  /** How many of the first files lend their words. */
  docs: number;
  /** How many words are added. */
  terms: number;
  /** A word must be in at least this many of the lending files. */
  minDocs: number;
}

/** The counts a file's compacted keyword words give each word (1 + floor(log2 n) copies: keyword-words.ts). */
function wordCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const w of keywordText(text).split(" ")) {
    if (w.length < 3) continue;
    const lower = w.toLowerCase();
    counts.set(lower, (counts.get(lower) ?? 0) + 1);
  }
  return counts;
}

/**
 * The feedback words of a ranking's first files, each with its weight (its share of the lending files'
 * words times its rarity, scaled so the heaviest is 1). `contents` are the lending files' texts; `fileCounts`
 * says in how many of the project's `files` files each candidate word is, and `asked` holds the question's
 * own words (by stem), which are left out.
 */
export async function feedbackWords(
  contents: readonly string[],
  asked: ReadonlySet<string>,
  files: number,
  fileCounts: (words: string[]) => Promise<Map<string, number>>,
  settings: FeedbackSettings,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (contents.length === 0 || settings.terms <= 0) return out;
  // relevance model 1: a word's weight is its share of each lending file's words, summed over the files
  const share = new Map<string, number>();
  const lenders = new Map<string, number>();
  for (const text of contents) {
    const counts = wordCounts(text);
    let total = 0;
    for (const c of counts.values()) total += c;
    if (total === 0) continue;
    for (const [w, c] of counts) {
      if (STOP.has(w) || /^\d/.test(w) || asked.has(stem(w))) continue;
      share.set(w, (share.get(w) ?? 0) + c / total);
      lenders.set(w, (lenders.get(w) ?? 0) + 1);
    }
  }
  const candidates = [...share.entries()]
    .filter(([w]) => (lenders.get(w) ?? 0) >= settings.minDocs)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, settings.terms * 4);
  if (candidates.length === 0) return out;
  const df = await fileCounts(candidates.map(([w]) => w));
  const scored = candidates
    .map(([w, s]) => [w, s * Math.log(1 + files / Math.max(1, df.get(w) ?? files))] as const)
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, settings.terms);
  const max = scored[0]?.[1] ?? 0;
  if (max <= 0) return out;
  for (const [w, s] of scored) out.set(w, s / max);
  return out;
}

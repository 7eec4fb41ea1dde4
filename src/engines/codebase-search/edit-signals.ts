/**
 * What the edit preflight reads, besides the search's own quality, to tell a local change it can make now
 * from one it cannot: whether the top file wins clearly (its lead over the next file, how many files
 * score near it), whether it holds the task's words by itself, whether the names the task writes as code
 * are defined there or somewhere else, and how many files outside the results use what it would change.
 * Measured on edit tasks taken from public repositories' history (scripts/eval/preflight.ts, dev split);
 * the thresholds the card applies are in preflight.ts.
 */
import { analyzeQuery } from "../search/query.ts";
import { pathWords } from "./classify.ts";

export interface EditSignals {
  /** The second file's score over the top file's: near 1 when the top file barely wins, 0 with one result. */
  runnerUpRatio: number;
  /** Other results scoring at least NEAR_TIE of the top file's score. */
  nearTies: number;
  /** Share of the task's significant words found in the top file alone (its path and best chunk). */
  topCoverage: number;
  /** Words of the task missing from the top file (the next search's words). */
  topMissing: string[];
  /** Names the task writes as code (`Context.invoke`, `parse_header`), by their last part. */
  identifiers: string[];
  /** Those the top file defines. */
  definedInTop: string[];
  /**
   * For each of definedInTop, how many code files (not tests) define that name: 1 when the top file alone
   * does. A name many files define (a namespace every file opens, `Rack`; an attribute many classes have,
   * `content`) does not pick out the top file.
   */
  namedFiles: Record<string, number>;
  /** Those defined only in other files (not tests): name → files, at most three each. */
  definedElsewhere: Record<string, string[]>;
  /** The top file's score as the search gave it (fused and boosted; comparable within one query only). */
  topScore: number;
  /** The top file is a test: an edit task names code to change, and a test on top says the words matched tests. */
  topIsTest: boolean;
  /**
   * Other results whose file name shares a word of four letters or more with the top file's
   * (bash_completions.go, fish_completions.go; NyholmPsr17Factory.php, GuzzlePsr17Factory.php): a family
   * of siblings, which a change to one often has to follow in all.
   */
  siblings: number;
  /** The task's own words say it spans many places (all, every, throughout, across, children…). */
  sweepWords: string[];
  /** A task word is a word of the top file's path (`router` in router.go): the path agrees with the text. */
  pathMatch: boolean;
}

/** A result within this share of the top file's score is a near tie. */
export const NEAR_TIE = 0.8;

/** A crude stem, as quality.ts matches: "checked" is found as "check", "sessions" as "sessio". */
function found(haystack: string, term: string): boolean {
  return haystack.includes(term.length > 5 ? term.slice(0, Math.max(5, term.length - 2)) : term);
}

export interface SignalInput {
  query: string;
  /** Result files best first, with their scores and best chunk's text. */
  results: Array<{ file: string; score: number; text: string; isTest: boolean }>;
  /** Where each named identifier is defined (non-test files), by name. */
  definitions: (names: string[]) => Map<string, string[]>;
}

/** The task's significant words (stop words out, three letters or more), as search quality counts them. */
export function taskTerms(query: string): string[] {
  return [...new Set([...analyzeQuery(query).weights.keys()].filter((t) => t.length >= 3))];
}

/** The last part of each identifier the task names (`Context.invoke` → invoke), three letters or more. */
export function taskIdentifiers(query: string): string[] {
  const q = analyzeQuery(query);
  return [...new Set([...q.identifiers, ...q.symbols].map((i) => i.split(".").pop()!).filter((i) => i.length >= 3))];
}

export function editSignals(i: SignalInput): EditSignals {
  const top = i.results[0];
  const terms = taskTerms(i.query);
  const identifiers = taskIdentifiers(i.query);
  if (!top)
    return {
      runnerUpRatio: 0,
      nearTies: 0,
      topCoverage: 0,
      topMissing: terms,
      identifiers,
      definedInTop: [],
      namedFiles: {},
      definedElsewhere: {},
      topScore: 0,
      topIsTest: false,
      siblings: 0,
      sweepWords: sweepWordsOf(i.query),
      pathMatch: false,
    };
  const second = i.results[1];
  const runnerUpRatio = second && top.score > 0 ? Math.round((second.score / top.score) * 1000) / 1000 : 0;
  const nearTies = i.results.slice(1).filter((r) => top.score > 0 && r.score >= NEAR_TIE * top.score).length;
  const haystack = `${top.file}\n${top.text}`.toLowerCase();
  const matched = terms.filter((t) => found(haystack, t));
  const topCoverage = terms.length === 0 ? 0.5 : Math.round((matched.length / terms.length) * 100) / 100;
  const defs = identifiers.length > 0 ? i.definitions(identifiers) : new Map<string, string[]>();
  const definedInTop = identifiers.filter((n) => (defs.get(n) ?? []).includes(top.file));
  const namedFiles = Object.fromEntries(definedInTop.map((n) => [n, defs.get(n)!.length]));
  const definedElsewhere: Record<string, string[]> = {};
  for (const n of identifiers) {
    const files = defs.get(n) ?? [];
    if (files.length > 0 && !files.includes(top.file)) definedElsewhere[n] = files.slice(0, 3);
  }
  const words = new Set(pathWords(top.file));
  const pathMatch = terms.some((t) => words.has(t) || words.has(t.replace(/s$/, "")));
  return {
    runnerUpRatio,
    nearTies,
    topCoverage,
    topMissing: terms.filter((t) => !matched.includes(t)),
    identifiers,
    definedInTop,
    namedFiles,
    definedElsewhere,
    topScore: Math.round(top.score * 10_000) / 10_000,
    topIsTest: top.isTest,
    // a file's own tests share its name without being a variant of it
    siblings: siblingsOf(
      top.file,
      i.results
        .slice(1)
        .filter((r) => !r.isTest)
        .map((r) => r.file),
    ),
    sweepWords: sweepWordsOf(i.query),
    pathMatch,
  };
}

/** Words by which a task says it reaches many places. */
const SWEEP = /\b(all|every|everywhere|each|throughout|across|various|multiple|children|subclasses|implementations|globally|codebase|consistent(ly)?)\b/gi;

export function sweepWordsOf(query: string): string[] {
  return [...new Set([...query.matchAll(SWEEP)].map((m) => m[0].toLowerCase()))];
}

/** The words of a file's name (not its folders), four letters or more. */
function nameWords(path: string): Set<string> {
  const base = path.slice(path.lastIndexOf("/") + 1);
  return new Set(pathWords(base).filter((w) => w.length >= 4 && !/^(test|spec|index|main|init|util|utils|mod)$/.test(w)));
}

export function siblingsOf(top: string, others: string[]): number {
  const words = nameWords(top);
  if (words.size === 0) return 0;
  const dir = top.slice(0, top.lastIndexOf("/") + 1);
  // siblings of the same folder whose name differs only by a qualifier: bash_completions.go, fish_completions.go
  return others.filter((f) => f.slice(0, f.lastIndexOf("/") + 1) === dir && [...nameWords(f)].some((w) => words.has(w))).length;
}

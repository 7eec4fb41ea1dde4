/**
 * A pasted issue's title in the whole-file BM25 list: a long question's title words count
 * FILE_RANKING.titleLong extra there (the best-chunk list keeps FILE_RANKING.title). A file that matches
 * many words of the issue's body a little each (a hub: django's models/query.py, matplotlib's pyplot.py)
 * led the file that holds the words of the title. A short question is not touched. The engine reads a fake
 * index whose file BM25 is a sum over the weighted terms it is asked for, as the real one is.
 */
import { afterEach, expect, test } from "bun:test";
import type { FileInfo, IndexReader } from "../../src/store/contract.ts";
import { FILE_RANKING, SearchEngine } from "../../src/engines/search/index.ts";

const titleWords = ["unicode", "escape", "heading", "field"];
const bodyWords = Array.from({ length: 40 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${i}`);

/** Each file's BM25 part per term at weight 1: the title's file holds the title's words, the hub the body's, a little each. */
const parts: Record<string, Record<string, number>> = {
  "pkg/heading.py": Object.fromEntries(titleWords.map((w) => [w, 1])),
  "pkg/hub.py": Object.fromEntries(bodyWords.map((w) => [w, 0.3])),
  "pkg/other.py": { [bodyWords[0]!]: 0.5 },
};

/** What the chunk list was asked with, per call. */
const chunkAsks: Array<Map<string, number>> = [];

function engine(): SearchEngine {
  const info = new Map<string, FileInfo>(Object.keys(parts).map((p) => [p, { path: p, language: "python", modulePath: "", isTest: false }]));
  const reader: Partial<IndexReader> = {
    // bm25 is a sum over the terms, each asked with its weight (store/chunk-search.ts, weightedRows)
    weightedFileScores: async (terms) => {
      const out = new Map<string, number>();
      for (const [file, byTerm] of Object.entries(parts)) {
        let s = 0;
        for (const [t, x] of terms) s += x * (byTerm[t] ?? 0);
        if (s > 0) out.set(file, s);
      }
      return out;
    },
    weightedChunkScores: async (terms) => {
      chunkAsks.push(new Map(terms));
      return new Map();
    },
    definingFiles: async () => new Map(),
    fileCount: async () => info.size,
    filesInfo: async (paths) => new Map(paths.flatMap((p) => (info.has(p) ? [[p, info.get(p)!] as const] : []))),
    edgesAmong: async () => [],
  };
  return new SearchEngine(reader as IndexReader, "/nonexistent");
}

// a title line and a body of far more than FILE_RANKING.shortQueryTerms words
const issue = ["Unicode escape in heading field", bodyWords.join(" ")].join("\n");

const kept = FILE_RANKING.titleLong;
afterEach(() => {
  FILE_RANKING.titleLong = kept;
  chunkAsks.length = 0;
});

test("a long question's title words lead the file list over a file matching many body words a little", async () => {
  // the hand-chosen count this case was written for (file-ranking.json may ship another)
  FILE_RANKING.titleLong = 4;
  const ranked = (await engine().searchFiles(issue, 10, { mode: "keyword" })).map((f) => f.filePath);
  expect(ranked[0]).toBe("pkg/heading.py");
  // the best-chunk list keeps FILE_RANKING.title: a title word asked with 1 + 2, saturated (k3 10)
  const k = FILE_RANKING.queryTfSaturation;
  expect(chunkAsks[0]!.get("unicode")).toBeCloseTo((3 * (k + 1)) / (k + 3), 9);
  // with the title's count of the other lists (the form before), the hub leads
  FILE_RANKING.titleLong = FILE_RANKING.title;
  const before = (await engine().searchFiles(issue, 10, { mode: "keyword" })).map((f) => f.filePath);
  expect(before[0]).toBe("pkg/hub.py");
});

test("a short question's file list is not touched", async () => {
  const short = "Unicode escape in heading field\nworda0 wordb1";
  const ranked = (await engine().searchFiles(short, 10, { mode: "keyword" })).map((f) => f.filePath);
  FILE_RANKING.titleLong = FILE_RANKING.title;
  const before = (await engine().searchFiles(short, 10, { mode: "keyword" })).map((f) => f.filePath);
  expect(ranked).toEqual(before);
});

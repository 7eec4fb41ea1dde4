/**
 * A long question's first files and files of one name (a family: each database backend's operations.py).
 * Three of a family at most among the first five, so that one name does not take every place; and the
 * leading file's namesake just below the first five comes up to the fifth place, because a change to one
 * of a family often needs the other. A short question is ranked as before. The engine reads a fake index:
 * these rules act on the fused ranking only.
 */
import { expect, test } from "bun:test";
import type { FileInfo, IndexReader } from "../../src/store/contract.ts";
import { capSameNames, FILE_RANKING, SearchEngine } from "../../src/engines/search/index.ts";

/** A reader whose file BM25 gives these scores and every other list nothing. */
function engineOver(scores: Record<string, number>): SearchEngine {
  const info = new Map<string, FileInfo>(Object.keys(scores).map((p) => [p, { path: p, language: "python", modulePath: "", isTest: false }]));
  const reader: Partial<IndexReader> = {
    weightedFileScores: async () => new Map(Object.entries(scores)),
    weightedChunkScores: async () => new Map(),
    definingFiles: async () => new Map(),
    fileCount: async () => info.size,
    filesInfo: async (paths) => new Map(paths.flatMap((p) => (info.has(p) ? [[p, info.get(p)!] as const] : []))),
    edgesAmong: async () => [],
  };
  return new SearchEngine(reader as IndexReader, "/nonexistent");
}

// a pasted issue: far more than FILE_RANKING.shortQueryTerms words
const issue = Array.from({ length: 40 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${i}`).join(" ");

const families = {
  "db/backends/base/operations.py": 10,
  "db/backends/mysql/operations.py": 9,
  "db/backends/oracle/operations.py": 8,
  "db/backends/sqlite3/operations.py": 7,
  "db/backends/postgresql/operations.py": 6,
  "utils/timezone.py": 5,
  "core/flush.py": 4,
};

test("at most three of a family among a long question's first five", async () => {
  expect(FILE_RANKING.familyCap).toBe(3);
  const ranked = (await engineOver(families).searchFiles(issue, 10, { mode: "keyword" })).map((f) => f.filePath);
  expect(ranked.slice(0, 5)).toEqual([
    "db/backends/base/operations.py",
    "db/backends/mysql/operations.py",
    "db/backends/oracle/operations.py",
    "utils/timezone.py",
    "core/flush.py",
  ]);
  // the rest of the family follows, in its order
  expect(ranked.slice(5, 7)).toEqual(["db/backends/sqlite3/operations.py", "db/backends/postgresql/operations.py"]);
});

test("a short question keeps the fused order", async () => {
  const ranked = (await engineOver(families).searchFiles("timezone operations", 10, { mode: "keyword" })).map((f) => f.filePath);
  expect(ranked.slice(0, 4)).toEqual([
    "db/backends/base/operations.py",
    "db/backends/mysql/operations.py",
    "db/backends/oracle/operations.py",
    "db/backends/sqlite3/operations.py",
  ]);
});

test("the leading file's namesake below the first five takes the fifth place", async () => {
  expect(FILE_RANKING.familySlot).toBe(4);
  const scores = {
    "db/models/query.py": 10,
    "db/models/sql/compiler.py": 9,
    "db/utils.py": 8,
    "db/backends/utils.py": 7,
    "db/models/sql/subqueries.py": 6,
    "db/models/sql/query.py": 5,
    "db/models/base.py": 4,
  };
  const ranked = (await engineOver(scores).searchFiles(issue, 10, { mode: "keyword" })).map((f) => f.filePath);
  expect(ranked.slice(0, 6)).toEqual([
    "db/models/query.py",
    "db/models/sql/compiler.py",
    "db/utils.py",
    "db/backends/utils.py",
    "db/models/sql/query.py",
    "db/models/sql/subqueries.py",
  ]);
  // a folder's entry point is no family: __init__.py lends nothing
  const entry = { "pkg/__init__.py": 10, "a.py": 9, "b.py": 8, "c.py": 7, "d.py": 6, "other/__init__.py": 5 };
  const plain = (await engineOver(entry).searchFiles(issue, 10, { mode: "keyword" })).map((f) => f.filePath);
  expect(plain[4]).toBe("d.py");
});

test("capSameNames keeps order within the first places and after them", () => {
  const r = ["x/a.py", "y/a.py", "z/a.py", "b.py", "c.py", "d.py"].map((filePath, i) => ({ filePath, score: 10 - i }));
  capSameNames(r, 1, 3);
  expect(r.map((f) => f.filePath)).toEqual(["x/a.py", "b.py", "c.py", "y/a.py", "z/a.py", "d.py"]);
  // the scores follow the order: the moved namesakes tie with the last file kept above them
  expect(r.map((f) => f.score)).toEqual([10, 7, 6, 6, 6, 5]);
});

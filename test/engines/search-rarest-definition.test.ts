/**
 * A pasted issue's definitions: a file counts its rarest named definition, not the sum over the names it
 * defines. An issue's snippet calls many names of the public API (filter, annotate, aggregate), all
 * defined in the module that exposes them, and the sum kept the file that defines the one class the issue
 * is about (`Sum`) below the first five. A short question keeps the sum. The engine reads a fake index.
 */
import { afterEach, expect, test } from "bun:test";
import type { FileInfo, IndexReader } from "../../src/store/contract.ts";
import { definitionScores, FILE_RANKING, SearchEngine } from "../../src/engines/search/index.ts";

const scores: Record<string, number> = {
  "db/models/query.py": 10,
  "db/models/sql/compiler.py": 9.5,
  "db/backends/sqlite3/base.py": 9.4,
  "db/models/sql/where.py": 9.3,
  "db/backends/utils.py": 9.2,
  "db/models/aggregates.py": 7.2,
};
const defining: Record<string, string[]> = {
  filter: ["db/models/query.py"],
  annotate: ["db/models/query.py"],
  aggregate: ["db/models/query.py"],
  Sum: ["db/models/aggregates.py"],
};

/** A reader whose file BM25 gives `scores`, whose definitions are `defining`, and every other list nothing. */
function engine(): SearchEngine {
  const info = new Map<string, FileInfo>(Object.keys(scores).map((p) => [p, { path: p, language: "python", modulePath: "", isTest: false }]));
  const reader: Partial<IndexReader> = {
    weightedFileScores: async () => new Map(Object.entries(scores)),
    weightedChunkScores: async () => new Map(),
    definingFiles: async () => new Map(Object.entries(defining).map(([n, fs]) => [n, new Set(fs)])),
    fileCount: async () => info.size,
    filesInfo: async (paths) => new Map(paths.flatMap((p) => (info.has(p) ? [[p, info.get(p)!] as const] : []))),
    edgesAmong: async () => [],
  };
  return new SearchEngine(reader as IndexReader, "/nonexistent");
}

// a pasted issue: a title and a body of far more than FILE_RANKING.shortQueryTerms words
const issue = [
  "aggregate() with default after annotate() crashes",
  Array.from({ length: 40 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${i}`).join(" "),
  "Book.objects.annotate(idx=F('id')).aggregate(Sum('id', default=0)).filter()",
].join("\n");

const kept = FILE_RANKING.definitionsRarest;
afterEach(() => {
  FILE_RANKING.definitionsRarest = kept;
});

test("a long question's file defining the one rare name it names comes up among the first five", async () => {
  expect(FILE_RANKING.definitionsRarest).toBe(2);
  const ranked = (await engine().searchFiles(issue, 10, { mode: "keyword" })).map((f) => f.filePath);
  expect(ranked.slice(0, 2)).toEqual(["db/models/query.py", "db/models/aggregates.py"]);
  // with the sum (the form before), the module defining three of the names keeps the lead and Sum's file is sixth
  FILE_RANKING.definitionsRarest = 0;
  const summed = (await engine().searchFiles(issue, 10, { mode: "keyword" })).map((f) => f.filePath);
  expect(summed.indexOf("db/models/aggregates.py")).toBe(5);
});

test("definitionScores: the sum of the names' rarity, or each file's rarest name to a power", () => {
  const defined = new Map([
    ["a", new Set(["x.py"])],
    ["b", new Set(["x.py", "y.py", "z.py"])],
    ["c", new Set(["y.py"])],
  ]);
  const n = 9;
  const one = Math.log(1 + 9);
  const three = Math.log(1 + 3);
  expect(definitionScores(defined, n)).toEqual(
    new Map([
      ["x.py", one + three],
      ["y.py", three + one],
      ["z.py", three],
    ]),
  );
  expect(definitionScores(defined, n, 2)).toEqual(
    new Map([
      ["x.py", one ** 2],
      ["y.py", one ** 2],
      ["z.py", three ** 2],
    ]),
  );
});

/**
 * A recorded index for the file ranking: what `searchFiles` (src/engines/search/index.ts) reads from the store
 * for one question, saved once, so rank-tune's `--replay` runs the real `searchFiles` on it under any
 * FILE_RANKING variant in milliseconds instead of re-indexing the instance. What is recorded: the whole
 * project's file list (with the test flag), the keyword lists as searchFiles asked for them (file BM25, each
 * file's best chunk, the files defining the query's identifiers, the matched commits), the co-change rows of
 * the first `RECORDED_LEADERS` files and the import edges among them (the leaders a variant can pick: a
 * variant that asks about a file outside them gets no row, and `misses` counts it). Variants of the term
 * weighting (title, queryTfSaturation, fields) change the lists themselves and cannot be replayed.
 */
import type { FileInfo, IndexReader } from "../../src/store/contract.ts";
import type { CoChange, HistoryMatch, SubjectStyle } from "../../src/store/history-store.ts";
import type { EdgeRow } from "../../src/store/graph-store.ts";
import { FILE_RANKING, fileListWeights, rankingWeights, SearchEngine } from "../../src/engines/search/index.ts";
import { shortnessOf } from "../../src/engines/search/function-promotion.ts";
import { analyzeQuery } from "../../src/engines/search/query.ts";

/** Files whose co-change rows and import edges are recorded: the final ranking's first ones. */
export const RECORDED_LEADERS = 60;

export interface FileRecord {
  id: string;
  repo: string;
  query: string;
  gold: string[];
  /** Every indexed file; the lists below name files by their position here. */
  files: string[];
  tests: number[];
  fileCount: number;
  fileScores: Array<[number, number]>;
  bestChunk: Array<[number, number]>;
  /** How many chunks of each file the question's terms matched (records made before 2026-11-28 lack it: one each). */
  chunkCounts?: Array<[number, number]>;
  /** Each file's second and third best chunk scores, where it has them (same records). */
  chunkMore?: Array<[number, number[]]>;
  defining: Record<string, number[]>;
  commits: HistoryMatch[];
  coChanges: Record<string, CoChange>;
  edges: Array<Pick<EdgeRow, "file" | "target">>;
  /** How the stored commit subjects are worded (records made before 2026-11-28 04:30 lack it: rank-tune's --styles fills it). */
  style?: RecordedStyle;
  /** The real searchFiles' first 100 files, best first: replay's base must give them. */
  check: string[];
  /**
   * Opt-in (rank-tune --dump-terms): each question term's weighted part of the file BM25 list, term → [file,
   * part], for the files that can matter (the ranking's first 100, the gold files, the BM25 list's first 300);
   * the parts of one file add up to its fileScores entry (bm25 is a sum over terms).
   */
  termScores?: Record<string, Array<[number, number]>>;
  /** The file list's term weights termScores were made with (records of 2026-11-28 12:00 lack them: title 2). */
  termWeights?: Record<string, number>;
}

/** SubjectStyle as JSON. */
export interface RecordedStyle {
  subjects: number;
  openings: Record<string, number>;
  fullStops: number;
}

export function recordedStyle(s: SubjectStyle): RecordedStyle {
  return { subjects: s.subjects, openings: Object.fromEntries(s.openings), fullStops: s.fullStops };
}

/** Wraps a reader so the lists searchFiles reads are kept in `into` (the first call of each: one question). */
export function recordingReader(real: IndexReader, into: Partial<Raw>): IndexReader {
  return new Proxy(real, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== "function") return v;
      const f = v.bind(target) as (...a: unknown[]) => Promise<unknown>;
      if (prop === "weightedFileScores") return async (...a: unknown[]) => (into.fileScores ??= (await f(...a)) as Map<string, number>);
      if (prop === "weightedChunkScores")
        return async (...a: unknown[]) => (into.chunkScores ??= (await f(...a)) as Map<string, { filePath: string; score: number }>);
      if (prop === "definingFiles") return async (...a: unknown[]) => (into.defining ??= (await f(...a)) as Map<string, Set<string>>);
      if (prop === "matchingCommits") return async (...a: unknown[]) => (into.commits ??= (await f(...a)) as HistoryMatch[]);
      return f;
    },
  });
}

export interface Raw {
  fileScores: Map<string, number>;
  chunkScores: Map<string, { filePath: string; score: number }>;
  defining: Map<string, Set<string>>;
  commits: HistoryMatch[];
}

const round = (x: number) => Math.round(x * 1e9) / 1e9;

/** The record of one question from what recordingReader kept and the real ranking's files. */
export async function makeRecord(
  real: IndexReader,
  raw: Partial<Raw>,
  meta: { id: string; repo: string; query: string; gold: string[] },
  ranked: string[],
): Promise<FileRecord> {
  const all: FileInfo[] = await real.allFiles();
  const files = all.map((f) => f.path);
  const at = new Map(files.map((p, i) => [p, i]));
  const idx = (p: string) => {
    let i = at.get(p);
    if (i === undefined) {
      i = files.length;
      files.push(p);
      at.set(p, i);
    }
    return i;
  };
  const best = new Map<string, number>();
  const counts = new Map<string, number>();
  const perFile = new Map<string, number[]>();
  for (const { filePath, score } of (raw.chunkScores ?? new Map()).values()) {
    if (score > (best.get(filePath) ?? 0)) best.set(filePath, score);
    counts.set(filePath, (counts.get(filePath) ?? 0) + 1);
    const list = perFile.get(filePath);
    if (list) list.push(score);
    else perFile.set(filePath, [score]);
  }
  const more: Array<[string, number[]]> = [];
  for (const [p, l] of perFile)
    if (l.length > 1)
      more.push([
        p,
        l
          .sort((a, b) => b - a)
          .slice(1, 3)
          .map(round),
      ]);
  const leaders = ranked.slice(0, RECORDED_LEADERS);
  const co = real.coChanges ? await real.coChanges(leaders) : new Map<string, CoChange>();
  const edges = await real.edgesAmong(leaders);
  return {
    ...meta,
    files,
    tests: all.flatMap((f, i) => (f.isTest ? [i] : [])),
    fileCount: await real.fileCount(),
    fileScores: [...(raw.fileScores ?? new Map<string, number>())].map(([p, s]) => [idx(p), round(s)]),
    bestChunk: [...best].map(([p, s]) => [idx(p), round(s)]),
    chunkCounts: [...counts].map(([p, n]) => [idx(p), n]),
    chunkMore: more.map(([p, l]) => [idx(p), l]),
    defining: Object.fromEntries([...(raw.defining ?? new Map<string, Set<string>>())].map(([n, s]) => [n, [...s].map(idx)])),
    commits: raw.commits ?? [],
    coChanges: Object.fromEntries(co),
    edges: edges.map((e) => ({ file: e.file, target: e.target })),
    ...(real.subjectStyle ? { style: recordedStyle(await real.subjectStyle()) } : {}),
    check: ranked,
  };
}

/** Each term's part of the file BM25 list (FileRecord.termScores), for the files in `keep`, by their index in `record.files`. */
export async function termParts(real: IndexReader, record: FileRecord, keep: ReadonlySet<string>): Promise<Record<string, Array<[number, number]>>> {
  const q = analyzeQuery(record.query);
  const weights = fileListWeights(q.weights, q, shortnessOf(q, FILE_RANKING.shortQueryTerms));
  record.termWeights = Object.fromEntries(weights);
  const at = new Map(record.files.map((p, i) => [p, i]));
  const out: Record<string, Array<[number, number]>> = {};
  for (const [term, w] of weights) {
    if (w === 0) continue;
    const part = await real.weightedFileScores(new Map([[term, w]]), FILE_RANKING.fields, {});
    const list: Array<[number, number]> = [];
    for (const [p, s] of part) if (keep.has(p) && at.has(p)) list.push([at.get(p)!, Math.round(s * 1e5) / 1e5]);
    if (list.length > 0) out[term] = list;
  }
  return out;
}

/** A reader answering searchFiles from a record; `misses` counts the co-change rows asked for and not recorded. */
export function replayReader(r: FileRecord): { reader: IndexReader; misses: { coChanges: number } } {
  const misses = { coChanges: 0 };
  const info = new Map<string, FileInfo>();
  const tests = new Set(r.tests);
  r.files.forEach((p, i) => info.set(p, { path: p, language: "", modulePath: "", isTest: tests.has(i) }));
  const path = (i: number) => r.files[i]!;
  const known = new Set(Object.keys(r.coChanges));
  const leaders = new Set(r.check.slice(0, RECORDED_LEADERS));
  // the file list's term weights when the record was made (the defaults: a replay starts from them)
  const aq = analyzeQuery(r.query);
  const recordedWeights = r.termWeights ? new Map(Object.entries(r.termWeights)) : rankingWeights(aq.weights, aq, 2);
  // the recorded lists, made once per record (a trainer replays each record hundreds of times); searchFiles reads them, never changes them
  let recorded: Map<string, number> | undefined;
  let chunkScores: Map<string, { filePath: string; score: number }> | undefined;
  const impl: Partial<IndexReader> = {
    // the recorded sums, or, for a record with termScores asked with other term weights (a variant of the
    // file list's weighting), each term's recorded part scaled by the weight asked for against the weight it
    // was recorded with; files outside termScores' keep keep their recorded sum
    weightedFileScores: async (terms) => {
      recorded ??= new Map(r.fileScores.map(([i, s]) => [path(i), s]));
      if (!r.termScores || [...recordedWeights].every(([t, x]) => terms.get(t) === x)) return recorded;
      const out = new Map(recorded);
      const parted = new Set<string>();
      const sums = new Map<string, number>();
      for (const [t, l] of Object.entries(r.termScores)) {
        const x0 = recordedWeights.get(t) ?? 0;
        const x = terms.get(t) ?? 0;
        for (const [i, s] of l) {
          parted.add(path(i));
          if (x0 > 0) sums.set(path(i), (sums.get(path(i)) ?? 0) + (s * x) / x0);
        }
      }
      for (const p of parted) out.set(p, sums.get(p) ?? 0);
      return out;
    },
    // each file's best chunk, its second and third, and its other matched chunks (their scores not kept: 0)
    weightedChunkScores: async () => {
      if (chunkScores) return chunkScores;
      const out = new Map<string, { filePath: string; score: number }>(r.bestChunk.map(([i, s]) => [path(i), { filePath: path(i), score: s }]));
      const more = new Map(r.chunkMore ?? []);
      for (const [i, n] of r.chunkCounts ?? []) for (let k = 1; k < n; k++) out.set(`${path(i)}#${k}`, { filePath: path(i), score: more.get(i)?.[k - 1] ?? 0 });
      chunkScores = out;
      return out;
    },
    definingFiles: async () => new Map(Object.entries(r.defining).map(([n, fs]) => [n, new Set(fs.map(path))])),
    matchingCommits: async () => r.commits,
    subjectStyle: async () => ({
      subjects: r.style?.subjects ?? 0,
      openings: new Map(Object.entries(r.style?.openings ?? {})),
      fullStops: r.style?.fullStops ?? 0,
    }),
    fileCount: async () => r.fileCount,
    filesInfo: async (paths) => new Map(paths.flatMap((p) => (info.has(p) ? [[p, info.get(p)!] as const] : []))),
    allFiles: async () => [...info.values()],
    coChanges: async (paths) => {
      const out = new Map<string, CoChange>();
      for (const p of paths) {
        if (known.has(p)) out.set(p, r.coChanges[p]!);
        else if (!leaders.has(p)) misses.coChanges++;
      }
      return out;
    },
    edgesAmong: async (paths) => {
      const among = new Set(paths);
      return r.edges.filter((e) => among.has(e.file) && among.has(e.target)).map((e) => ({ ...e, siteId: 0, line: 0, column: 0, module: "" }));
    },
  };
  const reader = new Proxy(impl, {
    get(target, prop) {
      const v = Reflect.get(target, prop);
      if (v === undefined && typeof prop === "string" && prop !== "then") throw new Error(`replay: the record has no ${prop}`);
      return v;
    },
  }) as IndexReader;
  return { reader, misses };
}

/** The real file ranking over a recorded question. */
export function replayEngine(r: FileRecord): { engine: SearchEngine; misses: { coChanges: number } } {
  const { reader, misses } = replayReader(r);
  return { engine: new SearchEngine(reader, "/nonexistent"), misses };
}

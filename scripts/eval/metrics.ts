/**
 * The protocol's file-level metrics, exactly as ../shared/bench/README.md defines them. A gold file's
 * rank is its 0-based position in the ranked list, or null when the ranker did not return it.
 *
 *   Acc@k    all gold files are in the top k
 *   MRR      1 / (1 + rank of the best-ranked gold file); 0 when none was returned
 *   NDCG@10  binary relevance: Σ_{gold in top 10} 1/log2(rank + 2), over the ideal Σ_{i < min(|gold|, 10)} 1/log2(i + 2)
 */

import type { RankedChunk } from "./ranker.ts";

export const ACC_KS = [1, 3, 5, 10] as const;

export type Rank = number | null;

/** Where each gold file sits in `ranked` (null when absent). */
export function goldRanks(ranked: readonly string[], gold: readonly string[]): Rank[] {
  const position = new Map<string, number>();
  ranked.forEach((path, i) => {
    if (!position.has(path)) position.set(path, i);
  });
  return gold.map((g) => position.get(g) ?? null);
}

export function accAt(ranks: readonly Rank[], k: number): boolean {
  return ranks.length > 0 && ranks.every((r) => r !== null && r < k);
}

export function reciprocalRank(ranks: readonly Rank[]): number {
  const found = ranks.filter((r): r is number => r !== null);
  return found.length === 0 ? 0 : 1 / (1 + Math.min(...found));
}

export function ndcgAt10(ranks: readonly Rank[]): number {
  const dcg = ranks.reduce<number>((s, r) => (r !== null && r < 10 ? s + 1 / Math.log2(r + 2) : s), 0);
  let ideal = 0;
  for (let i = 0; i < Math.min(ranks.length, 10); i++) ideal += 1 / Math.log2(i + 2);
  return ideal === 0 ? 0 : dcg / ideal;
}

export interface Summary {
  instances: number;
  /** Percentages (0-100). */
  acc1: number;
  acc3: number;
  acc5: number;
  acc10: number;
  /** Means over instances (0-1). */
  mrr: number;
  ndcg10: number;
}

export function summarize(all: ReadonlyArray<readonly Rank[]>): Summary {
  const n = all.length;
  const pct = (k: number) => (n === 0 ? 0 : (100 * all.filter((r) => accAt(r, k)).length) / n);
  const mean = (f: (r: readonly Rank[]) => number) => (n === 0 ? 0 : all.reduce((s, r) => s + f(r), 0) / n);
  return { instances: n, acc1: pct(1), acc3: pct(3), acc5: pct(5), acc10: pct(10), mrr: mean(reciprocalRank), ndcg10: mean(ndcgAt10) };
}

/** One markdown table row per named summary. */
export function summaryTable(rows: Array<{ name: string; summary: Summary }>): string {
  const head = "| ranker | n | Acc@1 | Acc@3 | Acc@5 | Acc@10 | MRR | NDCG@10 |\n|---|---:|---:|---:|---:|---:|---:|---:|";
  const body = rows.map(
    ({ name, summary: s }) =>
      `| ${name} | ${s.instances} | ${s.acc1.toFixed(1)} | ${s.acc3.toFixed(1)} | ${s.acc5.toFixed(1)} | ${s.acc10.toFixed(1)} | ${s.mrr.toFixed(3)} | ${s.ndcg10.toFixed(3)} |`,
  );
  return [head, ...body].join("\n");
}

/** Type chunks (a class with its members' signatures) span their methods but are not them. */
const TYPE_KINDS = new Set(["struct", "interface", "class", "enum", "type_alias", "trait", "union", "record", "object", "module", "namespace", "impl"]);

export interface SpanLabel {
  file: string;
  name: string;
  start_line: number;
  end_line: number;
}

/** A ranked chunk as the function-level metrics read it: the rankers' own type. */
export type ChunkSpan = RankedChunk;

/**
 * A chunk finds a labelled function when it is a definition chunk of the same file whose lines overlap
 * the function's: the function's own chunk (or a part of a long one), not the file's overview nor the
 * chunk of the class around it.
 */
export function chunkFindsFunction(c: ChunkSpan, f: SpanLabel): boolean {
  if (c.path !== f.file || c.chunk_type !== "definitions") return false;
  if (c.start_line > f.end_line || c.end_line < f.start_line) return false;
  return !(c.kind !== undefined && TYPE_KINDS.has(c.kind) && c.name !== f.name);
}

/** Where each labelled function's first finding chunk sits in `chunks` (null when none does). */
export function functionRanks(chunks: readonly ChunkSpan[], gold: readonly SpanLabel[]): Rank[] {
  return gold.map((f) => {
    const i = chunks.findIndex((c) => chunkFindsFunction(c, f));
    return i < 0 ? null : i;
  });
}

export interface GroupRow {
  key: string;
  /** Instances in the group. */
  n: number;
  /** Instances that failed (counted as misses). */
  errors: number;
  file: Summary;
  /** Over the group's instances labelled with functions, when the ranker ranks chunks. */
  fn?: Summary;
}

/** Summaries per group key (in first-appearance order), over results carrying file and function ranks. */
export function groupSummaries<T extends { ranks: Rank[]; function_ranks?: Rank[]; error?: string }>(
  results: readonly T[],
  keyOf: (r: T) => string,
): GroupRow[] {
  const groups = new Map<string, T[]>();
  for (const r of results) {
    const k = keyOf(r);
    const g = groups.get(k);
    if (g) g.push(r);
    else groups.set(k, [r]);
  }
  return [...groups].map(([key, list]) => {
    const withFn = list.filter((r) => r.function_ranks !== undefined);
    const row: GroupRow = { key, n: list.length, errors: list.filter((r) => r.error !== undefined).length, file: summarize(list.map((r) => r.ranks)) };
    if (withFn.length > 0) row.fn = summarize(withFn.map((r) => r.function_ranks!));
    return row;
  });
}

/** One markdown row per group: file-level Acc@1/5, MRR, and function-level Acc@1/5 where there are labels. */
export function groupTable(ranker: string, rows: readonly GroupRow[]): string {
  const head =
    "| group | ranker | n | errors | file Acc@1 | file Acc@5 | file MRR | fn n | fn Acc@1 | fn Acc@5 |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|";
  const body = rows.map(
    (r) =>
      `| ${r.key} | ${ranker} | ${r.n} | ${r.errors} | ${r.file.acc1.toFixed(1)} | ${r.file.acc5.toFixed(1)} | ${r.file.mrr.toFixed(3)} | ` +
      (r.fn ? `${r.fn.instances} | ${r.fn.acc1.toFixed(1)} | ${r.fn.acc5.toFixed(1)} |` : "– | – | – |"),
  );
  return [head, ...body].join("\n");
}

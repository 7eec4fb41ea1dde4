/**
 * A ranker assembled from cheap signals, each switchable, so the research can measure them one by one
 * and together. The final score of a file is its base text score divided by the best file's (so every
 * signal lives on a 0-1 scale), plus weighted extras:
 *
 *   base        plain BM25 over path + content | BM25F over fields | chunk BM25 aggregated per file
 *   chunkMix    + w · (best chunk score of the file / best chunk score overall)
 *   definitions + w · (Σ idf of the code identifiers the file defines / the best file's)
 *   paths       + w · [the issue points at the file: traceback frame, `x/y.py`, dotted module path]
 *
 * and two adjustments: query tokens that the issue writes as code (identifierBoost) weigh more, and
 * files outside the shipped code (docs, examples, benchmarks, setup.py, conftest.py) are scaled by
 * nonSource.
 */
import { queryWeights } from "../bm25.ts";
import type { Ranker, RankRequest } from "../ranker.ts";
import type { FieldWeights } from "./field-index.ts";
import { mentionMatches, queryFeatures, STOP_WORDS, type QueryFeatures } from "./query-features.ts";
import { RepoSignals } from "./repo-signals.ts";

export interface SignalConfig {
  /** How query tokens count: each distinct token once (the protocol's BM25), by count, or by √count. */
  repeats: "once" | "count" | "sqrt";
  stopWords: boolean;
  /** Keep only the first n characters of the issue (0: all). */
  maxChars: number;
  base: { kind: "whole" } | { kind: "fields"; weights: FieldWeights } | { kind: "chunks"; aggregate: "max" | "top2" | "top3" | "sum" };
  chunkMix: number;
  definitions: number;
  paths: number;
  /** Multiplier of query tokens the issue writes as code identifiers (1: none). */
  identifierBoost: number;
  /** Multiplier of the final score of files outside the shipped code (1: none). */
  nonSource: number;
}

export const PLAIN: SignalConfig = {
  repeats: "once",
  stopWords: false,
  maxChars: 0,
  base: { kind: "whole" },
  chunkMix: 0,
  definitions: 0,
  paths: 0,
  identifierBoost: 1,
  nonSource: 1,
};

export function weightsOf(config: SignalConfig, features: QueryFeatures): Map<string, number> {
  const counts = queryWeights(features.tokens.filter((t) => !(config.stopWords && STOP_WORDS.has(t))));
  for (const [t, n] of counts) {
    const w = config.repeats === "once" ? 1 : config.repeats === "sqrt" ? Math.sqrt(n) : n;
    counts.set(t, features.identifiers.has(t) ? w * config.identifierBoost : w);
  }
  return counts;
}

function normalized(scores: Map<string, number>): Map<string, number> {
  let max = 0;
  for (const v of scores.values()) if (v > max) max = v;
  if (max <= 0) return new Map();
  const out = new Map<string, number>();
  for (const [k, v] of scores) out.set(k, v / max);
  return out;
}

/** Chunk scores folded to files. `key` names the query, so variants asking the same share one scoring. */
function chunkScores(signals: RepoSignals, key: string, query: Map<string, number>, aggregate: "max" | "top2" | "top3" | "sum"): Map<string, number> {
  const perFile = signals.cached(`chunks:${key}`, () => {
    const files = new Map<string, number[]>();
    for (const [id, s] of signals.chunks.score(query)) {
      const path = id.slice(0, id.lastIndexOf("#"));
      const list = files.get(path);
      if (list) list.push(s);
      else files.set(path, [s]);
    }
    for (const list of files.values()) list.sort((a, b) => b - a);
    return files;
  });
  const take = aggregate === "max" ? 1 : aggregate === "top2" ? 2 : aggregate === "top3" ? 3 : Infinity;
  const out = new Map<string, number>();
  for (const [path, list] of perFile) {
    out.set(
      path,
      list.slice(0, take).reduce((a, b) => a + b, 0),
    );
  }
  return out;
}

/** Ranks the files of `signals` (already synced to the corpus) for one issue. */
export function rankWithSignals(signals: RepoSignals, text: string, config: SignalConfig): string[] {
  const features = queryFeatures(config.maxChars > 0 ? text.slice(0, config.maxChars) : text);
  const query = weightsOf(config, features);
  const key = `${config.repeats}|${config.stopWords}|${config.maxChars}|${config.identifierBoost}|${text}`;
  const base =
    config.base.kind === "whole"
      ? signals.cached(`whole:${key}`, () => signals.whole.score(query))
      : config.base.kind === "fields"
        ? signals.fields.score(query, config.base.weights)
        : chunkScores(signals, key, query, config.base.aggregate);
  const total = normalized(base);
  const add = (extra: Map<string, number>, w: number) => {
    for (const [k, v] of extra) total.set(k, (total.get(k) ?? 0) + w * v);
  };
  if (config.chunkMix > 0) add(normalized(chunkScores(signals, key, query, "max")), config.chunkMix);
  if (config.definitions > 0) add(definitionScores(signals, features), config.definitions);
  if (config.paths > 0) add(pathScores(signals, features), config.paths);
  if (config.nonSource !== 1) for (const [k, v] of total) if (isNonSource(k)) total.set(k, v * config.nonSource);
  return [...signals.files.keys()].sort((a, b) => (total.get(b) ?? 0) - (total.get(a) ?? 0) || (a < b ? -1 : a > b ? 1 : 0));
}

const NON_SOURCE_DIR = /^(?:docs?|examples?|galleries|tutorials?|benchmarks?|asv_bench|tools|scripts|ci|release)\//;
const NON_SOURCE_FILE = /(?:^|\/)(?:setup|conftest|conf)\.py$/;

/** Files a fix rarely touches: documentation, examples, benchmarks, build and test configuration. */
export function isNonSource(path: string): boolean {
  return NON_SOURCE_DIR.test(path) || NON_SOURCE_FILE.test(path);
}

/** Files defining identifiers the issue names, weighted by how rare each definition is (0-1). */
export function definitionScores(signals: RepoSignals, features: QueryFeatures): Map<string, number> {
  const n = signals.files.size;
  const scores = new Map<string, number>();
  const wanted = [...features.identifiers].filter((id) => signals.definers.has(id));
  if (wanted.length === 0) return scores;
  for (const [path, a] of signals.files) {
    let s = 0;
    for (const id of wanted) if (a.defined.has(id)) s += Math.log(1 + n / signals.definers.get(id)!);
    if (s > 0) scores.set(path, s);
  }
  return normalized(scores);
}

/** 1 for files the issue points at by path or dotted module name. */
export function pathScores(signals: RepoSignals, features: QueryFeatures): Map<string, number> {
  const scores = new Map<string, number>();
  const modules = new Set(features.modulePaths);
  for (const path of signals.files.keys()) {
    if (features.pathMentions.some((m) => mentionMatches(path, m)) || modules.has(path) || [...modules].some((m) => path.endsWith("/" + m)))
      scores.set(path, 1);
  }
  return scores;
}

export function createSignalRanker(name: string, config: SignalConfig): Ranker {
  const signals = new RepoSignals();
  return {
    name,
    async rank(req: RankRequest) {
      signals.sync(req.corpus);
      return rankWithSignals(signals, req.query, config);
    },
  };
}

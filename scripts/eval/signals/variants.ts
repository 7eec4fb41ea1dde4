/**
 * The signal configurations the research measures, each one change from the plain BM25 floor (the
 * first row) unless its name joins several with "+". The last rows are the combinations.
 */
import { PLAIN, type SignalConfig } from "./signal-ranker.ts";

const v = (name: string, change: Partial<SignalConfig>) => ({ name, config: { ...PLAIN, ...change } as SignalConfig });
const fields = (path: number, defs: number, doc: number, code: number) => ({ kind: "fields" as const, weights: { path, defs, doc, code } });

const C4: Partial<SignalConfig> = {
  stopWords: true,
  base: fields(3, 3, 0.5, 1),
  definitions: 0.5,
  paths: 0.5,
  chunkMix: 0.5,
  nonSource: 0.5,
  identifierBoost: 2,
  repeats: "count",
};

export const VARIANTS: Array<{ name: string; config: SignalConfig }> = [
  v("plain bm25", {}),
  v("query: repeats counted", { repeats: "count" }),
  v("query: stop words removed", { stopWords: true }),
  v("query: first 2000 chars", { maxChars: 2000 }),
  v("bm25f: all fields 1", { base: fields(1, 1, 1, 1) }),
  v("bm25f: path 3", { base: fields(3, 1, 1, 1) }),
  v("bm25f: path 3 defs 3", { base: fields(3, 3, 1, 1) }),
  v("bm25f: doc 0.5", { base: fields(1, 1, 0.5, 1) }),
  v("chunks: max", { base: { kind: "chunks", aggregate: "max" } }),
  v("chunks: sum top 2", { base: { kind: "chunks", aggregate: "top2" } }),
  v("file + 0.5 chunk max", { chunkMix: 0.5 }),
  v("file + 1.0 chunk max", { chunkMix: 1 }),
  v("definitions 0.5", { definitions: 0.5 }),
  v("definitions 1.0", { definitions: 1 }),
  v("path mentions 0.5", { paths: 0.5 }),
  v("defs 0.5 + paths 0.5", { definitions: 0.5, paths: 0.5 }),
  v("defs 0.5 + paths 0.5 + chunk 0.5", { definitions: 0.5, paths: 0.5, chunkMix: 0.5 }),
  v("query: identifiers x2", { identifierBoost: 2 }),
  v("query: identifiers x3", { identifierBoost: 3 }),
  v("non-source files x0.5", { nonSource: 0.5 }),
  v("stop words + bm25f doc 0.5 + defs 0.5 + paths 0.5 + chunk 0.5", {
    stopWords: true,
    base: fields(1, 1, 0.5, 1),
    definitions: 0.5,
    paths: 0.5,
    chunkMix: 0.5,
  }),
  v("C1: stop words + bm25f path 3 defs 3 doc 0.5 + defs 0.5 + paths 0.5 + chunk 0.5", {
    stopWords: true,
    base: fields(3, 3, 0.5, 1),
    definitions: 0.5,
    paths: 0.5,
    chunkMix: 0.5,
  }),
  v("C2: C1 + non-source x0.5", { stopWords: true, base: fields(3, 3, 0.5, 1), definitions: 0.5, paths: 0.5, chunkMix: 0.5, nonSource: 0.5 }),
  v("C3: C2 + identifiers x2", {
    stopWords: true,
    base: fields(3, 3, 0.5, 1),
    definitions: 0.5,
    paths: 0.5,
    chunkMix: 0.5,
    nonSource: 0.5,
    identifierBoost: 2,
  }),
  v("C4: C3 + repeats counted", C4),
  // Leave one signal out of C4: what each contributes inside the combination.
  v("C4 without definitions", { ...C4, definitions: 0 }),
  v("C4 without path mentions", { ...C4, paths: 0 }),
  v("C4 without chunk mix", { ...C4, chunkMix: 0 }),
  v("C4 without bm25f (plain path + content)", { ...C4, base: { kind: "whole" } }),
  v("C4 without stop words", { ...C4, stopWords: false }),
  v("C4 without non-source prior", { ...C4, nonSource: 1 }),
  v("C4 without identifier weighting", { ...C4, identifierBoost: 1 }),
  v("C4 without repeats (= C3)", { ...C4, repeats: "once" }),
];

/** The combination the research recommends (see docs/benchmarks.md, "Retrieval"); `--ranker signals` runs it. */
export const RECOMMENDED = VARIANTS.find((x) => x.name.startsWith("C4:"))!;

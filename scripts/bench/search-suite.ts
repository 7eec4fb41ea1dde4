/**
 * Search benchmark: index a corpus (in-process, its own CORTEX_HOME), then time queries against the
 * search engine — keyword, and hybrid with the tiny model's vectors (so the query embedding is near zero
 * and what is timed is retrieval, fusion and ranking) — as p50 / p95 over a fixed query set, plus the
 * time until the first search can answer after start-up (opening the index, loading cached vectors) and
 * the memory in use. The peer for keyword retrieval is ripgrep listing the files that mention the
 * query's words, in the same run.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Corpus } from "./corpora.ts";
import { type BenchRow, percentile } from "./run.ts";

/** Questions about go-src (the search suite's, and the warm queries' of the index suite). */
export const GO_QUESTIONS = [
  "how are http requests retried after a timeout",
  "parse a duration string",
  "ReadFull",
  "tls handshake certificate verification",
  "where is the garbage collector triggered",
  "json encoding of struct tags",
  "sync.RWMutex",
  "open a file for writing and create directories",
  "goroutine leak in the scheduler",
  "compute a sha256 checksum",
  "template execution escapes html",
  "sort a slice with a custom comparator",
  "DNS resolver configuration",
  "bufio.Scanner token too long",
  "unicode normalization of strings",
  "signal handling on unix",
  "zip archive reader",
  "cookie parsing in the http server",
  "regexp compile syntax error",
  "atomic compare and swap",
];

export async function searchSuite(corpus: Corpus): Promise<BenchRow[]> {
  const home = mkdtempSync(join(tmpdir(), "cortex-bench-search-"));
  process.env.CORTEX_HOME = join(home, ".cortex");
  process.env.CORTEX_OFFLINE = "1";
  const model = join(home, "tiny");
  const { writeTinyModel } = await import("../make-tiny-model.ts");
  writeTinyModel(model);
  mkdirSync(join(corpus.root, ".cortex"), { recursive: true });
  writeFileSync(join(corpus.root, ".cortex", "config.yml"), `embeddings:\n  model: tiny\n  model_path: ${model}\n`);
  const { Session } = await import("../../src/tools/session.ts");
  const { chunkCount } = await import("../../src/store/chunk-search.ts");

  const indexing = new Session(corpus.root);
  await indexing.index();
  const embedded = await indexing.embedAll(() => {});
  indexing.close();

  // start-up as a server or CLI meets it: a new session, first search answering with vectors loaded
  const startedAt = performance.now();
  const session = new Session(corpus.root, { oneShot: true });
  const engine = await session.search();
  await engine.search({ query: "warm up", limit: 10, mode: "hybrid" });
  const startupMs = performance.now() - startedAt;
  const chunks = chunkCount(session.store()!);

  const time = async (mode: "keyword" | "hybrid", onePerFile: boolean) => {
    const ms: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const query of GO_QUESTIONS) {
        const t = performance.now();
        await engine.search({ query, limit: 15, mode, onePerFile });
        ms.push(performance.now() - t);
      }
    }
    return ms;
  };
  const keyword = await time("keyword", false);
  const hybrid = await time("hybrid", false);
  const files = await time("keyword", true);
  // search_codebase: file ranking plus enrichment and, for edit, the preflight; the first call also runs
  // the team-pattern analysis (every file read), which later calls reuse
  const codebase = await session.codebaseSearch();
  let t = performance.now();
  await codebase.run({ query: GO_QUESTIONS[0]!, intent: "edit", limit: 5, filters: {}, includeSnippets: false });
  const codebaseFirst = performance.now() - t;
  const enriched: number[] = [];
  for (const query of GO_QUESTIONS) {
    t = performance.now();
    await codebase.run({ query, intent: "edit", limit: 5, filters: {}, includeSnippets: false });
    enriched.push(performance.now() - t);
  }
  Bun.gc(true);
  const heapMb = process.memoryUsage().rss / (1 << 20);

  // ripgrep listing the files that contain each query's longest word, same corpus, same run
  const rg: number[] = [];
  for (const q of GO_QUESTIONS) {
    const word = q.split(/\W+/).sort((a, b) => b.length - a.length)[0]!;
    const t = performance.now();
    const p = Bun.spawn(["rg", "-l", "-i", "--fixed-strings", word, corpus.root], { stdout: "ignore", stderr: "ignore" });
    await p.exited;
    rg.push(performance.now() - t);
  }
  session.close();
  return [
    { metric: "chunks in the index", value: chunks, unit: "chunks" },
    { metric: "embeddings", value: embedded === "ready" ? 1 : 0, unit: "ready", note: embedded },
    { metric: "start-up to first hybrid answer", value: startupMs, unit: "ms", note: "open index, load cached vectors, first query" },
    { metric: "keyword search p50", value: percentile(keyword, 50), unit: "ms" },
    { metric: "keyword search p95", value: percentile(keyword, 95), unit: "ms" },
    { metric: "hybrid search p50 (tiny-model query vector)", value: percentile(hybrid, 50), unit: "ms" },
    { metric: "hybrid search p95", value: percentile(hybrid, 95), unit: "ms" },
    { metric: "file ranking (one_per_file) p50", value: percentile(files, 50), unit: "ms" },
    { metric: "file ranking p95", value: percentile(files, 95), unit: "ms" },
    { metric: "search_codebase (edit, limit 5) first call", value: codebaseFirst, unit: "ms", note: "includes the team-pattern analysis" },
    { metric: "search_codebase (edit, limit 5) p50", value: percentile(enriched, 50), unit: "ms", note: `p95 ${percentile(enriched, 95).toFixed(0)} ms` },
    { metric: "resident memory after the runs", value: heapMb, unit: "MiB" },
    { metric: "peer: rg -l (longest word) p50", value: percentile(rg, 50), unit: "ms", note: "lists files only; no ranking" },
  ];
}

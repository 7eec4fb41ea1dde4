/**
 * Embedding benchmark: what embedding a codebase costs on this machine, on both ONNX runtimes (native
 * onnxruntime-node, WebAssembly onnxruntime-web), with
 *   - the tiny test model (the fixed cost of worker, tokenizer, pipeline and cache), and
 *   - a random-weight model of bge-small-en-v1.5's exact shape (scripts/bench/synthetic-bert.ts): the
 *     inference cost of the default model, since no real model can be downloaded here;
 * plus query latency (idle, and while a background batch runs), the calling thread's longest stall while
 * the worker computes, and the vector cache's operations at 100k vectors of 384 dimensions.
 *
 * Chunks are 30-line windows spread evenly over the corpus's source files.
 *
 *   bun scripts/bench.ts embed [corpus] [chunks=96] [models,vectors]   (the parts to run; both by default)
 */
import { mkdtempSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { Corpus } from "./corpora.ts";
import type { BenchRow } from "./run.ts";
import { SCRATCH } from "./corpora.ts";
import { readText, sourceFiles, writeSyntheticBert } from "./synthetic-bert.ts";
import { writeTinyModel } from "../make-tiny-model.ts";
import { createEmbeddingProvider, Embedder, VectorIndex, type ChunkText } from "../../src/embed/index.ts";
import { EmbeddingCache } from "../../src/store/embedding-cache.ts";
import { configSchema } from "../../src/core/config.ts";
import { sha256 } from "../../src/core/hash.ts";

const EXTENSIONS = [".go", ".py", ".ts", ".js", ".rs", ".java", ".c", ".rb"];

function sampleChunks(root: string, count: number): ChunkText[] {
  const windows: string[] = [];
  for (const f of sourceFiles(root, EXTENSIONS)) {
    const lines = readText(f).split("\n");
    for (let i = 0; i < lines.length; i += 30) {
      const w = lines.slice(i, i + 30).join("\n");
      if (w.trim().length > 0) windows.push(w);
    }
  }
  const step = Math.max(1, Math.floor(windows.length / count));
  const picked: string[] = [];
  for (let i = 0; i < windows.length && picked.length < count; i += step) picked.push(windows[i]!);
  return picked.map((text) => ({ textHash: sha256(text), text }));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/** The longest gap between 5 ms timer ticks on this thread while `work` runs: how long the thread stalled. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 5);
    last = now;
  }, 5);
  try {
    const result = await work();
    return { result, stallMs: Math.max(0, worst) };
  } finally {
    clearInterval(timer);
  }
}

async function modelRows(label: string, modelDir: string, backend: "native" | "wasm", chunks: ChunkText[], extra: ChunkText[]): Promise<BenchRow[]> {
  const home = mkdtempSync(join(tmpdir(), "cortex-bench-embed-"));
  const config = configSchema.parse({ embeddings: { model: label, model_path: modelDir } }).embeddings;
  const provider = createEmbeddingProvider(config, { home, offline: true, env: { CORTEX_ONNX_BACKEND: backend } });
  const cache = EmbeddingCache.open(provider.id, { home, recipe: provider.recipe });
  const embedder = new Embedder(provider, cache);
  const note = `${backend}, batch ${provider.batchSize}`;

  let t = performance.now();
  await provider.ready();
  const loadMs = performance.now() - t;

  t = performance.now();
  const { stallMs } = await longestStall(async () => {
    embedder.submit(chunks);
    await embedder.idle();
  });
  const embedS = (performance.now() - t) / 1000;
  if (embedder.progress().embedded !== chunks.length) throw new Error(`${label}/${backend}: embedded ${embedder.progress().embedded} of ${chunks.length}`);

  const idle: number[] = [];
  for (let i = 0; i < 7; i++) {
    t = performance.now();
    await embedder.embedQuery(`where is the request handler for query number ${i}`);
    idle.push(performance.now() - t);
  }

  // queries while passage batches are being computed: each waits at most for the batch in flight
  embedder.submit(extra);
  const busy: number[] = [];
  while (embedder.progress().queued > 0 && busy.length < 5) {
    t = performance.now();
    await embedder.embedQuery("open the database connection");
    busy.push(performance.now() - t);
    await Bun.sleep(100);
  }
  await embedder.idle();
  await embedder.close();

  return [
    { metric: `${label}: model load`, value: loadMs, unit: "ms", note },
    { metric: `${label}: passages`, value: chunks.length / embedS, unit: "chunks/s", note: `${note}, ${chunks.length} chunks` },
    { metric: `${label}: calling thread's longest stall while embedding`, value: stallMs, unit: "ms", note },
    { metric: `${label}: query latency, idle (median of 7)`, value: median(idle), unit: "ms", note },
    { metric: `${label}: query latency during background batches (median)`, value: median(busy), unit: "ms", note: `${note}, ${busy.length} queries` },
    { metric: `${label}: query latency during background batches (max)`, value: Math.max(...busy), unit: "ms", note },
  ];
}

async function tokensPerChunk(modelDir: string, chunks: ChunkText[]): Promise<number> {
  const { AutoTokenizer, env } = await import("@huggingface/transformers");
  env.allowRemoteModels = false;
  const tok = await AutoTokenizer.from_pretrained(modelDir);
  let total = 0;
  for (const c of chunks) total += Math.min(512, (tok.encode(c.text) as number[]).length);
  return total / chunks.length;
}

function cacheRows(): BenchRow[] {
  const home = mkdtempSync(join(tmpdir(), "cortex-bench-cache-"));
  const cache = EmbeddingCache.open("bench:cache", { home });
  const n = 100_000;
  const dims = 384;
  const hashes = Array.from({ length: n }, (_, i) => sha256(`chunk ${i}`));
  const vector = new Float32Array(dims).map((_, i) => Math.sin(i));
  let t = performance.now();
  for (let i = 0; i < n; i += 1000) cache.put(hashes.slice(i, i + 1000).map((hash) => ({ hash, vector })));
  const putMs = performance.now() - t;
  t = performance.now();
  cache.coverage(hashes);
  const coverageColdMs = performance.now() - t;
  t = performance.now();
  const cov = cache.coverage(hashes);
  const coverageMs = performance.now() - t;
  t = performance.now();
  const missing = cache.missing(hashes);
  const missingMs = performance.now() - t;
  t = performance.now();
  const got = cache.get(hashes);
  const getMs = performance.now() - t;
  if (cov.cached !== n || missing.length !== 0 || got.size !== n) throw new Error("cache benchmark read back the wrong data");
  cache.close();
  const bytes = statSync(cache.path).size;
  return [
    { metric: "cache: put 100k × 384-d (batches of 1000)", value: putMs, unit: "ms" },
    { metric: "cache: coverage of 100k hashes, first call (loads the hash set)", value: coverageColdMs, unit: "ms" },
    { metric: "cache: coverage of 100k hashes, later calls", value: coverageMs, unit: "ms" },
    { metric: "cache: missing among 100k hashes (submit)", value: missingMs, unit: "ms" },
    { metric: "cache: get 100k vectors", value: getMs, unit: "ms" },
    { metric: "cache: file size at 100k vectors", value: bytes / 2 ** 20, unit: "MiB" },
  ];
}

/** Exact top-100 over 100k vectors of 384 dimensions: the vector half of a hybrid search. */
function vectorIndexRows(): BenchRow[] {
  const n = 100_000;
  const dims = 384;
  const index = new VectorIndex(dims, n);
  let s = 12345;
  const unit = () => {
    const v = new Float32Array(dims);
    let sum = 0;
    for (let j = 0; j < dims; j++) {
      v[j] = (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32 - 0.5;
      sum += v[j]! * v[j]!;
    }
    const norm = Math.sqrt(sum);
    for (let j = 0; j < dims; j++) v[j]! /= norm;
    return v;
  };
  const made = Array.from({ length: n }, unit);
  let t = performance.now();
  for (let i = 0; i < n; i++) index.set(`h${i}`, made[i]!);
  const buildMs = performance.now() - t;
  const times: number[] = [];
  for (let q = 0; q < 21; q++) {
    const query = unit();
    t = performance.now();
    index.search(query, 100);
    times.push(performance.now() - t);
  }
  const filtered: number[] = [];
  const allowed = new Set(Array.from({ length: n / 10 }, (_, i) => `h${i * 10}`));
  for (let q = 0; q < 11; q++) {
    const query = unit();
    t = performance.now();
    index.search(query, 100, (k) => allowed.has(k));
    filtered.push(performance.now() - t);
  }
  return [
    { metric: "vector index: add 100k × 384-d", value: buildMs, unit: "ms" },
    { metric: "vector index: top-100 of 100k (median of 21)", value: median(times), unit: "ms", note: "exact, one thread" },
    { metric: "vector index: top-100 of 100k, 10% allowed by a filter (median of 11)", value: median(filtered), unit: "ms" },
  ];
}

export async function embedSuite(corpus: Corpus, args: string[]): Promise<BenchRow[]> {
  const count = Number(args[0] ?? 96);
  const parts = new Set((args[1] ?? "models,vectors").split(","));
  // the machine may be shared: a load above its core count inflates every time below
  const rows: BenchRow[] = [{ metric: "load average at start (1 min)", value: loadavg()[0]!, unit: "", note: "runnable tasks; 2 cores here" }];
  if (parts.has("models")) {
    const all = sampleChunks(corpus.root, count * 2);
    const chunks = all.slice(0, count);
    const extra = all.slice(count);
    const tiny = writeTinyModel(join(SCRATCH, "models", "tiny"));
    const synthetic = writeSyntheticBert(join(SCRATCH, "models", `synthetic-bge-small-${corpus.name}`), () =>
      sourceFiles(corpus.root, EXTENSIONS).slice(0, 3000).map(readText),
    );
    rows.push({
      metric: "chunk size (synthetic tokenizer)",
      value: await tokensPerChunk(synthetic, chunks),
      unit: "tokens",
      note: "30-line windows, capped at 512",
    });
    for (const backend of ["native", "wasm"] as const) {
      rows.push(...(await modelRows("tiny model", tiny, backend, chunks, extra)));
      rows.push(...(await modelRows("bge-small-shaped model", synthetic, backend, chunks, extra)));
    }
  }
  if (parts.has("vectors")) rows.push(...cacheRows(), ...vectorIndexRows());
  return rows;
}

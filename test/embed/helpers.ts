/**
 * Test helpers for embeddings: the tiny model written into a temporary folder, a Hugging Face hub
 * look-alike on 127.0.0.1 that serves it (so downloads run the real code path), and cosine similarity.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildVocabulary, TINY_DIMENSIONS, tinyModelFiles, tinyOnnxGraph, writeTinyModel } from "../../scripts/make-tiny-model.ts";

/** A fresh temporary folder, removed by the returned function. */
export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `cortex-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The tiny model in its own temporary folder. */
export function tinyModelFolder(): { dir: string; remove(): void } {
  const t = tempDir("tiny-model");
  writeTinyModel(t.dir);
  return t;
}

export interface HubServer {
  url: string;
  /** Paths requested, in order. */
  requests: string[];
  stop(): void;
}

/**
 * Serves the tiny model (or the given files) under any model id in the hub layout (`/<id>/resolve/main/<file>`).
 * `mode: "stall"` accepts requests and never answers; `"missing"` answers 404 for everything.
 */
export function hubServer(mode: "serve" | "stall" | "missing" = "serve", files: Record<string, string | Uint8Array> = tinyModelFiles()): HubServer {
  const requests: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      requests.push(path);
      if (mode === "stall") {
        await new Promise(() => {});
      }
      const m = /^\/(.+?)\/resolve\/main\/(.+)$/.exec(path);
      const body = m && mode === "serve" ? files[m[2]!] : undefined;
      if (body === undefined) return new Response("Entry not found", { status: 404 });
      return new Response(body, { headers: { "content-type": "application/octet-stream" } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/`, requests, stop: () => server.stop(true) };
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
}

export function norm(v: Float32Array): number {
  let s = 0;
  for (const x of v) s += x * x;
  return Math.sqrt(s);
}

import { configSchema } from "../../src/core/config.ts";
import type { EmbeddingConfig } from "../../src/embed/index.ts";

/** An embeddings config with the project's defaults filled in, as loadConfig would produce it. */
export function embeddingConfig(fields: Record<string, unknown> = {}): EmbeddingConfig {
  return configSchema.parse({ embeddings: fields }).embeddings;
}

/**
 * The tiny model made `extra` dimensions wider (each vocabulary row padded with zeros): the same meaning
 * in another vector size, for tests of a model replaced inside its folder.
 */
export function widerTinyModelFiles(extra: number): Record<string, string | Uint8Array> {
  const vocab = buildVocabulary();
  const dims = TINY_DIMENSIONS + extra;
  const rows = vocab.tokens.length;
  const vectors = new Float32Array(rows * dims);
  for (let r = 0; r < rows; r++) vectors.set(vocab.vectors.subarray(r * TINY_DIMENSIONS, (r + 1) * TINY_DIMENSIONS), r * dims);
  const graph = tinyOnnxGraph("cortex-tiny-embedding-wider", vectors, rows, dims);
  const files = tinyModelFiles();
  const config = JSON.parse(files["config.json"] as string) as Record<string, unknown>;
  return { ...files, "config.json": JSON.stringify({ ...config, hidden_size: dims }, null, 2), "onnx/model.onnx": graph, "onnx/model_quantized.onnx": graph };
}

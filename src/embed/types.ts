/**
 * The embedding provider contract. A provider turns texts into vectors; it may need time to become
 * usable (a model to download and load, a server to probe), may never become usable (offline, no
 * server, bad key), and reports which through `state()` instead of crashing its caller.
 */

/** Queries and passages are embedded differently by instruction-tuned models (bge, e5, nomic). */
export type EmbedKind = "query" | "passage";

export type ProviderState =
  /** Created; nothing loaded yet (ready() starts the work). */
  | { status: "idle" }
  /** Downloading or loading the model, or probing the server. `progress` is 0..1 when known. */
  | { status: "loading"; detail: string; progress?: number }
  | { status: "ready" }
  /** Cannot embed; `reason` is one line for people ("offline and model not present", "HTTP 401 …"). */
  | { status: "unavailable"; reason: string };

export interface EmbeddingProvider {
  /**
   * Stable identity of the vectors this provider makes (provider kind, model, weights variant, server):
   * names the shared vector cache, so two providers with the same id must produce the same vectors.
   */
  readonly id: string;
  /** The model name as configured. */
  readonly model: string;
  /**
   * A fingerprint of everything else that shapes the vectors (prefixes, pooling, normalisation); the cache
   * drops vectors made under another recipe.
   */
  readonly recipe: string;
  /** Length of every vector; known once ready() has resolved. */
  readonly dimensions: number | undefined;
  /** Texts per embed() call the provider handles well (the Embedder's batch size). */
  readonly batchSize: number;
  state(): ProviderState;
  /**
   * Starts loading (once) and resolves when embed() can run. Rejects with a CortexError
   * EMBEDDINGS_UNAVAILABLE whose message is the reason; state() then says the same.
   */
  ready(): Promise<void>;
  /**
   * One vector per text, in order, each of `dimensions` floats (unit length for local models). Adds the
   * model's query or passage prefix itself. Rejects with DEADLINE when `signal` aborts first.
   */
  embed(texts: string[], kind: EmbedKind, signal?: AbortSignal): Promise<Float32Array[]>;
  /** Releases the worker or connections; pending calls reject. */
  close(): Promise<void>;
}

/** What createEmbeddingProvider needs besides the config. */
export interface ProviderOptions {
  /** CORTEX_HOME (models are kept in `<home>/models`). */
  home: string;
  /** Project root, for a relative `model_path`. Defaults to the current directory. */
  root?: string;
  /** Forbid model downloads. Defaults to CORTEX_OFFLINE=1. */
  offline?: boolean;
  /** Where models are downloaded from (Hugging Face hub layout). Defaults to HF_ENDPOINT or https://huggingface.co. */
  hubUrl?: string;
  /** Environment to read the HTTP provider's API key from (defaults to process.env). */
  env?: Record<string, string | undefined>;
  /** A model download that receives no byte for this long (ms) is abandoned. Default 60 s. */
  stallMs?: number;
  /** How long an unavailable provider waits before ready() tries again (ms). Default 30 s. */
  retryAfterMs?: number;
}

/** The vector cache as the Embedder uses it (src/store/embedding-cache.ts implements it). */
export interface VectorCache {
  readonly dimensions: number | undefined;
  ensureDimensions(dimensions: number): void;
  get(hashes: Iterable<string>): Map<string, Float32Array>;
  missing(hashes: Iterable<string>): string[];
  coverage(hashes: Iterable<string>): { total: number; cached: number };
  put(entries: Iterable<{ hash: string; vector: Float32Array }>): void;
  close(): void;
}

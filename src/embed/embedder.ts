/**
 * The Embedder keeps a project's chunks embedded: given chunks ({textHash, text}), it embeds in the
 * background, batch by batch, only the texts the shared cache lacks, stores each batch's vectors as soon
 * as they exist, and tells the search engine how far it has got.
 *
 * Search never waits on it. status() counts the given hashes against the cache's in-memory hash set and
 * says "ready", "partial 42%" or "unavailable: <why>" (a search engine tracks its own count and uses
 * embeddingsLabel(), as the vector channel does); embedQuery() refuses at once (EMBEDDINGS_UNAVAILABLE) while the model is still
 * loading instead of holding a query hostage to a download. Only one passage batch is in flight at a
 * time, and the local worker lets a query in between two micro-batches of it, so a query waits for at
 * most a few passages' worth of inference.
 *
 * Texts are embedded shortest first: batches of similar lengths waste little on padding, and coverage
 * climbs fastest. Another process (a second worktree) embedding the same texts is noticed before each
 * batch through the shared cache, so their work is not repeated.
 */
import { CortexError, errorMessage } from "../core/errors.ts";
import { log } from "../core/log.ts";
import type { EmbeddingProvider, ProviderState, VectorCache } from "./types.ts";

/** A chunk as the Embedder needs it: the hash of its text (the cache key) and the text. */
export interface ChunkText {
  textHash: string;
  text: string;
}

export interface EmbedderProgress {
  /**
   * idle: nothing queued; loading: waiting for the provider (model download or load); embedding: working
   * through the queue; stopped: the provider is unavailable, the queue is kept for when it returns.
   */
  activity: "idle" | "loading" | "embedding" | "stopped";
  /** Texts waiting to be embedded (the batch in flight included). */
  queued: number;
  /** Texts this Embedder has embedded and stored. */
  embedded: number;
  /** Texts given up on after repeated failures (they are retried when submitted again). */
  failed: number;
}

export interface EmbeddingStatus {
  /** "ready" | "partial 42%" | "unavailable: <why>", for a search result's `embeddings` field. */
  label: string;
  state: "ready" | "partial" | "unavailable";
  /** Distinct texts asked about, and how many have a vector. */
  total: number;
  cached: number;
  provider: ProviderState;
  progress: EmbedderProgress;
}

export type VectorListener = (entries: Array<{ hash: string; vector: Float32Array }>) => void;

/**
 * The label a search result carries: "unavailable: <why>" when the provider cannot embed, "ready" when it can
 * and every text has a vector, else "partial N%" with N floored (so "100%" is never shown while a text still
 * lacks its vector; "partial 100%" means every text has one but the model is still loading).
 */
export function embeddingsLabel(provider: ProviderState, cached: number, total: number): { label: string; state: EmbeddingStatus["state"] } {
  if (provider.status === "unavailable") return { label: `unavailable: ${provider.reason}`, state: "unavailable" };
  if (provider.status === "ready" && cached >= total) return { label: "ready", state: "ready" };
  // Nothing to embed (an empty index, a first build under way) lacks no vector while a model loads, but when
  // nothing has asked for one yet (idle) whether one can be had is unknown: that was called "ready" too, so a
  // first build without any loadable model reported ready embeddings. Status reports settle() first.
  if (total === 0 && provider.status === "loading") return { label: "ready", state: "ready" };
  const pct = total === 0 ? 100 : Math.floor((Math.min(cached, total) / total) * 100);
  return { label: `partial ${pct}%`, state: "partial" };
}

export interface EmbedderOptions {
  /** Texts per batch; defaults to the provider's batch size. */
  batchSize?: number;
  /** Called after each batch and whenever the activity changes. */
  onProgress?(progress: EmbedderProgress): void;
  /** Tries per batch before its texts count as failed. Default 3. */
  attempts?: number;
  /** Pause before retrying a failed batch (ms); doubles each time. Default 500. */
  retryDelayMs?: number;
}

export class Embedder {
  readonly provider: EmbeddingProvider;
  readonly cache: VectorCache;
  private readonly options: EmbedderOptions;
  private pending: ChunkText[] = [];
  private sorted = true;
  private readonly queued = new Set<string>();
  private inFlight: ChunkText[] = [];
  private running: Promise<void> | undefined;
  private abort = new AbortController();
  private activity: EmbedderProgress["activity"] = "idle";
  private embedded = 0;
  private failed = 0;
  private closed = false;
  private readonly listeners = new Set<VectorListener>();
  /** The size of the vectors last handed out (vectors(), vectorSlices(), listeners). */
  private served: number | undefined;

  constructor(provider: EmbeddingProvider, cache: VectorCache, options: EmbedderOptions = {}) {
    this.provider = provider;
    this.cache = cache;
    this.options = options;
  }

  /**
   * Queues the chunks whose text the cache lacks and starts embedding them in the background. Returns at
   * once with how many were queued and how many were already cached. The vectors of those already cached
   * go to the listeners too (a slice at a time, in the background): a caller submits what it found missing,
   * so these are texts another process stored since it looked, and its index is waiting for them.
   */
  submit(chunks: Iterable<ChunkText>): { queued: number; cached: number } {
    if (this.closed) throw new CortexError("EMBEDDINGS_UNAVAILABLE", "the embedder is closed");
    const byHash = new Map<string, string>();
    for (const c of chunks) {
      if (typeof c.textHash !== "string" || c.textHash.length === 0) throw new CortexError("INVALID_INPUT", "textHash: must be a non-empty string");
      if (typeof c.text !== "string") throw new CortexError("INVALID_INPUT", `text of ${c.textHash}: must be a string`);
      if (!this.queued.has(c.textHash)) byHash.set(c.textHash, c.text);
    }
    const missing = this.cache.missing(byHash.keys());
    if (missing.length < byHash.size) {
      const isMissing = new Set(missing);
      void this.deliverCached([...byHash.keys()].filter((h) => !isMissing.has(h)));
    }
    for (const hash of missing) {
      this.pending.push({ textHash: hash, text: byHash.get(hash)! });
      this.queued.add(hash);
    }
    if (missing.length > 0) {
      this.sorted = false;
      this.kick();
    }
    return { queued: missing.length, cached: byHash.size - missing.length };
  }

  /**
   * Calls `listener` with each stored batch, and with the vectors of submitted texts another process
   * stored first (so a search index can add vectors as they arrive); returns an unsubscribe.
   */
  onVectors(listener: VectorListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  progress(): EmbedderProgress {
    return { activity: this.activity, queued: this.pending.length + this.inFlight.length, embedded: this.embedded, failed: this.failed };
  }

  /**
   * How embedded a set of texts is, and whether queries can be embedded. One pass over the hashes (about
   * 0.3 s for 100k on a busy 2-core machine): for occasional checks; per search, count incrementally.
   */
  status(hashes: Iterable<string>): EmbeddingStatus {
    const provider = this.provider.state();
    const { total, cached } = this.cache.coverage(hashes);
    const progress = this.progress();
    // Work stopped by an unavailable provider resumes once it can be had again (the provider rate-limits
    // its own retries, so asking on every search costs nothing).
    if (this.activity === "stopped" && this.pending.length > 0 && !this.closed) this.kick();
    const problem = this.dimensionProblem();
    const label = problem ? { label: `unavailable: ${problem}`, state: "unavailable" as const } : embeddingsLabel(provider, cached, total);
    return { ...label, total, cached, provider, progress };
  }

  /** The stored vectors of these texts (synchronous: for a few thousand at most; see vectorSlices). */
  vectors(hashes: Iterable<string>): Map<string, Float32Array> {
    return this.noteServed(this.cache.get(hashes));
  }

  /** Notes the size of vectors handed out (the consumer's index holds them): see dimensionProblem(). */
  private noteServed(vectors: Map<string, Float32Array>): Map<string, Float32Array> {
    for (const v of vectors.values()) {
      this.served = v.length;
      break;
    }
    return vectors;
  }

  /**
   * The stored vectors of a large set, a slice at a time, yielding to the event loop between slices: reading
   * 100k vectors takes seconds, which must not stall a server's other requests. Ends early, without an
   * error, once the Embedder is closed: a session closing mid-load must not read from a closed cache.
   */
  async *vectorSlices(hashes: Iterable<string>, sliceSize = 2000): AsyncGenerator<Map<string, Float32Array>> {
    const all = [...new Set(hashes)];
    for (let i = 0; i < all.length && !this.closed; i += sliceSize) {
      yield this.noteServed(this.cache.get(all.slice(i, i + sliceSize)));
      await new Promise<void>((r) => setImmediate(r));
    }
  }

  /**
   * Starts loading the model in the background when the cache holds vectors of it (a project was embedded
   * with it), so that a server's first queries can use them: the model otherwise loads on the first query,
   * which is then answered by keywords alone. Returns at once; true when loading was started. Without such
   * vectors nothing is started (no worker, no download): a project that never embedded costs nothing.
   */
  warm(): boolean {
    if (this.closed || this.cache.dimensions === undefined || this.provider.state().status !== "idle") return false;
    // a failure is the provider's state, reported by searches
    this.provider.ready().then(
      () => log.info(`embeddings: ${this.provider.model} loaded ahead of the first query`),
      () => {},
    );
    return true;
  }

  /**
   * When nothing has asked the provider for its model yet, asks now and waits up to `ms` for it to be loaded
   * or found unavailable, so that a state read next says which: a status report must not call embeddings
   * "ready" when no model can be had. A load already under way is not waited for (reports stay quick).
   */
  async settle(ms: number): Promise<void> {
    if (this.closed || this.provider.state().status !== "idle") return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.provider.ready().catch(() => {}), new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
  }

  /** Whether embedQuery() can answer now (the provider is loaded). */
  queryReady(): boolean {
    return this.provider.state().status === "ready";
  }

  /**
   * The query's vector. Refuses at once with EMBEDDINGS_UNAVAILABLE (data.state says why) when the
   * provider is not ready, and starts loading it for the next query; never waits for a model to load.
   */
  async embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array> {
    const state = this.provider.state();
    if (state.status !== "ready") {
      if (state.status === "idle") this.provider.ready().catch(() => {});
      const why = state.status === "unavailable" ? state.reason : state.status === "loading" ? state.detail : "the model is not loaded yet";
      throw new CortexError("EMBEDDINGS_UNAVAILABLE", `query embedding unavailable: ${why}`, { data: { state: state.status } });
    }
    const [v] = await this.provider.embed([text], "query", signal);
    // A query vector of another size than the project's vectors can rank nothing: refused like a model that
    // is not there (the caller falls back to keywords), never passed on to fail as the caller's mistake.
    const problem = this.dimensionProblem(v!.length);
    if (problem) throw new CortexError("EMBEDDINGS_UNAVAILABLE", `query embedding unusable: ${problem}`, { data: { state: "dimensions" } });
    return v!;
  }

  /**
   * Why the model's vectors cannot be compared with those handed out so far (the project's vector index
   * holds those), or undefined when they can. It happens when the model changed under the same identity (an
   * OpenAI-compatible server now serving another model under the name, model files replaced while a process
   * ran): it lasts until vectors of the new size are handed out, which reconcileDimensions() sets going.
   */
  dimensionProblem(made = this.provider.state().status === "ready" ? this.provider.dimensions : undefined): string | undefined {
    if (made === undefined || this.served === undefined || made === this.served) return undefined;
    return (
      `the model ${this.provider.model} makes ${made}-dimensional vectors, the project's vectors have ${this.served} ` +
      "(the model changed since they were made): keyword ranking until they are made again (cortex index --embed)"
    );
  }

  /**
   * Once the model is loaded, drops cached vectors of another size than it makes (they can never be compared
   * with a query of this model) so that every text counts as missing and is embedded again. True when it
   * dropped them: the caller re-reads what is missing. Cheap; called before each look at the cache.
   */
  reconcileDimensions(): boolean {
    const made = this.provider.state().status === "ready" ? this.provider.dimensions : undefined;
    const held = this.cache.dimensions;
    if (made === undefined || held === undefined || held === made) return false;
    log.warn(`embeddings: ${this.provider.model} now makes ${made}-dimensional vectors, the cache held ${held}-dimensional ones; embedding again`);
    this.cache.ensureDimensions(made);
    return true;
  }

  /** Resolves when the queue is empty, or the provider is unavailable and embedding has stopped. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Drops everything queued and abandons the batch in flight. */
  cancel(): void {
    this.pending = [];
    this.queued.clear();
    this.abort.abort();
    this.abort = new AbortController();
  }

  /** Cancels, then closes the provider and the cache (the Embedder owns both). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cancel();
    await this.provider.close();
    await this.idle();
    this.cache.close();
  }

  private setActivity(a: EmbedderProgress["activity"]): void {
    if (this.activity === a) return;
    this.activity = a;
    this.options.onProgress?.(this.progress());
  }

  private kick(): void {
    this.running ??= this.run().finally(() => {
      this.running = undefined;
      // a submit() between the loop's last check and this moment found the run still set and did not start one
      if (this.activity === "idle" && this.pending.length > 0 && !this.closed) this.kick();
    });
  }

  private async run(): Promise<void> {
    const state = this.provider.state().status;
    if (state !== "ready") {
      // an unavailable provider may refuse at once (its retry pause): stay "stopped" rather than flicker
      if (state !== "unavailable") this.setActivity("loading");
      try {
        await this.provider.ready();
      } catch (e) {
        this.setActivity(this.closed ? "idle" : "stopped");
        log.info(`embedding paused: ${errorMessage(e)}`);
        return;
      }
    }
    this.cache.ensureDimensions(this.provider.dimensions!);
    const size = this.options.batchSize ?? this.provider.batchSize;
    while (this.pending.length > 0 && !this.closed) {
      this.setActivity("embedding");
      if (!this.sorted) {
        this.pending.sort((a, b) => a.text.length - b.text.length);
        this.sorted = true;
      }
      let batch = this.pending.splice(0, size);
      // Another process may have embedded some of these meanwhile (shared cache): their vectors are
      // handed on as if stored here, or a search index waiting for them would never get them.
      const still = new Set(this.cache.missing(batch.map((c) => c.textHash)));
      const storedElsewhere = batch.filter((c) => !still.has(c.textHash)).map((c) => c.textHash);
      for (const h of storedElsewhere) this.queued.delete(h);
      if (storedElsewhere.length > 0) this.deliver([...this.cache.get(storedElsewhere)].map(([hash, vector]) => ({ hash, vector })));
      batch = batch.filter((c) => still.has(c.textHash));
      if (batch.length === 0) continue;
      this.inFlight = batch;
      const outcome = await this.embedBatch(batch);
      this.inFlight = [];
      if (outcome === "stop") {
        // Keep the batch for when the provider returns (unless it was cancelled meanwhile).
        if (!this.closed && this.provider.state().status === "unavailable") {
          for (const c of batch) if (this.queued.has(c.textHash)) this.pending.unshift(c);
        }
        this.setActivity(this.closed ? "idle" : "stopped");
        return;
      }
      this.options.onProgress?.(this.progress());
    }
    this.setActivity("idle");
  }

  private async deliverCached(hashes: string[]): Promise<void> {
    try {
      for await (const slice of this.vectorSlices(hashes)) this.deliver([...slice].map(([hash, vector]) => ({ hash, vector })));
    } catch (e) {
      log.warn(`reading cached vectors failed: ${errorMessage(e)}`);
    }
  }

  /** Hands vectors now in the cache to the listeners (a listener's failure is logged, never the batch's). */
  private deliver(entries: Array<{ hash: string; vector: Float32Array }>): void {
    if (entries.length === 0) return;
    this.served = entries[0]!.vector.length;
    for (const l of this.listeners) {
      try {
        l(entries);
      } catch (e) {
        log.error(`a vector listener failed: ${(e as Error).stack ?? e}`);
      }
    }
  }

  /** Embeds and stores one batch, retrying transient failures. "stop" when the provider is gone. */
  private async embedBatch(batch: ChunkText[]): Promise<"done" | "stop"> {
    const attempts = this.options.attempts ?? 3;
    const signal = this.abort.signal;
    for (let attempt = 1; ; attempt++) {
      try {
        const vectors = await this.provider.embed(
          batch.map((c) => c.text),
          "passage",
          signal,
        );
        if (signal.aborted) return "done";
        const entries = batch.map((c, i) => ({ hash: c.textHash, vector: vectors[i]! }));
        this.cache.put(entries);
        for (const c of batch) this.queued.delete(c.textHash);
        this.embedded += batch.length;
        this.deliver(entries);
        return "done";
      } catch (e) {
        if (signal.aborted || (e instanceof CortexError && e.code === "DEADLINE")) return "done";
        if (this.provider.state().status === "unavailable") return "stop";
        if (attempt >= attempts) {
          log.warn(`embedding ${batch.length} texts failed ${attempts} times, skipping them: ${errorMessage(e)}`);
          for (const c of batch) this.queued.delete(c.textHash);
          this.failed += batch.length;
          return "done";
        }
        await Bun.sleep((this.options.retryDelayMs ?? 500) * 2 ** (attempt - 1));
      }
    }
  }
}

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
  // nothing to embed (an empty index) lacks no vector, whether or not the model has loaded
  if ((provider.status === "ready" && cached >= total) || total === 0) return { label: "ready", state: "ready" };
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
    return { ...embeddingsLabel(provider, cached, total), total, cached, provider, progress };
  }

  /** The stored vectors of these texts (synchronous: for a few thousand at most; see vectorSlices). */
  vectors(hashes: Iterable<string>): Map<string, Float32Array> {
    return this.cache.get(hashes);
  }

  /**
   * The stored vectors of a large set, a slice at a time, yielding to the event loop between slices: reading
   * 100k vectors takes seconds, which must not stall a server's other requests. Ends early, without an
   * error, once the Embedder is closed: a session closing mid-load must not read from a closed cache.
   */
  async *vectorSlices(hashes: Iterable<string>, sliceSize = 2000): AsyncGenerator<Map<string, Float32Array>> {
    const all = [...new Set(hashes)];
    for (let i = 0; i < all.length && !this.closed; i += sliceSize) {
      yield this.cache.get(all.slice(i, i + sliceSize));
      await new Promise<void>((r) => setImmediate(r));
    }
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
    return v!;
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

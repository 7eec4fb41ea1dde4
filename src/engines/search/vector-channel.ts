/**
 * The vector side of hybrid search (a VectorChannel): the project's chunk vectors, from the shared vector
 * cache and the Embedder, held in an in-memory VectorIndex keyed by text hash (chunks with equal text share
 * one vector), kept in step with the index database.
 *
 * Nothing here makes a search wait. When the index changes (its `last_run` moves, seen by refresh(), which
 * searches and state readers await first), the channel re-reads the chunks' hashes, loads the vectors the
 * cache already has a slice at a time in the background, and — once the provider is ready — submits the
 * texts the cache lacks to the Embedder; vectors it stores arrive through its listener. state() is O(1);
 * search() answers [] until a query can be embedded.
 */
import type { ChunkFilters, VectorReader, IndexStateReader } from "../../store/contract.ts";
import { hasFilters } from "../../store/chunk-filters.ts";
import { embeddingsLabel, VectorIndex, type Embedder } from "../../embed/index.ts";
import { isCortexError } from "../../core/errors.ts";
import { log } from "../../core/log.ts";
import type { EmbeddingsState, VectorChannel } from "./index.ts";

/**
 * The query's vector, or undefined when no model can embed it now or the call's deadline passed: the
 * vector channel then adds nothing and the other channels answer.
 */
export async function queryVector(embedder: Embedder, query: string, signal?: AbortSignal): Promise<Float32Array | undefined> {
  try {
    return await embedder.embedQuery(query, signal);
  } catch (e) {
    if (isCortexError(e) && (e.code === "EMBEDDINGS_UNAVAILABLE" || e.code === "DEADLINE")) return undefined;
    throw e;
  }
}

export class EmbeddingVectorChannel implements VectorChannel {
  private readonly store: VectorReader & IndexStateReader;
  private readonly embedder: Embedder;
  private index: VectorIndex | undefined;
  /** chunk ids by text hash, for the chunks of the current index */
  private idsByHash = new Map<string, string[]>();
  private syncedRun: string | undefined;
  /** Hashes whose texts still have to be handed to the Embedder (waiting for the provider to be ready). */
  private toSubmit: string[] = [];
  private submitting = false;
  private loading: Promise<void> | undefined;
  /** The hashes in `index`. */
  private readonly indexed = new Set<string>();
  private readonly unsubscribe: () => void;
  /** The refresh in progress, shared by concurrent callers. */
  private refreshing: Promise<void> | undefined;

  constructor(store: VectorReader & IndexStateReader, embedder: Embedder) {
    this.store = store;
    this.embedder = embedder;
    this.unsubscribe = embedder.onVectors((entries) => {
      for (const e of entries) if (this.idsByHash.has(e.hash)) this.add(e.hash, e.vector);
    });
  }

  /** The state as of the last refresh (callers refresh first: SearchEngine does). */
  state(): EmbeddingsState {
    // the model changed size under the same identity: say why searches are keyword-ranked (sync() re-embeds)
    const problem = this.embedder.dimensionProblem();
    if (problem) return `unavailable: ${problem}`;
    const { label } = embeddingsLabel(this.embedder.provider.state(), this.index?.size ?? 0, this.idsByHash.size);
    return label as EmbeddingsState;
  }

  async search(query: string, k: number, filters: ChunkFilters, signal?: AbortSignal): Promise<Array<{ id: string; score: number }>> {
    await this.refresh();
    if (!this.index || this.index.size === 0) return [];
    const vector = await queryVector(this.embedder, query, signal);
    // vectors of another size (the model changed meanwhile) rank nothing; the state says why
    if (vector === undefined || vector.length !== this.index.dimensions) return [];
    const filtered = hasFilters(filters);
    const allowedIds = filtered ? new Set((await this.store.chunkHashes(filters)).map((c) => c.id)) : undefined;
    const accept = allowedIds ? (hash: string) => (this.idsByHash.get(hash) ?? []).some((id) => allowedIds.has(id)) : undefined;
    const out: Array<{ id: string; score: number }> = [];
    // several chunks may share a text: expand each hash to its (allowed) chunks until k are found
    for (const hit of this.index.search(vector, k, accept)) {
      for (const id of this.idsByHash.get(hit.key) ?? []) {
        if (allowedIds && !allowedIds.has(id)) continue;
        out.push({ id, score: hit.score });
        if (out.length >= k) return out;
      }
    }
    return out;
  }

  async prepare(timeoutMs: number): Promise<void> {
    await this.loaded();
    if (!this.index || this.index.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.embedder.provider.ready().catch(() => {}), new Promise<void>((r) => (timer = setTimeout(r, timeoutMs)))]);
    if (timer) clearTimeout(timer);
  }

  /**
   * Waits until every chunk of the index has a vector (or embedding turns out impossible), reporting the
   * state as it goes: `cortex index --embed`.
   */
  async embedAll(onState: (state: EmbeddingsState) => void, signal?: AbortSignal): Promise<EmbeddingsState> {
    // "ready" needs a ready model: when the cache already holds every vector nothing would load it
    this.embedder.provider.ready().catch(() => {});
    for (;;) {
      await this.refresh();
      const s = this.state();
      onState(s);
      // a changed model's vectors being made again (dimensionProblem) are waited for, as any others
      const remaking = this.embedder.dimensionProblem() !== undefined && (this.toSubmit.length > 0 || this.submitting || this.embedder.progress().queued > 0);
      if (s === "ready" || (s.startsWith("unavailable") && !remaking) || signal?.aborted) return s;
      await Bun.sleep(250);
    }
  }

  /** Stops following the Embedder (the Embedder itself belongs to the session). */
  close(): void {
    this.unsubscribe();
  }

  /** Re-reads the chunks when the index has changed, and hands missing texts on once they can be embedded. */
  refresh(): Promise<void> {
    this.refreshing ??= this.sync().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async sync(): Promise<void> {
    if (this.embedder.reconcileDimensions()) {
      // the cache dropped vectors of the model's former size: read everything again, so all is re-embedded
      this.syncedRun = undefined;
      this.index = undefined;
      this.indexed.clear();
    }
    const run = (await this.store.meta("last_run")) ?? "";
    if (run !== this.syncedRun) {
      const chunks = await this.store.chunkHashes();
      this.syncedRun = run;
      const byHash = new Map<string, string[]>();
      for (const c of chunks) {
        const ids = byHash.get(c.hash);
        if (ids) ids.push(c.id);
        else byHash.set(c.hash, [c.id]);
      }
      this.idsByHash = byHash;
      // texts no longer in the project leave the index
      for (const h of this.indexed) {
        if (byHash.has(h)) continue;
        this.index?.delete(h);
        this.indexed.delete(h);
      }
      const hashes = [...byHash.keys()];
      this.toSubmit = this.embedder.cache.missing(hashes);
      this.loading = this.load(hashes.filter((h) => !this.index?.has(h)));
    }
    this.submit();
  }

  private add(hash: string, vector: Float32Array): void {
    if (!this.index || vector.length !== this.index.dimensions) {
      // first vector, or the provider's model changed size: start over at the new size
      this.index = new VectorIndex(vector.length, Math.max(1024, this.idsByHash.size));
      this.indexed.clear();
    }
    this.index.set(hash, vector);
    this.indexed.add(hash);
  }

  /** Loads the cached vectors of these hashes, a slice at a time, without holding up requests. */
  private async load(hashes: string[]): Promise<void> {
    const run = this.syncedRun;
    try {
      for await (const slice of this.embedder.vectorSlices(hashes)) {
        if (run !== this.syncedRun) return; // the index changed again: a newer load took over
        for (const [hash, vector] of slice) if (this.idsByHash.has(hash)) this.add(hash, vector);
      }
    } catch (e) {
      log.warn(`loading cached vectors failed: ${(e as Error).message}`);
    }
  }

  /**
   * Submits the texts the cache lacks once the provider is ready (asking it to get ready otherwise), so a
   * project's whole text is never queued in memory behind a provider that cannot embed.
   */
  private submit(): void {
    if (this.toSubmit.length === 0 || this.submitting) return;
    const provider = this.embedder.provider;
    if (provider.state().status !== "ready") {
      this.submitting = true;
      provider.ready().then(
        () => {
          this.submitting = false;
          this.submit();
        },
        () => {
          this.submitting = false; // unavailable: the provider says when to try again
        },
      );
      return;
    }
    const hashes = this.toSubmit;
    this.toSubmit = [];
    this.submitting = true;
    this.store.chunkTextsByHash(hashes).then(
      (texts) => {
        this.submitting = false;
        this.embedder.submit([...texts].map(([textHash, text]) => ({ textHash, text })));
      },
      (e: Error) => {
        this.submitting = false;
        log.warn(`reading chunk texts to embed failed: ${e.message}`);
      },
    );
  }

  /** Resolves when the vectors the cache had at the last index change are loaded (for tests and benchmarks). */
  async loaded(): Promise<void> {
    await this.refresh();
    await this.loading;
  }
}

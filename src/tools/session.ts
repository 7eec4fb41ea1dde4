/**
 * The composition root: one Session per project root wires the config, the index (opened lazily,
 * reopened when a rebuild publishes a new database) and the engines built over it. The CLI and the MCP
 * server each hold one; tests build one over a temporary CORTEX_HOME.
 */
import { canonicalRoot } from "../core/paths.ts";
import { loadConfig, type CortexConfig } from "../core/config.ts";
import { CortexError, describeSystemError, errorMessage, isCortexError } from "../core/errors.ts";
import { log } from "../core/log.ts";
import { isLockHeld } from "../core/lock.ts";
import { indexLocation, type IndexLocation } from "../store/location.ts";
import { openIndexReader } from "../store/open-reader.ts";
import { IndexStore } from "../store/index-store.ts";
import type { IndexReader, ParseTierState, StoredVectorReader } from "../store/contract.ts";
import type { RepoInfo } from "../store/postgres/repos.ts";
import { runIndex, type IndexOptions, type IndexReport } from "../indexer/pipeline.ts";
import { runIndexOnThread } from "./index-thread.ts";
import { INDEX_HOOKS } from "./index-hooks.ts";
import { FilesEngine } from "../engines/files/index.ts";
import { ExactEngine } from "../engines/exact/index.ts";
import { SearchEngine } from "../engines/search/index.ts";
import { MemoryEngine } from "../engines/memory/index.ts";
import { MetadataEngine } from "../engines/metadata/index.ts";
import { StyleEngine } from "../engines/style/index.ts";
import { PatternsEngine } from "../engines/team-patterns/index.ts";
import { SymbolsEngine } from "../engines/symbols/index.ts";
import { GraphEngine } from "../engines/graph/index.ts";
import { CodebaseSearch } from "../engines/codebase-search/index.ts";
import { MemoryStats } from "../store/stats-ndjson.ts";
import { checkProjectRoot, resolveInsideRoot, cortexHome } from "../core/paths.ts";
import { createCrossEncoder, createEmbeddingProvider, Embedder, type CrossEncoder } from "../embed/index.ts";
import { EmbeddingCache } from "../store/embedding-cache.ts";
import { EmbeddingVectorChannel } from "../engines/search/vector-channel.ts";
import { StoredVectorChannel } from "../engines/search/stored-vector-channel.ts";
import type { Reranker, RerankSettings, VectorChannel } from "../engines/search/index.ts";
import { statSync } from "node:fs";
import { join } from "node:path";

export interface SessionOptions {
  /** One command, then exit (the CLI): searches wait for cached vectors and the model instead of skipping them. */
  oneShot?: boolean;
  /** Index the project on first use when it has no index yet (the CLI does; the server indexes in the background). */
  autoIndex?: boolean;
  /** Run index runs on a thread of their own (a long-lived server: tool calls never wait behind the indexer). */
  indexOnThread?: boolean;
  onIndexProgress?: IndexOptions["onProgress"];
  /**
   * Answer from a shared store's repositories (`reader`) instead of the project's own index;
   * get_indexing_status reports the store's repositories.
   */
  shared?: { reader: IndexReader; store: SharedStoreView };
  /**
   * Use this session's embedding model and cross-encoder rather than loading new ones: a shared-store
   * server keeps a session per repository scope, and one model per process is enough for all of them.
   */
  models?: Session;
  /**
   * Where the project's embeddings live when not here: a long-lived server's reader thread runs the
   * searches and holds the model, so the server's own session asks it for the embeddings state instead of
   * loading a second model and embedding every chunk a second time.
   */
  embeddingsState?: () => Promise<string>;
}

/** A shared store as a session reading it sees it (the URL with its password masked). */
export interface SharedStoreView {
  url: string;
  /** The repositories this session reads, with their commit, generation and freshness. */
  repos(): Promise<RepoInfo[]>;
}

const NO_MEMORIES: Pick<MemoryEngine, "recall"> = { recall: async () => ({ memories: [], total: 0 }) };

export class Session {
  readonly root: string;
  readonly config: CortexConfig;
  readonly location: IndexLocation;
  private readonly options: SessionOptions;
  private current: { path: string; reader: IndexReader } | undefined;
  /** Why the current index database could not be opened (damaged, another version's), until one opens. */
  damagedIndex: string | undefined;
  /** The current database as a synchronous store, opened only when asked for (store()). */
  private inspected: { path: string; store: IndexStore } | undefined;
  private engines = new Map<string, unknown>();
  private indexing: Promise<IndexReport> | undefined;
  private statsFiles = new Map<string, { mtimeMs: number; stats: MemoryStats; engine: FilesEngine }>();
  private listeners = new Set<(report: IndexReport) => void>();
  private memoryEngine: MemoryEngine | undefined;
  private embedderInstance: Embedder | undefined;
  private vectorChannel: EmbeddingVectorChannel | undefined;
  private crossEncoderInstance: CrossEncoder | undefined;
  /** Why the last index run failed, until one succeeds: what a tool says when there is no index. */
  private lastIndexFailure: string | undefined;
  /** Progress of the run in progress (its tier: text, then parse), for status and `indexing_required` answers. */
  progress: { phase: "text" | "parse"; done: number; total: number } | undefined;

  constructor(root: string, options: SessionOptions = {}) {
    this.root = canonicalRoot(root);
    this.config = loadConfig(this.root);
    this.location = indexLocation(this.root);
    this.options = options;
  }

  /**
   * The shared store this session reads instead of a working tree's index, or undefined for a local
   * project. Its files are nowhere on this machine: tools neither compare them with the disk nor read it.
   */
  get sharedStore(): SharedStoreView | undefined {
    return this.options.shared?.store;
  }

  /** The current index's reader, or undefined when none has been built. */
  reader(): IndexReader | undefined {
    if (this.options.shared) return this.options.shared.reader;
    const path = this.location.current();
    if (!path) return undefined;
    if (this.current?.path === path) return this.current.reader;
    void this.current?.reader.close();
    this.current = undefined;
    this.engines.clear();
    try {
      this.current = { path, reader: openIndexReader(path) };
    } catch (e) {
      // an index of another cortex version (or a damaged one) is as good as none: it gets rebuilt
      if (isCortexError(e) && e.code === "INDEX_CORRUPT") {
        log.warn(e.message);
        this.damagedIndex = e.message;
        return undefined;
      }
      throw e;
    }
    this.damagedIndex = undefined;
    return this.current.reader;
  }

  /**
   * The current index as its synchronous SQLite store, for what inspects the database itself: the CLI's
   * statistics export, tests and benchmarks. Engines and tools read through reader() instead.
   */
  store(): IndexStore | undefined {
    const path = this.reader()?.source;
    if (!path) return undefined;
    if (this.inspected?.path !== path) {
      this.inspected?.store.close();
      this.inspected = { path, store: IndexStore.open(path, { readonly: true }) };
    }
    return this.inspected.store;
  }

  /** The current index as its synchronous store (see store()), building the index first when allowed and missing. */
  async requireStore(): Promise<IndexStore> {
    await this.requireReader();
    return this.store()!;
  }

  /** How far the current index's parse tier is; undefined when it is complete or there is no index. */
  async parseTierState(): Promise<ParseTierState | undefined> {
    return this.reader()?.parseTierState();
  }

  /** The current index's reader, building the index first when allowed and missing. */
  async requireReader(): Promise<IndexReader> {
    let s = this.reader();
    if (s) return s;
    if (this.options.autoIndex) {
      await this.index();
      s = this.reader();
      if (s) return s;
    }
    if (this.indexing) {
      throw new CortexError("INDEX_MISSING", "the index is being built; try again in a moment", { data: { state: "indexing" } });
    }
    // the server's own run failed (a home it cannot write, a full disk): that is the answer, not "run cortex index"
    if (this.lastIndexFailure) throw new CortexError("IO", `no index for ${this.root}: building it failed: ${this.lastIndexFailure}`);
    throw new CortexError("INDEX_MISSING", `no index for ${this.root}: run 'cortex index' first`);
  }

  /** Runs the indexer (incremental unless `full`); concurrent calls share one run. */
  index(opts: { full?: boolean; onProgress?: IndexOptions["onProgress"] } = {}): Promise<IndexReport> {
    if (this.indexing) return this.indexing;
    // a query from / or the home folder would build an index of the whole machine
    if (this.sharedStore === undefined) {
      try {
        checkProjectRoot(this.root);
      } catch (e) {
        return Promise.reject(e);
      }
    }
    const o: Omit<IndexOptions, "hooks"> = {
      root: this.root,
      config: this.config,
      full: opts.full === true,
      onProgress: (p) => {
        if (p.phase === "text" || p.phase === "parse") this.progress = { phase: p.phase, done: p.done, total: p.total };
        this.options.onIndexProgress?.(p);
        opts.onProgress?.(p);
      },
    };
    this.indexing = (this.options.indexOnThread ? runIndexOnThread(o) : runIndex({ ...o, hooks: INDEX_HOOKS }))
      .then(
        (report) => {
          this.lastIndexFailure = undefined;
          return report;
        },
        (e: unknown) => {
          this.lastIndexFailure = isCortexError(e) ? e.message : (describeSystemError(e, cortexHome()) ?? errorMessage(e));
          throw e;
        },
      )
      .then((report) => {
        for (const l of this.listeners) {
          try {
            l(report);
          } catch {}
        }
        return report;
      })
      .finally(() => {
        this.indexing = undefined;
        this.progress = undefined;
      });
    return this.indexing;
  }

  /** Calls `listener` after every completed index run (engines refresh derived state from it). */
  onIndexed(listener: (report: IndexReport) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Waits until no index run is in progress. */
  async idle(): Promise<void> {
    while (this.indexing) await this.indexing.catch(() => {});
  }

  get isIndexing(): boolean {
    return this.indexing !== undefined;
  }

  /** Whether an index run holds the project's writer lock now: this session's, or another process's. */
  get indexRunActive(): boolean {
    return this.isIndexing || isLockHeld(this.location.lockPath);
  }

  /** An engine over the current index, created once per index database. */
  async engine<T>(key: string, make: (reader: IndexReader) => T): Promise<T> {
    const store = await this.requireReader();
    const cached = this.engines.get(key) as T | undefined;
    if (cached !== undefined) return cached;
    const e = make(store);
    this.engines.set(key, e);
    return e;
  }

  /** Team memory (.cortex/memory.json); needs no index. */
  memory(): MemoryEngine {
    this.memoryEngine ??= new MemoryEngine(this.root);
    return this.memoryEngine;
  }

  patterns(): Promise<PatternsEngine> {
    return this.engine("patterns", (s) => new PatternsEngine(s, this.root));
  }

  style(): Promise<StyleEngine> {
    return this.engine("style", (s) => new StyleEngine(s));
  }

  metadata(): Promise<MetadataEngine> {
    return this.engine("metadata", (s) => new MetadataEngine(s, this.root));
  }

  /**
   * The project's Embedder, created on first use (creating it starts nothing: the model loads when there is
   * something to embed); undefined when embeddings are turned off. One per session, so one model per process.
   */
  embedder(): Embedder | undefined {
    if (this.options.models) return this.options.models.embedder();
    if (this.config.embeddings.provider === "none") return undefined;
    if (!this.embedderInstance) {
      const home = cortexHome();
      const provider = createEmbeddingProvider(this.config.embeddings, { home, root: this.root });
      this.embedderInstance = new Embedder(provider, EmbeddingCache.open(provider.id, { home, recipe: provider.recipe }));
    }
    return this.embedderInstance;
  }

  search(): Promise<SearchEngine> {
    return this.engine("search", (s) => {
      this.vectorChannel?.close();
      this.vectorChannel = undefined;
      let vectors: VectorChannel | undefined;
      try {
        const embedder = this.embedder();
        if (embedder) vectors = this.vectorChannel = new EmbeddingVectorChannel(s, embedder);
        // a store holding vectors itself (the shared store with pgvector) finds nearest chunks where they are
        if (embedder && vectors && s.storedVectorDimensions && s.nearestChunks) vectors = new StoredVectorChannel(s as StoredVectorReader, embedder, vectors);
      } catch (e) {
        // a configuration that cannot work (named field and rule) costs semantic ranking, not search
        const why = (e as Error).message;
        log.warn(`embeddings: ${why}`);
        vectors = { state: () => `unavailable: ${why}`, search: async () => [] };
      }
      const rerank = this.reranker();
      return new SearchEngine(s, this.root, vectors, { waitForVectors: this.options.oneShot === true, ...(rerank ? { rerank } : {}) });
    });
  }

  /**
   * The cross-encoder reranker (search.rerank), created on first use and kept for the session (one model
   * per process, like the embedder); undefined when reranking is off or its configuration cannot work.
   */
  private reranker(): { reranker: Reranker; settings: RerankSettings } | undefined {
    const config = this.config.search.rerank;
    if (!config.enabled) return undefined;
    const encoder = this.crossEncoder();
    if (!encoder) return undefined;
    const reranker: Reranker = {
      state: () => {
        const st = encoder.state();
        return st.status === "ready"
          ? "ready"
          : st.status === "unavailable"
            ? `unavailable: ${st.reason}`
            : st.status === "loading"
              ? `loading: ${st.detail}`
              : "idle";
      },
      ready: () => encoder.ready(),
      score: (query, passages, signal) => encoder.score(query, passages, signal),
    };
    return { reranker, settings: { topK: config.top_k, minGap: config.min_gap } };
  }

  /** The session's cross-encoder (or the one of `models`), created on first use; undefined when it cannot work. */
  private crossEncoder(): CrossEncoder | undefined {
    if (this.options.models) return this.options.models.crossEncoder();
    if (!this.crossEncoderInstance) {
      try {
        this.crossEncoderInstance = createCrossEncoder(this.config.search.rerank, { home: cortexHome(), root: this.root });
      } catch (e) {
        log.warn(`reranker: ${(e as Error).message}`);
        return undefined;
      }
    }
    return this.crossEncoderInstance;
  }

  /** The embeddings state a search would report ("ready", "partial 42%", "unavailable: <why>"). */
  async embeddingsState(): Promise<string> {
    if (this.options.embeddingsState) return this.options.embeddingsState();
    return (await this.search()).embeddingsState();
  }

  /** Embeds every chunk the cache lacks, reporting the embeddings state until it is ready or unavailable. */
  async embedAll(onState: (state: string) => void): Promise<string> {
    await this.search();
    if (!this.vectorChannel) {
      const s = await (await this.search()).embeddingsState();
      onState(s);
      return s;
    }
    return this.vectorChannel.embedAll(onState);
  }

  /** search_codebase: search enriched with graph facts, team patterns, memory and the edit preflight. */
  async codebaseSearch(): Promise<CodebaseSearch> {
    const [search, patterns] = await Promise.all([this.search(), this.patterns()]);
    // a shared store holds no working tree, so no team memory: the memories of whatever folder the
    // server happens to run in belong to another project
    const memory = this.options.shared ? NO_MEMORIES : this.memory();
    return this.engine("codebase-search", (s) => new CodebaseSearch(s, search, patterns, memory));
  }

  symbols(): Promise<SymbolsEngine> {
    return this.engine("symbols", (s) => new SymbolsEngine(s, this.root));
  }

  graph(): Promise<GraphEngine> {
    return this.engine("graph", (s) => new GraphEngine(s, this.root, (p) => resolveInsideRoot(this.root, p)));
  }

  files(): Promise<FilesEngine> {
    return this.engine("files", (s) => new FilesEngine(s));
  }

  exact(): Promise<ExactEngine> {
    return this.engine("exact", (s) => new ExactEngine(s, this.root));
  }

  /** A files engine over an NDJSON statistics export inside the project (loaded once per file version). */
  statsFileEngine(path: string): FilesEngine {
    const rel = resolveInsideRoot(this.root, path);
    const abs = join(this.root, rel);
    let mtimeMs = 0;
    try {
      mtimeMs = statSync(abs).mtimeMs;
    } catch {
      throw new CortexError("NOT_FOUND", `stats_file: no such file: ${path}`);
    }
    const cached = this.statsFiles.get(rel);
    if (cached && cached.mtimeMs === mtimeMs) return cached.engine;
    cached?.stats.close();
    const stats = MemoryStats.fromFile(abs, rel);
    const engine = new FilesEngine(stats);
    this.statsFiles.set(rel, { mtimeMs, stats, engine });
    return engine;
  }

  close(): void {
    for (const s of this.statsFiles.values()) s.stats.close();
    this.statsFiles.clear();
    void this.current?.reader.close();
    this.current = undefined;
    this.inspected?.store.close();
    this.inspected = undefined;
    this.engines.clear();
    this.vectorChannel?.close();
    this.vectorChannel = undefined;
    void this.embedderInstance?.close();
    this.embedderInstance = undefined;
    this.crossEncoderInstance?.close();
    this.crossEncoderInstance = undefined;
  }
}

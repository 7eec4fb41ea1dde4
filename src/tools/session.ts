/**
 * The composition root: one Session per project root wires the config, the index (opened lazily,
 * reopened when a rebuild publishes a new database) and the engines built over it. The CLI and the MCP
 * server each hold one; tests build one over a temporary CORTEX_HOME.
 */
import { canonicalRoot } from "../core/paths.ts";
import { loadConfig, type CortexConfig } from "../core/config.ts";
import { CortexError } from "../core/errors.ts";
import { indexLocation, type IndexLocation } from "../store/location.ts";
import { openDatabase } from "../store/db.ts";
import { IndexStore } from "../store/index-store.ts";
import { runIndex, type IndexOptions, type IndexReport } from "../indexer/pipeline.ts";
import { FilesEngine } from "../engines/files/index.ts";
import { ExactEngine } from "../engines/exact/index.ts";

export interface SessionOptions {
  /** Index the project on first use when it has no index yet (the CLI does; the server indexes in the background). */
  autoIndex?: boolean;
  onIndexProgress?: IndexOptions["onProgress"];
}

export class Session {
  readonly root: string;
  readonly config: CortexConfig;
  readonly location: IndexLocation;
  private readonly options: SessionOptions;
  private reader: { path: string; store: IndexStore } | undefined;
  private engines = new Map<string, unknown>();
  private indexing: Promise<IndexReport> | undefined;

  constructor(root: string, options: SessionOptions = {}) {
    this.root = canonicalRoot(root);
    this.config = loadConfig(this.root);
    this.location = indexLocation(this.root);
    this.options = options;
  }

  /** The current index for reading, or undefined when none has been built. */
  store(): IndexStore | undefined {
    const path = this.location.current();
    if (!path) return undefined;
    if (this.reader?.path === path) return this.reader.store;
    this.reader?.store.close();
    this.engines.clear();
    this.reader = { path, store: new IndexStore(openDatabase(path, { readonly: true })) };
    return this.reader.store;
  }

  /** The current index, building it first when allowed and missing. */
  async requireStore(): Promise<IndexStore> {
    let s = this.store();
    if (s) return s;
    if (this.options.autoIndex) {
      await this.index();
      s = this.store();
      if (s) return s;
    }
    if (this.indexing) {
      throw new CortexError("INDEX_MISSING", "the index is being built; try again in a moment", { data: { state: "indexing" } });
    }
    throw new CortexError("INDEX_MISSING", `no index for ${this.root}: run 'cortex index' first`);
  }

  /** Runs the indexer (incremental unless `full`); concurrent calls share one run. */
  index(opts: { full?: boolean } = {}): Promise<IndexReport> {
    if (this.indexing) return this.indexing;
    const o: IndexOptions = { root: this.root, config: this.config, full: opts.full === true };
    if (this.options.onIndexProgress) o.onProgress = this.options.onIndexProgress;
    this.indexing = runIndex(o).finally(() => {
      this.indexing = undefined;
    });
    return this.indexing;
  }

  get isIndexing(): boolean {
    return this.indexing !== undefined;
  }

  /** An engine over the current index, created once per index database. */
  async engine<T>(key: string, make: (store: IndexStore) => T): Promise<T> {
    const store = await this.requireStore();
    const cached = this.engines.get(key) as T | undefined;
    if (cached !== undefined) return cached;
    const e = make(store);
    this.engines.set(key, e);
    return e;
  }

  files(): Promise<FilesEngine> {
    return this.engine("files", (s) => new FilesEngine(s));
  }

  exact(): Promise<ExactEngine> {
    return this.engine("exact", (s) => new ExactEngine(s, this.root));
  }

  close(): void {
    this.reader?.store.close();
    this.reader = undefined;
    this.engines.clear();
  }
}

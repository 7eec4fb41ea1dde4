/**
 * The hybrid search engine behind cortex_search and search_semantic_concept: keyword candidates from the
 * chunks' BM25 index, vector candidates from the embeddings (when a model is ready), fused and
 * re-ranked with structural signals (src/engines/search/rank.ts). Keyword search never waits for
 * embeddings; every response says how complete the embeddings are.
 */
import type { IndexStore } from "../../store/index-store.ts";
import { chunksById, definitionsNamed, keywordSearch, type ChunkFilters } from "../../store/chunk-search.ts";
import { analyzeQuery, type AnalyzedQuery } from "./query.ts";
import { collapse, fuse, rankFiles, type Candidate, type Intent } from "./rank.ts";
import { staleFiles } from "../freshness.ts";

export type SearchMode = "hybrid" | "keyword" | "vector";

/** The state of semantic ranking, as reported with every search. */
export type EmbeddingsState = "ready" | `partial ${number}%` | `unavailable: ${string}`;

/** Where vector candidates come from; the embeddings subsystem implements it. */
export interface VectorChannel {
  state(): EmbeddingsState;
  /**
   * For one-shot callers (the CLI): waits until the cached vectors are loaded and, when there are any, the
   * model can embed a query — at most `timeoutMs`. A long-running server never calls it.
   */
  prepare?(timeoutMs: number): Promise<void>;
  /** Chunk ids by cosine similarity to the query, best first; [] when not ready. */
  search(query: string, k: number, filters: ChunkFilters, signal?: AbortSignal): Promise<Array<{ id: string; score: number }>>;
}

export const KEYWORD_WEIGHTS = { symbols: 4, title: 2, path: 2, body: 1 };

export interface SearchOptions {
  query: string;
  limit: number;
  filters?: ChunkFilters;
  intent?: Intent;
  onePerFile?: boolean;
  mode?: SearchMode;
  signal?: AbortSignal;
}

export interface SearchChunk {
  id: string;
  chunk_type: string;
  title: string;
  text: string;
  tags: string[];
  metadata: Record<string, unknown> & { file_path: string; language: string; start_line: number; end_line: number };
  created_at: string;
  updated_at: string;
}

export interface SearchHit {
  chunk: SearchChunk;
  combined_score: number;
  /** The file changed on disk after it was indexed: the text may be out of date. */
  stale?: boolean;
}

export interface SearchResponse {
  results: SearchHit[];
  total: number;
  mode: SearchMode;
  embeddings: EmbeddingsState;
  took_ms: number;
}

const UNAVAILABLE: VectorChannel = {
  state: () => "unavailable: no embedding provider configured",
  search: async () => [],
};

export class SearchEngine {
  private prepared = false;

  constructor(
    private readonly store: IndexStore,
    private readonly root: string,
    private readonly vectors: VectorChannel = UNAVAILABLE,
    private readonly options: { waitForVectors?: boolean } = {},
  ) {}

  embeddingsState(): EmbeddingsState {
    return this.vectors.state();
  }

  /** Ranked candidates (chunk level) for a query; the shared core of chunk and file searches. */
  async candidates(q: AnalyzedQuery, opts: SearchOptions, pool: number): Promise<{ ranked: Candidate[]; mode: SearchMode }> {
    const filters = opts.filters ?? {};
    if (this.options.waitForVectors && !this.prepared && opts.mode !== "keyword" && this.vectors.prepare) {
      await this.vectors.prepare(60_000);
      this.prepared = true;
    }
    const state = this.vectors.state();
    const wantVector = opts.mode !== "keyword" && state !== undefined && !state.startsWith("unavailable");
    const wantKeyword = opts.mode !== "vector";
    let mode: SearchMode = opts.mode === "vector" ? "vector" : "keyword";
    const byId = new Map<string, Candidate>();
    const ensure = (id: string, filePath: string) => {
      let c = byId.get(id);
      if (!c) byId.set(id, (c = { id, filePath, chunkType: "", symbolPath: null, isTest: false, score: 0 }));
      return c;
    };
    if (wantKeyword) {
      keywordSearch(this.store, q.terms, KEYWORD_WEIGHTS, filters, pool).forEach((h, i) => {
        const c = ensure(h.id, h.filePath);
        c.keywordRank = i + 1;
        c.keywordScore = h.score;
      });
    }
    if (wantVector) {
      const hits = await this.vectors.search(q.raw, pool, filters, opts.signal);
      // hybrid only when vectors actually took part (none while the model loads or nothing is embedded)
      if (hits.length > 0 && opts.mode !== "vector") mode = "hybrid";
      hits.forEach((h, i) => {
        const c = ensure(h.id, "");
        c.vectorRank = i + 1;
        c.vectorScore = h.score;
      });
    }
    const definitions = definitionsNamed(this.store, q.symbols.map((s) => s.split(".").pop()!), filters, 100);
    const definitionIds = new Set(definitions.map((d) => d.id));
    // named definitions join the pool even when the keyword index ranked them low
    for (const d of definitions) ensure(d.id, d.filePath);
    const rows = chunksById(this.store, [...byId.keys()]);
    for (const [id, c] of byId) {
      const r = rows.get(id);
      if (!r) {
        byId.delete(id);
        continue;
      }
      c.filePath = r.file_path as string;
      c.chunkType = r.chunk_type as string;
      c.symbolPath = (r.symbol_path as string | null) ?? null;
      c.isTest = r.is_test === 1;
    }
    return { ranked: fuse(byId, q, opts.intent, definitionIds), mode };
  }

  async search(opts: SearchOptions): Promise<SearchResponse> {
    const started = performance.now();
    const q = analyzeQuery(opts.query);
    const pool = Math.max(100, opts.limit * 5);
    const { ranked, mode } = await this.candidates(q, opts, pool);
    const collapsed = collapse(ranked, opts.onePerFile === true);
    const top = collapsed.slice(0, opts.limit);
    const rows = chunksById(this.store, top.map((c) => c.id));
    const stale = staleFiles(this.store, this.root, top.map((c) => c.filePath));
    const indexedAt = this.store.getMeta("last_run") ?? new Date(0).toISOString();
    const results: SearchHit[] = top.map((c) => {
      const r = rows.get(c.id)!;
      const metadata = {
        source: r.chunk_type === "documentation" ? "documentation" : "code",
        file_path: c.filePath,
        language: r.language as string,
        start_line: r.start_line as number,
        end_line: r.end_line as number,
        ...(r.symbol_path ? { symbol_path: r.symbol_path as string } : {}),
        ...(r.metadata ? (JSON.parse(r.metadata as string) as Record<string, unknown>) : {}),
      };
      const hit: SearchHit = {
        chunk: { id: c.id, chunk_type: r.chunk_type as string, title: r.title as string, text: r.text as string, tags: JSON.parse(r.tags as string) as string[], metadata, created_at: indexedAt, updated_at: indexedAt },
        combined_score: Math.round(c.score * 1e6) / 1e6,
      };
      if (stale.has(c.filePath)) hit.stale = true;
      return hit;
    });
    return { results, total: results.length, mode, embeddings: this.vectors.state(), took_ms: Math.round((performance.now() - started) * 10) / 10 };
  }

  /** Files ranked for a query (the evaluation's unit): chunk scores aggregated per file. */
  async searchFiles(query: string, limit: number, opts: Omit<SearchOptions, "query" | "limit"> = {}): Promise<Array<{ filePath: string; score: number }>> {
    const q = analyzeQuery(query);
    const { ranked } = await this.candidates(q, { ...opts, query, limit }, Math.max(200, limit * 10));
    return rankFiles(ranked).slice(0, limit);
  }
}

export type { ChunkFilters } from "../../store/chunk-search.ts";
export type { Intent } from "./rank.ts";

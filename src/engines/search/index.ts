/**
 * The hybrid search engine behind cortex_search and search_semantic_concept: keyword candidates from the
 * chunks' BM25 index, vector candidates from the embeddings (when a model is ready), fused and
 * re-ranked with structural signals (src/engines/search/rank.ts). Keyword search never waits for
 * embeddings; every response says how complete the embeddings are.
 */
import type { ChunkFilters, ChunkRow, IndexReader } from "../../store/contract.ts";
import { endsWithFullStop, type SubjectStyle } from "../../store/history-store.ts";
import { hasFilters } from "../../store/chunk-filters.ts";
import { analyzeQuery, type AnalyzedQuery } from "./query.ts";
import { identifierParts, openingWord, wordsOf } from "../../core/words.ts";
import { collapse, fuse, RANKING, type Candidate, type Intent } from "./rank.ts";
import { staleFiles } from "../freshness.ts";
import { FUNCTION_RANKING, nameStems, promoteFunctions, shortnessOf, stem, stemShare } from "./function-promotion.ts";
import { definitionSpans, type DefinitionChunk, type DefinitionSpan } from "./function-spans.ts";
import { rerankIfUnsure, type Reranker, type RerankSettings } from "./rerank.ts";
import { LEARNED_WEIGHTS, withLearned } from "./learned-ranking.ts";

export type SearchMode = "hybrid" | "keyword" | "vector";

/** The state of semantic ranking, as reported with every search. */
export type EmbeddingsState = "ready" | `partial ${number}%` | `unavailable: ${string}`;

/** Where vector candidates come from; the embeddings subsystem implements it. */
export interface VectorChannel {
  state(): EmbeddingsState;
  /** Catches up with the index (its chunks may have changed) before state() is read; optional. */
  refresh?(): Promise<void>;
  /**
   * For one-shot callers (the CLI): waits until the cached vectors are loaded and, when there are any, the
   * model can embed a query — at most `timeoutMs`. A long-running server never calls it.
   */
  prepare?(timeoutMs: number): Promise<void>;
  /** Chunk ids by cosine similarity to the query, best first; [] when not ready. */
  search(query: string, k: number, filters: ChunkFilters, signal?: AbortSignal): Promise<Array<{ id: string; score: number }>>;
}

export const KEYWORD_WEIGHTS = { symbols: 4, title: 2, path: 2, body: 1 };

/** Files of the whole-file ranking a long question's chunk list reads its file support from. */
const WHOLE_FILE_SUPPORT = 100;

export interface SearchOptions {
  query: string;
  limit: number;
  filters?: ChunkFilters;
  intent?: Intent;
  onePerFile?: boolean;
  mode?: SearchMode;
  signal?: AbortSignal;
  /**
   * The weighted terms file ranking asks for, in place of the query's own (`AnalyzedQuery.weights`): the
   * evaluation's seam for trying other weightings through the real ranking (scripts/eval/expansion/).
   */
  termWeights?: (q: AnalyzedQuery) => Map<string, number>;
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
  /** What the cross-encoder did to the order, when one is configured (search.rerank.enabled). */
  rerank?: string;
  took_ms: number;
}

const UNAVAILABLE: VectorChannel = {
  state: () => "unavailable: no embedding provider configured",
  search: async () => [],
};

export class SearchEngine {
  private prepared = false;
  private rerankPrepared = false;

  constructor(
    private readonly store: IndexReader,
    private readonly root: string,
    private readonly vectors: VectorChannel = UNAVAILABLE,
    private readonly options: { waitForVectors?: boolean; rerank?: { reranker: Reranker; settings: RerankSettings } } = {},
  ) {}

  async embeddingsState(): Promise<EmbeddingsState> {
    await this.vectors.refresh?.();
    return this.vectors.state();
  }

  /** Ranked candidates (chunk level) for a query; the shared core of chunk and file searches. */
  async candidates(q: AnalyzedQuery, opts: SearchOptions, pool: number): Promise<{ ranked: Candidate[]; mode: SearchMode }> {
    const filters = opts.filters ?? {};
    if (this.options.waitForVectors && !this.prepared && opts.mode !== "keyword" && this.vectors.prepare) {
      await this.vectors.prepare(60_000);
      this.prepared = true;
    }
    await this.vectors.refresh?.();
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
      (await this.store.keywordSearch(q.terms, KEYWORD_WEIGHTS, filters, pool)).forEach((h, i) => {
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
    const definitions = await this.store.definitionsNamed(
      q.symbols.map((s) => s.split(".").pop()!),
      filters,
      100,
    );
    const definitionIds = new Set(definitions.map((d) => d.id));
    // named definitions join the pool even when the keyword index ranked them low
    for (const d of definitions) ensure(d.id, d.filePath);
    // the pool's facts only: the text of the few shown is read once they are chosen
    const rows = await this.store.chunksById([...byId.keys()], { text: false });
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
      if (c.chunkType === "definitions" && typeof r.metadata === "string") {
        const kind = (JSON.parse(r.metadata) as { kind?: unknown }).kind;
        if (typeof kind === "string") c.kind = kind;
      }
    }
    return { ranked: fuse(byId, q, opts.intent, definitionIds), mode };
  }

  async search(opts: SearchOptions): Promise<SearchResponse> {
    const started = performance.now();
    const q = analyzeQuery(opts.query);
    const pool = Math.max(100, opts.limit * 5);
    const { ranked, mode } = await this.candidates(q, opts, pool);
    let top: Candidate[];
    if (opts.onePerFile) {
      // one result per file: files ranked as files (searchFiles), each shown by its best chunk
      const files = await this.searchFiles(opts.query, opts.limit, opts);
      const best = new Map<string, Candidate>();
      for (const c of ranked) if (!best.has(c.filePath)) best.set(c.filePath, c);
      const overview = await this.store.fileOverviewChunks(files.map((f) => f.filePath).filter((p) => !best.has(p)));
      top = files
        .map((f) => {
          const c = best.get(f.filePath) ?? overview.get(f.filePath);
          return c ? { ...c, score: f.score } : undefined;
        })
        .filter((c): c is Candidate => c !== undefined);
    } else {
      // a function that answers leads its file's overview, its class and its neighbours (function-promotion.ts);
      // a long question's file support comes from the whole-file ranking, asked only then (one more ranking)
      const files = shortnessOf(q) < 1 ? await this.searchFiles(opts.query, WHOLE_FILE_SUPPORT, opts) : undefined;
      top = collapse(promoteFunctions(ranked, q, FUNCTION_RANKING, files), false).slice(0, opts.limit);
    }
    const rows = await this.store.chunksById(top.map((c) => c.id));
    let rerank: string | undefined;
    if (this.options.rerank) {
      const { reranker, settings } = this.options.rerank;
      // a one-shot caller (the CLI) waits for the model once, as it does for the embeddings
      if (this.options.waitForVectors && !this.rerankPrepared) {
        this.rerankPrepared = true;
        await reranker.ready().catch(() => {});
      }
      const outcome = await rerankIfUnsure(
        top,
        opts.query,
        reranker,
        settings,
        (c) => c.score,
        (c) => (rows.get(c.id)?.text as string | undefined) ?? "",
        opts.signal,
      );
      top = outcome.order;
      rerank = outcome.note;
    }
    const stale = await staleFiles(
      this.store,
      this.root,
      top.map((c) => c.filePath),
    );
    const indexedAt = (await this.store.meta("last_run")) ?? new Date(0).toISOString();
    const spans = await this.definitionSpansOf(top, rows);
    const results: SearchHit[] = top.map((c, i) => {
      const r = rows.get(c.id)!;
      const definition = spans[i];
      const metadata = {
        source: r.chunk_type === "documentation" ? "documentation" : "code",
        file_path: c.filePath,
        language: r.language as string,
        start_line: r.start_line as number,
        end_line: r.end_line as number,
        ...(r.symbol_path ? { symbol_path: r.symbol_path as string } : {}),
        ...(r.metadata ? (JSON.parse(r.metadata as string) as Record<string, unknown>) : {}),
        // the whole definition, where the chunk is one (or a window of one)
        ...(definition
          ? { qualified_name: definition.qualified_name, definition_lines: { start_line: definition.start_line, end_line: definition.end_line } }
          : {}),
      };
      const hit: SearchHit = {
        chunk: {
          id: c.id,
          chunk_type: r.chunk_type as string,
          title: r.title as string,
          text: r.text as string,
          tags: JSON.parse(r.tags as string) as string[],
          metadata,
          created_at: indexedAt,
          updated_at: indexedAt,
        },
        combined_score: Math.round(c.score * 1e6) / 1e6,
      };
      if (stale.has(c.filePath)) hit.stale = true;
      return hit;
    });
    return {
      results,
      total: results.length,
      mode,
      embeddings: this.vectors.state(),
      ...(rerank !== undefined ? { rerank } : {}),
      took_ms: Math.round((performance.now() - started) * 10) / 10,
    };
  }

  /**
   * Files usually changed together with the leading files gain a share of their score (`weight`: coChange,
   * plus coChangeLong for a long question; × the leader's score × the share of the leader's commits that
   * changed them too): a change to one often needs the other, and the question's words may only name the
   * first. With coChangeCapped a lift stops just below the best leader that lends it.
   */
  private async addCoChanged(total: Map<string, number>, filters: ChunkFilters, weight: number, w: FileRankingWeights): Promise<void> {
    const leaders = [...total.entries()].sort((a, b) => b[1] - a[1]).slice(0, w.coChangeLeaders);
    if (leaders.length === 0) return;
    const history = await this.store.coChanges!(leaders.map(([p]) => p));
    const gains = new Map<string, number>();
    // the best score among the leaders that lend to a file: the lift never carries a file past them
    const lenders = new Map<string, number>();
    for (const [leader, score] of leaders) {
      const h = history.get(leader);
      if (!h || h.commits < w.coChangeMinCommits) continue;
      for (const p of h.partners) {
        if (p.count < w.coChangeMinCommits) continue;
        gains.set(p.file, (gains.get(p.file) ?? 0) + (weight * score * p.count) / h.commits);
        lenders.set(p.file, Math.max(lenders.get(p.file) ?? 0, score));
      }
    }
    if (gains.size === 0) return;
    const passing = hasFilters(filters) ? await this.store.filesPassing([...gains.keys()], filters) : undefined;
    const known = await this.store.filesInfo([...gains.keys()]);
    for (const [p, g] of gains) {
      if (!known.has(p) || (passing && !passing.has(p))) continue;
      if (known.get(p)!.isTest) continue;
      const own = total.get(p) ?? 0;
      const lifted = own + g;
      total.set(p, w.coChangeCapped && lifted >= lenders.get(p)! ? Math.max(own, lenders.get(p)! * 0.999) : lifted);
    }
  }

  /** The definitions the definition chunks among `top` show, by position (undefined for other chunks). */
  private async definitionSpansOf(top: Candidate[], rows: Map<string, ChunkRow>): Promise<Array<DefinitionSpan | undefined>> {
    const wanted: Array<{ at: number; chunk: DefinitionChunk }> = [];
    top.forEach((c, at) => {
      const r = rows.get(c.id);
      if (r?.chunk_type !== "definitions" || !c.symbolPath || typeof r.metadata !== "string") return;
      const name = (JSON.parse(r.metadata) as { name?: unknown }).name;
      if (typeof name !== "string") return;
      wanted.push({ at, chunk: { filePath: c.filePath, symbolPath: c.symbolPath, name, startLine: r.start_line as number, endLine: r.end_line as number } });
    });
    const out: Array<DefinitionSpan | undefined> = top.map(() => undefined);
    if (wanted.length === 0) return out;
    const symbols = await this.store.symbolsOfFiles([...new Set(wanted.map((w) => w.chunk.filePath))]);
    definitionSpans(
      symbols,
      wanted.map((w) => w.chunk),
    ).forEach((span, i) => {
      out[wanted[i]!.at] = span;
    });
    return out;
  }

  /**
   * Files ranked for a query — where to look or what to edit (the evaluation's unit). The score of a file
   * adds, each scaled to the best file's: its own weighted BM25 over path, defined names, comments and code
   * (FILE_RANKING.fields); its best chunk; the definitions it holds of identifiers the query writes as code
   * (rarer names weigh more); whether the query names it (a path, a traceback, a dotted module); and, when
   * embeddings are ready, its best chunk vector. Documentation, examples, benchmarks and build files — which
   * fixes rarely touch — and tests (unless the query is about tests) are scaled down. Weights from the
   * retrieval research on the SWE-bench tune and dev splits (docs/benchmarks.md).
   */
  async searchFiles(query: string, limit: number, opts: Omit<SearchOptions, "query" | "limit"> = {}): Promise<Array<{ filePath: string; score: number }>> {
    const q = analyzeQuery(query);
    const filters = opts.filters ?? {};
    const edit = EDIT_INTENTS.has(opts.intent ?? "explore");
    const w = edit ? HAND_FILE_RANKING : FILE_RANKING;
    // 1 for a question of a few words, falling towards 0 for a pasted issue (SWE-bench's hundreds of words)
    const shortness = Math.min(1, (w.shortQueryTerms / Math.max(1, q.terms.length)) ** 2);
    const total = new Map<string, number>();
    const add = (scores: Map<string, number>, weight: number, power = 1) => {
      let max = 0;
      for (const v of scores.values()) if (v > max) max = v;
      if (max <= 0 || weight === 0) return;
      for (const [k, v] of scores) total.set(k, (total.get(k) ?? 0) + weight * (power === 1 ? v / max : (v / max) ** power));
    };
    // the weights the question's kind moves: a change request or a description (FILE_RANKING.change, describe)
    const k = kindWeights(
      !edit && opts.mode !== "vector" && this.store.subjectStyle ? changeLikeness(q.raw, await this.store.subjectStyle()) : undefined,
      shortness,
      w,
    );
    if (opts.mode !== "vector") {
      const asked = opts.termWeights?.(q) ?? q.weights;
      const weights = rankingWeights(asked, q);
      add(await this.store.weightedFileScores(fileListWeights(asked, q, shortness, w), w.fields, filters), 1, 1 + (k.contentPower - 1) * shortness);
      const bestChunk = new Map<string, number>();
      for (const { filePath, score } of (await this.store.weightedChunkScores(weights, KEYWORD_WEIGHTS, filters)).values()) {
        if (score > (bestChunk.get(filePath) ?? 0)) bestChunk.set(filePath, score);
      }
      add(bestChunk, w.chunk + (k.chunkShort - w.chunk) * shortness, 1 + (k.chunkPower - 1) * shortness);
      // definitions of the identifiers the query names, each weighted by how rare its definition is
      // (a pasted issue's: by each file's rarest one, FILE_RANKING.definitionsRarest)
      const defined = await this.store.definingFiles(q.identifiers);
      if (defined.size > 0) {
        const rarest = shortness <= w.definitionsRarestShortness ? w.definitionsRarest : 0;
        add(definitionScores(defined, await this.store.fileCount(), rarest), k.definitions);
      }
      const named = await existingFiles(this.store, [...q.modulePaths]);
      const mentions = new Map<string, number>(named.map((p) => [p, 1]));
      if (q.paths.length > 0) {
        for (const p of total.keys()) if (q.paths.some((m) => mentionMatches(p, m))) mentions.set(p, 1);
        for (const p of await existingFiles(
          this.store,
          q.paths.map((m) => m.replace(/^\.?\//, "")),
        ))
          mentions.set(p, 1);
      }
      add(mentions, w.mentions);
      // the project's history: files changed by past commits whose subject lines match the question; not
      // for an edit's preflight, whose ready rule was chosen on rankings without it (FILE_RANKING.history)
      if (k.history > 0 && this.store.matchingCommits && !edit) {
        const commits = await this.store.matchingCommits(weights, w.historyCommits);
        add(await indexedOnly(this.store, historyScores(commits)), k.history * shortness * historyConfidence(commits) ** k.historyGate);
      }
    }
    await this.vectors.refresh?.();
    if (opts.mode !== "keyword" && !this.vectors.state().startsWith("unavailable")) {
      const bestVector = new Map<string, number>();
      const hits = await this.vectors.search(q.raw, Math.max(200, limit * 10), filters, opts.signal);
      if (hits.length > 0) {
        const rows = await this.store.chunksById(
          hits.map((h) => h.id),
          { text: false },
        );
        for (const h of hits) {
          const fp = rows.get(h.id)?.file_path as string | undefined;
          if (fp && h.score > (bestVector.get(fp) ?? -Infinity)) bestVector.set(fp, Math.max(0, h.score));
        }
        add(bestVector, opts.mode === "vector" ? 1 : w.vectors);
      }
    }
    // definitions and mentions are found outside the filters: drop the files the filters exclude
    if (hasFilters(filters)) {
      const passing = await this.store.filesPassing([...total.keys()], filters);
      for (const p of [...total.keys()]) if (!passing.has(p)) total.delete(p);
    }
    const tests = await testFiles(this.store, [...total.keys()]);
    const queryStems = new Set(q.terms.map(stem));
    // an edit's preflight keeps the multiplier its ready rule was chosen with (FILE_RANKING.nameEdit)
    const nameWeight = (edit ? w.nameEdit : w.name) * shortness;
    const nameShare = edit ? 0 : k.nameShare * shortness;
    // the place a commit-subject question names in its header (FILE_RANKING.scope)
    const placed = !edit && w.scope > 0 && q.scope.length > 0 ? placeShares([...total.keys()], q.scope) : undefined;
    // an edit's preflight keeps the chunk list's test multiplier its ready rule was chosen with
    const testWeight = edit ? RANKING.testPenalty : k.tests;
    for (const [p, v] of total) {
      let x = v;
      const named = nameWeight > 0 || nameShare > 0 ? fileNameMatch(p, queryStems) : 0;
      x += nameShare * named;
      if (placed) x += w.scope * shortness * (placed.get(p) ?? 0);
      if (nameWeight > 0) x *= 1 + nameWeight * named;
      if (isNonSource(p)) x *= k.nonSource;
      if (tests.has(p) && !q.aboutTests) x *= testWeight;
      total.set(p, x);
    }
    // a long question (a pasted issue) describes a change, which often spans the files changed together; not
    // for an edit's preflight, which names those files itself (changed-together) from rankings without the lift
    const coChange = w.coChange + (edit ? 0 : w.coChangeLong * (1 - shortness));
    if (coChange > 0 && this.store.coChanges && opts.mode !== "vector") await this.addCoChanged(total, filters, coChange, w);
    const ranked = [...total.entries()]
      .map(([filePath, score]) => ({ filePath, score: Math.round(score * 1e6) / 1e6 }))
      .sort((a, b) => b.score - a.score || a.filePath.localeCompare(b.filePath));
    // a pasted issue: one family of namesakes does not take every first place, and the leader's namesake
    // below them joins them (FILE_RANKING.familyCap, familySlot)
    if (shortness <= w.familyShortness && !edit) {
      if (w.familyCap > 0) capSameNames(ranked, w.familyCap, w.familyTop);
      if (w.familySlot > 0) raiseNamesake(ranked, w.familySlot, w.familyPool, w.familyCap);
    }
    return ranked.slice(0, limit);
  }
}

/**
 * Each file's evidence from the definitions of the identifiers a question names, `defined` (name → the
 * files defining it) in a project of `n` files. Each name weighs its rarity, ln(1 + n / its defining
 * files). With `rarest` 0 a file sums the weights of the names it defines; with `rarest` > 0 it has only its
 * rarest name's weight, to that power: a pasted issue's snippet calls many of the public API's names, all
 * defined in the module that exposes them (django's models/query.py: filter, annotate, aggregate), and their
 * sum put that module first where the one class the issue is about (`Sum` in aggregates.py) defines a
 * single name.
 */
export function definitionScores(defined: ReadonlyMap<string, ReadonlySet<string>>, n: number, rarest = 0): Map<string, number> {
  const out = new Map<string, number>();
  for (const files of defined.values()) {
    const idf = Math.log(1 + n / files.size);
    for (const f of files) out.set(f, rarest > 0 ? Math.max(out.get(f) ?? 0, idf ** rarest) : (out.get(f) ?? 0) + idf);
  }
  return out;
}

/**
 * The term weights of the whole-file BM25 list: rankingWeights, with a long question's title at
 * FILE_RANKING.titleLong (shortness at most titleLongShortness; the chunk list and the history keep title).
 */
export function fileListWeights(base: Map<string, number>, q: AnalyzedQuery, shortness: number, w: FileRankingWeights = FILE_RANKING): Map<string, number> {
  return rankingWeights(base, q, shortness <= w.titleLongShortness ? w.titleLong : w.title);
}

/**
 * The query's term weights as file ranking uses them: the words of a pasted issue's first line (its title)
 * count `FILE_RANKING.title` more; then each weight saturates as w·(k+1)/(k+w), k = queryTfSaturation
 * (BM25's k3), so a word repeated by a log or a config dump does not outweigh the words of the question.
 */
export function rankingWeights(base: Map<string, number>, q: AnalyzedQuery, title = FILE_RANKING.title): Map<string, number> {
  const w = FILE_RANKING;
  let out = base;
  if (title > 0) {
    const lines = q.raw.split("\n").filter((l) => l.trim() !== "");
    if (lines.length > 1) {
      out = new Map(out);
      for (const word of new Set(wordsOf(lines[0]!))) if (out.has(word)) out.set(word, out.get(word)! + title);
    }
  }
  const k = w.queryTfSaturation;
  if (k > 0) out = new Map([...out].map(([t, v]) => [t, (v * (k + 1)) / (k + v)]));
  return out;
}

/** A file's family: its name with extension (operations.py), none for a folder's entry point (__init__.py, index.ts). */
function familyOf(path: string): string | undefined {
  const base = path.slice(path.lastIndexOf("/") + 1);
  return FOLDER_NAMED.has(base.replace(/\.[^.]*$/, "").toLowerCase()) ? undefined : base;
}

/**
 * The leading file's first namesake among the next `pool` files moves up to place `slot` (0-based) when it
 * ranks below it, unless the first places hold `cap` of the family already: a change to one backend's
 * operations.py, or to models/query.py, often needs its namesake (the other backends', sql/query.py), whose
 * own words may rank it just below the first five.
 */
function raiseNamesake(ranked: Array<{ filePath: string; score: number }>, slot: number, pool: number, cap: number): void {
  const family = ranked.length > slot + 1 ? familyOf(ranked[0]!.filePath) : undefined;
  if (family === undefined) return;
  if (cap > 0 && ranked.slice(0, slot + 1).filter((r) => familyOf(r.filePath) === family).length >= cap) return;
  const at = ranked.findIndex((r, i) => i > slot && i < pool && familyOf(r.filePath) === family);
  if (at < 0) return;
  const [moved] = ranked.splice(at, 1);
  ranked.splice(slot, 0, { filePath: moved!.filePath, score: ranked[slot - 1]!.score });
}

/**
 * At most `cap` files of one name (another backend's operations.py, another printer's str.py) among the
 * first `top`: the rest of the family moves just below them, in order, so the places go to other files.
 * Folder entry points (__init__.py, index.ts) are not a family.
 */
export function capSameNames(ranked: Array<{ filePath: string; score: number }>, cap: number, top: number): void {
  const kept: Array<{ filePath: string; score: number }> = [];
  const deferred: Array<{ filePath: string; score: number }> = [];
  const seen = new Map<string, number>();
  let i = 0;
  for (; i < ranked.length && kept.length < top; i++) {
    const r = ranked[i]!;
    const family = familyOf(r.filePath);
    const n = family === undefined ? 0 : (seen.get(family) ?? 0);
    if (family !== undefined && n >= cap) {
      deferred.push(r);
      continue;
    }
    if (family !== undefined) seen.set(family, n + 1);
    kept.push(r);
  }
  if (deferred.length === 0) return;
  ranked.splice(0, i, ...kept, ...deferred);
  // scores follow the new order (callers show them, and a caller that sorts by them must keep it)
  for (let j = 1; j < i; j++) if (ranked[j]!.score > ranked[j - 1]!.score) ranked[j] = { ...ranked[j]!, score: ranked[j - 1]!.score };
}

/** Intents that ask for the edit preflight (search_codebase): their ranking leaves the history's subjects out. */
const EDIT_INTENTS = new Set<string>(["edit", "refactor", "migrate"]);

const FOLDER_NAMED = new Set(["index", "mod", "__init__", "lib", "main", "init", "package-info", "default"]);

/** What a file is called: its name without extensions, or its folder's name for a folder's entry point (index.ts, mod.rs, __init__.py). */
export function fileName(path: string): string {
  const parts = path.split("/");
  const base = parts[parts.length - 1]!;
  const dot = base.indexOf(".", 1);
  const name = dot > 0 ? base.slice(0, dot) : base;
  return FOLDER_NAMED.has(name.toLowerCase()) && parts.length > 1 ? parts[parts.length - 2]! : name;
}

/**
 * nameMatch of a file's name, from its name's stems kept across questions: every question weighs
 * every candidate file's name, and splitting and stemming thousands of names each time was about a sixth
 * of a replayed file ranking's CPU (docs/benchmarks.md, "The file ranking's weights learned"). Bounded:
 * emptied past FILE_NAME_STEMS_MAX paths.
 */
function fileNameMatch(path: string, queryStems: Set<string>): number {
  let stems = fileNameStems.get(path);
  if (stems === undefined) {
    if (fileNameStems.size >= FILE_NAME_STEMS_MAX) fileNameStems.clear();
    stems = nameStems(fileName(path));
    fileNameStems.set(path, stems);
  }
  return stemShare(stems, queryStems);
}
const fileNameStems = new Map<string, string[]>();
const FILE_NAME_STEMS_MAX = 200_000;

/** The words of a path: each folder's and the file's name (without extensions), with their identifier parts, stemmed. */
function pathWords(path: string): Set<string> {
  const out = new Set<string>();
  const parts = path.split("/");
  parts[parts.length - 1] = parts[parts.length - 1]!.replace(/\..*$/, "");
  for (const part of parts) for (const w of part.split(/[^A-Za-z0-9_]+/)) for (const x of [w, ...identifierParts(w)]) if (x.length >= 2) out.add(stem(x));
  return out;
}

/**
 * How much of the place a question names (a commit subject's scope: `fix(parser)`) each candidate's path
 * holds (0-1): the words it holds, each weighted by its rarity among the candidates' paths (ln(1 + n / n_w)),
 * as a share of the words any candidate holds. A word in every path (the project's own name) says little.
 */
export function placeShares(paths: readonly string[], words: readonly string[]): Map<string, number> {
  const stems = [...new Set(words.map(stem))];
  const holds = paths.map((p) => {
    const pw = pathWords(p);
    return stems.map((s) => pw.has(s));
  });
  const idf = stems.map((_, i) => {
    const n = holds.filter((h) => h[i]).length;
    return n === 0 ? 0 : Math.log(1 + paths.length / n);
  });
  const sum = idf.reduce((a, b) => a + b, 0);
  const out = new Map<string, number>();
  if (sum === 0) return out;
  paths.forEach((p, j) => {
    let x = 0;
    holds[j]!.forEach((h, i) => {
      if (h) x += idf[i]!;
    });
    if (x > 0) out.set(p, x / sum);
  });
  return out;
}

/** The indexed files among candidate paths, in the order given. */
async function existingFiles(store: IndexReader, paths: string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  const known = await store.filesInfo(paths);
  return paths.filter((p) => known.has(p));
}

/**
 * File scores from the commits whose subjects match a question: each commit gives its score to the files
 * it changed, divided by the square root of their number (a commit of one file says more about it than a
 * commit of twenty).
 */
export function historyScores(commits: ReadonlyArray<{ score: number; files: readonly string[] }>): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of commits) {
    if (c.files.length === 0) continue;
    const share = c.score / Math.sqrt(c.files.length);
    for (const f of c.files) out.set(f, (out.get(f) ?? 0) + share);
  }
  return out;
}

/**
 * How much the history channel is trusted for one question: the share of the question's term weight that
 * the best-covering matched subject holds. The channel's list is scaled to its best file like every list in
 * the fusion, so without this a subject that shares one common word with the question ("returns the
 * current state" and "fix: update state") moves files as much as one that says the whole question.
 */
export function historyConfidence(commits: ReadonlyArray<{ coverage: number }>): number {
  let best = 0;
  for (const c of commits) if (c.coverage > best) best = c.coverage;
  return best;
}

/** The entries whose file is in the parse tier (history also names deleted and unindexed files). */
async function indexedOnly(store: IndexReader, scores: Map<string, number>): Promise<Map<string, number>> {
  if (scores.size === 0) return scores;
  const known = await store.filesInfo([...scores.keys()]);
  return new Map([...scores].filter(([p]) => known.has(p)));
}

/** Which of these files are test files. */
async function testFiles(store: IndexReader, paths: string[]): Promise<Set<string>> {
  const info = await store.filesInfo(paths);
  return new Set(paths.filter((p) => info.get(p)?.isTest === true));
}

/** The file ranking's weights that a question's kind moves (FILE_RANKING.describe, change). */
export interface KindWeights {
  history: number;
  historyGate: number;
  chunkShort: number;
  chunkPower: number;
  contentPower: number;
  nameShare: number;
  definitions: number;
  nonSource: number;
  tests: number;
}

/**
 * How much a question reads like this project's change requests (0-1), from how its commit subjects are
 * worded (store/history-store.ts, SubjectStyle). Its opening word (openingWord): one the subjects open
 * with ("Fix", "Add", a conventional type) is 1; the third person of a verb they open with ("Returns",
 * "Creates" where they say "Return", "Create") is 0; one no subject opens with is kindUnseen. Its end:
 * × (the share of the subjects that end as it does, with a full stop or without) ^ kindEnd, so "… of the
 * line." where few subjects end with a full stop reads as a description. Undefined without a history of
 * kindMinCommits subjects.
 */
export function changeLikeness(question: string, style: SubjectStyle): number | undefined {
  const w = FILE_RANKING;
  const n = style.subjects;
  if (n < w.kindMinCommits) return undefined;
  const word = openingWord(question);
  let opening = w.kindUnseen;
  if (word !== undefined && (style.openings.get(word) ?? 0) > 0) opening = 1;
  else if (word !== undefined && verbBases(word).some((b) => (style.openings.get(b) ?? 0) > 0)) opening = 0;
  const stops = style.fullStops / n;
  const ending = endsWithFullStop(question) ? stops : 1 - stops;
  return opening * ending ** w.kindEnd;
}

/** The forms a third-person verb may come from: "returns" → "return", "matches" → "match", "applies" → "apply". */
function verbBases(word: string): string[] {
  if (!word.endsWith("s") || word.endsWith("ss") || word.length < 4) return [];
  const out = [word.slice(0, -1)];
  if (word.endsWith("es")) out.push(word.slice(0, -2));
  if (word.endsWith("ies")) out.push(`${word.slice(0, -3)}y`);
  return out;
}

/**
 * The kind-moved weights for a question: FILE_RANKING's own without a kind, else describe's at 0 to
 * change's at 1, faded towards FILE_RANKING's own as the question grows long (`shortness`): the kinds are
 * read from commit subjects' wording, and a pasted issue is neither.
 */
export function kindWeights(kind: number | undefined, shortness: number, w: FileRankingWeights = FILE_RANKING): KindWeights {
  const base: KindWeights = {
    history: w.history,
    historyGate: w.historyGate,
    chunkShort: w.chunkShort,
    chunkPower: w.chunkPower,
    contentPower: w.contentPower,
    nameShare: w.nameShare,
    definitions: w.definitions,
    nonSource: w.nonSource,
    tests: w.tests,
  };
  if (kind === undefined) return base;
  const out = { ...base };
  for (const key of Object.keys(base) as Array<keyof KindWeights>) {
    const d = w.describe[key] ?? base[key];
    const c = w.change[key] ?? base[key];
    out[key] = base[key] + (d + (c - d) * kind - base[key]) * shortness;
  }
  return out;
}

/**
 * The hand-chosen weights of file-level ranking, each measured on the SWE-bench splits and the generated
 * sets' dev splits as the comments say (docs/benchmarks.md, "Retrieval" and after). They are the starting
 * point of scripts/eval/train-ranker.ts, which learns FILE_RANKING from them (the weights file-ranking.json
 * names take precedence there), and they stay the weights of an edit's preflight (search_codebase's edit
 * intents), whose ready rule was chosen on rankings made with them.
 */
export const HAND_FILE_RANKING = {
  fields: { path: 3, defs: 3, doc: 0.5, code: 1 },
  chunk: 0.5,
  /**
   * A short question describes one function or one change, so the file's best chunk counts for more; a
   * long issue's words spread over its files, where the whole file's BM25 is the better judge.
   */
  chunkShort: 2,
  /**
   * The share of the file's name words the question uses ("generates bash completion file" and
   * bash_completions.go), added to the file's score as one more list of the fusion (a full match weighs
   * nameShare against the best file BM25's 1). Scaled down with the question's length, because a long
   * issue covers many files' names by chance (SWE-bench Lite dev lost 2 of 23 at Acc@1 without that).
   * It was a multiplier, × (1 + 0.5 · share), until 2026-11-27: that multiplied every other list's evidence
   * too, so a file whose name holds one word of a description (exponent.rs, capture.rb, Route.php) passed
   * the file whose code the description fits (bhcomp.rs, content_for.rb, RouteCollector.php), where plain
   * BM25 had it right; docstring dev Acc@1 70.3 → 71.4, commit-subject dev 48.5 → 49.2, SWE-bench Lite dev
   * unchanged (docs/benchmarks.md, "Where cortex's file ranking loses to plain BM25").
   */
  nameShare: 0.5,
  /** The multiplier form, × (1 + name · share): 0 since nameShare replaced it; kept for the tuning scripts. */
  name: 0,
  /**
   * The multiplier for the edit intents (search_codebase's preflight), in place of nameShare: the ready
   * rule's runner-up check was chosen on rankings where the named file led by this factor (the preflight
   * set's "shipping rate price for parcel weight" lost its clear leader without it), as the history
   * channel is left out for them.
   */
  nameEdit: 0.5,
  /** Up to this many terms a question is short; above, the short-question weights fade as (terms / this)^-2. */
  shortQueryTerms: 12,
  definitions: 0.5,
  /**
   * For a long question (shortness at most definitionsRarestShortness, about 24 terms or more; a pasted
   * issue), a file's definition evidence is its rarest named definition's weight to this power instead of
   * the sum over the names it defines (definitionScores; 0: the sum). An issue's snippet writes many names
   * of the public API, and the sum ranked the module defining most of them (models/query.py) above the one
   * whose single named class the issue is about. SWE-bench Verified-tune Acc@5 79.9 → 80.8 (+6 / −2
   * instances; Acc@3 71.3 → 69.8), Lite dev and the generated sets' dev splits unchanged, by replay
   * (docs/benchmarks.md, "Verified-tune's misses by kind, and a pasted issue's rarest named definition").
   */
  definitionsRarest: 2,
  definitionsRarestShortness: 0.25,
  /** The whole-file BM25 list's and the best chunk's scores as (s/max)^power for a short question (1: linear). */
  contentPower: 1,
  chunkPower: 1,
  /**
   * The weights for a question that reads as a description of code ("Returns the …", "Move cursor to the
   * start of the line.": changeLikeness 0) and for one that reads as the project's change requests ("Fix
   * …", "Add …": 1), blended by changeLikeness; the others keep the weights above, as does every question
   * where the index has no history to learn the wording from. A description is answered by the function
   * it describes (the best chunk sharpened, (s/max)^3), not by the files past changes touched (history
   * halved), and its words are a doc comment's, which documentation files hold too (nonSource 1); a change
   * request is what the history's subjects are (history 1.5, gated by its coverage^1.5). Dev, replayed
   * (docs/benchmarks.md, "The question's kind"): docstrings Acc@1 67.8 → 69.1 (+30 / −18 questions),
   * commit subjects 44.8 → 45.0 (+8 / −6); SWE-bench Lite dev unchanged (a long question fades it).
   */
  describe: { history: 0.5, chunkPower: 3, nonSource: 1 } as Partial<KindWeights>,
  change: { history: 1.5, historyGate: 1.5 } as Partial<KindWeights>,
  /** Fewer stored commit subjects than this say nothing of how the project words its changes. */
  kindMinCommits: 50,
  /** The opening part of changeLikeness for a word no subject opens with, nor its verb's base form. */
  kindUnseen: 0.75,
  /** The power of the share of subjects ending as the question does (with a full stop or without). */
  kindEnd: 2,
  mentions: 0.5,
  vectors: 1,
  nonSource: 0.5,
  /**
   * A commit-subject question's header names a place: `fix(parser): …`, `feat(middleware/cache): …`
   * (query.ts, AnalyzedQuery.scope). The share of the scope's words a candidate's path holds (folders and
   * file name, each word weighted by its rarity among the candidates' paths: placeShares) is added as one
   * more list of the fusion, a full match weighing `scope` against the best file BM25's 1. The scope was
   * read as plain words since the conventional type was dropped, which left `clap_complete`'s crate and
   * `help_template.rs` to the body's words. Commit-subject dev Acc@1 43.8 → 44.5 (+8 / −1: hono +5 / −1,
   * clap +3), docstrings (no headers) unchanged; 1.5 and 2 won a little more on the same two repositories
   * (+10 / −2, +12 / −2) and were not taken (docs/benchmarks.md, "Commit subjects: the scope").
   */
  scope: 1,
  /**
   * A test file's multiplier when the question is not about tests, in file ranking (the chunk list keeps
   * RANKING.testPenalty, 0.55, and so does the edit preflight's file ranking, whose ready rule was chosen
   * with it). Commit-subject dev Acc@1 +3 / −0 (Slim, jinja, rake), Acc@5 69.3 → 70.5; docstrings dev
   * Acc@1 unchanged, Acc@5 91.0 → 91.2; 0.2 and 0.4 the same at rank 1.
   */
  tests: 0.3,
  /**
   * The history channel (store/history-store.ts): files changed by the `historyCommits` past commits whose
   * subject lines best match the question, for a short question (it fades as the name does: a pasted
   * issue's many words match many subjects by chance). Nothing where the index has no history. Chosen on
   * the commit-subject dev split (docs/benchmarks.md, "History channel"): Acc@1 43.3 → 49.0, Acc@5 72.1 →
   * 75.6; the docstring dev split unchanged (68.3 / 93.0 → 68.1 / 93.0). Left out for the edit intents:
   * with it, the preflight's ready rule (chosen on rankings without it) fell from precision 0.90 to 0.75 on
   * the edit tasks' dev split, and no rule keeping the card's hand-kept checks reached 0.9 there.
   */
  history: 1,
  historyCommits: 30,
  /**
   * The channel's weight × historyConfidence ** this: 1 = in proportion to how much of the question the
   * best matched subject says. Docstring dev split 68.1 → 69.7 Acc@1 (questions lost at rank 1 against the
   * channel off: 14 → 7), commit-subject dev 49.0 → 48.1 (off: 43.3); test, once: docstrings 61.1 → 63.1,
   * commit subjects 43.8 → 42.7 (docs/benchmarks.md, "How much the subjects say"). Other gates by the
   * history's own confidence (each commit by its coverage, a floor on the coverage, the list flattened or
   * capped, busy files discounted) each traded docstrings against commit subjects: the channel's own
   * figures look the same where it is right and where it is wrong ("The history's own confidence").
   * Where the index has a history, the question's kind blends these two with FILE_RANKING.describe's and
   * change's (changeLikeness, kindWeights).
   */
  historyGate: 1,
  /**
   * Files changed with one of the `coChangeLeaders` leading files in at least `coChangeMinCommits` commits
   * gain this share of its score. Measured and left off: on the commit-subject dev split 0.15 added
   * nothing to the subjects (49.4 / 75.4 against 49.0 / 75.6), and it cost the docstring split 1 point of
   * Acc@1 (0.3: 3); the edit preflight reads co-change itself (changed-together).
   */
  coChange: 0,
  /**
   * The co-change lift for a long question (a pasted issue), added to coChange as the question's shortness
   * fades: an issue describes a change, and a change often spans a file its words name and that file's
   * usual partner, which they do not name. SWE-bench Lite dev Acc@5 87.0 → 91.3 (pydicom's dataelem.py, the
   * partner of dataset.py which the issue names), Verified-tune 76.2 → 76.9 (+5 / −2 instances at Acc@5);
   * the commit-subject and docstring dev splits unchanged (docs/benchmarks.md, "Why SWE-bench misses").
   */
  coChangeLong: 0.15,
  coChangeLeaders: 3,
  /**
   * The lift stops just below the best leader that lends it: a partner is likely changed too, not more
   * likely. Without it a hub that changes with everything (pydicom's dataset.py) passed the file the issue
   * is about (Lite dev Acc@1 69.6 → 65.2; with the cap 69.6).
   */
  coChangeCapped: true,
  coChangeMinCommits: 2,
  /**
   * Extra count of each word of a multi-line question's first line (0: off): a pasted issue's title says
   * what is wrong in a few words, where its body's log, traceback or configuration repeats many others.
   * With queryTfSaturation: SWE-bench Verified-tune Acc@5 76.9 → 78.9 (+12 / −4 instances), Lite dev
   * 91.3 unchanged, docstring dev 93.0 → 93.8, commit dev unchanged (docs/benchmarks.md, "A pasted issue's
   * title"). Lifting files linked to the leading file by imports or by the question's names was measured
   * there too, and lost single-file answers as often as it found partners.
   */
  title: 2,
  /**
   * The title's extra count in the whole-file BM25 list of a long question (shortness at most
   * titleLongShortness, about 24 terms or more: a pasted issue), in place of `title`; the best-chunk list
   * and the history keep `title`. The title says what is wrong in a few words; the body's snippet and log
   * words are spread over many files. SWE-bench Verified-tune, replayed from per-word records: Acc@1 52.8 →
   * 53.6 (+3 / −0 instances), Acc@5 80.8 → 81.1 (+1 / −0, pytest-8399, an instance many variants move);
   * Lite dev and the generated sets unchanged (none of their questions is both long and multi-line); 3 +2 /
   * −0 at 1 and ±0 at 5, 5 and 6 +1 / −1 at 5 (docs/benchmarks.md, "Hub files in pasted issues").
   */
  titleLong: 4,
  titleLongShortness: 0.25,
  /**
   * BM25's k3 on the query's term counts, w·(k+1)/(k+w) (0: off, linear): a word a log or a config dump
   * repeats forty times does not outweigh the question's other words forty to one. Near linear for the few
   * counts of a short question.
   */
  queryTfSaturation: 10,
  /**
   * File families for a long question (a pasted issue; shortness at most familyShortness, about 24 terms
   * or more): at most familyCap files of one name among the first familyTop (capSameNames), and the leading
   * file's namesake among the first familyPool moves up to place familySlot (raiseNamesake). Acc@5 needs
   * every file a fix changes, and a fix to one of a family often changes another (each database backend's
   * operations.py, models/query.py with sql/query.py), while four namesakes in the first five crowd out
   * the file a single-file fix is in. SWE-bench Verified-tune Acc@5 78.9 → 79.9 (+4 / −0 instances), Lite
   * dev, and the generated sets' dev splits unchanged (docs/benchmarks.md, "File families"). Partners by
   * co-change share, imports or shared definitions in the same slot lost as many as they won there.
   */
  familyShortness: 0.25,
  familyCap: 3,
  familyTop: 5,
  familySlot: 4,
  familyPool: 15,
};

/** The weights of the file ranking: HAND_FILE_RANKING with the learned ones of file-ranking.json laid over it. */
export const FILE_RANKING: typeof HAND_FILE_RANKING = withLearned(HAND_FILE_RANKING, LEARNED_WEIGHTS);

/** The weights one file ranking reads: the hand-chosen ones for an edit's preflight, the learned ones otherwise. */
export type FileRankingWeights = typeof HAND_FILE_RANKING;

const NON_SOURCE_DIR = /(^|\/)(docs?|examples?|galleries|tutorials?|benchmarks?|asv_bench|tools|scripts|ci|release)\//;
const NON_SOURCE_FILE = /(^|\/)(setup|conftest|conf)\.py$|(^|\/)(gulpfile|webpack\.config|rollup\.config|vite\.config|jest\.config)\.[jt]s$/;

/** Files a fix rarely touches: documentation, examples, benchmarks, build and test configuration. */
export function isNonSource(path: string): boolean {
  return NON_SOURCE_DIR.test(path) || NON_SOURCE_FILE.test(path);
}

/** True when `mention` names `path`: equal, a suffix at a folder boundary, or `path` ends an absolute mention. */
function mentionMatches(path: string, mention: string): boolean {
  const m = mention.replace(/\\/g, "/").replace(/^\.?\/+/, "");
  return m === path || path.endsWith("/" + m) || m.endsWith("/" + path);
}

export type { ChunkFilters } from "../../store/contract.ts";
export type { Intent } from "./rank.ts";
export type { Reranker, RerankSettings } from "./rerank.ts";

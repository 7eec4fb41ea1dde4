/**
 * The reader contract (contract.ts) over a local SQLite index: a read-only connection and the synchronous
 * typed modules that already answer each question (GraphStore, GraphFacts, chunk-search.ts,
 * chunk-vectors.ts, project-queries.ts, ContentIndex). Answers are computed at once and handed back as
 * resolved promises, so behaviour and cost are those of the synchronous code.
 *
 * Text search keeps what it derives from the trigram index (files the index does not cover yet, every
 * file's row) until another connection commits (PRAGMA data_version), so a long-lived server sees
 * incremental index runs at once without reopening anything.
 */
import type {
  ChunkRow,
  FileInfo,
  IndexReader,
  OverviewChunk,
  RefIntoFile,
  TrigramQuery,
  ChunkFilters,
  ColumnWeights,
  FileColumnWeights,
  KeywordHit,
  ChunkHash,
  EdgeRow,
  RefRow,
  RefSite,
  SymbolRow,
  CountedFile,
  LanguageShare,
  ProjectTotals,
  FileState,
  ParseTierState,
  ContentFileRow,
} from "./contract.ts";
import { IndexStore } from "./index-store.ts";
import { GraphStore } from "./graph-store.ts";
import { GraphFacts } from "./graph-facts.ts";
import type { ContentIndex } from "./content-index.ts";
import { CandidateFinder } from "./trigram-candidates.ts";
import { unionSorted } from "./trigrams.ts";
import {
  chunkCount,
  chunkTags,
  chunksById,
  definingFiles,
  definitionsNamed,
  fileCount,
  fileOverviewChunks,
  filesPassing,
  keywordSearch,
  weightedChunkScores,
  weightedFileScores,
} from "./chunk-search.ts";
import { chunkHashes, chunkHashesMatching, chunkTextsByHash } from "./chunk-vectors.ts";
import { callsByFile, importsByFile, importUsage, languageShares, projectTotals } from "./project-queries.ts";
import { allFiles, codeFileInfos, contentsOf, fileStatesOf, filesInfo, filesOfModules } from "./reader-queries.ts";
import { SQLITE_INDEX_DIALECT } from "./sql-dialect.ts";
import { coChanges, matchingCommits, subjectStyle, type CoChange, type SubjectStyle, type HistoryMatch } from "./history-store.ts";

export class SqliteIndexReader implements IndexReader {
  readonly dialect = SQLITE_INDEX_DIALECT;
  readonly source: string;
  private readonly store: IndexStore;
  private graphStore: GraphStore | undefined;
  private graphFacts: GraphFacts | undefined;
  private contentIndex: ContentIndex | undefined;
  /** Text search's derived data, valid for one data version (see the module comment). */
  private version = -1;
  private hasTrigrams = false;
  private uncovered: Uint32Array = new Uint32Array(0);
  private all: ContentFileRow[] | undefined;
  private allWithLanguage: ContentFileRow[] | undefined;
  /** Every parse-tier file (search_codebase reads them per call to know the tests), for one data version. */
  private parseTierFiles: FileInfo[] | undefined;

  /** A read-only reader over the index database at `path` (INDEX_CORRUPT when it is not a usable index). */
  static open(path: string): SqliteIndexReader {
    return new SqliteIndexReader(IndexStore.open(path, { readonly: true }));
  }

  private constructor(store: IndexStore) {
    this.store = store;
    this.source = store.path;
  }

  private get graph(): GraphStore {
    this.graphStore ??= new GraphStore(this.store);
    return this.graphStore;
  }

  private get facts(): GraphFacts {
    this.graphFacts ??= new GraphFacts(this.store);
    return this.graphFacts;
  }

  private get content(): ContentIndex {
    this.contentIndex ??= this.store.contentIndex();
    return this.contentIndex;
  }

  async close(): Promise<void> {
    this.store.close();
  }

  // --- the index as a whole

  async meta(key: string): Promise<string | undefined> {
    return this.store.getMeta(key);
  }

  async parseTierState(): Promise<ParseTierState | undefined> {
    return this.store.parseTierState();
  }

  async languageCounts(): Promise<Record<string, number>> {
    return this.store.languageCounts();
  }

  async fileStates(paths?: readonly string[]): Promise<Map<string, FileState>> {
    return paths === undefined ? this.store.fileStates() : fileStatesOf(this.store, paths);
  }

  // --- files and content

  async filesInfo(paths: readonly string[]): Promise<Map<string, FileInfo>> {
    return filesInfo(this.store, paths);
  }

  async allFiles(): Promise<FileInfo[]> {
    this.refresh();
    this.parseTierFiles ??= allFiles(this.store);
    return this.parseTierFiles.slice();
  }

  async fileCount(): Promise<number> {
    return fileCount(this.store);
  }

  async filesUnder(dir: string): Promise<string[]> {
    return this.graph.filesUnder(dir);
  }

  async filesOfModules(modules: readonly string[]): Promise<string[]> {
    return filesOfModules(this.store, modules);
  }

  async codeFiles(): Promise<FileInfo[]> {
    return codeFileInfos(this.store);
  }

  async contents(paths: readonly string[]): Promise<Map<string, string>> {
    return contentsOf(this.store, paths);
  }

  // --- text search

  private refresh(): void {
    const v = this.content.dataVersion();
    if (v === this.version) return;
    this.version = v;
    this.all = undefined;
    this.allWithLanguage = undefined;
    this.parseTierFiles = undefined;
    this.hasTrigrams = this.content.available();
    this.uncovered = this.hasTrigrams ? Uint32Array.from(this.content.uncovered()).sort() : new Uint32Array(0);
  }

  private candidates(q: TrigramQuery): Uint32Array | null {
    this.refresh();
    if (!this.hasTrigrams) return null; // an index from before the trigram tables: scan everything
    const ids = new CandidateFinder(this.content).evaluate(q);
    return ids === null ? null : unionSorted(ids, this.uncovered);
  }

  /** Every text-tier file, cached per data version. */
  private allTextFiles(withLanguage: boolean): ContentFileRow[] {
    this.refresh();
    if (withLanguage) return (this.allWithLanguage ??= this.content.files(undefined, true));
    return (this.all ??= this.allWithLanguage ?? this.content.files(undefined, false));
  }

  async textCandidates(query: TrigramQuery): Promise<Uint32Array | null> {
    return this.candidates(query);
  }

  async textCandidateCounts(queries: readonly TrigramQuery[]): Promise<number[]> {
    return queries.map((q) => {
      const c = this.candidates(q);
      return c === null ? this.allTextFiles(false).length : c.length;
    });
  }

  async textFileCount(): Promise<number> {
    return this.allTextFiles(false).length;
  }

  async textFiles(ids: ArrayLike<number> | null, withLanguage: boolean): Promise<ContentFileRow[]> {
    this.refresh();
    if (ids === null) return this.allTextFiles(withLanguage);
    // few ids are looked up, many are filtered from the cached rows
    if (ids.length > 2000) {
      const set = new Set(Array.from(ids));
      return this.allTextFiles(withLanguage).filter((r) => set.has(r.fileId));
    }
    return this.content.files(ids, withLanguage);
  }

  texts(ids: ArrayLike<number>, as: "string"): Promise<Array<string | undefined>>;
  texts(ids: ArrayLike<number>, as: "bytes"): Promise<Array<Uint8Array | undefined>>;
  async texts(ids: ArrayLike<number>, as: "string" | "bytes"): Promise<Array<string | Uint8Array | undefined>> {
    return as === "bytes" ? this.content.texts(ids, "bytes") : this.content.texts(ids, "string");
  }

  // --- keyword search

  async keywordSearch(terms: readonly string[], weights: ColumnWeights, filters: ChunkFilters, limit: number): Promise<KeywordHit[]> {
    return keywordSearch(this.store, [...terms], weights, filters, limit);
  }

  async definitionsNamed(names: readonly string[], filters: ChunkFilters, limit: number): Promise<Array<{ id: string; filePath: string; name: string }>> {
    return definitionsNamed(this.store, [...names], filters, limit);
  }

  async weightedChunkScores(
    terms: ReadonlyMap<string, number>,
    weights: ColumnWeights,
    filters: ChunkFilters,
    perTermLimit?: number,
  ): Promise<Map<string, { filePath: string; score: number }>> {
    return weightedChunkScores(this.store, new Map(terms), weights, filters, perTermLimit);
  }

  async weightedFileScores(
    terms: ReadonlyMap<string, number>,
    weights: FileColumnWeights,
    filters: ChunkFilters,
    perTermLimit?: number,
  ): Promise<Map<string, number>> {
    return weightedFileScores(this.store, new Map(terms), weights, filters, perTermLimit);
  }

  async matchingCommits(terms: ReadonlyMap<string, number>, limit: number): Promise<HistoryMatch[]> {
    return matchingCommits(this.store, terms, limit);
  }

  async coChanges(paths: readonly string[]): Promise<Map<string, CoChange>> {
    return coChanges(this.store, paths);
  }

  async subjectStyle(): Promise<SubjectStyle> {
    return subjectStyle(this.store);
  }

  async definingFiles(names: readonly string[]): Promise<Map<string, Set<string>>> {
    return definingFiles(this.store, [...names]);
  }

  async chunksById(ids: readonly string[], options?: { text?: boolean }): Promise<Map<string, ChunkRow>> {
    return chunksById(this.store, [...ids], options?.text ?? true) as unknown as Map<string, ChunkRow>;
  }

  async fileOverviewChunks(paths: readonly string[]): Promise<Map<string, OverviewChunk>> {
    return fileOverviewChunks(this.store, [...paths]);
  }

  async filesPassing(paths: readonly string[], filters: ChunkFilters): Promise<Set<string>> {
    return filesPassing(this.store, [...paths], filters);
  }

  async chunkTags(tags: readonly string[] | undefined, limit: number): Promise<string[]> {
    return chunkTags(this.store, tags, limit);
  }

  async chunkCount(): Promise<number> {
    return chunkCount(this.store);
  }

  // --- vectors

  async chunkHashes(filters?: ChunkFilters): Promise<ChunkHash[]> {
    return filters === undefined ? chunkHashes(this.store) : chunkHashesMatching(this.store, filters);
  }

  async chunkTextsByHash(hashes: readonly string[]): Promise<Map<string, string>> {
    return chunkTextsByHash(this.store, [...hashes]);
  }

  // --- symbols and references

  async symbolsNamed(names: readonly string[]): Promise<SymbolRow[]> {
    return this.graph.symbolsNamed(names);
  }

  async symbolsOfFiles(paths: readonly string[]): Promise<SymbolRow[]> {
    return this.graph.symbolsOfFiles(paths);
  }

  async symbolsById(ids: readonly number[]): Promise<SymbolRow[]> {
    return this.graph.symbolsById(ids);
  }

  async refsByTargets(ids: readonly number[]): Promise<RefRow[]> {
    return this.graph.refsByTargets(ids);
  }

  async refSitesByTargets(ids: readonly number[]): Promise<RefSite[]> {
    return this.graph.refSitesByTargets(ids);
  }

  async refsInside(ids: readonly number[]): Promise<RefRow[]> {
    return this.graph.refsInside(ids);
  }

  async unresolvedNamed(name: string): Promise<RefRow[]> {
    return this.graph.unresolvedNamed(name);
  }

  async unresolvedSitesNamed(name: string): Promise<RefSite[]> {
    return this.graph.unresolvedSitesNamed(name);
  }

  async enclosingOf(refIds: readonly number[]): Promise<Map<number, string | null>> {
    return this.graph.enclosingOf(refIds);
  }

  async refsIntoFiles(paths: readonly string[]): Promise<RefIntoFile[]> {
    return this.graph.refsIntoFiles(paths);
  }

  async methodOwners(language: string, names: readonly string[]): Promise<Array<{ container: string; name: string; file: string }>> {
    return this.graph.methodOwners(language, [...names]);
  }

  async namesIgnoringCase(name: string): Promise<string[]> {
    return this.graph.namesIgnoringCase(name);
  }

  async namesContaining(fragment: string): Promise<string[]> {
    return this.graph.namesLike(`%${fragment.replace(/[\\%_]/g, (c) => "\\" + c)}%`);
  }

  async namesOfLength(min: number, max: number): Promise<string[]> {
    return this.graph.namesOfLength(min, max);
  }

  // --- the import graph

  async edgesOf(paths: readonly string[]): Promise<EdgeRow[]> {
    return this.graph.edgesOf(paths);
  }

  async edgesInto(paths: readonly string[]): Promise<EdgeRow[]> {
    return this.graph.edgesInto(paths);
  }

  async edgesAmong(files: readonly string[]): Promise<EdgeRow[]> {
    return this.graph.edgesAmong([...files]);
  }

  async firstImports(pairs: ReadonlyArray<readonly [string, string]>): Promise<Map<string, { line: number; column: number; module: string }>> {
    const out = new Map<string, { line: number; column: number; module: string }>();
    for (const [file, target] of pairs) {
      const e = this.graph.firstImport(file, target);
      if (e) out.set(`${file}\u0000${target}`, e);
    }
    return out;
  }

  async componentFiles(dir: string | undefined): Promise<Map<number, string[]>> {
    return this.graph.componentFiles(dir);
  }

  async importGraphSize(dir: string): Promise<{ files: number; edges: number }> {
    return this.graph.importGraphSize(dir);
  }

  // --- graph facts

  async importers(file: string): Promise<CountedFile[]> {
    return this.facts.importers(file);
  }

  async symbolIdsNamedWithin(file: string, name: string, startLine: number, endLine: number): Promise<number[]> {
    return this.facts.symbolIdsNamedWithin(file, name, startLine, endLine);
  }

  async symbolIdsOf(file: string): Promise<number[]> {
    return this.facts.symbolIdsOf(file);
  }

  async users(ids: readonly number[], except: string): Promise<CountedFile[]> {
    return this.facts.users([...ids], except);
  }

  async unresolvedCallers(name: string, except: string): Promise<string[]> {
    return this.facts.unresolvedCallers(name, except);
  }

  async importedModules(): Promise<Array<{ file: string; module: string }>> {
    return this.facts.importedModules();
  }

  async topLevelNames(file: string, limit: number): Promise<string[]> {
    return this.facts.topLevelNames(file, limit);
  }

  async inImportCycles(files: readonly string[]): Promise<string[]> {
    return this.facts.inImportCycles([...files]);
  }

  // --- whole-project facts

  async languageShares(): Promise<LanguageShare[]> {
    return languageShares(this.store);
  }

  async importUsage(): Promise<Array<{ module: string; files: number; external: boolean; std: boolean }>> {
    return importUsage(this.store);
  }

  async projectTotals(): Promise<ProjectTotals> {
    return projectTotals(this.store);
  }

  async importsByFile(): Promise<Map<string, string[]>> {
    return importsByFile(this.store);
  }

  async callsByFile(): Promise<Map<string, Set<string>>> {
    return callsByFile(this.store);
  }

  // --- statistics

  async runStatsQuery(sql: string, params: Array<string | number | boolean | null>): Promise<{ columns: string[]; rows: unknown[][] }> {
    return this.store.runStatsQuery(sql, params);
  }
}

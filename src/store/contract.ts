/**
 * The store's reader contract: every typed question the read path of engines and tools asks of an index,
 * asynchronous, so that one implementation answers from the local SQLite file (sqlite-reader.ts) and
 * another from a shared PostgreSQL database. The writer side (the indexer: text tier, parse tier,
 * reference resolution, checkpoints) stays synchronous and local in IndexStore and GraphStore, as
 * docs/design.md ("The store has a door") explains.
 *
 * Questions are coarse and batched: a caller asks for the rows of many files, ids or names at once and
 * never awaits once per row or per candidate file in a loop. Paths are root-relative, as the indexer
 * stored them. File ids (text search) are the reader's own: they are only valid with the same reader.
 * A shared suite (test/store/contract-suite.ts) pins each method's behaviour on a written fixture.
 */
import type { FileState } from "./types.ts";
import type { ParseTierState } from "./index-store.ts";
import type { ContentFileRow } from "./content-index.ts";
import type { ChunkFilters, ColumnWeights, FileColumnWeights, KeywordHit } from "./chunk-search.ts";
import type { ChunkHash } from "./chunk-vectors.ts";
import type { EdgeRow, RefRow, RefSite, SymbolRow } from "./graph-store.ts";
import type { CountedFile } from "./graph-facts.ts";
import type { LanguageShare, ProjectTotals } from "./project-queries.ts";
import type { SqlDialect } from "./sql-dialect.ts";
import type { CoChange, HistoryMatch, SubjectStyle } from "./history-store.ts";

export type { FileState } from "./types.ts";
export type { ParseTierState } from "./index-store.ts";
export type { ContentFileRow } from "./content-index.ts";
export type { ChunkFilters, ColumnWeights, FileColumnWeights, KeywordHit } from "./chunk-search.ts";
export type { ChunkHash } from "./chunk-vectors.ts";
export type { EdgeRow, RefRow, RefSite, SymbolRow } from "./graph-store.ts";
export type { CountedFile } from "./graph-facts.ts";
export type { LanguageShare, ProjectTotals } from "./project-queries.ts";
export type { SqlDialect } from "./sql-dialect.ts";
export type { CoChange, HistoryMatch } from "./history-store.ts";

/**
 * A boolean query over trigrams (three bytes of case-folded UTF-8, store/trigrams.ts: trigramText gives
 * the text of one): the files that may hold a match of a literal or regex are those whose text satisfies
 * it. `all` admits every file. Built by the exact engine's planner (engines/exact/plan.ts).
 */
export type TrigramQuery = { op: "all" } | { op: "tri"; t: number } | { op: "and"; args: TrigramQuery[] } | { op: "or"; args: TrigramQuery[] };

/** A parse-tier file (the `files` table): its language, module (folder) and whether it is a test. */
export interface FileInfo {
  path: string;
  language: string;
  modulePath: string;
  isTest: boolean;
}

/** A search chunk's row with its text read back (chunk-text.ts); `tags` and `metadata` are JSON text. */
export interface ChunkRow {
  chunk_id: string;
  file_path: string;
  chunk_type: string;
  title: string;
  symbol_path: string | null;
  language: string;
  start_line: number;
  end_line: number;
  /** JSON array of strings. */
  tags: string;
  /** JSON object, or null. */
  metadata: string | null;
  /** The text's key (core/hash.ts textKey): the first 64 bits of its sha256, lower-case hex. */
  text_hash: string;
  /** 1 when the chunk's file is a test file, else 0. */
  is_test: number;
  text: string;
}

/** A file's best chunk for whole-file ranking (its overview, else its first chunk). */
export interface OverviewChunk {
  id: string;
  filePath: string;
  chunkType: string;
  symbolPath: string | null;
  isTest: boolean;
  score: number;
}

/** A reference from another file into a definition of one of the asked files. */
export interface RefIntoFile {
  id: number;
  file: string;
  name: string;
  kind: string;
  line: number;
  column: number;
  targetId: number;
  targetFile: string;
}

/** The index as a whole: its state, its meta values, its files' recorded state. */
export interface IndexStateReader {
  /** Where openIndexReader (store/open-reader.ts) opens this same index again, e.g. on a worker thread. */
  readonly source: string;
  /** A meta value (last_run, branch, commit, root, binary_files, import_graph_size…), undefined when unset. */
  meta(key: string): Promise<string | undefined>;
  /** How far the parse tier is (files parsed of all); undefined when it is complete. */
  parseTierState(): Promise<ParseTierState | undefined>;
  /** Number of indexed files (text tier) per language, most first. */
  languageCounts(): Promise<Record<string, number>>;
  /** Recorded state (hash, mtime, size) of the given files, or of every indexed file when `paths` is undefined. */
  fileStates(paths?: readonly string[]): Promise<Map<string, FileState>>;
  /** Releases the reader's connection; the reader must not be used afterwards. */
  close(): Promise<void>;
}

/** Files of the parse tier and their stored text. */
export interface FileReader {
  /** The parse-tier row of each given file that is indexed (others are absent from the map). */
  filesInfo(paths: readonly string[]): Promise<Map<string, FileInfo>>;
  /** Every parse-tier file, in path order. */
  allFiles(): Promise<FileInfo[]>;
  /** Number of parse-tier files. */
  fileCount(): Promise<number>;
  /** Files under a folder ("" for all), in path order. */
  filesUnder(dir: string): Promise<string[]>;
  /** Files whose module (folder) is exactly one of these, in path order. */
  filesOfModules(modules: readonly string[]): Promise<string[]>;
  /** Files with parsed facts (a definition or an import), in path order. */
  codeFiles(): Promise<FileInfo[]>;
  /** The indexed text of each given file that is stored (others are absent from the map). */
  contents(paths: readonly string[]): Promise<Map<string, string>>;
}

/** The string a literal search looks for, as typed, and whether case matters. */
export interface LiteralHint {
  text: string;
  caseSensitive: boolean;
}

/**
 * Literal and regex search: the files whose text may match a trigram query, their rows and their text
 * in batches (the caller verifies the pattern on the text).
 */
export interface TextSearchReader {
  /**
   * Ids (ascending) of the files whose text may satisfy `query` (files not covered by a trigram index
   * included); null for every file. `literal`, when the search is for one literal string, lets a store
   * that can test it in place (PostgreSQL's LIKE where the text is) narrow to the files holding it; the
   * answer stays a superset of the files that match, so a store may ignore it.
   */
  textCandidates(query: TrigramQuery, literal?: LiteralHint): Promise<Uint32Array | null>;
  /** For each query, how many files textCandidates would admit (every file for null): idf estimates. */
  textCandidateCounts(queries: readonly TrigramQuery[]): Promise<number[]>;
  /** Number of files in the text tier. */
  textFileCount(): Promise<number>;
  /** Rows of these files (every file for null), `language` filled when asked; unknown ids are skipped. */
  textFiles(ids: ArrayLike<number> | null, withLanguage: boolean): Promise<ContentFileRow[]>;
  /** The stored text of each id, in the order of `ids` (undefined for unknown ids): strings, or UTF-8 bytes. */
  texts(ids: ArrayLike<number>, as: "string"): Promise<Array<string | undefined>>;
  texts(ids: ArrayLike<number>, as: "bytes"): Promise<Array<Uint8Array | undefined>>;
}

/** Keyword (BM25) retrieval over chunks and whole files, and the chunk rows results are shown with. */
export interface KeywordReader {
  /** Chunks matching any of the (lower-cased) terms, best BM25 first under column weights, at most `limit`. */
  keywordSearch(terms: readonly string[], weights: ColumnWeights, filters: ChunkFilters, limit: number): Promise<KeywordHit[]>;
  /** Definition chunks of symbols named exactly one of `names` (definition-first ranking), at most `limit`. */
  definitionsNamed(names: readonly string[], filters: ChunkFilters, limit: number): Promise<Array<{ id: string; filePath: string; name: string }>>;
  /** Weighted BM25 per chunk id (each term asked alone, its best `perTermLimit` rows, parts summed). */
  weightedChunkScores(
    terms: ReadonlyMap<string, number>,
    weights: ColumnWeights,
    filters: ChunkFilters,
    perTermLimit?: number,
  ): Promise<Map<string, { filePath: string; score: number }>>;
  /** Weighted BM25 per file path over whole-file words (path, definitions, comments, code). */
  weightedFileScores(
    terms: ReadonlyMap<string, number>,
    weights: FileColumnWeights,
    filters: ChunkFilters,
    perTermLimit?: number,
  ): Promise<Map<string, number>>;
  /** For each name, the files defining it (exact, any kind of definition); names defined nowhere are absent. */
  definingFiles(names: readonly string[]): Promise<Map<string, Set<string>>>;
  /**
   * Full chunk rows by id, with their text; with `text: false` a store may leave the text out ("": ranking
   * needs only the rows' facts, and SQLite reads a chunk's text back by decompressing its whole file).
   * Unknown ids are absent.
   */
  chunksById(ids: readonly string[], options?: { text?: boolean }): Promise<Map<string, ChunkRow>>;
  /** A representative chunk per file (its overview, else its first chunk); files without chunks are absent. */
  fileOverviewChunks(paths: readonly string[]): Promise<Map<string, OverviewChunk>>;
  /** The given files that have at least one chunk passing the filters. */
  filesPassing(paths: readonly string[], filters: ChunkFilters): Promise<Set<string>>;
  /** Number of search chunks. */
  chunkCount(): Promise<number>;
  /**
   * The tags, each carried by at least one chunk, most common first (by the distinct tag sets that hold
   * them): which of `tags` some chunk carries, or with `tags` undefined up to `limit` examples. A tag filter
   * that names none is an error, not "nothing matches" (tools/filters.ts).
   */
  chunkTags(tags: readonly string[] | undefined, limit: number): Promise<string[]>;
}

/** What the vector side of search reads: chunk text hashes and the texts to embed. */
export interface VectorReader {
  /** Every chunk's id and text hash (all chunks when `filters` is undefined, else those passing them). */
  chunkHashes(filters?: ChunkFilters): Promise<ChunkHash[]>;
  /** The text of each hash (one chunk's text per hash: equal hashes are equal texts); unknown hashes are absent. */
  chunkTextsByHash(hashes: readonly string[]): Promise<Map<string, string>>;
}

/** A model's vectors as a store tells them apart: the embedding provider's id and recipe. */
export interface VectorModel {
  id: string;
  recipe: string;
}

/**
 * Vectors the store holds itself (the shared store on a server with pgvector), so nearest neighbours are
 * found where the vectors are; a reader without them leaves these out and each process keeps its own.
 */
export interface StoredVectorReader {
  /** The dimension of `model`'s vectors when the store holds them for every chunk the reader sees, else undefined. */
  storedVectorDimensions(model: VectorModel): Promise<number | undefined>;
  /** The `k` chunks nearest to `vector` (cosine) among those passing the filters, best first, scored by cosine similarity. */
  nearestChunks(model: VectorModel, vector: Float32Array, k: number, filters: ChunkFilters): Promise<Array<{ id: string; score: number }>>;
}

/** Definitions, references and import edges, by name, id or file (what reference resolution stored). */
export interface SymbolReader {
  /** Definitions with one of these names, in source order (path, line, column). */
  symbolsNamed(names: readonly string[]): Promise<SymbolRow[]>;
  /** Definitions of these files, in source order. */
  symbolsOfFiles(paths: readonly string[]): Promise<SymbolRow[]>;
  /** Definitions with these ids (any order). */
  symbolsById(ids: readonly number[]): Promise<SymbolRow[]>;
  /** References resolved to any of these definitions. */
  refsByTargets(ids: readonly number[]): Promise<RefRow[]>;
  /** refsByTargets' references as sites, without the definition each is written in (RefSite), which SQLite's view finds per row. */
  refSitesByTargets(ids: readonly number[]): Promise<RefSite[]>;
  /** References written inside these definitions (what they call, use, inherit). */
  refsInside(ids: readonly number[]): Promise<RefRow[]>;
  /** Unresolved references with this name. */
  unresolvedNamed(name: string): Promise<RefRow[]>;
  /** unresolvedNamed's references as sites (RefSite). */
  unresolvedSitesNamed(name: string): Promise<RefSite[]>;
  /** The definition each of these references is written in (RefRow.enclosing), by reference id; a site's, for the few shown. */
  enclosingOf(refIds: readonly number[]): Promise<Map<number, string | null>>;
  /** References from other files into definitions of these files. */
  refsIntoFiles(paths: readonly string[]): Promise<RefIntoFile[]>;
  /** Methods of `language` with one of these names, with the qualified name of the type declaring them. */
  methodOwners(language: string, names: readonly string[]): Promise<Array<{ container: string; name: string; file: string }>>;
  /** Distinct definition names equal to `name` ignoring ASCII case (at most 20). */
  namesIgnoringCase(name: string): Promise<string[]>;
  /** Distinct definition names containing `fragment` (at most 50; SQL LIKE semantics, ASCII case ignored). */
  namesContaining(fragment: string): Promise<string[]>;
  /** Distinct definition names of length between min and max (inclusive). */
  namesOfLength(min: number, max: number): Promise<string[]>;
}

/** The import graph between files, and its cycles. */
export interface ImportGraphReader {
  /** Import edges out of these files, with the import statement's position. */
  edgesOf(paths: readonly string[]): Promise<EdgeRow[]>;
  /** Import edges into these files. */
  edgesInto(paths: readonly string[]): Promise<EdgeRow[]>;
  /** Import edges whose both ends are among these files: one per pair, its first import statement. */
  edgesAmong(files: readonly string[]): Promise<EdgeRow[]>;
  /** For each [file, target] pair, the first import statement of `file` that reaches `target` (absent when none), keyed `file\0target`. */
  firstImports(pairs: ReadonlyArray<readonly [string, string]>): Promise<Map<string, { line: number; column: number; module: string }>>;
  /** Files of import cycles (component number → files in path order), only those under `dir` when given. */
  componentFiles(dir: string | undefined): Promise<Map<number, string[]>>;
  /** Files with import edges and distinct file-to-file edges, both ends under a folder ("" for all). */
  importGraphSize(dir: string): Promise<{ files: number; edges: number }>;
}

/** Small graph facts read per search result (search_codebase's evidence and preflight). */
export interface GraphFactsReader {
  /** Files importing `file` (other than itself), most import statements first, then by path. */
  importers(file: string): Promise<CountedFile[]>;
  /** Ids of the definitions named `name` that start within lines [startLine, endLine] of `file`. */
  symbolIdsNamedWithin(file: string, name: string, startLine: number, endLine: number): Promise<number[]>;
  /** Ids of every definition of `file`. */
  symbolIdsOf(file: string): Promise<number[]>;
  /** Files whose code uses (calls, types, inherits from, reads) these definitions, outside `except`, most uses first. */
  users(ids: readonly number[], except: string): Promise<CountedFile[]>;
  /** Files calling `name` where resolution bound the call to no definition, outside `except` (at most 500, by path). */
  unresolvedCallers(name: string, except: string): Promise<string[]>;
  /** Every import statement's file and module (one row per file and module). */
  importedModules(): Promise<Array<{ file: string; module: string }>>;
  /** Names `file` defines at its top level, exported first, then by position (at most `limit`). */
  topLevelNames(file: string, limit: number): Promise<string[]>;
  /** Which of `files` lie in an import cycle. */
  inImportCycles(files: readonly string[]): Promise<string[]>;
}

/** Whole-project facts: language shares, import usage, totals, per-file imports and calls. */
export interface ProjectReader {
  /** Files, code and comment lines and test files per language, most code first. */
  languageShares(): Promise<LanguageShare[]>;
  /** How many files import each module, with whether it is external or standard library, most files first. */
  importUsage(): Promise<Array<{ module: string; files: number; external: boolean; std: boolean }>>;
  /** Totals over the whole project (files, lines, definitions, modules, complexity, bytes). */
  projectTotals(): Promise<ProjectTotals>;
  /** Imported modules per file. */
  importsByFile(): Promise<Map<string, string[]>>;
  /** Call sites per file, as `name` and `qualifier.name`. */
  callsByFile(): Promise<Map<string, Set<string>>>;
}

/** cortex_files: statistics queries compiled by engines/files/compile.ts for this reader's dialect. */
export interface StatsReader {
  /** The SQL the reader runs: queries are compiled for it. */
  readonly dialect: SqlDialect;
  /** Runs one compiled statement (validated identifiers, bound values): column names and row arrays. */
  runStatsQuery(sql: string, params: Array<string | number | boolean | null>): Promise<{ columns: string[]; rows: unknown[][] }>;
}

/**
 * The project's git history, where the index keeps one (store/history-store.ts: the root is a git work
 * tree and the channel is on). A reader without these methods, or an index without a history, answers
 * search and the preflight from the other channels alone.
 */
export interface HistoryReader {
  /** The `limit` commits whose subject lines best match the weighted terms, best first, with the paths each changed ([] without a history). */
  matchingCommits(terms: ReadonlyMap<string, number>, limit: number): Promise<HistoryMatch[]>;
  /** For each path, how many stored commits changed it and which files changed with it (paths never changed, or no history: absent). */
  coChanges(paths: readonly string[]): Promise<Map<string, CoChange>>;
  /** How the stored commit subjects are worded: their opening words and full stops (none without a history). */
  subjectStyle(): Promise<SubjectStyle>;
}

/** Everything the read path asks of an index (sqlite-reader.ts implements it). */
export interface IndexReader
  extends IndexStateReader,
    FileReader,
    TextSearchReader,
    KeywordReader,
    VectorReader,
    Partial<StoredVectorReader>,
    Partial<HistoryReader>,
    SymbolReader,
    ImportGraphReader,
    GraphFactsReader,
    ProjectReader,
    StatsReader {}

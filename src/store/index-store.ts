/**
 * Typed access to one index database: writing a file's text tier and then its parse tier (each in one
 * place, so a tier of a file is always whole), deleting files, aggregating modules, reading file state
 * and content.
 */
import type { Database, Statement } from "bun:sqlite";
import { rmSync } from "node:fs";
import type { FileState, ParsedFile, TextFile, UnparsedFile } from "./types.ts";
import type { FileFacts } from "../lang/types.ts";
import { loadStagedFullTextInWorker, loadStagedWords, type ResolutionWrite } from "./full-text-load.ts";
import { contentText } from "./content-codec.ts";
import {
  chunkTypeCode,
  PARSE_TIER_RESET,
  refKindCode,
  storedQualifiedName,
  storedRefRare,
  storedSignature,
  storedSpans,
  symbolKindCode,
  typeKindCode,
} from "./schema.ts";
import { storedChunk } from "./chunk-row.ts";
import { SQLITE, type HasSqlite } from "./sqlite-access.ts";
import { SQLITE_INDEX_DIALECT, type SqlDialect } from "./sql-dialect.ts";
import { PAGE_CACHE_KIB, createBuildDatabase, createBuildIndexes, createLaterBuildIndexes, finishBuildDatabase, openDatabase, runOnce } from "./db.ts";
import { ContentIndex, TrigramBaseWriter, updateTrigramIndex, type TrigramUpdate } from "./content-index.ts";
import { MultiRowInsert } from "./multi-row-insert.ts";

/** Free pages an incremental run leaves to later writes (1 MiB); from this many on it gives them back. */
const FREE_PAGES_KEPT = 64;

/** The meta key of the files an incremental run has written and whose references are not resolved yet (set and cleared by the pipeline). */
export const STEPS_PENDING_META = "index_steps_pending";

type Stmt = Statement<any, any[]>;

/** The prepared statements of a store, typed by name (no lookups that may miss). */
/**
 * The id of `name` in a table of names (symbol_scopes, ref_names, import_modules), looked up or inserted on first use and
 * remembered in `cache`: bounded, since a batch's names are few and a whole corpus's are not needed at once.
 */
function interned(cache: Map<string, number>, lookup: Stmt, insert: Stmt, name: string): number {
  let id = cache.get(name);
  if (id === undefined) {
    const row = lookup.get(name) as { id: number } | null;
    id = row ? row.id : Number(insert.run(name).lastInsertRowid);
    if (cache.size >= 100_000) cache.clear();
    // a copy of its own: a name read from a parse worker's message is cut out of the message's whole text,
    // which JavaScriptCore keeps alive as long as the cut is (the map outlives the batch). JSON's round trip
    // copies any string exactly (Buffer's would replace a lone surrogate).
    cache.set(JSON.parse(JSON.stringify(name)) as string, id);
  }
  return id;
}

function prepareStatements(db: Database) {
  const q = (sql: string): Stmt => db.prepare(sql);
  return {
    deleteFile: q("DELETE FROM file_state WHERE file_path = ?"),
    rememberBinary: q("INSERT OR REPLACE INTO binary_files (file_path, mtime_ms, size_bytes) VALUES (?, ?, ?)"),
    forgetBinary: q("DELETE FROM binary_files WHERE file_path = ?"),
    insertFile: q(`INSERT INTO file_rows (file_id, file_path, language, is_test, module_path, lines_total, lines_code, lines_comment,
      lines_blank, size_bytes, last_modified, type_count, function_count, import_count) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`),
    insertType: q(`INSERT INTO type_rows (name, kind, file_id, start_line, end_line, is_exported,
      field_count, method_count) VALUES (?,?,?,?,?,?,?,?)`),
    insertFunction: q(`INSERT INTO function_rows (name, file_id, start_line, end_line,
      is_exported, is_method, receiver_type, param_count, return_count, lines, complexity) VALUES (?,?,?,?,?,?,?,?,?,?,?)`),
    insertImport: q(`INSERT INTO import_rows (file_id, module_id, is_standard_lib, is_external, is_relative,
      symbol_count) VALUES (?,?,?,?,?,?)`),
    insertState: q("INSERT INTO file_state (file_path, language, content_hash, mtime_ms, size_bytes) VALUES (?,?,?,?,?)"),
    // a file's parse tier in its state row at once: parsed, and the ranges of its rows' ids
    markParsed: q(`UPDATE file_state SET parsed = 1, package_name = ?, syntax_errors = ?, ref_first = ?, ref_last = ?, chunk_first = ?,
      chunk_last = ?, symbol_first = ?, symbol_last = ? WHERE file_id = ?`),
    contentOfId: q("SELECT z FROM contents WHERE file_id = ?"),
    insertContent: q("INSERT INTO contents (file_id, z) VALUES (?, ?)"),
    scopeId: q("SELECT scope_id AS id FROM symbol_scopes WHERE name = ?"),
    insertScope: q("INSERT INTO symbol_scopes (name) VALUES (?)"),
    refNameId: q("SELECT name_id AS id FROM ref_names WHERE name = ?"),
    insertRefName: q("INSERT INTO ref_names (name) VALUES (?)"),
    moduleId: q("SELECT module_id AS id FROM import_modules WHERE name = ?"),
    insertModule: q("INSERT INTO import_modules (name) VALUES (?)"),
    fileIdOf: q("SELECT file_id AS id FROM file_state WHERE file_path = ?"),
    hashOfPath: q("SELECT content_hash FROM file_state WHERE file_path = ?"),
    deleteSymbolsOf: q(`DELETE FROM symbol_rows WHERE symbol_id BETWEEN (SELECT symbol_first FROM file_state WHERE file_id = ?1)
      AND (SELECT symbol_last FROM file_state WHERE file_id = ?1)`),
    insertImportSite: q(`INSERT INTO import_site_rows (file_id, module_id, alias, symbols, line, "column")
      VALUES (?,?,?,?,?,?)`),
    insertChunk: q(`INSERT INTO chunk_rows (file_id, chunk_type, id_key, id_full, title, symbol_path, symbol_scope, language, start_line,
      end_line, tag_set, prefix, spans, text_hash, metadata, def_kind, part, parts) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`),
    tagSetId: q("SELECT tag_set AS id FROM chunk_tag_sets WHERE tags = ?"),
    insertTagSet: q("INSERT INTO chunk_tag_sets (tags) VALUES (?)"),
    insertChunkWords: q("INSERT INTO chunks_fts (rowid, symbols, title, path, body) VALUES (?, ?, ?, ?, ?)"),
    insertFileWords: q("INSERT INTO files_fts (rowid, path, defs, doc, code) VALUES (?, ?, ?, ?, ?)"),
    touchState: q("UPDATE file_state SET mtime_ms = ? WHERE file_path = ?"),
    touchRow: q("UPDATE file_rows SET last_modified = ? WHERE file_path = ?"),
    getMeta: q("SELECT value FROM meta WHERE key = ?"),
    setMeta: q("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"),
    moduleOfFile: q("SELECT module_path FROM files WHERE file_path = ?"),
    contentByPath: q("SELECT c.z AS z FROM contents c JOIN file_state s ON s.file_id = c.file_id WHERE s.file_path = ?"),
  };
}

/**
 * A type's or function's statistics row within its file: type_id and function_id are
 * '<path>:<line>:<name>' (the cortex_files specification), so one row per name and first line (two
 * same-named functions on one line of a minified file are one row).
 */
function statsRowKey(d: { startLine: number; name: string }): string {
  return `${d.startLine}:${d.name}`;
}

/** How many statistics rows a file's types or functions make: its type_count and function_count, so that they agree with the rows. */
function distinctStatsRows(defs: ReadonlyArray<{ startLine: number; name: string }>): number {
  return new Set(defs.map(statsRowKey)).size;
}

/** An incomplete parse tier: files parsed of all, and whether only its indexes are left to build. */
export interface ParseTierState {
  parsed: number;
  total: number;
  finishing: boolean;
  /**
   * A first build: the keyword index (search's ranking) is loaded only once every file is parsed, so
   * until then search ranks nothing, whatever the parsed count says.
   */
  keywordsPending?: boolean;
}

export class IndexStore implements HasSqlite {
  /** The SQL of this store, for the files-query compiler. */
  readonly dialect: SqlDialect = SQLITE_INDEX_DIALECT;
  private readonly db: Database;
  private readonly st: ReturnType<typeof prepareStatements>;
  /** A file's definitions and references, written a group of rows per statement. */
  private readonly symbolRows: MultiRowInsert;
  private readonly refRows: MultiRowInsert;
  /** Another connection's write in progress (the keyword index load of a full build). */
  private pendingWrite: Promise<void> | undefined;
  /** Why that write failed, once it has. */
  private loadFailure: Error | undefined;
  /** The CPU milliseconds of the last keyword index load's thread (loadStagedFullText aside), for the trace. */
  private loadCpuMs: number | undefined;
  /** Of them, writing resolution's results (resolutionWritesAside), and the wall ms it waited for them. */
  private loadWrites: { cpuMs: number; waitedMs: number } | undefined;
  /** Hands the keyword load's thread a write, until whenWritable (resolutionWritesAside). */
  private asideWrites: ((w: ResolutionWrite) => void) | undefined;
  /** The CPU milliseconds of that thread in the later build indexes (createBuildIndexes' leaveLater). */
  private loadIndexCpuMs: number | undefined;
  /** createBuildIndexes left indexes for the keyword index load to build. */
  private laterIndexesLeft = false;
  /** The side database holding full-text words during a full build (stageFullText). */
  private stagePath: string | undefined;
  /** Keyword words queued by insertParsed, written at the end of the transaction (writeWords). */
  private words: Array<[Stmt, Array<string | number>]> = [];
  /**
   * ref_names ids read or written by this store, kept across its transactions (nothing deletes a name)
   * but cleared when one fails (a rolled back transaction takes its new names with it) and when the
   * parse tier is reset: a transaction's look-ups of names that earlier ones had met were a tenth of
   * writing the kernel's parse tier.
   */
  private readonly refNameIds = new Map<string, number>();
  /** symbol_scopes ids by name, like refNameIds. */
  private readonly scopeIds = new Map<string, number>();
  /** import_modules ids by name, like refNameIds. */
  private readonly moduleIds = new Map<string, number>();
  /**
   * chunk_tag_sets ids by tag list (its JSON), like refNameIds: a few thousand lists for hundreds of
   * thousands of chunks, whose upserts each cost more than the chunk's own row (ksub: 1 of 6.7 s).
   */
  private readonly tagSetIds = new Map<string, number>();

  /** Opens an existing index (INDEX_CORRUPT when it is not one this cortex can use). */
  static open(path: string, options: { readonly?: boolean } = {}): IndexStore {
    return new IndexStore(openDatabase(path, options));
  }

  /** Creates a database to be built from nothing (see db.ts createBuildDatabase). */
  static createForBuild(path: string): IndexStore {
    return new IndexStore(createBuildDatabase(path));
  }

  /** True when the file at `path` opens as a usable index. */
  static isReadable(path: string): boolean {
    try {
      openDatabase(path, { readonly: true }).close();
      return true;
    } catch {
      return false;
    }
  }

  private constructor(db: Database) {
    this.db = db;
    this.st = prepareStatements(db);
    this.symbolRows = new MultiRowInsert(
      db,
      "symbol_rows (file_id, name, qualified_name, scope, kind, container, start_line, start_column, end_line, is_exported, signature)",
      11,
    );
    this.refRows = new MultiRowInsert(db, `ref_rows (file_id, name_id, qualifier_id, kind, line, "column", enclosing_offset, rare)`, 8);
  }

  /** Store-internal: the connection (see sqlite-access.ts). */
  get [SQLITE](): Database {
    return this.db;
  }

  /** The database file. */
  get path(): string {
    return this.db.filename;
  }

  /** The trigram index and stored contents, read through this store's connection. */
  contentIndex(): ContentIndex {
    return new ContentIndex(this.db);
  }

  /**
   * For a first build (no file stored, no trigram written): a writer of the trigram index's base segments
   * that the text tier feeds as it writes each file, so the index is not rebuilt afterwards by reading
   * every content back (the kernel: 13-16 s on this thread, a third of it decompressing, the other core
   * idle). Undefined when the index holds anything: updateTrigramIndex then does what is needed.
   */
  trigramBaseWriter(): TrigramBaseWriter | undefined {
    return TrigramBaseWriter.forFirstBuild(this.db);
  }

  /** Brings the trigram index up to date with the stored contents (content-index.ts). */
  updateTrigramIndex(options: { groupPostings?: number } = {}): TrigramUpdate {
    return updateTrigramIndex(this.db, options);
  }

  /**
   * A bulk build's secondary indexes and planner statistics, once its rows are in. `leaveLater`: only those
   * the rest of the build reads; the keyword index load (loadStagedFullText) builds the others after it.
   */
  createBuildIndexes(options: { leaveLater?: boolean } = {}): void {
    this.packFileRows();
    createBuildIndexes(this.db, options.leaveLater ? "first" : "all");
    this.laterIndexesLeft = options.leaveLater === true;
  }

  /**
   * Writes file_rows again in the order of their key. They come in the order the parse workers finish
   * files, keyed by file id (the text tier's order): inserted out of order, their pages split half full
   * and a scan by another index reads more of them (boost: 1.73 MB, top_files 3.3 ms; in order 1.56 MB,
   * 2.0 ms). Foreign keys are off meanwhile: the rows that name a file by id or path stay as they are.
   */
  private packFileRows(): void {
    this.db.exec("PRAGMA foreign_keys = OFF");
    try {
      this.db.transaction(() => {
        this.db.exec(`CREATE TEMP TABLE file_rows_in_order AS SELECT * FROM file_rows ORDER BY file_id;
          DELETE FROM file_rows;
          INSERT INTO file_rows SELECT * FROM temp.file_rows_in_order ORDER BY file_id;
          DROP TABLE temp.file_rows_in_order;`);
      })();
    } finally {
      this.db.exec("PRAGMA foreign_keys = ON");
    }
  }

  /** Ends a full build (statistics, the write-ahead log folded in). */
  finishBuild(): void {
    finishBuildDatabase(this.db);
  }

  /**
   * Sets this connection's page cache: `small` (a quarter) while it appends a bulk parse tier, whose
   * pages it hardly reads back, `full` otherwise.
   */
  pageCache(size: "small" | "full"): void {
    this.db.exec(`PRAGMA cache_size = -${size === "small" ? PAGE_CACHE_KIB / 4 : PAGE_CACHE_KIB}`);
  }

  /** Frees what this connection's page cache holds now (it fills again as pages are read). */
  releaseMemory(): void {
    this.db.exec("PRAGMA shrink_memory");
  }

  /** Folds what the write-ahead log holds into the database, without waiting for readers. */
  checkpoint(): void {
    this.db.exec("PRAGMA wal_checkpoint(PASSIVE)");
  }

  /**
   * Gives the database's free pages back to the file system when there are at least FREE_PAGES_KEPT:
   * an incremental run that rewrites many files frees pages it does not fill again (boost, 601 files
   * changed: 10 MiB of a 334 MiB file), and SQLite only reuses them for later writes. A database built
   * without incremental auto-vacuum (by an older cortex) keeps them. Returns the pages given back.
   */
  returnFreePages(): number {
    const free = (this.db.query("PRAGMA freelist_count").get() as { freelist_count: number }).freelist_count;
    if (free < FREE_PAGES_KEPT) return 0;
    if ((this.db.query("PRAGMA auto_vacuum").get() as { auto_vacuum: number }).auto_vacuum !== 2) return 0;
    this.db.exec("PRAGMA incremental_vacuum");
    return free;
  }

  getMeta(key: string): string | undefined {
    const row = this.st.getMeta.get(key) as { value: string } | null;
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    this.st.setMeta.run(key, value);
  }

  /** Every indexed file's state, by path. */
  fileStates(): Map<string, FileState> {
    const rows = this.db
      .query("SELECT file_id AS fileId, file_path AS path, content_hash AS contentHash, mtime_ms AS mtimeMs, size_bytes AS sizeBytes FROM file_state")
      .all() as FileState[];
    return new Map(rows.map((r) => [r.path, r]));
  }

  /**
   * Every indexed file's mtime and size, by path: what a run compares with the walk. Read as plain rows
   * without the content hash (the kernel's 78,168 rows: 60-70 ms against 70-140 ms as fileStates' objects,
   * most of a no-op's reading); a changed file's hash comes from contentHashOf.
   */
  fileStamps(): Map<string, { mtimeMs: number; sizeBytes: number }> {
    return this.stampsOf("file_state");
  }

  /** A file's stored content hash, if it is indexed. */
  /** The non-relative imports of one language's files, as written (the modules import classification reads). */
  importsOfLanguage(language: string): Array<{ path: string; module: string }> {
    return this.db
      .query(
        `SELECT f.file_path AS path, m.name AS module FROM import_rows i JOIN file_rows f ON f.file_id = i.file_id
          JOIN import_modules m ON m.module_id = i.module_id WHERE f.language = ? AND i.is_relative = 0`,
      )
      .all(language) as Array<{ path: string; module: string }>;
  }

  contentHashOf(path: string): string | undefined {
    return (this.st.hashOfPath.get(path) as { content_hash: string } | null)?.content_hash;
  }

  /** The files known to be binary, with the mtime and size they had when found so, by path. */
  binaryFiles(): Map<string, { mtimeMs: number; sizeBytes: number }> {
    return this.stampsOf("binary_files");
  }

  /** A table's mtime and size by path, read as plain rows. */
  private stampsOf(table: "file_state" | "binary_files"): Map<string, { mtimeMs: number; sizeBytes: number }> {
    const rows = this.db.query(`SELECT file_path, mtime_ms, size_bytes FROM ${table}`).values() as Array<[string, number, number]>;
    const stamps = new Map<string, { mtimeMs: number; sizeBytes: number }>();
    for (const [path, mtimeMs, sizeBytes] of rows) stamps.set(path, { mtimeMs, sizeBytes });
    return stamps;
  }

  /** Remembers a file found binary (and not indexed), so that later runs skip it while it stays the same. */
  rememberBinary(path: string, mtimeMs: number, sizeBytes: number): void {
    this.st.rememberBinary.run(path, Math.trunc(mtimeMs), sizeBytes);
  }

  /** Forgets a file once known to be binary (gone, left out, or now text). */
  forgetBinary(path: string): void {
    this.st.forgetBinary.run(path);
  }

  /** Records a new mtime for a file whose content hash did not change. */
  touch(path: string, mtimeMs: number): void {
    this.st.touchState.run(mtimeMs, path);
    // the statistics' last_modified too, as a first build would store it (a touch, a branch switch and back)
    this.st.touchRow.run(new Date(mtimeMs).toISOString(), path);
  }

  /** Number of indexed files per language. */
  languageCounts(): Record<string, number> {
    const rows = this.db.query("SELECT language, COUNT(*) AS n FROM file_state GROUP BY language ORDER BY n DESC, language").all() as Array<{
      language: string;
      n: number;
    }>;
    return Object.fromEntries(rows.map((r) => [r.language, r.n]));
  }

  moduleOf(path: string): string | undefined {
    return (this.st.moduleOfFile.get(path) as { module_path: string } | null)?.module_path;
  }

  contentOf(path: string): string | undefined {
    const row = this.st.contentByPath.get(path) as { z: Uint8Array } | null;
    return row ? contentText(row.z) : undefined;
  }

  /** A stored file's compressed content (store/content-codec.ts), or undefined when it is not indexed. */
  contentZ(fileId: number): Uint8Array | undefined {
    return (this.st.contentOfId.get(fileId) as { z: Uint8Array } | null)?.z;
  }

  /**
   * Removes a file and (by cascades and triggers) every row of both tiers that belongs to it. Its definitions go first,
   * while its file_state row still gives their path to the dead_symbols trigger.
   */
  deleteFile(path: string): void {
    const row = this.st.fileIdOf.get(path) as { id: number } | null;
    if (!row) return;
    this.st.deleteSymbolsOf.run(row.id);
    this.st.deleteFile.run(path);
  }

  /**
   * Writes the text tier of a file the index does not hold (new, or deleted first: a batch of many files
   * deletes them all before inserting, see the indexer's flush); returns its file id. Call inside a
   * transaction.
   */
  insertText(t: TextFile): number {
    const row = this.st.insertState.run(t.path, t.language, t.contentHash, Math.trunc(t.mtimeMs), t.sizeBytes);
    const fileId = Number(row.lastInsertRowid);
    this.st.insertContent.run(fileId, t.content);
    return fileId;
  }

  /** Files whose text is stored and whose parse tier is not, in file id order. */
  unparsed(): UnparsedFile[] {
    return this.db
      .query(
        "SELECT file_id AS fileId, file_path AS path, language, size_bytes AS sizeBytes, mtime_ms AS mtimeMs FROM file_state WHERE parsed = 0 ORDER BY file_id",
      )
      .all() as UnparsedFile[];
  }

  /** Marks a file parsed although its parse failed: it keeps its text tier and is tried again when it changes. */
  markParseFailed(path: string): void {
    this.db.query("UPDATE file_state SET parsed = 1 WHERE file_path = ?").run(path);
  }

  /**
   * How far the parse tier is: undefined when it is complete, else files parsed of all files and whether
   * the parse is done but its indexes are still being built (a first build's bulk finish) or its references
   * resolved (an incremental run's).
   */
  parseTierState(): ParseTierState | undefined {
    const pending = this.db.query("SELECT 1 FROM file_state WHERE parsed = 0 LIMIT 1").get() !== null;
    // a first build's bulk finish, or an incremental run's files written and their references not yet
    // resolved (the pipeline's index_steps_pending): answers read between the two miss references
    const finishing = this.getMeta("parse_state") === "bulk" || (this.getMeta(STEPS_PENDING_META) ?? "") !== "";
    if (!pending && !finishing) return undefined;
    const total = (this.db.query("SELECT count(*) AS n FROM file_state").get() as { n: number }).n;
    const parsed = pending ? total - this.unparsedCount() : total;
    return { parsed, total, finishing: !pending, ...(this.getMeta("parse_state") === "bulk" ? { keywordsPending: true } : {}) };
  }

  /** Number of files whose parse tier is not written yet. */
  unparsedCount(): number {
    return (this.db.query("SELECT count(*) AS n FROM file_state WHERE parsed = 0").get() as { n: number }).n;
  }

  /**
   * Drops the parse tier's tables and creates them empty, every file marked unparsed: for a first build
   * whose parse tier was interrupted (its staged keyword words and missing indexes cannot be resumed).
   */
  resetParseTier(): void {
    this.db.exec("PRAGMA foreign_keys = OFF");
    this.forgetNames();
    try {
      this.db.transaction(() => this.db.exec(PARSE_TIER_RESET))();
    } finally {
      this.db.exec("PRAGMA foreign_keys = ON");
    }
  }

  /**
   * Writes the parse tier of a file whose text tier is stored and whose parse rows are not (they go with
   * its text when a file is rewritten). Call inside a transaction.
   */
  insertParsed(f: ParsedFile): void {
    const s = this.st;
    const facts = f.facts;
    const importsByModule = new Map<string, { isStandardLib: boolean; isExternal: boolean; isRelative: boolean; symbols: number }>();
    for (const imp of facts?.imports ?? []) {
      const prev = importsByModule.get(imp.module);
      if (prev) prev.symbols += imp.symbols.length;
      else importsByModule.set(imp.module, { ...imp, symbols: imp.symbols.length });
    }
    s.insertFile.run(
      f.fileId,
      f.path,
      f.language,
      f.isTest ? 1 : 0,
      f.modulePath,
      f.lines.total,
      f.lines.code,
      f.lines.comment,
      f.lines.blank,
      f.sizeBytes,
      new Date(f.mtimeMs).toISOString(),
      facts ? distinctStatsRows(facts.types) : 0,
      facts ? distinctStatsRows(facts.functions) : 0,
      importsByModule.size,
    );
    // words come compacted as the keyword indexes store them (store/keyword-words.ts, in the parse workers)
    if (f.words) this.words.push([s.insertFileWords, [f.fileId, f.words.path, f.words.defs, f.words.doc, f.words.code]]);
    const ranges = facts ? this.writeFacts(f, facts, importsByModule) : undefined;
    // a file's chunks are written one after another: the range of their rowids finds them (chunk_rows)
    let firstChunk: number | undefined;
    let lastChunk: number | undefined;
    for (const c of f.chunks ?? []) {
      const tagSet = interned(this.tagSetIds, s.tagSetId, s.insertTagSet, JSON.stringify(c.tags));
      // what the view can name again is left NULL (chunk-row.ts)
      const k = storedChunk(c, f.path);
      // a definition's symbol path as its scope's id and its last segment (chunk_rows)
      const dot = k.defKind === null ? -1 : (c.symbolPath?.lastIndexOf(".") ?? -1);
      const r = s.insertChunk.run(
        f.fileId,
        chunkTypeCode(c.chunkType),
        k.idKey,
        k.idFull,
        k.title,
        dot > 0 ? c.symbolPath!.slice(dot + 1) : (c.symbolPath ?? null),
        dot > 0 ? this.scopeId(c.symbolPath!.slice(0, dot)) : null,
        c.language === f.language ? null : c.language,
        c.startLine,
        c.endLine,
        tagSet,
        k.prefix,
        storedSpans(c.spans, c.startLine, c.endLine),
        Buffer.from(c.textHash, "hex"),
        k.metadata,
        k.defKind,
        k.part,
        k.parts,
      );
      lastChunk = Number(r.lastInsertRowid);
      firstChunk ??= lastChunk;
      const w = c.words;
      if (w) this.words.push([s.insertChunkWords, [lastChunk, w.symbols, w.title, w.path, w.body]]);
    }
    s.markParsed.run(
      facts?.packageName ?? null,
      facts?.syntaxErrors ?? 0,
      ranges?.refFirst ?? null,
      ranges?.refLast ?? null,
      firstChunk ?? null,
      lastChunk ?? null,
      ranges?.symbolFirst ?? null,
      ranges?.symbolLast ?? null,
      f.fileId,
    );
  }

  private writeFacts(
    f: ParsedFile,
    facts: FileFacts,
    importsByModule: Map<string, { isStandardLib: boolean; isExternal: boolean; isRelative: boolean; symbols: number }>,
  ): { symbolFirst?: number; symbolLast?: number; refFirst?: number; refLast?: number } {
    const s = this.st;
    // a file's definitions are inserted together, after the statistics rows: their ids are consecutive
    // (see symbol_rows), so a definition's place in this list is its id less the file's first
    const symbolPlaces = new Map<string, number>();
    const symbolValues: Array<string | number | null> = [];
    let symbolCount = 0;
    const addSymbol = (
      name: string,
      qname: string,
      kind: string,
      container: string | undefined,
      startLine: number,
      startColumn: number,
      endLine: number,
      exported: boolean,
      signature: string | null,
    ) => {
      const stored = storedQualifiedName(qname, name, facts.packageName, container);
      symbolValues.push(
        f.fileId,
        name,
        stored.qualified,
        stored.scope === null ? null : this.scopeId(stored.scope),
        symbolKindCode(kind),
        container == null ? null : this.scopeId(container),
        startLine,
        startColumn,
        endLine,
        exported ? 1 : 0,
        storedSignature(signature, name),
      );
      if (!symbolPlaces.has(qname)) symbolPlaces.set(qname, symbolCount);
      else {
        // overloads share a name: a reference's enclosing one is the one whose lines hold it
        let spans = overloads.get(qname);
        if (!spans) {
          const first = symbolPlaces.get(qname)!;
          overloads.set(qname, (spans = [{ place: first, start: placeLines[2 * first]!, end: placeLines[2 * first + 1]! }]));
        }
        spans.push({ place: symbolCount, start: startLine, end: endLine });
      }
      placeLines.push(startLine, endLine);
      symbolCount++;
    };
    const overloads = new Map<string, Array<{ place: number; start: number; end: number }>>();
    const placeLines: number[] = [];
    const enclosingPlace = (qname: string, line: number): number | null => {
      const spans = overloads.get(qname);
      if (!spans) return symbolPlaces.get(qname) ?? null;
      let best: { place: number; start: number; end: number } | undefined;
      for (const s of spans) if (s.start <= line && line <= s.end && (!best || s.end - s.start < best.end - best.start)) best = s;
      return (best ?? spans[0]!).place;
    };
    // one statistics row per key (the keys are not indexed): a file's first type or function of a name on a line
    const typeIds = new Set<string>();
    const functionIds = new Set<string>();
    for (const t of facts.types) {
      const typeId = statsRowKey(t);
      if (!typeIds.has(typeId)) {
        typeIds.add(typeId);
        s.insertType.run(t.name, typeKindCode(t.kind), f.fileId, t.startLine, t.endLine, t.exported ? 1 : 0, t.fieldCount, t.methodCount);
      }
      addSymbol(t.name, t.qualifiedName, t.kind, t.container, t.startLine, t.startColumn, t.endLine, t.exported, null);
    }
    for (const fn of facts.functions) {
      const functionId = statsRowKey(fn);
      if (!functionIds.has(functionId)) {
        functionIds.add(functionId);
        s.insertFunction.run(
          fn.name,
          f.fileId,
          fn.startLine,
          fn.endLine,
          fn.exported ? 1 : 0,
          fn.isMethod ? 1 : 0,
          fn.receiverType ?? null,
          fn.paramCount,
          fn.returnCount,
          fn.bodyLines,
          fn.complexity,
        );
      }
      const container = fn.isMethod ? fn.qualifiedName.slice(0, Math.max(0, fn.qualifiedName.lastIndexOf("."))) || undefined : undefined;
      addSymbol(fn.name, fn.qualifiedName, fn.isMethod ? "method" : "function", container, fn.startLine, fn.startColumn, fn.endLine, fn.exported, fn.signature);
    }
    for (const v of facts.variables) {
      addSymbol(v.name, v.qualifiedName, v.kind, v.container, v.startLine, v.startColumn, v.endLine, v.exported, null);
    }
    for (const [module, imp] of importsByModule) {
      s.insertImport.run(f.fileId, this.moduleId(module), imp.isStandardLib ? 1 : 0, imp.isExternal ? 1 : 0, imp.isRelative ? 1 : 0, imp.symbols);
    }
    for (const imp of facts.imports) {
      s.insertImportSite.run(
        f.fileId,
        this.moduleId(imp.module),
        imp.alias ?? null,
        imp.symbols.length ? JSON.stringify(imp.symbols) : null,
        imp.line,
        imp.column,
      );
    }
    const symbolFirst = this.symbolRows.insert(symbolValues);
    const refValues: Array<string | number | null> = [];
    for (const r of facts.references) {
      // the enclosing definition's name is read back from its id; kept as text only where it has none
      const enclosing = r.enclosing ? enclosingPlace(r.enclosing, r.line) : null;
      refValues.push(
        f.fileId,
        this.refNameId(r.name),
        r.qualifier == null ? null : this.refNameId(r.qualifier),
        refKindCode(r.kind),
        r.line,
        r.column,
        // a definition of this file: its id less the file's first (see ref_rows)
        enclosing,
        storedRefRare(r.qualifierType ?? null, enclosing === null ? (r.enclosing ?? null) : null),
      );
    }
    // inserted together, nothing between: their ids are consecutive (see ref_rows)
    const refFirst = this.refRows.insert(refValues);
    return {
      symbolFirst,
      symbolLast: symbolFirst === undefined ? undefined : symbolFirst + symbolCount - 1,
      refFirst,
      refLast: refFirst === undefined ? undefined : refFirst + facts.references.length - 1,
    };
  }

  /** The id of a definition's container or scope in symbol_scopes, added on first use. */
  private scopeId(name: string): number {
    return interned(this.scopeIds, this.st.scopeId, this.st.insertScope, name);
  }

  /** The id of an imported module's name in import_modules, added on first use. */
  private moduleId(name: string): number {
    return interned(this.moduleIds, this.st.moduleId, this.st.insertModule, name);
  }

  /** The id of a reference's name or qualifier in ref_names, added on first use. */
  private refNameId(name: string): number {
    return interned(this.refNameIds, this.st.refNameId, this.st.insertRefName, name);
  }

  /**
   * For a full build: chunk and file words go to plain staging tables and move into the FTS5 indexes in
   * one pass after the parse (loadStagedFullText; on another thread for a large build). FTS5 inserts
   * interleaved with every other table's writes cost 10 of the 21 s of writing on go-src; one ordered
   * pass after the rows are in costs far less.
   */
  stageFullText(): void {
    // in a side file, so the staged rows leave no free pages behind in the index (it would grow by 5 %)
    this.stagePath = `${this.db.filename}-stage`;
    rmSync(this.stagePath, { force: true });
    this.db.query("ATTACH DATABASE ? AS stage").run(this.stagePath);
    this.db.exec(`PRAGMA stage.journal_mode = OFF; PRAGMA stage.synchronous = OFF;
      CREATE TABLE stage.chunk_words (rowid INTEGER PRIMARY KEY, symbols TEXT, title TEXT, path TEXT, body TEXT);
      CREATE TABLE stage.file_words (rowid INTEGER PRIMARY KEY, path TEXT, defs TEXT, doc TEXT, code TEXT);`);
    this.st.insertChunkWords = this.db.prepare("INSERT INTO stage.chunk_words (rowid, symbols, title, path, body) VALUES (?, ?, ?, ?, ?)");
    this.st.insertFileWords = this.db.prepare("INSERT INTO stage.file_words (rowid, path, defs, doc, code) VALUES (?, ?, ?, ?, ?)");
  }

  /**
   * Moves the staged words into the FTS5 indexes. `aside`: on a worker thread with its own connection
   * (full-text-load.ts), the database switched to WAL so this connection can keep reading meanwhile; it
   * must not write before whenWritable() resolves, and finishStagedFullText() must run before closing.
   * Otherwise here and now (a small build: starting a worker costs more than the load).
   */
  loadStagedFullText(options: { aside: boolean }): void {
    const stagePath = this.stagePath;
    const laterIndexes = this.laterIndexesLeft;
    this.laterIndexesLeft = false;
    if (!stagePath || !options.aside) {
      if (stagePath) {
        loadStagedWords(this.db); // the stage is still attached here
        this.endStaging();
      }
      if (laterIndexes) createLaterBuildIndexes(this.db);
      return;
    }
    this.endStaging();
    this.db.exec("PRAGMA journal_mode = WAL");
    // while the load runs beside, this connection only reads (reference resolution), and the two together
    // are the build's peak: a quarter of the page cache meanwhile (pages it reads again come from the
    // system's file cache), the whole of it again for the writes after
    this.pageCache("small");
    const aside = loadStagedFullTextInWorker({ dbPath: this.db.filename, stagePath, laterIndexes, takesWrites: true });
    this.asideWrites = aside.post;
    const load = aside.done
      .then((cpu) => {
        this.loadCpuMs = cpu.cpuMs;
        this.loadIndexCpuMs = laterIndexes ? cpu.indexCpuMs : undefined;
        this.loadWrites = cpu.writesCpuMs > 0 ? { cpuMs: cpu.writesCpuMs, waitedMs: cpu.waitedMs } : undefined;
      })
      .finally(() => {
        try {
          this.pageCache("full");
        } catch {} // closed meanwhile (a failed run)
      });
    load.catch((e: Error) => (this.loadFailure = e)); // thrown by whenWritable / finishStagedFullText
    this.pendingWrite = load;
  }

  /** Detaches the stage file; words are written to the FTS5 indexes directly again. */
  private endStaging(): void {
    // the statements writing to the stage must go before it can be detached
    this.st.insertChunkWords.finalize();
    this.st.insertFileWords.finalize();
    this.db.exec("DETACH DATABASE stage");
    this.st.insertChunkWords = this.db.prepare("INSERT INTO chunks_fts (rowid, symbols, title, path, body) VALUES (?, ?, ?, ?, ?)");
    this.st.insertFileWords = this.db.prepare("INSERT INTO files_fts (rowid, path, defs, doc, code) VALUES (?, ?, ?, ?, ?)");
  }

  /**
   * Resolves when no other connection is writing this database (see loadStagedFullText). Ends the
   * writes handed to the keyword load's thread (resolutionWritesAside): its transaction commits first.
   */
  whenWritable(): Promise<void> {
    if (this.asideWrites) {
      this.asideWrites({ kind: "end" });
      this.asideWrites = undefined;
    }
    return this.pendingWrite ?? Promise.resolve();
  }

  /** Settles when the keyword index load aside (and the writes it took) is done; ends nothing (the trace's wait). */
  whenFullTextLoaded(): Promise<void> {
    return this.pendingWrite ?? Promise.resolve();
  }

  /**
   * While a keyword index load runs aside and nothing has waited for it yet (whenWritable): a way to
   * hand its thread a full resolution's writes (full-text-load.ts ResolutionWrite), which it writes in
   * one transaction after its load while this thread goes on computing. undefined otherwise.
   */
  resolutionWritesAside(): ((w: ResolutionWrite) => void) | undefined {
    return this.loadFailure ? undefined : this.asideWrites;
  }

  /** What the keyword load's thread spent writing resolution's results, once done (undefined: none). */
  fullTextLoadWrites(): { cpuMs: number; waitedMs: number } | undefined {
    return this.loadWrites;
  }

  /** The CPU milliseconds the last keyword index load aside took on its thread, once it is done. */
  fullTextLoadCpuMs(): number | undefined {
    return this.loadCpuMs;
  }

  /** Those of them spent building the later build indexes, when it built them. */
  fullTextLoadIndexCpuMs(): number | undefined {
    return this.loadIndexCpuMs;
  }

  /** True once the keyword index load aside has failed (finishStagedFullText then throws its error). */
  fullTextLoadFailed(): boolean {
    return this.loadFailure !== undefined;
  }

  /** Waits for the keyword index load (loadStagedFullText, aside or not); removes the stage file either way. */
  async finishStagedFullText(): Promise<void> {
    if (!this.stagePath) return;
    try {
      await this.whenWritable();
    } finally {
      rmSync(this.stagePath, { force: true });
      this.stagePath = undefined;
      this.pendingWrite = undefined;
    }
  }

  /** Recomputes the modules table rows for the given module paths from the files beneath them. */
  recomputeModules(modulePaths: Iterable<string>): void {
    const del = this.db.prepare("DELETE FROM modules WHERE module_path = ?");
    const ins = this.db.prepare(`
      INSERT INTO modules (module_path, file_count, total_lines, code_lines, test_file_count, type_count, function_count,
        exported_type_count, exported_function_count, import_count, external_import_count, depth)
      SELECT ?1, COUNT(*), COALESCE(SUM(lines_total), 0), COALESCE(SUM(lines_code), 0), COALESCE(SUM(is_test), 0),
        COALESCE(SUM(type_count), 0), COALESCE(SUM(function_count), 0),
        (SELECT COUNT(*) FROM types WHERE module_path = ?1 AND is_exported),
        (SELECT COUNT(*) FROM functions WHERE module_path = ?1 AND is_exported),
        (SELECT COUNT(DISTINCT i.imported_module) FROM imports i JOIN files f ON f.file_path = i.file_path WHERE f.module_path = ?1),
        (SELECT COUNT(DISTINCT i.imported_module) FROM imports i JOIN files f ON f.file_path = i.file_path WHERE f.module_path = ?1 AND i.is_external),
        ?2
      FROM files WHERE module_path = ?1 HAVING COUNT(*) > 0`);
    for (const m of modulePaths) {
      del.run(m);
      ins.run(m, m === "." ? 0 : m.split("/").length);
    }
  }

  /**
   * Runs one statement compiled by the files-query compiler (validated identifiers, bound values) and
   * returns column names and row arrays.
   */
  runStatsQuery(sql: string, params: Array<string | number | boolean | null>): { columns: string[]; rows: unknown[][] } {
    return runOnce(this.db, sql, params);
  }

  /**
   * Runs `fn` in one write transaction, begun IMMEDIATE: a deferred one that reads first and writes later
   * fails at once with "database is locked" (no busy wait) when another connection wrote in between, as an
   * index thread's incremental run did once in the full suite (test/tools/index-thread.test.ts).
   */
  transaction<T>(fn: () => T): T {
    try {
      return this.db
        .transaction(() => {
          const result = fn();
          this.writeWords();
          return result;
        })
        .immediate();
    } catch (e) {
      this.forgetNames();
      this.words = [];
      throw e;
    }
  }

  /** Forgets the ids of names, scopes and tag lists remembered (see refNameIds). */
  private forgetNames(): void {
    this.refNameIds.clear();
    this.scopeIds.clear();
    this.moduleIds.clear();
    this.tagSetIds.clear();
  }

  /**
   * Writes the keyword words queued by insertParsed, one statement after another at the end of the
   * transaction. Interleaved with the other rows' statements, every statement that opened a savepoint made
   * FTS5 flush its pending words into a new segment: a segment per file, and crisis merges on top, which
   * cost 37 ms per file on the kernel's index (150 changed files: 5.6 s of FTS5 inserts, 41 ms in a row).
   */
  private writeWords(): void {
    const queued = this.words;
    if (queued.length === 0) return;
    this.words = [];
    for (const [stmt, values] of queued) stmt.run(...values);
  }

  close(): void {
    // writes handed aside and never ended (a run that failed before): dropped, so the thread ends
    this.asideWrites?.({ kind: "abandon" });
    this.asideWrites = undefined;
    this.db.close();
  }
}

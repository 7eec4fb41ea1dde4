/**
 * Opening index databases: pragmas, schema creation and migrations. Store-internal: the rest of cortex
 * opens an index through IndexStore.open / createForBuild (test/store/door.test.ts).
 */
import { Database } from "bun:sqlite";
import { CortexError } from "../core/errors.ts";
import { BUILD_TABLES, MIGRATIONS, SCHEMA_FINGERPRINT, SCHEMA_VERSION, buildIndexStatements, laterBuildIndexTables } from "./schema.ts";

export type { Database };

/** Each connection's page cache (KiB). */
export const PAGE_CACHE_KIB = 65536;
/** The page size of a new index. */
const PAGE_SIZE = 16384;

/** How long a connection waits for another's lock before SQLITE_BUSY. */
const BUSY_WAIT_MS = 5000;

/** SQLITE_BUSY or SQLITE_LOCKED (and their extended codes): another connection holds what was asked for. */
function isBusy(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return typeof code === "string" && /^SQLITE_(BUSY|LOCKED)/.test(code);
}

function applyPragmas(db: Database, mode: "wal" | "build"): void {
  db.exec("PRAGMA foreign_keys = ON");
  db.exec(`PRAGMA busy_timeout = ${BUSY_WAIT_MS}`);
  db.exec("PRAGMA journal_mode = WAL");
  // A database being built is published once its text tier is written, and readers share it from then
  // on: WAL keeps them apart from the writer. Without fsyncs (synchronous OFF) a killed process still
  // leaves it whole (only a power loss could not), and it wrote go-src as fast as with no journal at all
  // (32.5 s against 33.7 s cold).
  db.exec(mode === "wal" ? "PRAGMA synchronous = NORMAL" : "PRAGMA synchronous = OFF");
  db.exec("PRAGMA temp_store = MEMORY");
  db.exec(`PRAGMA cache_size = -${PAGE_CACHE_KIB}`);
}

export function schemaVersion(db: Database): number {
  return (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
}

/** Runs the migrations from the database's version up to SCHEMA_VERSION, each in its own transaction. */
function migrate(db: Database): void {
  const from = schemaVersion(db);
  if (from > SCHEMA_VERSION) {
    throw new CortexError("INDEX_CORRUPT", `the index was written by a newer cortex (schema ${from}, this one knows ${SCHEMA_VERSION})`);
  }
  for (let v = from; v < SCHEMA_VERSION; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.exec(`PRAGMA user_version = ${v + 1}`);
    })();
  }
}

/**
 * Creates a new database to be built (WAL without fsyncs) with the current schema's tables; the parse
 * tier's secondary indexes come later (createBuildIndexes), since building an index once over loaded
 * rows is several times faster than maintaining it through every insert.
 */
export function createBuildDatabase(path: string): Database {
  const db = new Database(path, { create: true, strict: true });
  // 16 KiB pages, set before the first table (and before WAL, which fixes the size): a page's header
  // and its unused end are paid a quarter as often (boost: 4 MiB less)
  db.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
  // pages a later run frees (a rewritten file's rows, merged keyword segments) can be given back to the
  // file system at its end (IndexStore.returnFreePages); set before the first table, as the page size
  db.exec("PRAGMA auto_vacuum = INCREMENTAL");
  applyPragmas(db, "build");
  db.transaction(() => {
    db.exec(BUILD_TABLES);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.query("INSERT INTO meta (key, value) VALUES ('schema_fingerprint', ?)").run(SCHEMA_FINGERPRINT);
  })();
  return db;
}

/**
 * Adds the secondary indexes to a build database once its rows are written, and statistics for the query
 * planner: without them it joined import sites to imports through the index on the imported module
 * (thousands of rows for "fmt") instead of the file's, 1.9 s instead of 33 ms on go-src. A sampled
 * ANALYZE costs about 0.1 s there. The keyword indexes' tables (FTS5's shadow tables) are left out: they
 * are still empty here, loaded after (forgetShadowStatistics says what such statistics did). `first`: only
 * the indexes the rest of the build reads (createLaterBuildIndexes adds the others beside resolution).
 */
export function createBuildIndexes(db: Database, part: "all" | "first" = "all"): void {
  withIndexBuilds(db, () => db.exec(buildIndexStatements(part).join("\n")));
  db.exec("PRAGMA analysis_limit = 1000");
  const tables = (db.query("PRAGMA main.table_list").all() as Array<{ name: string; type: string }>).filter(
    (t) => t.type === "table" && !t.name.startsWith("sqlite_"),
  );
  for (const t of tables) db.exec(`ANALYZE main."${t.name}"`);
}

/**
 * The build indexes createBuildIndexes(db, "first") left out, and their tables' statistics taken again
 * (ANALYZE replaces a table's rows, so they end as one ANALYZE of everything would leave them). Runs on
 * the keyword index load's connection after its load, beside reference resolution (schema.ts
 * LATER_BUILD_INDEXES): the kernel's indexer thread spent 8-10 s on all of them alone while the other core idled.
 * `leave`: indexes of these names are not built (a writer that follows builds them: ResolutionWriter).
 */
export function createLaterBuildIndexes(db: Database, leave: readonly string[] = []): void {
  const statements = buildIndexStatements("later", leave);
  withIndexBuilds(db, () => db.exec(statements.join("\n")));
  db.exec("PRAGMA analysis_limit = 1000");
  for (const t of laterBuildIndexTables()) db.exec(`ANALYZE main."${t}"`);
}

/**
 * Statistics of FTS5's shadow tables taken while a keyword index was empty (an index built by an older
 * cortex: one ANALYZE of every table before the keyword load) said its data table held 2 rows, and the
 * planner then ran FTS5's removal of a merged segment (`DELETE FROM …_data WHERE id>=? AND id<=?`) as a
 * scan of the whole table instead of a range of its ids: the kernel's keyword load read 35.9 million
 * pages (137 GiB from the system's file cache) where 1.4 million do, 120 s of CPU for 46 s, and every
 * later run's merges scanned the table too. Removes them; true when there were some. A connection keeps
 * the row counts it has loaded (a reload of the statistics does not forget them): open the database again.
 */
export function forgetShadowStatistics(db: Database): boolean {
  if (!db.query("SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_stat1'").get()) return false;
  const shadows = (db.query("PRAGMA main.table_list").all() as Array<{ name: string; type: string }>).filter((t) => t.type === "shadow").map((t) => t.name);
  if (shadows.length === 0) return false;
  const list = shadows.map(() => "?").join(", ");
  if (!db.query(`SELECT 1 FROM sqlite_stat1 WHERE tbl IN (${list}) LIMIT 1`).get(...shadows)) return false;
  db.query(`DELETE FROM sqlite_stat1 WHERE tbl IN (${list})`).run(...shadows);
  return true;
}

/**
 * Runs `fn` with SQLite's temporary files on disk. With temp_store=MEMORY they are held whole:
 * - a sort (index builds): building the kernel's secondary indexes took the process to 690 MiB, and
 *   re-creating the reference indexes after a full resolution (9.1 million rows) to 1.26 GiB, its peak;
 * - a statement journal (a multi-row write inside a transaction, the keyword load: loadStagedWords).
 * On disk a sort spills past the page cache, a statement journal past 64 KiB. Everything else keeps
 * MEMORY (small temporary b-trees of queries). Where a statement journal goes is settled when its
 * transaction begins: for one, call this outside the transaction.
 */
export function withTempFilesOnDisk<T>(db: Database, fn: () => T): T {
  db.exec("PRAGMA temp_store = FILE");
  try {
    return fn();
  } finally {
    db.exec("PRAGMA temp_store = MEMORY");
  }
}

/**
 * The sorter's run size (KiB) while indexes are built (withIndexBuilds). SQLite sorts an index's entries
 * in runs of the connection's page cache size, then merges the runs: runs of 4 MiB, a cache's worth of
 * this machine's processors, sorted faster than runs of 16 or 64 MiB. The kernel's idx_refs_name (9.1
 * million entries) took 2.9-3.2 s of CPU against 3.5-3.9 s with the keyword load's 16 MiB, idx_refs_target
 * 1.9 against 2.2-2.3 s, with less memory (the runs are held whole).
 */
const SORTER_RUN_KIB = 4096;

/**
 * Runs `fn`, index builds, with temporary files on disk (withTempFilesOnDisk) and the sorter's runs at
 * SORTER_RUN_KIB: the connection's page cache shrinks to that size meanwhile and is set back after.
 */
export function withIndexBuilds<T>(db: Database, fn: () => T): T {
  const cache = (db.query("PRAGMA cache_size").get() as { cache_size: number }).cache_size;
  db.exec(`PRAGMA cache_size = -${SORTER_RUN_KIB}`);
  try {
    return withTempFilesOnDisk(db, fn);
  } finally {
    db.exec(`PRAGMA cache_size = ${cache}`);
  }
}

/**
 * Ends a build: statistics for the planner, and the write-ahead log folded into the database. `PRAGMA
 * optimize` analyzes the keyword indexes' shadow tables too (their `_idx` and `_config`); left there, the
 * next run's open (openDatabase) removed them, committed, closed and opened again (go-src: the first
 * no-op re-index's open took 172 ms, 7 ms with them removed here).
 */
export function finishBuildDatabase(db: Database): void {
  db.exec("PRAGMA optimize");
  // the connection's own plans are not made again: it closes after this
  forgetShadowStatistics(db);
  // A build writes without fsyncs (applyPragmas); its last checkpoint syncs the file once, so the index is
  // on disk when the run ends. Left to the system's write-back, the first write after the build (the next
  // run's one page of its record, even a no-op's) waited in its own checkpoint's fsync for whatever of the
  // build was still unwritten: the kernel's no-op 2.7 s just after a build against 1.5-1.7 s later, go-src's
  // 0.80 against 0.53 s after a `sync` (docs/benchmarks.md, "The first no-op after a build").
  db.exec("PRAGMA synchronous = FULL");
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
}

/**
 * Opens an existing index database. Throws INDEX_CORRUPT when the file is not a usable index, so the
 * caller can rebuild it.
 */
export function openDatabase(path: string, options: { readonly?: boolean } = {}): Database {
  let db: Database;
  let stale = false;
  try {
    db = new Database(path, { readonly: options.readonly === true, strict: true });
  } catch (e) {
    throw new CortexError("INDEX_CORRUPT", `cannot open the index at ${path}: ${(e as Error).message}`, { cause: e });
  }
  try {
    // Before the first read: a writer folding its log into the file (a build's last checkpoint, a
    // connection closing) holds the file a moment, and a read without a wait fails at once
    db.exec(`PRAGMA busy_timeout = ${BUSY_WAIT_MS}`);
    // Reading the header and one table is cheap and catches a file that is not a database at all;
    // deeper damage surfaces as SQLITE_CORRUPT on use, and the caller rebuilds then.
    db.query("SELECT count(*) FROM sqlite_master").get();
    const fp = db.query("SELECT value FROM meta WHERE key = 'schema_fingerprint'").get() as { value: string } | null;
    if (fp?.value !== SCHEMA_FINGERPRINT) {
      throw new CortexError("INDEX_CORRUPT", "the index was built by a different version of cortex and must be rebuilt");
    }
    if (options.readonly) {
      if (schemaVersion(db) !== SCHEMA_VERSION) {
        throw new CortexError("INDEX_CORRUPT", `the index has schema ${schemaVersion(db)}, this cortex needs ${SCHEMA_VERSION}`);
      }
    } else {
      applyPragmas(db, "wal");
      migrate(db);
      try {
        stale = forgetShadowStatistics(db);
      } catch {
        // another connection writing (busy): the statistics cost speed only, a later open removes them
      }
    }
  } catch (e) {
    db.close();
    if (e instanceof CortexError) throw e;
    // busy is not damage: the caller would rebuild a whole index another connection is only writing to
    if (isBusy(e)) {
      throw new CortexError(
        "INDEX_LOCKED",
        `the index at ${path} stayed locked by another connection for ${BUSY_WAIT_MS / 1000} s: ${(e as Error).message}; try again`,
        { cause: e, data: { path } },
      );
    }
    throw new CortexError("INDEX_CORRUPT", `the index at ${path} is damaged: ${(e as Error).message}`, { cause: e });
  }
  if (stale) {
    // an index written by an older cortex had statistics of its keyword tables: opened again, the
    // connection plans FTS5's statements without the ones just removed
    db.close();
    return openDatabase(path, options);
  }
  return db;
}

/** Prepares, runs and finalizes one statement (a compiled statistics query): column names and row arrays. */
export function runOnce(db: Database, sql: string, params: Array<string | number | boolean | null>): { columns: string[]; rows: unknown[][] } {
  const stmt = db.prepare(sql);
  try {
    return { rows: stmt.values(...params) as unknown[][], columns: stmt.columnNames };
  } finally {
    stmt.finalize();
  }
}

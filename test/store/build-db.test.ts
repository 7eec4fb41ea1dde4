import { compressText } from "../../src/store/content-codec.ts";
import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBuildDatabase, createBuildIndexes, finishBuildDatabase } from "../../src/store/db.ts";
import { IndexStore } from "../../src/store/index-store.ts";
import { SITE_FROM } from "../../src/store/graph-store.ts";
import { buildIndexStatements } from "../../src/store/schema.ts";
import { sqliteOf } from "../../src/store/sqlite-access.ts";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

test("a build database has planner statistics once its indexes exist; import sites join imports through the importing file", () => {
  dir = mkdtempSync(join(tmpdir(), "cortex-build-db-"));
  const db = createBuildDatabase(join(dir, "index.db"));
  try {
    // like go-src: every file imports "fmt", so the index on the imported module is the unselective one
    const state = db.prepare("INSERT INTO file_state (file_path, language, content_hash, mtime_ms, size_bytes) VALUES (?, 'go', 'h', 1, 1)");
    const file = db.prepare("INSERT INTO file_rows VALUES (?, ?, 'go', 0, 'm', 1, 1, 0, 0, 1, '2026-01-01', 0, 0, 2)");
    const imp = db.prepare("INSERT INTO import_rows VALUES (?, ?, 1, 0, 0, 0)");
    const site = db.prepare('INSERT INTO import_site_rows (file_id, module_id, line, "column") VALUES (?, ?, 1, 1)');
    const module = db.prepare("INSERT INTO import_modules (name) VALUES (?) ON CONFLICT (name) DO UPDATE SET name = name RETURNING module_id AS id");
    db.transaction(() => {
      for (let i = 0; i < 2000; i++) {
        const path = `pkg${i % 50}/f${i}.go`;
        const id = Number(state.run(path).lastInsertRowid);
        file.run(id, path);
        for (const m of ["fmt", `pkg${i % 50}/dep`]) {
          const moduleId = (module.get(m) as { id: number }).id;
          imp.run(id, moduleId);
          site.run(id, moduleId);
        }
      }
    })();
    createBuildIndexes(db);
    expect((db.query("SELECT COUNT(*) AS n FROM sqlite_stat1").get() as { n: number }).n).toBeGreaterThan(0);
    // the join the reference resolver reads every import site with (GraphStore.allSites): through the
    // importing file, never through the index on the imported module, which walks every importer of "fmt"
    const plan = db.query(`EXPLAIN QUERY PLAN SELECT s.site_id, i.is_standard_lib FROM ${SITE_FROM}`).all() as Array<{ detail: string }>;
    const imports = plan.map((r) => r.detail).find((d) => d.startsWith("SEARCH i "));
    expect(imports).toContain("idx_imports_file (file_id=?)");
    expect(plan.map((r) => r.detail).join("; ")).not.toContain("MATERIALIZE");
  } finally {
    db.close();
  }
});

/** A build database in a new folder whose one text file's words are staged for the keyword load. */
function buildWithOneStagedFile(): { store: IndexStore; path: string } {
  dir = mkdtempSync(join(tmpdir(), "cortex-build-db-"));
  const path = join(dir, "index.db");
  const store = IndexStore.createForBuild(path);
  store.stageFullText();
  const text = "hello world\n";
  store.transaction(() => {
    const fileId = store.insertText({ path: "a.txt", language: "text", sizeBytes: text.length, mtimeMs: 1, contentHash: "h", content: compressText(text) });
    store.insertParsed({
      fileId,
      path: "a.txt",
      language: "text",
      isTest: false,
      modulePath: ".",
      sizeBytes: text.length,
      mtimeMs: 1,
      lines: { total: 1, code: 1, comment: 0, blank: 0 },
      words: { path: "a txt", defs: "", doc: "", code: "hello world" },
    });
  });
  return { store, path };
}

test("a keyword index load aside that fails rejects the store's waits with its error and leaves no stage file", async () => {
  const { store, path } = buildWithOneStagedFile();
  try {
    expect(existsSync(`${path}-stage`)).toBe(true);
    // the staged words vanish before the worker reads them: its load cannot succeed
    rmSync(`${path}-stage`);
    store.loadStagedFullText({ aside: true });
    await expect(store.whenWritable()).rejects.toThrow(/loading the keyword index failed: .*chunk_words/);
    expect(store.fullTextLoadFailed()).toBe(true);
    // (the worker's ATTACH made an empty stage file again) the finish throws the same error and removes it
    expect(existsSync(`${path}-stage`)).toBe(true);
    await expect(store.finishStagedFullText()).rejects.toThrow(/loading the keyword index failed/);
    expect(existsSync(`${path}-stage`)).toBe(false);
  } finally {
    store.close();
  }
});

test("a keyword index load aside loads the staged words and reports its thread's CPU time once done", async () => {
  const { store } = buildWithOneStagedFile();
  try {
    store.loadStagedFullText({ aside: true });
    expect(store.fullTextLoadCpuMs()).toBeUndefined();
    await store.finishStagedFullText();
    // a number once done (a load this small can take less than the clock's tick: 0)
    expect(store.fullTextLoadCpuMs()).toBeGreaterThanOrEqual(0);
    const hits = sqliteOf(store).query("SELECT rowid FROM files_fts WHERE files_fts MATCH 'hello'").all();
    expect(hits).toHaveLength(1);
  } finally {
    store.close();
  }
});

test("a keyword index load in place loads the staged words and gives the connection its in-memory temporary storage back", async () => {
  const { store } = buildWithOneStagedFile();
  try {
    // the load's statement journals go to a temporary file (loadStagedWords); the connection's own
    // small temporary b-trees stay in memory afterwards (2 = MEMORY)
    store.loadStagedFullText({ aside: false });
    await store.finishStagedFullText();
    const db = sqliteOf(store);
    expect(db.query("PRAGMA temp_store").get()).toEqual({ temp_store: 2 });
    expect(db.query("SELECT rowid FROM files_fts WHERE files_fts MATCH 'hello'").all()).toHaveLength(1);
  } finally {
    store.close();
  }
});

/** How the planner runs FTS5's removal of a merged segment's pages (a range of the data table's ids). */
function segmentRemovalPlan(db: { query(sql: string): { all(): unknown[] } }): string {
  return (db.query("EXPLAIN QUERY PLAN SELECT block FROM chunks_fts_data WHERE id >= 1 AND id <= 2").all() as Array<{ detail: string }>)
    .map((r) => r.detail)
    .join("; ");
}

test("the keyword indexes' tables keep no planner statistics: FTS5 removes a merged segment through the id range, not by scanning", () => {
  dir = mkdtempSync(join(tmpdir(), "cortex-build-db-"));
  const path = join(dir, "index.db");
  const db = createBuildDatabase(path);
  try {
    db.prepare("INSERT INTO file_state (file_path, language, content_hash, mtime_ms, size_bytes) VALUES ('a.go', 'go', 'h', 1, 1)").run();
    // the build's ANALYZE runs while the keyword indexes are empty (they are loaded after it)
    createBuildIndexes(db);
    expect((db.query("SELECT COUNT(*) AS n FROM sqlite_stat1").get() as { n: number }).n).toBeGreaterThan(0);
    expect(db.query("SELECT tbl FROM sqlite_stat1 WHERE tbl LIKE '%fts%'").all()).toEqual([]);
    expect(segmentRemovalPlan(db)).toContain("INTEGER PRIMARY KEY");
    // an index written before: statistics of the empty data table (2 rows) made the removal a scan
    db.exec("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('chunks_fts_data', NULL, '2'); ANALYZE sqlite_schema;");
    expect(segmentRemovalPlan(db)).toBe("SCAN chunks_fts_data");
  } finally {
    db.close();
  }
  // opened for writing, it loses them
  const store = IndexStore.open(path);
  try {
    expect(segmentRemovalPlan(sqliteOf(store))).toContain("INTEGER PRIMARY KEY");
  } finally {
    store.close();
  }
  // and so does a build's end, whose PRAGMA optimize analyzes the shadow tables it finds loaded (the next
  // open then removed them and opened again: a slower first run after every build)
  const end = new Database(path);
  try {
    end.exec("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('chunks_fts_idx', 'chunks_fts_idx', '4719 251 1')");
    finishBuildDatabase(end);
    expect(end.query("SELECT tbl FROM sqlite_stat1 WHERE tbl LIKE '%fts%'").all()).toEqual([]);
  } finally {
    end.close();
  }
});

test("a build's end syncs its database once: the last checkpoint runs with synchronous FULL and leaves the log empty", () => {
  dir = mkdtempSync(join(tmpdir(), "cortex-build-db-"));
  const path = join(dir, "index.db");
  const db = createBuildDatabase(path);
  try {
    // the build itself writes without fsyncs
    expect((db.query("PRAGMA synchronous").get() as { synchronous: number }).synchronous).toBe(0);
    db.prepare("INSERT INTO file_state (file_path, language, content_hash, mtime_ms, size_bytes) VALUES ('a.go', 'go', 'h', 1, 1)").run();
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(0);
    finishBuildDatabase(db);
    expect((db.query("PRAGMA synchronous").get() as { synchronous: number }).synchronous).toBe(2);
    expect(statSync(`${path}-wal`).size).toBe(0);
  } finally {
    db.close();
  }
  const reopened = new Database(path, { readonly: true });
  try {
    expect(reopened.query("SELECT file_path FROM file_state").all()).toEqual([{ file_path: "a.go" }]);
  } finally {
    reopened.close();
  }
});

/** The secondary indexes a database holds, and the (table, index) pairs of its planner statistics. */
function indexesAndStatistics(db: { query(sql: string): { all(): unknown[] } }): { indexes: string[]; stats: string[] } {
  const indexes = (db.query("SELECT name FROM sqlite_schema WHERE type = 'index' AND name LIKE 'idx_%' ORDER BY name").all() as Array<{ name: string }>).map(
    (r) => r.name,
  );
  const stats = (db.query("SELECT tbl, idx FROM sqlite_stat1 ORDER BY tbl, idx").all() as Array<{ tbl: string; idx: string | null }>).map(
    (r) => `${r.tbl} ${r.idx}`,
  );
  return { indexes, stats };
}

test("the build indexes left to the keyword index load: first and later are all of them, and the steps' reads are among the first", () => {
  const first = buildIndexStatements("first");
  const later = buildIndexStatements("later");
  expect([...first, ...later].sort()).toEqual(buildIndexStatements("all").sort());
  // every later name is one of the schema's (a misspelt name would silently move to the first ones)
  expect(later).toHaveLength(12);
  // a full resolution reads definitions by name and import sites with their imports by file; the modules'
  // aggregation reads files by module and types, functions and imports by file
  for (const name of ["idx_symbols_name", "idx_import_sites_file", "idx_imports_file", "idx_files_module_path", "idx_types_file", "idx_functions_file"]) {
    expect(first.some((sql) => sql.includes(` ${name} `))).toBe(true);
  }
});

test("a keyword index load aside builds the build indexes left to it: the same indexes and statistics as all at once", async () => {
  const whole = buildWithOneStagedFile();
  let expected: ReturnType<typeof indexesAndStatistics>;
  try {
    whole.store.createBuildIndexes();
    whole.store.loadStagedFullText({ aside: true });
    await whole.store.finishStagedFullText();
    expect(whole.store.fullTextLoadIndexCpuMs()).toBeUndefined();
    expected = indexesAndStatistics(sqliteOf(whole.store));
  } finally {
    whole.store.close();
  }
  rmSync(dir!, { recursive: true, force: true });
  const { store } = buildWithOneStagedFile();
  try {
    store.createBuildIndexes({ leaveLater: true });
    const before = indexesAndStatistics(sqliteOf(store));
    expect(before.indexes).not.toContain("idx_refs_name");
    expect(before.indexes).toContain("idx_symbols_name");
    store.loadStagedFullText({ aside: true });
    await store.finishStagedFullText();
    expect(store.fullTextLoadIndexCpuMs()).toBeGreaterThanOrEqual(0);
    expect(indexesAndStatistics(sqliteOf(store))).toEqual(expected);
    expect(expected.indexes).toContain("idx_refs_name");
    expect(expected.stats.some((s) => s.startsWith("file_rows idx_files_language"))).toBe(true);
  } finally {
    store.close();
  }
});

test("build indexes left for a keyword index load in place are built there", async () => {
  const { store } = buildWithOneStagedFile();
  try {
    store.createBuildIndexes({ leaveLater: true });
    store.loadStagedFullText({ aside: false });
    await store.finishStagedFullText();
    expect(indexesAndStatistics(sqliteOf(store)).indexes).toContain("idx_refs_name");
  } finally {
    store.close();
  }
});

test("resolution's writes that fail on the keyword load's thread are rolled back whole, its dropped indexes kept, and the store's waits fail with the error", async () => {
  const { store } = buildWithOneStagedFile();
  try {
    store.createBuildIndexes();
    const db = sqliteOf(store);
    const indexesBefore = indexesAndStatistics(db).indexes;
    expect(indexesBefore).toContain("idx_import_edges_target");
    // two import sites of a.txt, and an earlier resolution's edge from the first, which a full
    // resolution's writes forget first
    const site = db.prepare('INSERT INTO import_site_rows (file_id, module_id, line, "column") VALUES (1, ?, 1, 1)');
    for (const m of ["b", "c"]) site.run(Number(db.prepare("INSERT INTO import_modules (name) VALUES (?)").run(m).lastInsertRowid));
    const oldTarget = Number(db.prepare("INSERT INTO import_targets (path) VALUES ('old.txt')").run().lastInsertRowid);
    db.prepare("INSERT INTO import_edge_rows (site_id, target_id) VALUES (1, ?)").run(oldTarget);
    store.loadStagedFullText({ aside: true });
    const aside = store.resolutionWritesAside();
    expect(aside).toBeDefined();
    // the second edge names a target path that is not there: its insert breaks import_targets' NOT NULL
    // after the first edge is written in the same transaction
    aside!({ kind: "edges", sites: Int32Array.from([1, 2]), targets: Int32Array.from([0, 1]), paths: ["a.txt"] });
    await expect(store.whenWritable()).rejects.toThrow(/loading the keyword index failed: .*NOT NULL/);
    expect(store.fullTextLoadFailed()).toBe(true);
    expect(store.resolutionWritesAside()).toBeUndefined();
    // nothing of the failed writes stays: the old edge and target as they were, the dropped indexes back
    expect(db.query("SELECT site_id, target_id FROM import_edge_rows").all()).toEqual([{ site_id: 1, target_id: oldTarget }]);
    expect(db.query("SELECT path FROM import_targets").all()).toEqual([{ path: "old.txt" }]);
    expect(indexesAndStatistics(db).indexes).toEqual(indexesBefore);
    // the keyword load before them had committed: its words answer
    expect(db.query("SELECT rowid FROM files_fts WHERE files_fts MATCH 'hello'").all()).toHaveLength(1);
    await expect(store.finishStagedFullText()).rejects.toThrow(/loading the keyword index failed/);
  } finally {
    store.close();
  }
});

test("free pages an incremental run leaves are given back to the file system; below a megabyte they stay for later writes", () => {
  const { store, path } = buildWithOneStagedFile();
  try {
    const db = sqliteOf(store);
    expect((db.query("PRAGMA auto_vacuum").get() as { auto_vacuum: number }).auto_vacuum).toBe(2);
    const pages = () => (db.query("PRAGMA page_count").get() as { page_count: number }).page_count;
    const free = () => (db.query("PRAGMA freelist_count").get() as { freelist_count: number }).freelist_count;
    // a few files' contents, then most of them rewritten away: their pages are free inside the file
    const put = db.prepare("INSERT INTO binary_files (file_path, mtime_ms, size_bytes) VALUES (?, 1, 1)");
    const blob = "x".repeat(3000);
    store.transaction(() => {
      for (let i = 0; i < 20; i++) put.run(`small/${i}-${blob}`);
    });
    store.transaction(() => db.exec("DELETE FROM binary_files WHERE file_path LIKE 'small/%'"));
    expect(free()).toBeGreaterThan(0);
    expect(free()).toBeLessThan(64);
    expect(store.returnFreePages()).toBe(0);
    store.transaction(() => {
      for (let i = 0; i < 2000; i++) put.run(`large/${i}-${blob}`);
    });
    const before = pages();
    store.transaction(() => db.exec("DELETE FROM binary_files WHERE file_path LIKE 'large/%'"));
    const freed = free();
    expect(freed).toBeGreaterThanOrEqual(64);
    expect(store.returnFreePages()).toBe(freed);
    expect(free()).toBe(0);
    expect(pages()).toBeLessThanOrEqual(before - freed);
    store.checkpoint();
    expect(statSync(path).size).toBe(pages() * (db.query("PRAGMA page_size").get() as { page_size: number }).page_size);
  } finally {
    store.close();
  }
});

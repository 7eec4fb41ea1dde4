/**
 * The last step of a full build's keyword index: the words staged during the parse (a side file with
 * chunk_words and file_words, IndexStore.stageFullText) go into the FTS5 tables in one ordered pass. It
 * runs on a worker thread with its own connection, so the indexer's thread goes on meanwhile (reference
 * resolution computes while this loads: go-src's 4.4 s load and 7 s resolution overlap on 2 cores).
 */
import { Database, type Statement } from "bun:sqlite";
import { startWorker } from "../core/worker-entry.ts";
import { createLaterBuildIndexes, withIndexBuilds, withTempFilesOnDisk } from "./db.ts";
import { buildIndexStatement } from "./schema.ts";

/**
 * Loads the staged words (the stage file attached as `stage`) into chunks_fts and files_fts, in one
 * transaction. The words are staged as the indexes store them (compacted in the parse workers,
 * keyword-words.ts), so each table is one INSERT … SELECT in rowid order: no row passes through
 * JavaScript. On a sixth of the kernel the load took 14.9 s of CPU with compaction and a JavaScript
 * insert per row, 5.3 s so (porter stemming and FTS5's segment writes are most of what is left).
 */
export function loadStagedWords(db: Database): void {
  // Each INSERT … SELECT into an FTS5 table runs with a statement journal (a multi-row write inside a
  // transaction): the first content of every page it rewrites that existed when it began. The second one
  // reuses the free pages the first one's segment merges left (11,414 on the kernel, 178 MiB), and with
  // temp_store=MEMORY that journal is held in memory until the statement ends: the load's thread grew from
  // 67 to 316 MiB over the files' words, the build's peak beside resolution. On disk (a temporary file,
  // written past 64 KiB and never read back unless the statement fails) it stayed at 73 MiB.
  withTempFilesOnDisk(db, () =>
    db.transaction(() => {
      // FTS5 merges segments while it loads (automerge); loading first and letting crisis merges alone bound
      // the segments was 14 % faster on go-src's words, queries as fast. Automerge stays off afterwards: left
      // on, the merges the bulk load had put off came due in the next writes, about 2 s per transaction on
      // the kernel (an incremental run changing one file took 5.3 s); crisis merges (16 segments of a level)
      // still bound the segment count.
      db.exec("INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('automerge', 0); INSERT INTO files_fts (files_fts, rank) VALUES ('automerge', 0);");
      copyStaged(db, "stage.chunk_words", "chunks_fts", ["symbols", "title", "path", "body"]);
      copyStaged(db, "stage.file_words", "files_fts", ["path", "defs", "doc", "code"]);
    })(),
  );
}

/**
 * Inserts every staged row of `from` into the FTS5 table `into` in rowid order: FTS5 flushes its pending
 * words into a segment whenever a rowid is not above the last one, so out of order it would write many.
 */
function copyStaged(db: Database, from: string, into: string, columns: string[]): void {
  const list = columns.join(", ");
  db.exec(`INSERT INTO ${into} (rowid, ${list}) SELECT rowid, ${list} FROM ${from} ORDER BY rowid`);
}

/** What the load's thread spent (the trace reports it: the load shares the cores with resolution). */
export interface FullTextLoadCpu {
  /** The thread's CPU milliseconds in all. */
  cpuMs: number;
  /** Those of them building the later build indexes (0 when not asked). */
  indexCpuMs: number;
  /** Those of them writing reference resolution's results (0 when it wrote none: ResolutionWrite). */
  writesCpuMs: number;
  /** Wall milliseconds the thread waited, its load done, for resolution's next results (0 when none). */
  waitedMs: number;
}

/**
 * A full resolution's results, written by the load's thread in one transaction after its load while the
 * indexer's thread goes on computing (IndexStore.resolutionWritesAside): before, they were written on
 * the indexer's thread after both, while the other core idled (go-src: 1.1 of resolution's 5 s).
 *   - edges: every import edge, `sites[i]` to `paths[targets[i]]`, in the order they are inserted (once);
 *   - targets: references' resolved targets by ref_id (-1: none) and stored resolution codes (0: none);
 *   - end: no more; the dropped indexes are built again and the transaction commits;
 *   - abandon: no more, and what was written is rolled back (a run that failed meanwhile).
 */
export type ResolutionWrite =
  | { kind: "edges"; sites: Int32Array; targets: Int32Array; paths: string[] }
  | { kind: "targets"; ids: Int32Array; targets: Int32Array; hows: Uint8Array }
  | { kind: "end" }
  | { kind: "abandon" };

/** Indexes a full resolution's writes rewrite wholesale: dropped while they run, built once after. */
export const RESOLUTION_REBUILT_INDEXES = ["idx_refs_target", "idx_import_edges_site", "idx_import_edges_target"];

/**
 * Those of them the keyword load's thread does not build before it takes the writes: a full build's
 * references have no targets until then, so the partial index was an empty one built by a scan of every
 * reference (the kernel's 9.1 million: 0.45 s of that thread) and dropped at the first write.
 */
export const LEFT_FOR_THE_WRITER = ["idx_refs_target"];

/** Those of them on the import edges. */
const EDGE_INDEXES = ["idx_import_edges_site", "idx_import_edges_target"];

/** What a full resolution clears before writing everything again (GraphStore.forgetResolution). */
export const FORGET_RESOLUTION_SQL =
  "DELETE FROM import_edge_rows; DELETE FROM import_targets; DELETE FROM import_digests; DELETE FROM import_components; DELETE FROM dead_symbols;";

/**
 * Rows per statement of a full resolution's writes, here and in GraphStore (setTargets, insertManyEdges):
 * one run() per row was most of their cost.
 */
export const ROWS_PER_STATEMENT = 256;

/** ROWS_PER_STATEMENT import edges (site id, target id) in one insert. */
export const MANY_EDGES_SQL = `INSERT OR IGNORE INTO import_edge_rows (site_id, target_id) VALUES ${Array(ROWS_PER_STATEMENT).fill("(?, ?)").join(", ")}`;

/** ROWS_PER_STATEMENT references' targets (ref id, target symbol id, resolution code) in one update. */
export const MANY_TARGETS_SQL = `UPDATE ref_rows SET target_symbol_id = v.column2, resolution = v.column3 FROM (VALUES ${Array(ROWS_PER_STATEMENT).fill("(?, ?, ?)").join(", ")}) AS v WHERE ref_rows.ref_id = v.column1`;

/**
 * Writes ResolutionWrites into `db` in one transaction, begun by the first of them (the old resolution
 * forgotten, RESOLUTION_REBUILT_INDEXES dropped) and committed by `end`.
 */
export class ResolutionWriter {
  private begun = false;
  /** The dropped indexes' SQL by name, until built again. */
  private readonly rebuilt = new Map<string, string>();
  private readonly targetIds = new Map<string, number>();
  private edgeMany: Statement | undefined;
  private targetMany: Statement | undefined;

  /** `unbuilt`: RESOLUTION_REBUILT_INDEXES that were never built; the writer builds them at its end. */
  constructor(
    private readonly db: Database,
    private readonly unbuilt: readonly string[] = [],
  ) {
    for (const name of unbuilt) {
      const sql = buildIndexStatement(name);
      if (sql !== undefined) this.rebuilt.set(name, sql);
    }
  }

  write(w: ResolutionWrite): void {
    if (w.kind === "end") this.end();
    else if (w.kind === "abandon") this.abandon();
    else {
      if (!this.begun) this.begin();
      if (w.kind === "edges") this.edges(w.sites, w.targets, w.paths);
      else this.targets(w.ids, w.targets, w.hows);
    }
  }

  /** Rolls back what was written (a failed write). */
  abandon(): void {
    if (this.begun) {
      this.begun = false;
      try {
        this.db.exec("ROLLBACK");
      } catch {}
    }
    // the rollback brought the dropped ones back; those never built are built now, as a run without
    // them left the database
    try {
      this.rebuild(this.unbuilt);
    } catch {}
  }

  private begin(): void {
    this.db.exec("BEGIN IMMEDIATE");
    this.begun = true;
    this.db.exec(FORGET_RESOLUTION_SQL);
    const sqlOf = this.db.query("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?");
    for (const name of RESOLUTION_REBUILT_INDEXES) {
      const row = sqlOf.get(name) as { sql: string } | null;
      if (!row) continue; // none, or never built (in `rebuilt` already)
      this.rebuilt.set(name, row.sql);
      this.db.exec(`DROP INDEX ${name}`);
    }
  }

  /** Builds again the dropped indexes of these (or all) names. */
  private rebuild(names: Iterable<string> = [...this.rebuilt.keys()]): void {
    withIndexBuilds(this.db, () => {
      for (const name of names) {
        const sql = this.rebuilt.get(name);
        if (sql === undefined) continue;
        this.db.exec(sql);
        this.rebuilt.delete(name);
      }
    });
  }

  private end(): void {
    if (!this.begun) {
      // no write came: those never built are built now, with the statistics the later indexes' ANALYZE
      // would have given them (a write drops them, and the build's last PRAGMA optimize takes them again)
      this.rebuild(this.unbuilt);
      for (const name of this.unbuilt) this.db.exec(`ANALYZE main."${name}"`);
      return;
    }
    this.rebuild();
    this.db.exec("COMMIT");
    this.begun = false;
  }

  private edges(sites: Int32Array, targets: Int32Array, paths: string[]): void {
    const lookup = this.db.query("SELECT target_id AS id FROM import_targets WHERE path = ?");
    const insert = this.db.query("INSERT INTO import_targets (path) VALUES (?)");
    // ids by first use, in the edges' order (as GraphStore.insertManyEdges numbers them)
    const ids = new Int32Array(paths.length).fill(-1);
    const idOf = (p: number): number => {
      if (ids[p]! >= 0) return ids[p]!;
      const path = paths[p]!;
      let id = this.targetIds.get(path);
      if (id === undefined) {
        const row = lookup.get(path) as { id: number } | null;
        id = row ? row.id : Number(insert.run(path).lastInsertRowid);
        this.targetIds.set(path, id);
      }
      ids[p] = id;
      return id;
    };
    this.edgeMany ??= this.db.prepare(MANY_EDGES_SQL);
    const one = this.db.query("INSERT OR IGNORE INTO import_edge_rows (site_id, target_id) VALUES (?, ?)");
    const params: number[] = new Array(ROWS_PER_STATEMENT * 2);
    let i = 0;
    for (; i + ROWS_PER_STATEMENT <= sites.length; i += ROWS_PER_STATEMENT) {
      for (let k = 0; k < ROWS_PER_STATEMENT; k++) {
        params[k * 2] = sites[i + k]!;
        params[k * 2 + 1] = idOf(targets[i + k]!);
      }
      this.edgeMany.run(...params);
    }
    for (; i < sites.length; i++) one.run(sites[i]!, idOf(targets[i]!));
    // every edge comes in this one write: their indexes now, while resolution still computes, not after
    this.rebuild(EDGE_INDEXES);
  }

  private targets(ids: Int32Array, targets: Int32Array, hows: Uint8Array): void {
    this.targetMany ??= this.db.prepare(MANY_TARGETS_SQL);
    const one = this.db.query("UPDATE ref_rows SET target_symbol_id = ?, resolution = ? WHERE ref_id = ?");
    const params: Array<number | null> = new Array(ROWS_PER_STATEMENT * 3);
    let i = 0;
    for (; i + ROWS_PER_STATEMENT <= ids.length; i += ROWS_PER_STATEMENT) {
      for (let k = 0; k < ROWS_PER_STATEMENT; k++) {
        params[k * 3] = ids[i + k]!;
        params[k * 3 + 1] = targets[i + k]! < 0 ? null : targets[i + k]!;
        params[k * 3 + 2] = hows[i + k] === 0 ? null : hows[i + k]!;
      }
      this.targetMany.run(...params);
    }
    for (; i < ids.length; i++) one.run(targets[i]! < 0 ? null : targets[i]!, hows[i] === 0 ? null : hows[i]!, ids[i]!);
  }
}

/** The load's thread's connection to `dbPath`, set up for the load. */
export function openForLoad(dbPath: string): Database {
  const db = new Database(dbPath, { strict: true });
  // a small page cache: the load writes in order and runs beside resolution, the build's peak (pages it
  // reads again come from the system's file cache)
  db.exec("PRAGMA busy_timeout = 60000; PRAGMA synchronous = OFF; PRAGMA cache_size = -16384;");
  return db;
}

/**
 * The worker's job: opens the index at `dbPath` and loads the staged words of `stagePath` into it, then,
 * when `laterIndexes`, builds the secondary indexes the indexer's thread left (db.ts createLaterBuildIndexes)
 * but those named in `leave`. Leaves `db` open when given one (the resolution's writes follow on it).
 */
export function buildTextIndexesAt(dbPath: string, stagePath: string, laterIndexes: boolean, keep?: Database, leave: readonly string[] = []): FullTextLoadCpu {
  const cpuAtStart = process.threadCpuUsage();
  let indexCpuMs = 0;
  const db = keep ?? openForLoad(dbPath);
  try {
    db.query("ATTACH DATABASE ? AS stage").run(stagePath);
    loadStagedWords(db);
    db.exec("DETACH DATABASE stage");
    if (laterIndexes) {
      const before = process.threadCpuUsage();
      createLaterBuildIndexes(db, leave);
      const spent = process.threadCpuUsage(before);
      indexCpuMs = (spent.user + spent.system) / 1000;
    }
  } finally {
    if (!keep) db.close();
  }
  const cpu = process.threadCpuUsage(cpuAtStart);
  return { cpuMs: (cpu.user + cpu.system) / 1000, indexCpuMs, writesCpuMs: 0, waitedMs: 0 };
}

/** The worker's first message. `takesWrites`: after the load, ResolutionWrites follow until `end`. */
export interface FullTextLoadJob {
  dbPath: string;
  stagePath: string;
  laterIndexes: boolean;
  takesWrites: boolean;
}

/** A keyword index load on its thread: `done` settles once it (and the writes it took) are done. */
export interface FullTextLoadAside {
  done: Promise<FullTextLoadCpu>;
  /** Hands the thread a ResolutionWrite (when it takes writes), its typed arrays moved, not copied. */
  post(w: ResolutionWrite): void;
}

/** Runs buildTextIndexesAt on a worker thread (then the writes it is handed, when `takesWrites`). */
export function loadStagedFullTextInWorker(job: FullTextLoadJob): FullTextLoadAside {
  const worker = startWorker("store/full-text-worker");
  const done = new Promise<FullTextLoadCpu>((resolve, reject) => {
    const finish = (error?: Error, cpu: FullTextLoadCpu = { cpuMs: 0, indexCpuMs: 0, writesCpuMs: 0, waitedMs: 0 }) => {
      worker.terminate();
      if (error) reject(error);
      else resolve(cpu);
    };
    worker.onmessage = (ev: MessageEvent) => {
      const msg = ev.data as ({ ok: true } & FullTextLoadCpu) | { ok: false; error: string };
      if (msg.ok) finish(undefined, { cpuMs: msg.cpuMs, indexCpuMs: msg.indexCpuMs, writesCpuMs: msg.writesCpuMs, waitedMs: msg.waitedMs });
      else finish(new Error(`loading the keyword index failed: ${msg.error}`));
    };
    worker.onerror = (ev) => finish(new Error(`the keyword index worker failed: ${(ev as ErrorEvent).message}`));
  });
  worker.postMessage(job);
  return {
    done,
    post(w) {
      const moved = w.kind === "edges" ? [w.sites.buffer, w.targets.buffer] : w.kind === "targets" ? [w.ids.buffer, w.targets.buffer, w.hows.buffer] : [];
      worker.postMessage(w, moved as ArrayBuffer[]);
    },
  };
}

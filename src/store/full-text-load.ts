/**
 * The last step of a full build's keyword index: the words staged during the parse (a side file with
 * chunk_words and file_words, IndexStore.stageFullText) go into the FTS5 tables in one ordered pass. It
 * runs on a worker thread with its own connection, so the indexer's thread goes on meanwhile (reference
 * resolution computes while this loads: go-src's 4.4 s load and 7 s resolution overlap on 2 cores).
 */
import { Database } from "bun:sqlite";
import { startWorker } from "../core/worker-entry.ts";
import { createLaterBuildIndexes, withTempFilesOnDisk } from "./db.ts";

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
}

/**
 * The worker's job: opens the index at `dbPath` and loads the staged words of `stagePath` into it, then,
 * when `laterIndexes`, builds the secondary indexes the indexer's thread left (db.ts createLaterBuildIndexes).
 */
export function buildTextIndexesAt(dbPath: string, stagePath: string, laterIndexes: boolean): FullTextLoadCpu {
  const cpuAtStart = process.threadCpuUsage();
  let indexCpuMs = 0;
  const db = new Database(dbPath, { strict: true });
  try {
    // a small page cache: the load writes in order and runs beside resolution, the build's peak (pages it
    // reads again come from the system's file cache)
    db.exec("PRAGMA busy_timeout = 60000; PRAGMA synchronous = OFF; PRAGMA cache_size = -16384;");
    db.query("ATTACH DATABASE ? AS stage").run(stagePath);
    loadStagedWords(db);
    db.exec("DETACH DATABASE stage");
    if (laterIndexes) {
      const before = process.threadCpuUsage();
      createLaterBuildIndexes(db);
      const spent = process.threadCpuUsage(before);
      indexCpuMs = (spent.user + spent.system) / 1000;
    }
  } finally {
    db.close();
  }
  const cpu = process.threadCpuUsage(cpuAtStart);
  return { cpuMs: (cpu.user + cpu.system) / 1000, indexCpuMs };
}

/** Runs buildTextIndexesAt on a worker thread; resolves with its CPU milliseconds, rejects with its error. */
export function loadStagedFullTextInWorker(dbPath: string, stagePath: string, laterIndexes: boolean): Promise<FullTextLoadCpu> {
  return new Promise<FullTextLoadCpu>((resolve, reject) => {
    const worker = startWorker("store/full-text-worker");
    const done = (error?: Error, cpu: FullTextLoadCpu = { cpuMs: 0, indexCpuMs: 0 }) => {
      worker.terminate();
      if (error) reject(error);
      else resolve(cpu);
    };
    worker.onmessage = (ev: MessageEvent) => {
      const msg = ev.data as ({ ok: true } & FullTextLoadCpu) | { ok: false; error: string };
      if (msg.ok) done(undefined, { cpuMs: msg.cpuMs, indexCpuMs: msg.indexCpuMs });
      else done(new Error(`loading the keyword index failed: ${msg.error}`));
    };
    worker.onerror = (ev) => done(new Error(`the keyword index worker failed: ${(ev as ErrorEvent).message}`));
    worker.postMessage({ dbPath, stagePath, laterIndexes });
  });
}

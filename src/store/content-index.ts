/**
 * The trigram index over stored file content, which exact search uses to choose candidate files: its
 * maintenance after each index run (updateTrigramIndex, called from an index hook) and its reading side
 * (ContentIndex: posting lists, file rows, content).
 *
 * Own posting lists rather than FTS5: measured on go+django (10,157 files, 82 MiB), an FTS5 trigram
 * table (detail=none, contentless) took 9.7 s to fill on the writer thread and 19 MiB; these lists take
 * about 2 s and 16 MiB, and the planner gets exactly the file sets it needs (docs/benchmarks.md).
 *
 * Maintenance is self-healing: trigram_coverage records which content (by hash) each file's trigrams came
 * from, so an update indexes exactly the files not covered, whatever happened in earlier runs (a crash
 * between writing files and running hooks included). Files not covered are scanned directly by searches.
 */
import type { Database, Statement } from "bun:sqlite";
import { TrigramExtractor, decodePostings, encodePostings, unionSorted } from "./trigrams.ts";
import { contentBytes, contentText } from "./content-codec.ts";
import { collectIfOver } from "../core/memory.ts";

/** Segments per trigram: row id = trigram * SEGMENTS + segment. */
export const SEGMENTS = 256;
/** Incremental segments kept before they are merged into one. */
const MAX_SMALL_SEGMENTS = 8;

export interface ContentFileRow {
  fileId: number;
  path: string;
  /** Present when asked for (it needs a join with `files`). */
  language?: string;
  mtimeMs: number;
  sizeBytes: number;
}

type Stmt = Statement<any, any[]>;

/** Read access to the trigram index and the stored content. */
export class ContentIndex {
  private readonly db: Database;
  private readonly s = new Map<string, Stmt>();

  /** Over a connection the store owns (IndexStore.contentIndex). */
  constructor(db: Database) {
    // No memory-mapped reads (PRAGMA mmap_size): every page a search touched then counted in the process's
    // memory (on the kernel: one selective `cortex grep` 143 MiB instead of 70, a server after a full scan
    // 1.1 GiB instead of 372 MiB) for no gain in a shell's grep or a full scan, and 7 ms on a selective grep
    // in the engine (12 → 19 ms; docs/benchmarks.md, "cortex grep from a shell").
    this.db = db;
  }

  private stmt(sql: string): Stmt {
    let st = this.s.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.s.set(sql, st);
    }
    return st;
  }

  /** False for an index written before the trigram tables existed: every file is then scanned. */
  available(): boolean {
    const row = this.stmt("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('trigram_postings', 'trigram_coverage')").get() as {
      n: number;
    };
    return row.n === 2;
  }

  /** Changes whenever another connection commits to the database (cache key for derived data). */
  dataVersion(): number {
    return (this.stmt("PRAGMA data_version").get() as { data_version: number }).data_version;
  }

  /** The files holding a trigram, over all segments, ascending (ids of deleted files may remain). */
  postings(trigram: number): Uint32Array {
    const rows = this.stmt("SELECT postings FROM trigram_postings WHERE id >= ?1 AND id < ?1 + 256").values(trigram * SEGMENTS) as Array<[Uint8Array]>;
    let out: Uint32Array = new Uint32Array(0);
    for (const [blob] of rows) out = unionSorted(out, decodePostings(blob));
    return out;
  }

  /** Live files whose content the postings do not cover (normally none). */
  uncovered(): number[] {
    if (!this.available()) return (this.stmt("SELECT file_id FROM file_state").values() as number[][]).map((r) => r[0]!);
    // Rewriting a file deletes its file_state row, which deletes its coverage row (cascade), so equal
    // counts mean every file is covered; counting is far cheaper than the join below.
    const counts = this.stmt("SELECT (SELECT count(*) FROM file_state) AS files, (SELECT count(*) FROM trigram_coverage) AS covered").get() as {
      files: number;
      covered: number;
    };
    if (counts.files === counts.covered) return [];
    const rows = this.stmt(
      `SELECT s.file_id FROM file_state s LEFT JOIN trigram_coverage c ON c.file_id = s.file_id AND c.content_hash = s.content_hash
       WHERE c.file_id IS NULL`,
    ).values() as number[][];
    return rows.map((r) => r[0]!);
  }

  fileCount(): number {
    return (this.stmt("SELECT count(*) AS n FROM file_state").get() as { n: number }).n;
  }

  /** Rows of the given live files (all live files when `ids` is undefined); unknown ids are skipped. */
  files(ids: ArrayLike<number> | undefined, withLanguage: boolean): ContentFileRow[] {
    const cols = "s.file_id AS fileId, s.file_path AS path, s.mtime_ms AS mtimeMs, s.size_bytes AS sizeBytes";
    // the language is the text tier's (file_state), so a language filter covers files not parsed yet
    const from = "file_state s";
    const lang = withLanguage ? ", s.language AS language" : "";
    if (ids === undefined) return this.stmt(`SELECT ${cols}${lang} FROM ${from}`).all() as ContentFileRow[];
    if (ids.length === 0) return [];
    const list = JSON.stringify(Array.from(ids));
    return this.stmt(`SELECT ${cols}${lang} FROM ${from} WHERE s.file_id IN (SELECT value FROM json_each(?))`).all(list) as ContentFileRow[];
  }

  /** The stored text of one file. */
  text(fileId: number): string | undefined {
    const row = this.stmt("SELECT z FROM contents WHERE file_id = ?").get(fileId) as { z: Uint8Array } | null;
    return row ? contentText(row.z) : undefined;
  }

  /**
   * The stored text of several files, in the order of `ids` (undefined for unknown ids): as strings, or
   * as UTF-8 bytes, which builds no string (cheaper for byte-level search). One statement for many files,
   * since a statement call costs as much as reading a small file.
   */
  texts(ids: ArrayLike<number>, as: "string"): Array<string | undefined>;
  texts(ids: ArrayLike<number>, as: "bytes"): Array<Uint8Array | undefined>;
  texts(ids: ArrayLike<number>, as: "string" | "bytes"): Array<string | Uint8Array | undefined> {
    if (ids.length === 0) return [];
    const rows = this.stmt("SELECT file_id, z FROM contents WHERE file_id IN (SELECT value FROM json_each(?))").values(
      JSON.stringify(Array.from(ids)),
    ) as Array<[number, Uint8Array]>;
    const byId = new Map(rows.map((r) => [r[0], r[1]]));
    const open = as === "bytes" ? contentBytes : contentText;
    return Array.from(ids, (id) => {
      const z = byId.get(id);
      return z === undefined ? undefined : open(z);
    });
  }

  /** Size in bytes of the trigram tables (for the benchmark's index-size figure). */
  sizeBytes(): number {
    try {
      const row = this.db.query("SELECT SUM(pgsize) AS b FROM dbstat WHERE name IN ('trigram_postings', 'trigram_coverage')").get() as { b: number | null };
      return row.b ?? 0;
    } catch {
      return NaN;
    }
  }

  /** Finalizes the statements and closes the connection (for a connection of its own, as in the benchmarks). */
  close(): void {
    for (const st of this.s.values()) st.finalize();
    this.s.clear();
    this.db.close();
  }
}

export interface TrigramUpdate {
  /** none: everything covered; segment: new files in a new segment; merge: small segments merged; rebuild: all files. */
  action: "none" | "segment" | "merge" | "rebuild";
  files: number;
  segment: number;
  postings: number;
  ms: number;
}

const COVERAGE_DDL = `
CREATE TABLE IF NOT EXISTS trigram_postings (id INTEGER PRIMARY KEY, postings BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS trigram_coverage (
    file_id INTEGER PRIMARY KEY REFERENCES file_state(file_id) ON DELETE CASCADE,
    content_hash TEXT NOT NULL,
    segment INTEGER NOT NULL
);`;

/** Kept while an update runs, dropped after it so a long-lived process does not hold its 16 MiB table. */
let extractor: TrigramExtractor | undefined;

/**
 * Segments below this number hold a rebuild's postings (several when the project is large, each built
 * from a bounded group of files); incremental runs add small segments from here up, merged into one
 * (this number) when there are too many.
 */
export const BASE_SEGMENTS = 64;
/**
 * Postings gathered in memory before a rebuild writes them as one base segment: 16 million take about
 * 200 MiB while grouped (their trigrams and file ids, 4 bytes each, and a 64 MiB counting table). The
 * kernel's 112 million postings in one pass took about a gigabyte.
 */
const BASE_GROUP_POSTINGS = 1 << 24;

/**
 * Brings the trigram index up to date with the stored content, in one transaction: a first build (or a
 * large change) rebuilds the base segments over every file; otherwise the files not yet covered go into
 * a new small segment, and too many small segments are merged into one.
 */
export function updateTrigramIndex(db: Database, options: { groupPostings?: number } = {}): TrigramUpdate {
  let r: TrigramUpdate | undefined;
  try {
    r = update(db, options.groupPostings ?? BASE_GROUP_POSTINGS);
    return r;
  } finally {
    extractor = undefined;
    // a rebuild's buffers (hundreds of MiB on a large project) are garbage now: collect them before the
    // parse tier's workers start, or they stay resident under the workers' peak
    if (r?.action === "rebuild" || r?.action === "merge") Bun.gc(true);
  }
}

function update(db: Database, groupPostings: number): TrigramUpdate {
  const started = performance.now();
  return db.transaction((): TrigramUpdate => {
    // Tables are part of schema V1; an index written before they existed gets them here.
    db.exec(COVERAGE_DDL);
    db.exec("DELETE FROM trigram_coverage WHERE file_id NOT IN (SELECT file_id FROM file_state)");
    const uncovered = (
      db
        .query(`SELECT s.file_id FROM file_state s LEFT JOIN trigram_coverage c ON c.file_id = s.file_id AND c.content_hash = s.content_hash
              WHERE c.file_id IS NULL ORDER BY s.file_id`)
        .values() as number[][]
    ).map((r) => r[0]!);
    const done = (action: TrigramUpdate["action"], files: number, segment: number, postings: number): TrigramUpdate => ({
      action,
      files,
      segment,
      postings,
      ms: Math.round(performance.now() - started),
    });
    if (uncovered.length === 0) return done("none", 0, 0, 0);

    const live = (db.query("SELECT count(*) AS n FROM file_state").get() as { n: number }).n;
    const bySegment = new Map<number, number>();
    for (const r of db.query("SELECT segment, count(*) AS n FROM trigram_coverage GROUP BY segment").all() as Array<{ segment: number; n: number }>) {
      bySegment.set(r.segment, r.n);
    }
    let small = 0;
    let smallFiles = 0;
    let maxSegment = BASE_SEGMENTS - 1;
    for (const [seg, n] of bySegment) {
      if (seg >= BASE_SEGMENTS) {
        small++;
        smallFiles += n;
      }
      maxSegment = Math.max(maxSegment, seg);
    }

    if (!bySegment.has(0) || uncovered.length + smallFiles > Math.max(64, live / 5)) {
      db.exec("DELETE FROM trigram_postings");
      db.exec("DELETE FROM trigram_coverage");
      const r = rebuildBase(db, groupPostings);
      return done("rebuild", r.files, 0, r.postings);
    }
    if (small >= MAX_SMALL_SEGMENTS || maxSegment + 1 >= SEGMENTS) {
      const inSmall = (db.query(`SELECT file_id FROM trigram_coverage WHERE segment >= ${BASE_SEGMENTS}`).values() as number[][]).map((r) => r[0]!);
      const ids = [...new Set([...inSmall, ...uncovered])].sort((a, b) => a - b);
      db.exec(`DELETE FROM trigram_postings WHERE (id % ${SEGMENTS}) >= ${BASE_SEGMENTS}`);
      db.exec(`DELETE FROM trigram_coverage WHERE segment >= ${BASE_SEGMENTS}`);
      return done("merge", ids.length, BASE_SEGMENTS, writeSegment(db, gatherFiles(db, ids), BASE_SEGMENTS));
    }
    const segment = maxSegment + 1;
    return done("segment", uncovered.length, segment, writeSegment(db, gatherFiles(db, uncovered), segment));
  })();
}

/** The distinct trigrams of a run of files, each file's after the previous one's, with the files' ids and hashes. */
class Gathered {
  grams: Uint32Array;
  used = 0;
  fileIds: number[] = [];
  ends: number[] = [];
  hashes: string[] = [];

  constructor(capacity = 1 << 20) {
    this.grams = new Uint32Array(capacity);
  }

  /** Empties the run, keeping its buffer for the next group of a rebuild. */
  clear(): void {
    this.used = 0;
    this.fileIds = [];
    this.ends = [];
    this.hashes = [];
  }

  take(id: number, bytes: Uint8Array, hash: string): void {
    extractor ??= new TrigramExtractor();
    this.takeTrigrams(id, extractor.extract(bytes), hash);
  }

  /** A file whose distinct trigrams were extracted already (by a text tier worker). */
  takeTrigrams(id: number, t: Uint32Array, hash: string): void {
    if (this.used + t.length > this.grams.length) {
      const grown = new Uint32Array(Math.max(this.grams.length * 2, this.used + t.length));
      grown.set(this.grams.subarray(0, this.used));
      this.grams = grown;
    }
    this.grams.set(t, this.used);
    this.used += t.length;
    this.fileIds.push(id);
    this.ends.push(this.used);
    this.hashes.push(hash);
  }
}

const CONTENT_SELECT = "SELECT c.file_id AS id, c.z AS z, s.content_hash AS h FROM contents c JOIN file_state s ON s.file_id = c.file_id";

/** The trigrams of the given files (ascending ids). */
function gatherFiles(db: Database, ids: number[]): Gathered {
  const g = new Gathered();
  const one = db.query(`${CONTENT_SELECT} WHERE c.file_id = ?`);
  for (const id of ids) {
    const r = one.get(id) as { id: number; z: Uint8Array; h: string } | null;
    if (r) g.take(r.id, contentBytes(r.z), r.h);
  }
  return g;
}

/**
 * Writes base segments 0, 1, … from files given in ascending id order: each group of about
 * BASE_GROUP_POSTINGS postings is written as a segment before the next is taken, so memory follows the
 * group, not the project (the last base segment takes whatever is left over). A rebuild feeds it every
 * stored content; a first build's text tier feeds it each file's trigrams as the file is written
 * (IndexStore.trigramBaseWriter), the same groups in the same order.
 */
export class TrigramBaseWriter {
  // One set of buffers for every group: the kernel's seven groups, each with buffers of its own, left
  // their garbage resident until the collector came round and the process peaked at 1.1 GiB here.
  private readonly g = new Gathered(1 << 22); // grown as a group needs, then kept
  private readonly buffers = new GroupBuffers();
  private segment = 0;
  files = 0;
  postings = 0;
  /** Milliseconds spent writing segments (grouping, encoding, inserting). */
  ms = 0;

  constructor(
    private readonly db: Database,
    private readonly groupPostings = BASE_GROUP_POSTINGS,
  ) {}

  /** A writer for a database that holds no file and no trigram yet (its tables made if it predates them); else undefined. */
  static forFirstBuild(db: Database): TrigramBaseWriter | undefined {
    // EXISTS: a count read every row of a large index (the kernel: 20-40 ms of each no-op)
    if (db.query("SELECT 1 FROM file_state LIMIT 1").get()) return undefined;
    db.exec(COVERAGE_DDL);
    if (db.query("SELECT 1 FROM trigram_coverage LIMIT 1").get()) return undefined;
    return new TrigramBaseWriter(db);
  }

  /** A file's content bytes, its trigrams extracted here. Call inside a transaction. */
  take(id: number, bytes: Uint8Array, hash: string): void {
    this.g.take(id, bytes, hash);
    this.writeIfFull();
  }

  /** A file's distinct trigrams, extracted elsewhere. Call inside a transaction. */
  takeTrigrams(id: number, trigrams: Uint32Array, hash: string): void {
    this.g.takeTrigrams(id, trigrams, hash);
    this.writeIfFull();
  }

  /** Writes what is left as the last segment. Call inside a transaction. */
  finish(): void {
    this.write();
    extractor = undefined;
  }

  private writeIfFull(): void {
    if (this.g.used >= this.groupPostings && this.segment < BASE_SEGMENTS - 1) this.write();
  }

  private write(): void {
    const g = this.g;
    if (g.fileIds.length === 0) return;
    const t = performance.now();
    this.postings += writeSegment(this.db, g, this.segment++, this.buffers);
    this.files += g.fileIds.length;
    g.clear();
    collectIfOver();
    this.ms += performance.now() - t;
  }
}

/** Every stored file's trigrams into base segments, files read in id order. */
function rebuildBase(db: Database, groupPostings: number): { files: number; postings: number } {
  const w = new TrigramBaseWriter(db, groupPostings);
  for (const r of db.query(`${CONTENT_SELECT} ORDER BY c.file_id`).iterate() as IterableIterator<{ id: number; z: Uint8Array; h: string }>) {
    w.take(r.id, contentBytes(r.z), r.h);
  }
  w.finish();
  return { files: w.files, postings: w.postings };
}

/**
 * Writes gathered files as one segment and records their coverage: trigrams grouped (each trigram's files
 * contiguous and ascending), delta-encoded and written one row per trigram. Returns the number of postings.
 */
function writeSegment(db: Database, g: Gathered, segment: number, buffers?: GroupBuffers): number {
  const {
    keys,
    ends: runEnds,
    ids: scattered,
    count,
  } = g.used <= SMALL_BUILD ? groupSmall(g.grams, g.used, g.fileIds, g.ends) : groupLarge(g.grams, g.used, g.fileIds, g.ends, buffers ?? new GroupBuffers());
  const insert = db.prepare("INSERT OR REPLACE INTO trigram_postings (id, postings) VALUES (?, ?)");
  let buf = new Uint8Array(1 << 16);
  let start = 0;
  for (let i = 0; i < count; i++) {
    const k = keys[i]!;
    const end = runEnds[i]!;
    const need = (end - start) * 5;
    if (need > buf.length) buf = new Uint8Array(need);
    const len = encodePostings(scattered, start, end, buf, 0);
    insert.run(k * SEGMENTS + segment, buf.subarray(0, len));
    start = end;
  }
  insert.finalize();
  const cover = db.prepare("INSERT OR REPLACE INTO trigram_coverage (file_id, content_hash, segment) VALUES (?, ?, ?)");
  for (let f = 0; f < g.fileIds.length; f++) cover.run(g.fileIds[f]!, g.hashes[f]!, segment);
  cover.finalize();
  return g.used;
}

/** Postings below which a segment is grouped with a map instead of a 64 MiB counting table. */
const SMALL_BUILD = 1 << 18;

interface Grouped {
  /** Distinct trigrams, ascending (the first `count`). */
  keys: ArrayLike<number>;
  /** End of each trigram's run in `ids` (runs are contiguous, in key order). */
  ends: ArrayLike<number>;
  /** File ids, ascending within each run. */
  ids: Uint32Array;
  /** Distinct trigrams. */
  count: number;
}

/** The arrays of a large grouping, kept from one segment of a rebuild to the next. */
class GroupBuffers {
  readonly counts = new Uint32Array(1 << 24);
  keys = new Uint32Array(0);
  ends = new Uint32Array(0);
  ids = new Uint32Array(0);

  /** Room for `postings` postings; grown, never shrunk. */
  readyIds(postings: number): void {
    if (this.ids.length < postings) this.ids = new Uint32Array(postings);
  }

  /** Room for `distinct` trigrams (a group has far fewer than postings: 1 to 3 million of 16); grown, never shrunk. */
  readyKeys(distinct: number): void {
    if (this.keys.length < distinct) {
      this.keys = new Uint32Array(distinct);
      this.ends = new Uint32Array(distinct);
    }
  }
}

/** Counting sort over the whole trigram space: linear, for large segments. */
function groupLarge(grams: Uint32Array, used: number, fileIds: number[], fileEnds: number[], b: GroupBuffers): Grouped {
  const counts = b.counts;
  counts.fill(0);
  for (let i = 0; i < used; i++) counts[grams[i]!]!++;
  let distinct = 0;
  for (let k = 0; k < counts.length; k++) if (counts[k] !== 0) distinct++;
  b.readyKeys(distinct);
  b.readyIds(used);
  const { keys, ends, ids } = b;
  let count = 0;
  let offset = 0;
  for (let k = 0; k < counts.length; k++) {
    const c = counts[k]!;
    if (c === 0) continue;
    keys[count++] = k;
    counts[k] = offset; // start of k's run; advanced to its end while scattering
    offset += c;
  }
  let from = 0;
  for (let f = 0; f < fileIds.length; f++) {
    const id = fileIds[f]!;
    const to = fileEnds[f]!;
    for (let i = from; i < to; i++) ids[counts[grams[i]!]!++] = id;
    from = to;
  }
  for (let i = 0; i < count; i++) ends[i] = counts[keys[i]!]!;
  return { keys, ends, ids, count };
}

/** Map-based grouping for the few files of an incremental run. */
function groupSmall(grams: Uint32Array, used: number, fileIds: number[], fileEnds: number[]): Grouped {
  const byKey = new Map<number, number[]>();
  let from = 0;
  for (let f = 0; f < fileIds.length; f++) {
    const id = fileIds[f]!;
    const to = fileEnds[f]!;
    for (let i = from; i < to; i++) {
      const k = grams[i]!;
      const list = byKey.get(k);
      if (list) list.push(id);
      else byKey.set(k, [id]);
    }
    from = to;
  }
  const keys = [...byKey.keys()].sort((a, b) => a - b);
  const ids = new Uint32Array(used);
  const ends: number[] = [];
  let n = 0;
  for (const k of keys) {
    for (const id of byKey.get(k)!) ids[n++] = id;
    ends.push(n);
  }
  return { keys, ends, ids, count: keys.length };
}

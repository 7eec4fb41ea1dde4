/**
 * The shared vector cache: one SQLite file per embedding provider under $CORTEX_HOME/embeddings/, keyed by
 * the hash of a chunk's text. Every worktree, branch and process of the user reads and writes the same
 * file, so a text embedded once is never embedded again (DESIGN.md, Storage).
 *
 * Vectors are derived data: a file that is not a usable cache is deleted and recreated, and a change of
 * recipe (how the provider turns text into vectors: prefixes, pooling) or of dimensions empties it rather
 * than mixing incomparable vectors. Writers of several processes share the file through WAL mode and a
 * busy timeout; every write is one short transaction of INSERT OR REPLACE, so concurrent writers of the
 * same text simply store the same vector twice.
 *
 * Presence questions (coverage, missing) are asked on every search and every index update, for up to
 * hundreds of thousands of hashes, so they are answered from an in-memory set of the stored hashes rather
 * than by SQL: the set is loaded on first use and kept current by reading only rows newer than the last
 * one seen (rowids only grow), plus a generation counter that every wipe bumps, so another process's
 * writes and wipes are seen too. Vectors themselves are read from the file on demand.
 *
 * Vectors are stored as little-endian float32 BLOBs (Float32Array's own layout on every platform cortex
 * ships for).
 */
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { TEXT_KEY_HEX, shortHash } from "../core/hash.ts";
import { CortexError } from "../core/errors.ts";
import { log } from "../core/log.ts";

// 2: texts are keyed by the first 128 bits of their sha256, no longer by all 256; 3: by the first 64
// (core/hash.ts textKey). An older file keeps its vectors under their keys cut to that length
// (migrateToTextKeys).
const SCHEMA_VERSION = 3;
// Pages of 16 KiB hold several kilobyte-sized vectors each: at 100k vectors of 384 dimensions, writes took
// 3.2 s instead of 8.1 s with 4 KiB pages and the file was 164 MiB instead of 204. Only affects a new file.
const PAGE_SIZE = 16384;
const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
-- One vector per distinct chunk text. added_at (epoch ms) leaves room for eviction by age. A rowid table
-- with a separate index on hash (not WITHOUT ROWID): vectors are kilobytes, and such rows inside the hash
-- B-tree spill into overflow pages (measured at 100k vectors: 5x slower writes, 10x slower lookups, 2x the size).
CREATE TABLE IF NOT EXISTS vectors (
    id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL,
    vector BLOB NOT NULL,
    added_at INTEGER NOT NULL
);
-- Unique per text, and covering for (hash, id): loading the set of stored hashes never reads a vector.
CREATE UNIQUE INDEX IF NOT EXISTS vectors_hash ON vectors(hash);
`;

export interface VectorEntry {
  hash: string;
  vector: Float32Array;
}

export interface CacheCoverage {
  /** Distinct hashes asked about. */
  total: number;
  /** How many of them have a vector. */
  cached: number;
}

export interface EmbeddingCacheOptions {
  /** CORTEX_HOME: the cache lives in `<home>/embeddings/`. */
  home: string;
  /**
   * A fingerprint of how the provider makes vectors beyond its id (prefixes, pooling, normalisation).
   * A cache written under another recipe is emptied on open.
   */
  recipe?: string;
}

/** The cache file of a provider: readable, and unique per id (the hash suffix keeps ids apart that read alike). */
export function embeddingCachePath(home: string, providerId: string): string {
  const readable =
    providerId
      .replace(/[^A-Za-z0-9._-]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .slice(0, 80) || "provider";
  return join(home, "embeddings", `${readable}-${shortHash(providerId).slice(0, 8)}.db`);
}

/** Whether the cache file at `path` has stored vectors (it knows their size): one read-only query, nothing created. */
export function cacheHasVectors(path: string): boolean {
  if (!existsSync(path)) return false;
  let db: Database | undefined;
  try {
    db = new Database(path, { readonly: true });
    return db.query("SELECT 1 FROM meta WHERE key = 'dimensions'").get() !== null;
  } catch {
    return false;
  } finally {
    db?.close();
  }
}

/** Chunks of a long list, so no statement binds an unbounded JSON array at once. */
function* slices<T>(items: T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

const SLICE = 20_000;

export class EmbeddingCache {
  readonly path: string;
  readonly providerId: string;
  private readonly db: Database;
  private dims: number | undefined;
  /** The stored hashes (loaded on first use), the last rowid read into it, and the generation it reflects. */
  private known: Set<string> | undefined;
  private lastRowId = 0;
  private generation = "";

  private constructor(path: string, providerId: string, db: Database) {
    this.path = path;
    this.providerId = providerId;
    this.db = db;
    const d = this.meta("dimensions");
    this.dims = d === undefined ? undefined : Number(d);
  }

  /** Brings the in-memory hash set up to date with the file (cheap when nothing changed). */
  private stored(): Set<string> {
    const generation = this.meta("generation") ?? "0";
    if (!this.known || generation !== this.generation) {
      this.known = new Set();
      this.lastRowId = 0;
      this.generation = generation;
      const d = this.meta("dimensions");
      this.dims = d === undefined ? undefined : Number(d);
    }
    // The first load reads the hash index only; later ones only rows added since (rowids only grow).
    const rows = (
      this.lastRowId === 0 ? this.db.query("SELECT id, hash FROM vectors INDEXED BY vectors_hash") : this.db.query("SELECT id, hash FROM vectors WHERE id > ?")
    ).values(...(this.lastRowId === 0 ? [] : [this.lastRowId])) as Array<[number, string]>;
    for (const [id, hash] of rows) {
      this.known.add(hash);
      if (id > this.lastRowId) this.lastRowId = id;
    }
    return this.known;
  }

  /** Empties the vectors and bumps the generation, so every process reloads its hash set. Call in a transaction. */
  private wipe(): void {
    this.db.exec("DELETE FROM vectors");
    this.setMeta("generation", String(Number(this.meta("generation") ?? "0") + 1));
    this.known = undefined;
  }

  /** Opens (creating if needed) the cache of one provider. */
  static open(providerId: string, options: EmbeddingCacheOptions): EmbeddingCache {
    if (providerId.length === 0) throw new CortexError("INVALID_INPUT", "providerId: must not be empty");
    const path = embeddingCachePath(options.home, providerId);
    mkdirSync(join(options.home, "embeddings"), { recursive: true });
    let db: Database;
    try {
      db = openCacheDatabase(path);
    } catch (e) {
      if (e instanceof CortexError && e.data?.newer) throw e; // a newer cortex's cache is not ours to replace
      // A vector cache holds nothing that cannot be recomputed: replace a damaged file rather than fail.
      log.warn(`embedding cache ${path} is unusable (${(e as Error).message}); starting a new one`);
      for (const suffix of ["", "-wal", "-shm"]) rmSync(path + suffix, { force: true });
      db = openCacheDatabase(path);
    }
    const cache = new EmbeddingCache(path, providerId, db);
    cache.adopt(options.recipe ?? "");
    return cache;
  }

  /** Dimensions of the stored vectors, once any vector (or ensureDimensions) has fixed them. */
  get dimensions(): number | undefined {
    return this.dims;
  }

  /**
   * Fixes the dimensions to what the provider produces now. Vectors of another size (the model behind the
   * id changed, e.g. a server now serves another model under the same name) are dropped.
   */
  ensureDimensions(dimensions: number): void {
    if (!Number.isInteger(dimensions) || dimensions <= 0) {
      throw new CortexError("INVALID_INPUT", `dimensions: must be a positive integer, got ${dimensions}`);
    }
    if (this.dims === dimensions) return;
    this.db.transaction(() => {
      if (this.dims !== undefined) {
        log.warn(`embedding cache ${this.providerId}: dimensions changed from ${this.dims} to ${dimensions}; dropping its vectors`);
        this.wipe();
      }
      this.setMeta("dimensions", String(dimensions));
    })();
    this.dims = dimensions;
  }

  /** The cached vectors of the given hashes (absent hashes are simply missing from the map). */
  get(hashes: Iterable<string>): Map<string, Float32Array> {
    const out = new Map<string, Float32Array>();
    const stored = this.stored();
    const wanted = new Set<string>();
    for (const h of hashes) if (stored.has(h)) wanted.add(h);
    if (wanted.size === 0) return out;
    if (wanted.size * 4 >= stored.size) {
      // Most of the file is wanted (a search index loading its project): one sequential pass is several
      // times faster than as many index look-ups.
      const stmt = this.db.prepare("SELECT hash, vector FROM vectors");
      try {
        this.collect(stmt.values() as Array<[string, Uint8Array]>, out, wanted);
      } finally {
        stmt.finalize();
      }
      return out;
    }
    const stmt = this.db.prepare("SELECT hash, vector FROM vectors WHERE hash IN (SELECT value FROM json_each(?))");
    try {
      for (const part of slices([...wanted], SLICE)) this.collect(stmt.values(JSON.stringify(part)) as Array<[string, Uint8Array]>, out);
    } finally {
      stmt.finalize();
    }
    return out;
  }

  /** Copies rows into one aligned block per call (SQLite's blob buffers are not aligned for Float32Array). */
  private collect(rows: Array<[string, Uint8Array]>, out: Map<string, Float32Array>, only?: Set<string>): void {
    const picked = only ? rows.filter((r) => only.has(r[0])) : rows;
    if (picked.length === 0) return;
    const width = picked[0]![1].byteLength / 4;
    const block = new Float32Array(picked.length * width);
    const bytes = new Uint8Array(block.buffer);
    picked.forEach(([hash, vector], i) => {
      if (vector.byteLength !== width * 4) {
        throw new CortexError("INDEX_CORRUPT", `embedding cache ${this.path}: vector of ${hash} has ${vector.byteLength / 4} dimensions, expected ${width}`);
      }
      bytes.set(vector, i * width * 4);
      out.set(hash, block.subarray(i * width, (i + 1) * width));
    });
  }

  /** The hashes among those given that have no vector yet, in their first-seen order, without repeats. */
  missing(hashes: Iterable<string>): string[] {
    const stored = this.stored();
    const out: string[] = [];
    const seen = new Set<string>();
    for (const h of hashes) {
      if (seen.has(h)) continue;
      seen.add(h);
      if (!stored.has(h)) out.push(h);
    }
    return out;
  }

  /** How many of the given hashes have a vector: the search engine's measure of "partial 42%". */
  coverage(hashes: Iterable<string>): CacheCoverage {
    const stored = this.stored();
    const seen = new Set<string>();
    let cached = 0;
    for (const h of hashes) {
      if (seen.has(h)) continue;
      seen.add(h);
      if (stored.has(h)) cached++;
    }
    return { total: seen.size, cached };
  }

  /** Stores vectors (replacing any under the same hash), all in one transaction. */
  put(entries: Iterable<VectorEntry>): void {
    const list = [...entries];
    if (list.length === 0) return;
    const width = this.dims ?? list[0]!.vector.length;
    for (const e of list) {
      if (typeof e.hash !== "string" || e.hash.length === 0) throw new CortexError("INVALID_INPUT", "hash: must be a non-empty string");
      if (e.vector.length !== width) {
        throw new CortexError("INVALID_INPUT", `vector of ${e.hash}: has ${e.vector.length} dimensions, the cache holds ${width}`);
      }
      if (width === 0) throw new CortexError("INVALID_INPUT", `vector of ${e.hash}: must not be empty`);
    }
    const insert = this.db.prepare("INSERT OR REPLACE INTO vectors (hash, vector, added_at) VALUES (?, ?, ?)");
    const now = Date.now();
    try {
      this.db.transaction(() => {
        if (this.dims === undefined) this.setMeta("dimensions", String(width));
        for (const e of list) insert.run(e.hash, new Uint8Array(e.vector.buffer, e.vector.byteOffset, e.vector.byteLength), now);
      })();
    } finally {
      insert.finalize();
    }
    this.dims = width;
    if (this.known) for (const e of list) this.known.add(e.hash);
  }

  /** Number of vectors stored. */
  size(): number {
    return (this.db.query("SELECT count(*) AS n FROM vectors").get() as { n: number }).n;
  }

  close(): void {
    this.db.close();
  }

  private meta(key: string): string | undefined {
    return (this.db.query("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | null)?.value;
  }

  private setMeta(key: string, value: string): void {
    this.db.query("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(key, value);
  }

  /** Records the provider id and recipe; vectors made under another recipe are dropped. */
  private adopt(recipe: string): void {
    this.db.transaction(() => {
      const storedId = this.meta("provider");
      if (storedId !== undefined && storedId !== this.providerId) {
        // Two ids whose hash suffixes collide: astronomically unlikely, but never mix their vectors.
        throw new CortexError("INDEX_CORRUPT", `embedding cache ${this.path} belongs to provider '${storedId}', not '${this.providerId}'`);
      }
      if (storedId === undefined) this.setMeta("provider", this.providerId);
      const storedRecipe = this.meta("recipe");
      if (storedRecipe !== undefined && storedRecipe !== recipe) {
        log.warn(`embedding cache ${this.providerId}: the way vectors are made changed; dropping its vectors`);
        this.wipe();
        this.db.exec("DELETE FROM meta WHERE key = 'dimensions'");
        this.dims = undefined;
      }
      if (storedRecipe !== recipe) this.setMeta("recipe", recipe);
    })();
  }
}

/**
 * Version 1 or 2 → 3: a vector stored under a longer prefix of a sha256 (64 hex digits in version 1, 32 in
 * version 2) is kept under its first TEXT_KEY_HEX, the key chunks carry now, so a project indexed again
 * finds every text it embedded before. Other keys (a provider's own) stay as they are. The generation
 * moves on, so a process holding the old keys reloads.
 */
function migrateToTextKeys(db: Database, version: number): void {
  const longer = version === 1 ? 64 : 32;
  db.exec(`UPDATE OR REPLACE vectors SET hash = substr(hash, 1, ${TEXT_KEY_HEX}) WHERE length(hash) = ${longer} AND NOT hash GLOB '*[^0-9a-f]*'`);
  db.exec(`INSERT INTO meta (key, value) VALUES ('generation', '1')
    ON CONFLICT(key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)`);
}

function openCacheDatabase(path: string): Database {
  const db = new Database(path, { create: true, strict: true });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    db.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
    const version = (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
    if (version > SCHEMA_VERSION) {
      throw new CortexError(
        "INDEX_CORRUPT",
        `embedding cache ${path} was written by a newer cortex (cache schema ${version}, this one knows ${SCHEMA_VERSION})`,
        {
          data: { newer: true },
        },
      );
    }
    if (version < SCHEMA_VERSION) {
      db.transaction(() => {
        db.exec(SCHEMA);
        if (version === 1 || version === 2) migrateToTextKeys(db, version);
        db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
      }).immediate();
    }
    db.query("SELECT count(*) FROM vectors").get();
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}

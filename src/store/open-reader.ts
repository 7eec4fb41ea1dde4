/**
 * Opens an index reader (contract.ts) by its source, the string a reader names as `source`: the one way
 * code outside src/store reaches an index for reading, on the main thread or a worker thread (the exact
 * engine's verification workers open their own reader here, never SQLite itself).
 */
import type { IndexReader } from "./contract.ts";
import { SqliteIndexReader } from "./sqlite-reader.ts";
import { POSTGRES_SOURCE_PREFIX } from "./postgres/source-prefix.ts";

/**
 * A reader over the index at `source`: a database path, or a shared store's `postgres:<schema>:<repos>`
 * (postgres/open.ts); throws INDEX_CORRUPT when a path is not a usable index.
 */
export function openIndexReader(source: string): IndexReader {
  if (source.startsWith(POSTGRES_SOURCE_PREFIX)) {
    // loaded only here: the PostgreSQL driver was most of the start of every process and verification
    // worker that opens a local index (42-49 of 56 ms of open-reader's imports, from source)
    const { openPostgresReader } = require("./postgres/open.ts") as typeof import("./postgres/open.ts");
    return openPostgresReader(source);
  }
  return SqliteIndexReader.open(source);
}

/**
 * Whether the index at `source` describes a working tree on this machine. A shared store's repositories
 * were indexed elsewhere (CI, another developer's checkout): their hits are never compared with local
 * files, which would call every one of them stale, or read a file of the same name from disk.
 */
export function describesLocalTree(source: string): boolean {
  return !source.startsWith(POSTGRES_SOURCE_PREFIX);
}

/**
 * Opens an index reader (contract.ts) by its source, the string a reader names as `source`: the one way
 * code outside src/store reaches an index for reading, on the main thread or a worker thread (the exact
 * engine's verification workers open their own reader here, never SQLite itself).
 */
import type { IndexReader } from "./contract.ts";
import { SqliteIndexReader } from "./sqlite-reader.ts";

/** A reader over the index at `source` (a database path); throws INDEX_CORRUPT when it is not a usable index. */
export function openIndexReader(source: string): IndexReader {
  return SqliteIndexReader.open(source);
}

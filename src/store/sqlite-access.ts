/**
 * The door of the store: the SQLite connection behind an IndexStore is reachable only through this
 * module, and only modules inside src/store may import it (test/store/door.test.ts checks that, with
 * bun:sqlite itself). Everything else reads and writes the index through the store's typed methods, so
 * a second backend has one contract to implement.
 */
import type { Database } from "bun:sqlite";

export const SQLITE = Symbol("cortex.store.sqlite");

export interface HasSqlite {
  readonly [SQLITE]: Database;
}

/** The connection of a store object (store-internal). */
export function sqliteOf(owner: HasSqlite): Database {
  return owner[SQLITE];
}

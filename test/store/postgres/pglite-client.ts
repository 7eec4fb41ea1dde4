/**
 * The store's query interface (src/store/postgres/client.ts) over PGlite, PostgreSQL compiled to WASM:
 * the tests run the production store code against a real PostgreSQL without a server. One PGlite is one
 * connection, so `reserve` hands out the same connection (its advisory locks are then re-entrant: lock
 * contention is tested against the real server, test/store/postgres/server.ts).
 */
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { vector } from "@electric-sql/pglite-pgvector";
import { copyStatement, numericRows, type PgClient, type PgQueryable, type PgValue } from "../../../src/store/postgres/client.ts";

interface PgliteLike {
  query<R>(
    sql: string,
    params?: unknown[],
    options?: { rowMode?: "array" | "object"; blob?: Blob },
  ): Promise<{ rows: R[]; fields: Array<{ name: string; dataTypeID: number }> }>;
  exec(sql: string): Promise<unknown>;
}

function queryable(db: PgliteLike): PgQueryable {
  return {
    query: async <R>(sql: string, params: PgValue[] = []) => (await db.query<R>(sql, params)).rows,
    queryArrays: async (sql: string, params: PgValue[] = []) => {
      const r = await db.query<unknown[]>(sql, params, { rowMode: "array" });
      return {
        columns: r.fields.map((f) => f.name),
        rows: numericRows(
          r.fields.map((f) => f.dataTypeID),
          r.rows,
        ),
      };
    },
    exec: async (sql: string) => {
      await db.exec(sql);
    },
    // PGlite has no client socket to stream COPY data over: it reads the rows from a blob at /dev/blob
    copyIn: async (table: string, columns: readonly string[], data: readonly Uint8Array[]) => {
      await db.query(copyStatement(table, columns, "'/dev/blob'"), [], { blob: new Blob(data as Array<Uint8Array<ArrayBuffer>>) });
    },
  };
}

/**
 * Starts a PGlite with pg_trgm, and with pgvector when asked (several seconds on a loaded machine: share
 * one per test file). pgvector comes from @electric-sql/pglite-pgvector: PGlite's own contrib has none.
 */
export async function startPglite(options: { vector?: boolean } = {}): Promise<{ client: PgClient; db: PGlite }> {
  const db = await PGlite.create({ extensions: options.vector ? { pg_trgm, vector } : { pg_trgm } });
  const q = queryable(db);
  const transaction = <T>(fn: (tx: PgQueryable) => Promise<T>): Promise<T> => db.transaction((tx) => fn(queryable(tx)));
  const client: PgClient = {
    ...q,
    transaction,
    reserve: async () => ({ ...q, transaction, release: async () => {} }),
    close: async () => {},
  };
  return { client, db };
}

/**
 * The one small query interface the PostgreSQL store talks through. Production code connects to a real
 * server with the `postgres` driver (connectPostgres, below); the tests run the same store code through
 * an adapter of PGlite (PostgreSQL compiled to WASM) that implements this interface as well.
 */
import { once } from "node:events";
import type { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import postgres from "postgres";
import { CortexError } from "../../core/errors.ts";
import { maskUrl } from "./url.ts";

/** A bound value. Integers are bound as text: every statement casts its parameters (`$1::int`). */
export type PgValue = string | number | boolean | null;

export interface PgQueryable {
  /** Runs one statement with bound parameters ($1, $2…) and returns its rows. */
  query<R = Record<string, unknown>>(sql: string, params?: PgValue[]): Promise<R[]>;
  /** Runs one statement and returns its column names and rows as arrays (columns known even without rows). */
  queryArrays(sql: string, params?: PgValue[]): Promise<{ columns: string[]; rows: unknown[][] }>;
  /** Runs several statements without parameters (schema creation). */
  exec(sql: string): Promise<void>;
  /**
   * COPY `table (columns)` FROM STDIN in the binary format: `data` is the rows as copy-binary.ts writes
   * them, in pieces. `table` is SQL (a validated schema and a table name); the columns are quoted here.
   */
  copyIn(table: string, columns: readonly string[], data: readonly Uint8Array[]): Promise<void>;
}

/** `COPY table ("a", "b") FROM <from> WITH (FORMAT binary)`. */
export function copyStatement(table: string, columns: readonly string[], from: string): string {
  return `COPY ${table} (${columns.map((c) => `"${c}"`).join(", ")}) FROM ${from} WITH (FORMAT binary)`;
}

/** A connection that runs transactions: everything `fn` runs commits together or not at all. */
export interface PgConnection extends PgQueryable {
  transaction<T>(fn: (tx: PgQueryable) => Promise<T>): Promise<T>;
}

/** One connection held apart from the pool: session state (an advisory lock) lives and dies with it. */
export interface PgReserved extends PgConnection {
  release(): Promise<void>;
}

export interface PgClient extends PgConnection {
  reserve(): Promise<PgReserved>;
  close(): Promise<void>;
}

type Sql = postgres.Sql<Record<string, never>>;
type ReservedSql = postgres.ReservedSql<Record<string, never>>;

/** Type ids of PostgreSQL's int8 and numeric: drivers hand them over as text (or BigInt), statistics want numbers. */
const NUMERIC_TYPES = new Set([20, 1700]);

/** Rows with int8 and numeric columns (sums, counts, averages) as JavaScript numbers. */
export function numericRows(types: readonly number[], rows: unknown[][]): unknown[][] {
  const idx = types.flatMap((t, i) => (NUMERIC_TYPES.has(t) ? [i] : []));
  if (idx.length === 0) return rows;
  for (const r of rows) for (const i of idx) if (r[i] !== null && r[i] !== undefined) r[i] = Number(r[i]);
  return rows;
}

/** The SQLSTATE of a server's error (the driver's `code`), looked for through the causes; undefined for others. */
export function sqlState(e: unknown): string | undefined {
  for (let c = e, depth = 0; c instanceof Error && depth < 5; c = c.cause, depth++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** A driver error, worded without the connection URL (it may carry a password). */
function storeError(e: unknown, url: string): CortexError {
  if (e instanceof CortexError) return e;
  const message = e instanceof Error ? e.message : String(e);
  return new CortexError("IO", `PostgreSQL store ${maskUrl(url)}: ${message.split(url).join(maskUrl(url))}`, { cause: e });
}

function queryable(sql: Sql | ReservedSql | postgres.TransactionSql<Record<string, never>>, url: string): PgQueryable {
  return {
    async query<R>(text: string, params: PgValue[] = []): Promise<R[]> {
      try {
        return (await sql.unsafe(text, params as postgres.ParameterOrJSON<never>[])) as unknown as R[];
      } catch (e) {
        throw storeError(e, url);
      }
    },
    async queryArrays(text: string, params: PgValue[] = []) {
      try {
        const result = await sql.unsafe(text, params as postgres.ParameterOrJSON<never>[]).values();
        const columns = result.columns;
        return {
          columns: columns.map((c) => c.name),
          rows: numericRows(
            columns.map((c) => c.type),
            [...result] as unknown[][],
          ),
        };
      } catch (e) {
        throw storeError(e, url);
      }
    },
    async exec(text: string): Promise<void> {
      try {
        await sql.unsafe(text).simple();
      } catch (e) {
        throw storeError(e, url);
      }
    },
    async copyIn(table: string, columns: readonly string[], data: readonly Uint8Array[]): Promise<void> {
      try {
        await copyThroughDriver(sql, copyStatement(table, columns, "STDIN"), data);
      } catch (e) {
        throw storeError(e, url);
      }
    },
  };
}

/**
 * Sends `data` through the driver's COPY FROM STDIN stream and waits for the server's answer.
 *
 * The driver (3.4.9) never finishes the stream when the server rejects the rows after the last of them
 * was sent, or when the connection is lost then (porsager/postgres#1173): a wait on the stream alone
 * would hang, and inside a transaction never roll back. The driver does hand that error to the query's
 * `reject`, which it keeps calling after the query resolved to the stream; wrapping it makes the error
 * this function's.
 */
async function copyThroughDriver(
  sql: Sql | ReservedSql | postgres.TransactionSql<Record<string, never>>,
  text: string,
  data: readonly Uint8Array[],
): Promise<void> {
  const query = sql.unsafe(text);
  const stream = (await query.writable()) as Writable;
  const settle = query as unknown as { reject: (e: unknown) => void };
  const driverReject = settle.reject;
  const failed = new Promise<never>((_, reject) => {
    settle.reject = (e: unknown) => {
      driverReject(e);
      reject(e);
    };
  });
  failed.catch(() => {});
  // The stream emits the server's rejection as an "error" event, which can come between two writes
  // that did not wait for "drain": with no listener at that moment it would be thrown as an uncaught
  // exception instead of failing this call. One listener for the stream's whole life makes it this call's.
  const streamFailed = new Promise<never>((_, reject) => stream.once("error", reject));
  streamFailed.catch(() => {});
  for (const piece of data) {
    if (!stream.write(piece)) await Promise.race([once(stream, "drain"), failed, streamFailed]);
  }
  stream.end();
  await Promise.race([finished(stream), failed, streamFailed]);
}

/** BEGIN … COMMIT on one connection (a reserved connection has no `begin` of its own). */
async function inTransaction<T>(q: PgQueryable, fn: (tx: PgQueryable) => Promise<T>): Promise<T> {
  await q.exec("BEGIN");
  try {
    const out = await fn(q);
    await q.exec("COMMIT");
    return out;
  } catch (e) {
    await q.exec("ROLLBACK").catch(() => {});
    throw e;
  }
}

/**
 * What libpq reads from a URL's parameters and the driver does not: a Unix socket folder `?host=/path`
 * and a password `?password=…` (the driver takes both only from its options, and would send an unknown
 * URL parameter to the server as a setting: a password given so was never used, and authentication failed).
 */
function splitUrl(url: string): { driverUrl: string; socketDir: string | undefined; password: string | undefined } {
  const u = new URL(url);
  const host = u.searchParams.get("host");
  const password = u.searchParams.get("password") ?? undefined;
  const socketDir = host?.startsWith("/") ? host : undefined;
  if (socketDir === undefined && password === undefined) return { driverUrl: url, socketDir, password };
  if (socketDir !== undefined) u.searchParams.delete("host");
  u.searchParams.delete("password");
  return { driverUrl: u.toString(), socketDir, password };
}

/**
 * Connects to the server of a `postgres://` URL (host, port, database, user, password, the password also
 * as `?password=…`; a Unix socket folder as `?host=/path`). Nothing is sent until the first query. Notices are not printed: the store
 * reports what it does itself.
 */
export function connectPostgres(url: string, options: { maxConnections?: number } = {}): PgClient {
  let sql: Sql;
  try {
    const { driverUrl, socketDir, password } = splitUrl(url);
    sql = postgres(driverUrl, {
      max: options.maxConnections ?? 4,
      onnotice: () => {},
      // JIT off: every statement of the store is short, and compiling one costs more than it runs (the
      // trigram lists' statement crossed the JIT threshold on the estimate of a never-analysed `repos`:
      // 250 ms of compiling for 2 ms of work). The setting exists since PostgreSQL 11.
      connection: { application_name: "cortex", jit: "off" },
      ...(socketDir === undefined ? {} : { host: socketDir }),
      ...(password === undefined ? {} : { password }),
    }) as Sql;
  } catch (e) {
    throw new CortexError("INVALID_INPUT", `cannot use the PostgreSQL URL ${maskUrl(url)}: ${(e as Error).message}`);
  }
  const base = queryable(sql, url);
  return {
    ...base,
    async transaction<T>(fn: (tx: PgQueryable) => Promise<T>): Promise<T> {
      try {
        return (await sql.begin((tx) => fn(queryable(tx, url)))) as T;
      } catch (e) {
        throw storeError(e, url);
      }
    },
    async reserve(): Promise<PgReserved> {
      let reserved: ReservedSql;
      try {
        reserved = await sql.reserve();
      } catch (e) {
        throw storeError(e, url);
      }
      const q = queryable(reserved, url);
      return {
        ...q,
        transaction: (fn) => inTransaction(q, fn),
        release: async () => reserved.release(),
      };
    },
    close: () => sql.end({ timeout: 5 }),
  };
}

/** What a reader sees of one repository's live generation, in a shape tests compare whole. */
import type { PgConnection, PgQueryable } from "../../../src/store/postgres/client.ts";

export interface LiveState {
  files: Record<string, string>;
  functions: string[];
  symbols: string[];
  chunks: number;
  modules: string[];
}

/**
 * Several statements, each joined to the live generation, in one REPEATABLE READ transaction: one
 * snapshot for all, so a switch between two of them cannot mix generations.
 */
export function liveState(conn: PgConnection, schema: string, repo: string): Promise<LiveState> {
  return conn.transaction(async (tx) => {
    await tx.exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
    return readState(tx, schema, repo);
  });
}

async function readState(db: PgQueryable, schema: string, repo: string): Promise<LiveState> {
  const files: Record<string, string> = {};
  for (const r of await db.query<{ path: string; content: string }>(`SELECT path, content FROM ${schema}.live_files WHERE repo = $1 ORDER BY path`, [repo])) {
    files[r.path] = r.content;
  }
  const names = async (table: string, column: string) =>
    (
      await db.query<{ k: string }>(
        `SELECT f.path || ':' || t.${column} AS k FROM ${schema}.${table} t JOIN ${schema}.live_files f ON f.file_id = t.file_id WHERE f.repo = $1 ORDER BY 1`,
        [repo],
      )
    ).map((r) => r.k);
  const [chunks] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${schema}.chunks c JOIN ${schema}.live_files f ON f.file_id = c.file_id WHERE f.repo = $1`,
    [repo],
  );
  const modules = (
    await db.query<{ m: string }>(
      `SELECT m.module_path AS m FROM ${schema}.stat_modules m JOIN ${schema}.repos r ON r.repo_id = m.repo_id AND m.generation = r.generation WHERE r.name = $1 ORDER BY 1`,
      [repo],
    )
  ).map((r) => r.m);
  return { files, functions: await names("stat_functions", "name"), symbols: await names("symbols", "name"), chunks: chunks!.n, modules };
}

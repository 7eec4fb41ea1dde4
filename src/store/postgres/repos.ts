/** The repositories of a shared store: what `cortex repos` lists. */
import type { PgQueryable } from "./client.ts";
import { schemaIdent } from "./schema.ts";

export interface RepoInfo {
  name: string;
  commit: string | null;
  generation: number;
  files: number;
  /** When its live generation was published (ISO 8601), null before the first publication. */
  indexedAt: string | null;
}

/** Every repository with a published generation, by name. An empty list when the store has no tables yet. */
export async function listRepos(db: PgQueryable, schema = "cortex"): Promise<RepoInfo[]> {
  const s = schemaIdent(schema);
  const [exists] = await db.query<{ ok: boolean }>("SELECT to_regclass($1) IS NOT NULL AS ok", [`${s}.repos`]);
  if (!exists?.ok) return [];
  const rows = await db.query<{ name: string; commit: string | null; generation: number; files: number; indexed_at: string | null }>(
    `SELECT name, "commit", generation, file_count AS files, to_char(indexed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS indexed_at
     FROM ${s}.repos WHERE generation > 0 ORDER BY name`,
  );
  return rows.map((r) => ({ name: r.name, commit: r.commit, generation: Number(r.generation), files: Number(r.files), indexedAt: r.indexed_at }));
}

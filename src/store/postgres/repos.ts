/** The repositories of a shared store: what `cortex repos` lists. */
import { CortexError } from "../../core/errors.ts";
import type { PgQueryable } from "./client.ts";
import { PG_SCHEMA_VERSION, schemaIdent } from "./schema.ts";

export interface RepoInfo {
  name: string;
  commit: string | null;
  generation: number;
  files: number;
  /** When its live generation was published (ISO 8601), null before the first publication. */
  indexedAt: string | null;
  /** The embedding models whose vectors cover its live generation (semantic search from the store), by name. */
  vectors: string[];
}

/** Every repository with a published generation, by name. An empty list when the store has no tables yet. */
export async function listRepos(db: PgQueryable, schema = "cortex"): Promise<RepoInfo[]> {
  const s = schemaIdent(schema);
  const [exists] = await db.query<{ ok: boolean }>("SELECT to_regclass($1) IS NOT NULL AS ok", [`${s}.repos`]);
  if (!exists?.ok) return [];
  await requireReadableSchema(db, s);
  const rows = await db.query<{ name: string; commit: string | null; generation: number; files: number; indexed_at: string | null; vectors: string[] }>(
    `SELECT name, "commit", generation, file_count AS files, to_char(indexed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS indexed_at,
       ARRAY(SELECT m.model FROM ${s}.generation_vectors g JOIN ${s}.vector_models m ON m.model_id = g.model_id
             WHERE g.repo_id = r.repo_id AND g.generation = r.generation ORDER BY m.model) AS vectors
     FROM ${s}.repos r WHERE generation > 0 ORDER BY name`,
  );
  return rows.map((r) => ({
    name: r.name,
    commit: r.commit,
    generation: Number(r.generation),
    files: Number(r.files),
    indexedAt: r.indexed_at,
    vectors: r.vectors ?? [],
  }));
}

/**
 * Readers do not upgrade a store (publishers do, under their lock): a store of another schema would fail
 * at its first changed column, so it is refused here, with the way out.
 */
async function requireReadableSchema(db: PgQueryable, s: string): Promise<void> {
  const [row] = await db.query<{ value: string }>(`SELECT value FROM ${s}.meta WHERE key = 'schema_version'`);
  if (Number(row?.value) === PG_SCHEMA_VERSION) return;
  const found = row?.value ?? "(none)";
  throw new CortexError(
    "INDEX_CORRUPT",
    Number(row?.value) > PG_SCHEMA_VERSION
      ? `the shared store has schema ${found} and this cortex reads ${PG_SCHEMA_VERSION}: a newer cortex published into it; upgrade cortex`
      : `the shared store has schema ${found} and this cortex reads ${PG_SCHEMA_VERSION}: publish any repository with this version (cortex index --repo <name> <path>), which upgrades the store in place`,
  );
}

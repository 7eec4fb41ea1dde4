/**
 * Chunk vectors held in the shared store itself, where the server has pgvector: a publisher writes each
 * chunk's embedding into a `vector(N)` column with an HNSW (cosine) index, and readers answer
 * nearest-neighbour questions in SQL (`<=>`), so an agent's process needs no vectors of its own. Without
 * the extension nothing here is used: every reader keeps its own vector index, as doctor says.
 *
 * Vectors are stored per model (a model is the embedding provider's id and recipe, as the local vector
 * cache names them: src/store/embedding-cache.ts): `vector_models` numbers the models, and each model
 * has a table `chunk_vectors_<n>` of its own dimension, keyed by the chunk's row, so a file version's
 * vectors are deleted with it (ON DELETE CASCADE) and two models never mix in one column. Which model a
 * repository's generation was published with is recorded in `generation_vectors`, written in the
 * transaction that switches the generation, and only when every chunk of the generation has its vector:
 * a reader uses the store's vectors only when every repository it reads has them for its own model.
 */
import { CortexError, errorMessage } from "../../core/errors.ts";
import type { VectorModel } from "../contract.ts";
import type { PgConnection, PgQueryable, PgValue } from "./client.ts";

/** The vectors a publisher hands over: one model's, looked up by chunk text hash (the local vector cache). */
export interface PublishVectors {
  model: VectorModel;
  dimensions: number;
  /** The vectors of the given hashes that exist (absent hashes have none). */
  get(hashes: Iterable<string>): Map<string, Float32Array>;
}

/** What became of a publication's vectors. */
export type PublishedVectors =
  | { state: "stored"; model: string; dimensions: number; written: number }
  | { state: "incomplete"; model: string; dimensions: number; written: number; missing: number }
  | { state: "unavailable"; reason: string };

/** Vectors per insert statement: a 384-dimension vector is ~8 KB of JSON text. */
const INSERT_SLICE = 500;
/** Chunk rows read per statement when looking for rows without a vector. */
const READ_SLICE = 5000;

/** The tables every store has (plain types: they exist with or without pgvector). */
export function vectorBookkeeping(s: string): string {
  return `
-- Embedding models whose vectors the store holds (pgvector): one table chunk_vectors_<model_id> each.
CREATE TABLE IF NOT EXISTS ${s}.vector_models (
    model_id serial PRIMARY KEY, model text NOT NULL, recipe text NOT NULL, dimensions integer NOT NULL, UNIQUE (model, recipe)
);
-- A repository generation whose every chunk has a vector of this model.
CREATE TABLE IF NOT EXISTS ${s}.generation_vectors (
    repo_id integer NOT NULL REFERENCES ${s}.repos(repo_id) ON DELETE CASCADE,
    generation integer NOT NULL, model_id integer NOT NULL REFERENCES ${s}.vector_models(model_id) ON DELETE CASCADE,
    PRIMARY KEY (repo_id, generation, model_id)
);
`;
}

const vectorTable = (s: string, modelId: number): string => `${s}.chunk_vectors_${modelId}`;

/** pgvector's text form of a vector: JSON's array of numbers (a float32's shortest decimal form reads back exactly). */
const vectorText = (v: Float32Array): string => `[${Array.from(v).join(",")}]`;

/**
 * Makes sure the store can hold vectors: the extension installed (created when the server offers it and
 * the role may), the model registered and its table and HNSW index created. Returns the model's number,
 * or why vectors cannot be stored. A model already registered with another dimension is refused.
 */
async function prepareModel(conn: PgConnection, s: string, vectors: PublishVectors): Promise<{ modelId: number } | { unavailable: string }> {
  const [ext] = await conn.query<{ installed: boolean; available: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS installed,
       EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available`,
  );
  if (!ext?.installed) {
    if (!ext?.available) return { unavailable: "the server has no pgvector extension" };
    try {
      // under the lock the model's tables are made under: two first publishers do not race to create it
      await conn.transaction(async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`cortex vectors ${s}`]);
        await tx.exec("CREATE EXTENSION IF NOT EXISTS vector");
      });
    } catch (e) {
      return { unavailable: `pgvector is not installed in this database and this role cannot install it (${errorMessage(e)})` };
    }
  }
  const dims = vectors.dimensions;
  if (!Number.isInteger(dims) || dims <= 0 || dims > 2000) {
    // HNSW indexes vectors of up to 2000 dimensions
    return { unavailable: `vectors of ${dims} dimensions cannot be indexed by pgvector's HNSW (at most 2000)` };
  }
  try {
    return await registerModel(conn, s, vectors);
  } catch (e) {
    if (e instanceof CortexError && e.code === "INVALID_INPUT") throw e;
    // an old pgvector without HNSW (before 0.5), or a role that may not create tables here
    return { unavailable: `the store cannot keep this model's vectors (${errorMessage(e)})` };
  }
}

/** Numbers the model (refusing another dimension under its name) and makes its table and HNSW index. */
function registerModel(conn: PgConnection, s: string, vectors: PublishVectors): Promise<{ modelId: number }> {
  const dims = vectors.dimensions;
  return conn.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`cortex vectors ${s}`]);
    await tx.query(`INSERT INTO ${s}.vector_models (model, recipe, dimensions) VALUES ($1, $2, $3::int) ON CONFLICT (model, recipe) DO NOTHING`, [
      vectors.model.id,
      vectors.model.recipe,
      dims,
    ]);
    const [m] = await tx.query<{ model_id: number; dimensions: number }>(
      `SELECT model_id, dimensions FROM ${s}.vector_models WHERE model = $1 AND recipe = $2`,
      [vectors.model.id, vectors.model.recipe],
    );
    if (m!.dimensions !== dims) {
      throw new CortexError(
        "INVALID_INPUT",
        `embedding model ${vectors.model.id} makes ${dims}-dimension vectors, but the shared store holds ${m!.dimensions}-dimension vectors under the same model: the model behind that name changed; publish with a model of its own name`,
      );
    }
    const table = vectorTable(s, m!.model_id);
    await tx.exec(`CREATE TABLE IF NOT EXISTS ${table} (
        row_id bigint PRIMARY KEY REFERENCES ${s}.chunks(row_id) ON DELETE CASCADE, embedding vector(${dims}) NOT NULL);
      CREATE INDEX IF NOT EXISTS chunk_vectors_${m!.model_id}_hnsw ON ${table} USING hnsw (embedding vector_cosine_ops);`);
    return { modelId: m!.model_id };
  });
}

/**
 * Writes the vectors of the chunks of repository `repoId`'s next generation `next` that lack one in this
 * model's table (new file versions, and unchanged ones published without this model), before the switch.
 * Returns what happened; `record` then writes the generation's record inside the switching transaction.
 */
export async function publishVectors(
  conn: PgConnection,
  s: string,
  repoId: number,
  next: number,
  vectors: PublishVectors,
): Promise<{ result: PublishedVectors; record(tx: PgQueryable): Promise<void> }> {
  const noRecord = async () => {};
  const prepared = await prepareModel(conn, s, vectors);
  if ("unavailable" in prepared) return { result: { state: "unavailable", reason: prepared.unavailable }, record: noRecord };
  const { modelId } = prepared;
  const table = vectorTable(s, modelId);
  // the next generation's versions: written aside for it, or live and not replaced by one written aside
  const rows = await conn.query<{ row_id: string; text_hash: string }>(
    `SELECT c.row_id, c.text_hash FROM ${s}.file_versions f JOIN ${s}.chunks c ON c.file_id = f.file_id
     WHERE f.repo_id = $1::int AND f.gen_to IS NULL
       AND (f.gen_from = $2::int OR NOT EXISTS (SELECT 1 FROM ${s}.file_versions n WHERE n.repo_id = f.repo_id AND n.path = f.path AND n.gen_from = $2::int))
       AND NOT EXISTS (SELECT 1 FROM ${table} v WHERE v.row_id = c.row_id)
     ORDER BY c.row_id`,
    [repoId, next],
  );
  let written = 0;
  let missing = 0;
  for (let i = 0; i < rows.length; i += READ_SLICE) {
    const slice = rows.slice(i, i + READ_SLICE);
    const found = vectors.get(new Set(slice.map((r) => r.text_hash)));
    const values: Array<{ row_id: string; embedding: string }> = [];
    for (const r of slice) {
      const v = found.get(r.text_hash);
      if (v === undefined || v.length !== vectors.dimensions) missing++;
      else values.push({ row_id: r.row_id, embedding: vectorText(v) });
    }
    for (let j = 0; j < values.length; j += INSERT_SLICE) {
      const part = values.slice(j, j + INSERT_SLICE);
      await conn.query(
        `INSERT INTO ${table} (row_id, embedding) SELECT row_id, embedding::vector FROM json_to_recordset($1::text::json) AS x(row_id bigint, embedding text)
         ON CONFLICT (row_id) DO NOTHING`,
        [JSON.stringify(part)],
      );
      written += part.length;
    }
  }
  const base = { model: vectors.model.id, dimensions: vectors.dimensions, written };
  if (missing > 0) return { result: { state: "incomplete", ...base, missing }, record: noRecord };
  return {
    result: { state: "stored", ...base },
    async record(tx) {
      await tx.query(`INSERT INTO ${s}.generation_vectors (repo_id, generation, model_id) VALUES ($1::int, $2::int, $3::int) ON CONFLICT DO NOTHING`, [
        repoId,
        next,
        modelId,
      ]);
    },
  };
}

/** Removes the records of generations older than `live` (after the switch; their versions are gone too). */
export async function forgetOldGenerations(tx: PgQueryable, s: string, repoId: number, live: number): Promise<void> {
  await tx.query(`DELETE FROM ${s}.generation_vectors WHERE repo_id = $1::int AND generation < $2::int`, [repoId, live]);
}

/** What a reader knows of the store's vectors for one model over its repositories. */
export interface StoredModel {
  modelId: number;
  dimensions: number;
  /** pgvector 0.8 and later can go on scanning the HNSW index when filters reject what it found. */
  iterativeScan: boolean;
}

/**
 * The model's vectors when every repository of the scope (`scopeSql`: a condition on repos `r`, its
 * values in `params`) has them for its live generation; undefined otherwise, and when the store has no
 * vectors at all (no pgvector, or a store made before vectors were kept).
 */
export async function storedModel(
  db: PgQueryable,
  s: string,
  schema: string,
  model: VectorModel,
  scopeSql: string,
  params: PgValue[],
): Promise<StoredModel | undefined> {
  const [t] = await db.query<{ present: boolean; version: string | null }>(
    `SELECT to_regclass($1) IS NOT NULL AS present, (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS version`,
    [`"${schema}".generation_vectors`],
  );
  if (!t?.present || t.version === null) return undefined;
  const n = params.length;
  const [m] = await db.query<{ model_id: number; dimensions: number; uncovered: number }>(
    `SELECT m.model_id, m.dimensions,
       (SELECT count(*)::int FROM ${s}.repos r WHERE ${scopeSql} AND NOT EXISTS (
          SELECT 1 FROM ${s}.generation_vectors g WHERE g.repo_id = r.repo_id AND g.generation = r.generation AND g.model_id = m.model_id)) AS uncovered
     FROM ${s}.vector_models m WHERE m.model = $${n + 1} AND m.recipe = $${n + 2}`,
    [...params, model.id, model.recipe],
  );
  if (m === undefined || m.uncovered > 0) return undefined;
  const [major = 0, minor = 0] = t.version.split(".").map(Number);
  return { modelId: m.model_id, dimensions: m.dimensions, iterativeScan: major > 0 || minor >= 8 };
}

/**
 * The `k` chunks nearest to `vector` by cosine distance among those of `from` (live files `f` of the
 * reader's repositories) passing `where` (chunk conditions on `c`), best first, scored 1 - distance (the
 * cosine similarity, as the in-process vector index scores). The HNSW index answers it approximately;
 * filters that reject the index's first candidates make it scan on (pgvector 0.8+), so a scoped or
 * filtered search still fills its `k`.
 */
export async function nearestChunks(
  db: PgConnection,
  s: string,
  model: StoredModel,
  query: { from: string; where: string; params: PgValue[] /** the chunk's id as the reader names it (default c.chunk_id) */; idSql?: string },
  vector: Float32Array,
  k: number,
): Promise<Array<{ id: string; score: number }>> {
  if (vector.length !== model.dimensions) {
    throw new CortexError("INVALID_INPUT", `query vector: has ${vector.length} dimensions, the store holds ${model.dimensions} for this model`);
  }
  if (k <= 0) return [];
  const params = [...query.params, vectorText(vector), k];
  const q = `$${params.length - 1}::vector(${model.dimensions})`;
  // ordered by the distance alone so the HNSW index can answer; equal distances (equal texts) then by row
  const sql = `SELECT id, 1 - distance AS score FROM (
      SELECT ${query.idSql ?? "c.chunk_id"} AS id, c.row_id, v.embedding <=> ${q} AS distance
      FROM ${query.from} JOIN ${s}.chunks c ON c.file_id = f.file_id JOIN ${vectorTable(s, model.modelId)} v ON v.row_id = c.row_id
      WHERE TRUE${query.where}
      ORDER BY v.embedding <=> ${q} LIMIT $${params.length}::int) nn
    ORDER BY distance, row_id`;
  const rows = await db.transaction(async (tx) => {
    // the index's candidate list must hold at least k; 0.8+ keeps scanning past rejected candidates, in order
    await tx.exec(`SET LOCAL hnsw.ef_search = ${Math.min(1000, Math.max(40, k))}`);
    if (model.iterativeScan) await tx.exec("SET LOCAL hnsw.iterative_scan = strict_order");
    return tx.query<{ id: string; score: number }>(sql, params);
  });
  return rows.map((r) => ({ id: r.id, score: Number(r.score) }));
}

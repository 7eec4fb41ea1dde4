#!/usr/bin/env bun
/**
 * Nearest-chunk queries over vectors held in the shared store (src/store/postgres/vectors.ts), on PGlite
 * with pgvector (the only pgvector this machine has: Debian packages none for its PostgreSQL).
 *
 *   bun scripts/bench/pgvector.ts [vectors=20000] [dimensions=384]
 *
 * Two repositories (nine files in ten in the first, one in ten in the second), one chunk per file, random
 * vectors; the HNSW index's build time, then p50/p95 of 15 queries of k = 200 (search's candidate pool)
 * through PgIndexReader for each scope, after ANALYZE (so the planner knows the tables' sizes). PGlite is
 * PostgreSQL compiled to WASM on one thread: a server answers faster. The load average is printed beside.
 */
import { loadavg } from "node:os";
import { startPglite } from "../../test/store/postgres/pglite-client.ts";
import { ensureSchema } from "../../src/store/postgres/schema.ts";
import { PgIndexReader } from "../../src/store/postgres/reader.ts";
import type { RepoScope } from "../../src/store/postgres/reader.ts";

const N = Number(process.argv[2] ?? 20000);
const D = Number(process.argv[3] ?? 384);
const { client } = await startPglite({ vector: true });
await ensureSchema(client, "bench");
await client.exec("CREATE EXTENSION IF NOT EXISTS vector");
let t = performance.now();
await client.exec("INSERT INTO bench.repos (name, generation) VALUES ('big', 1), ('small', 1)");
await client.exec(`INSERT INTO bench.file_versions (repo_id, path, language, content_hash, size_bytes, mtime_ms, rows_digest, words, gen_from, content)
  SELECT 1 + (i % 10 = 0)::int, 'f' || i || '.ts', 'typescript', 'h', 1, 1, 'd', ''::tsvector, 1, 'x' FROM generate_series(1, ${N}) i`);
await client.exec(`INSERT INTO bench.chunks (file_id, chunk_id, chunk_type, title, symbol_path, language, start_line, end_line, tags, is_test, text_hash, text, words)
  SELECT file_id, 'c' || file_id, 'code', 't', NULL, 'typescript', 1, 2, '[]', false, md5(file_id::text), 'x', ''::tsvector FROM bench.file_versions`);
await client.exec(`INSERT INTO bench.vector_models (model, recipe, dimensions) VALUES ('m', 'r', ${D})`);
await client.exec(
  `CREATE TABLE bench.chunk_vectors_1 (row_id bigint PRIMARY KEY REFERENCES bench.chunks(row_id) ON DELETE CASCADE, embedding vector(${D}) NOT NULL)`,
);
await client.exec(`INSERT INTO bench.chunk_vectors_1
  SELECT c.row_id, (SELECT array_agg(random() - 0.5 + c.row_id * 0 + g * 0) FROM generate_series(1, ${D}) g)::vector FROM bench.chunks c`);
const loadMs = performance.now() - t;
t = performance.now();
await client.exec("CREATE INDEX ON bench.chunk_vectors_1 USING hnsw (embedding vector_cosine_ops)");
const buildMs = performance.now() - t;
await client.exec("INSERT INTO bench.generation_vectors SELECT repo_id, 1, 1 FROM bench.repos");
await client.exec("ANALYZE");
console.log(`${N} vectors of ${D} dimensions: loaded in ${(loadMs / 1000).toFixed(1)} s, HNSW built in ${(buildMs / 1000).toFixed(1)} s`);
console.log("| scope | chunks | hits (k = 200) | p50 ms | p95 ms |\n|---|---|---|---|---|");
const query = new Float32Array(D).map(() => Math.random() - 0.5);
const scopes: Array<[RepoScope, number]> = [
  ["all", N],
  [["big"], N - Math.floor(N / 10)],
  [["small"], Math.floor(N / 10)],
];
for (const [scope, chunks] of scopes) {
  const reader = new PgIndexReader(client, scope, "bench");
  const times: number[] = [];
  let hits = 0;
  for (let i = 0; i < 15; i++) {
    const s = performance.now();
    hits = (await reader.nearestChunks({ id: "m", recipe: "r" }, query, 200, {})).length;
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  console.log(`| ${JSON.stringify(scope)} | ${chunks} | ${hits} | ${times[7]!.toFixed(1)} | ${times[14]!.toFixed(1)} |`);
}
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
await client.close();

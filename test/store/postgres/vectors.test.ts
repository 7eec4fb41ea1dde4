/**
 * Chunk vectors in the shared store (src/store/postgres/vectors.ts) on PGlite with the real pgvector
 * extension: two projects indexed by the real pipeline, embedded by the tiny model through the real
 * embedding worker, published with their vectors; nearest chunks found in SQL against the in-process
 * vector index over the same local index, repository scoping, and hybrid search giving the same top hits
 * whether the store or the process holds the vectors.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Session } from "../../../src/tools/session.ts";
import { openIndexReader } from "../../../src/store/open-reader.ts";
import { publishIndex, type PublishResult } from "../../../src/store/postgres/publish.ts";
import { PgIndexReader } from "../../../src/store/postgres/reader.ts";
import { listRepos } from "../../../src/store/postgres/repos.ts";
import type { PgClient } from "../../../src/store/postgres/client.ts";
import type { PublishVectors } from "../../../src/store/postgres/vectors.ts";
import { EmbeddingVectorChannel } from "../../../src/engines/search/vector-channel.ts";
import type { Embedder } from "../../../src/embed/index.ts";
import { embeddedProject, APP, OTHER, QUERIES, type EmbeddedProject } from "./embedded-project.ts";
import { startPglite } from "./pglite-client.ts";

// indexes two projects, runs the embedding worker and starts a PGlite with pgvector: seconds on a busy machine
setDefaultTimeout(120_000);

const SCHEMA = "t_vectors";
/** The same projects published without vectors: readers of it fall back to their own vector index. */
const PLAIN = "t_no_vectors";

let client: PgClient;
let app: EmbeddedProject;
let other: EmbeddedProject;
let published: PublishResult;
let embedder: Embedder;

beforeAll(async () => {
  app = await embeddedProject(APP);
  other = await embeddedProject(OTHER);
  embedder = app.session.embedder()!;
  ({ client } = await startPglite({ vector: true }));
  published = await publishIndex(client, "app", app.store, { schema: SCHEMA, vectors: app.vectors });
  await publishIndex(client, "other", other.store, { schema: SCHEMA, vectors: other.vectors });
  await publishIndex(client, "app", app.store, { schema: PLAIN });
  await publishIndex(client, "other", other.store, { schema: PLAIN });
});

afterAll(async () => {
  for (const p of [app, other]) {
    p?.store.close();
    p?.session.close();
    p?.project.cleanup();
  }
  await client?.close();
});

describe("publishing vectors", () => {
  test("every chunk's vector is stored in a vector(N) column of the model's dimension, with an HNSW cosine index", async () => {
    const dims = app.vectors.dimensions;
    expect(dims).toBeGreaterThan(1);
    const chunks = (
      await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${SCHEMA}.chunks c JOIN ${SCHEMA}.live_files f ON f.file_id = c.file_id WHERE f.repo = 'app'`,
      )
    )[0]!.n;
    expect(published.vectors).toEqual({ state: "stored", model: app.vectors.model.id, dimensions: dims, written: chunks });
    const [model] = await client.query<{ model_id: number; model: string; dimensions: number }>(
      `SELECT model_id, model, dimensions FROM ${SCHEMA}.vector_models`,
    );
    expect(model).toMatchObject({ model: app.vectors.model.id, dimensions: dims });
    const table = `chunk_vectors_${model!.model_id}`;
    const [column] = await client.query<{ type: string }>(
      `SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = $1::regclass AND attname = 'embedding'`,
      [`${SCHEMA}.${table}`],
    );
    expect(column!.type).toBe(`vector(${dims})`);
    const [index] = await client.query<{ def: string }>(
      `SELECT indexdef AS def FROM pg_indexes WHERE schemaname = $1 AND tablename = $2 AND indexdef LIKE '%hnsw%'`,
      [SCHEMA, table],
    );
    expect(index!.def).toContain("vector_cosine_ops");
    const stored = await client.query<{ n: number; d: number }>(`SELECT count(*)::int AS n, min(vector_dims(embedding))::int AS d FROM ${SCHEMA}.${table}`);
    const otherChunks = (
      await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${SCHEMA}.chunks c JOIN ${SCHEMA}.live_files f ON f.file_id = c.file_id WHERE f.repo = 'other'`,
      )
    )[0]!.n;
    expect(stored[0]).toEqual({ n: chunks + otherChunks, d: dims });
    // each generation records the model it was published with
    const gens = await client.query<{ repo: string; model_id: number }>(
      `SELECT r.name AS repo, g.model_id FROM ${SCHEMA}.generation_vectors g JOIN ${SCHEMA}.repos r ON r.repo_id = g.repo_id AND r.generation = g.generation ORDER BY repo`,
    );
    expect(gens).toEqual([
      { repo: "app", model_id: model!.model_id },
      { repo: "other", model_id: model!.model_id },
    ]);
  });

  test("the stored vectors are the local cache's, exactly", async () => {
    const [row] = await client.query<{ hash: string; v: string }>(
      `SELECT c.text_hash AS hash, v.embedding::text AS v FROM ${SCHEMA}.chunks c JOIN ${SCHEMA}.chunk_vectors_1 v ON v.row_id = c.row_id LIMIT 1`,
    );
    const local = embedder.cache.get([row!.hash]).get(row!.hash)!;
    expect(Float32Array.from(JSON.parse(row!.v) as number[])).toEqual(Float32Array.from(local));
  });

  test("a republished generation without changes keeps its vectors and records its model again", async () => {
    const again = await publishIndex(client, "other", other.store, { schema: SCHEMA, vectors: other.vectors });
    expect(again.vectors).toMatchObject({ state: "stored", written: 0 });
    const reader = new PgIndexReader(client, ["other"], SCHEMA);
    expect(await reader.storedVectorDimensions(other.vectors.model)).toBe(other.vectors.dimensions);
  });

  test("the same model name with another dimension is refused with the reason", async () => {
    const wrong: PublishVectors = { ...app.vectors, dimensions: app.vectors.dimensions + 1, get: () => new Map() };
    await expect(publishIndex(client, "app", app.store, { schema: SCHEMA, vectors: wrong })).rejects.toThrow(
      `embedding model ${app.vectors.model.id} makes ${app.vectors.dimensions + 1}-dimension vectors, but the shared store holds ${app.vectors.dimensions}-dimension vectors`,
    );
  });

  test("vectors missing from the cache leave the generation without a model: readers keep their own index", async () => {
    const schema = "t_vectors_partial";
    const some = new Set([...app.vectors.get(new Set((await app.session.reader()!.chunkHashes()).map((c) => c.hash))).keys()].slice(0, 3));
    const partial: PublishVectors = { ...app.vectors, get: (hashes) => new Map([...app.vectors.get(hashes)].filter(([h]) => some.has(h))) };
    const r = await publishIndex(client, "app", app.store, { schema, vectors: partial });
    expect(r.vectors).toMatchObject({ state: "incomplete" });
    expect(r.vectors?.state === "incomplete" && r.vectors.missing).toBeGreaterThan(0);
    expect(await new PgIndexReader(client, ["app"], schema).storedVectorDimensions(app.vectors.model)).toBeUndefined();
  });
});

describe("nearest chunks in SQL", () => {
  test("equal the in-process vector index's over the same local index, in order", async () => {
    const local = new EmbeddingVectorChannel(openIndexReader(app.store.path), embedder);
    await local.loaded();
    expect(local.state()).toBe("ready");
    const reader = new PgIndexReader(client, ["app"], SCHEMA);
    for (const query of QUERIES) {
      const want = await local.search(query, 8, {});
      const got = await reader.nearestChunks(app.vectors.model, await embedder.embedQuery(query), 8, {});
      expect(got.map((h) => h.id)).toEqual(want.map((h) => h.id));
      got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i]!.score, 5));
    }
    local.close();
  });

  test("filters apply in SQL, as in the local index", async () => {
    const local = new EmbeddingVectorChannel(openIndexReader(app.store.path), embedder);
    await local.loaded();
    const reader = new PgIndexReader(client, ["app"], SCHEMA);
    const filters = { pathPrefixes: ["storage", "web"] };
    const q = await embedder.embedQuery("user password session");
    const got = await reader.nearestChunks(app.vectors.model, q, 5, filters);
    expect(got.map((h) => h.id)).toEqual((await local.search("user password session", 5, filters)).map((h) => h.id));
    const rows = await reader.chunksById(got.map((h) => h.id));
    expect([...rows.values()].every((c) => c.file_path.startsWith("storage/") || c.file_path.startsWith("web/"))).toBe(true);
    local.close();
  });

  test("are scoped to the reader's repositories, and fill k from them alone", async () => {
    const q = await embedder.embedQuery("how is a user signed in with a password");
    const only = new PgIndexReader(client, ["other"], SCHEMA);
    const hits = await only.nearestChunks(other.vectors.model, q, 4, {});
    expect(hits).toHaveLength(4);
    const otherIds = new Set((await only.chunkHashes()).map((c) => c.id));
    expect(hits.every((h) => otherIds.has(h.id))).toBe(true);
    expect([...(await only.chunksById([hits[0]!.id])).values()][0]!.file_path).toBe("session/token.ts");

    // two repositories: the best of each one's nearest chunks, merged
    const fromApp = await new PgIndexReader(client, ["app"], SCHEMA).nearestChunks(app.vectors.model, q, 4, {});
    // a reader of several repositories names a chunk `<type>:<repo>/<path>#<key>`
    const inRepo = (repo: string) => (h: { id: string; score: number }) => ({ ...h, id: h.id.replace(":", `:${repo}/`) });
    const merged = [...fromApp.map(inRepo("app")), ...hits.map(inRepo("other"))].sort((x, y) => y.score - x.score).slice(0, 4);
    const both = new PgIndexReader(client, ["app", "other"], SCHEMA);
    const top = await both.nearestChunks(app.vectors.model, q, 4, {});
    expect(top.map((h) => h.id)).toEqual(merged.map((h) => h.id));
    const paths = [...(await both.chunksById(top.map((h) => h.id))).values()].map((c) => c.file_path.split("/")[0]);
    expect(new Set(paths)).toEqual(new Set(["app", "other"]));
  });

  test("another model, or a repository published without vectors, has none in the store", async () => {
    const reader = new PgIndexReader(client, "all", SCHEMA);
    expect(await reader.storedVectorDimensions(app.vectors.model)).toBe(app.vectors.dimensions);
    expect(await reader.storedVectorDimensions({ ...app.vectors.model, id: "another-model" })).toBeUndefined();
    expect(await reader.nearestChunks({ ...app.vectors.model, id: "another-model" }, await embedder.embedQuery("user"), 3, {})).toEqual([]);
    expect(await new PgIndexReader(client, ["app"], PLAIN).storedVectorDimensions(app.vectors.model)).toBeUndefined();
    // cortex repos and get_indexing_status say which model's vectors each repository's live generation has
    expect((await listRepos(client, SCHEMA)).map((r) => [r.name, r.vectors])).toEqual([
      ["app", [app.vectors.model.id]],
      ["other", [other.vectors.model.id]],
    ]);
    expect((await listRepos(client, PLAIN)).map((r) => [r.name, r.vectors])).toEqual([
      ["app", []],
      ["other", []],
    ]);
  });
});

describe("semantic search over the shared store", () => {
  /** A session over the shared store with a CORTEX_HOME of its own: an empty vector cache. */
  async function sharedSession(schema: string): Promise<{ session: Session; home: string }> {
    const home = mkdtempSync(join(tmpdir(), "cortex-vectors-home-"));
    const saved = process.env.CORTEX_HOME;
    process.env.CORTEX_HOME = home;
    try {
      const session = new Session(app.project.root, {
        oneShot: true,
        shared: { reader: new PgIndexReader(client, ["app", "other"], schema), store: { url: "pglite", repos: async () => [] } },
      });
      session.embedder();
      return { session, home };
    } finally {
      process.env.CORTEX_HOME = saved;
    }
  }

  test("gives the same top hits whether the store or the process holds the vectors; with pgvector the process embeds no chunk", async () => {
    const withStore = await sharedSession(SCHEMA);
    const withOwn = await sharedSession(PLAIN);
    try {
      const a = await withStore.session.search();
      // the process's own index embeds every chunk it reads first (what the store spares the other one)
      expect(await withOwn.session.embedAll(() => {})).toBe("ready");
      const b = await withOwn.session.search();
      for (const query of QUERIES) {
        const ra = await a.search({ query, limit: 5, mode: "hybrid" });
        const rb = await b.search({ query, limit: 5, mode: "hybrid" });
        expect([ra.mode, ra.embeddings]).toEqual(["hybrid", "ready"]);
        expect([rb.mode, rb.embeddings]).toEqual(["hybrid", "ready"]);
        expect(ra.results.map((h) => h.chunk.metadata.file_path)).toEqual(rb.results.map((h) => h.chunk.metadata.file_path));
      }
      expect((await a.search({ query: QUERIES[0]!, limit: 1, mode: "vector" })).results[0]!.chunk.metadata.file_path).toMatch(/login\.go$|token\.ts$/);
      // the store answered: this process embedded queries only, the other embedded every chunk it read
      expect(withStore.session.embedder()!.progress().embedded).toBe(0);
      expect(withOwn.session.embedder()!.progress().embedded).toBeGreaterThan(0);
    } finally {
      for (const s of [withStore, withOwn]) {
        s.session.close();
        rmSync(s.home, { recursive: true, force: true });
      }
    }
  });
});

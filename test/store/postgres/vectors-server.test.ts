/**
 * The shared store without pgvector, on a real PostgreSQL server the test starts (Debian packages no
 * pgvector, so this server has none; skipped, with the reason printed, where the machine has no server
 * binaries): a publisher handing over vectors is told they cannot be stored, the reader holds none, and
 * semantic search answers from the process's own vector index with the in-process index's hits.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Session } from "../../../src/tools/session.ts";
import { openIndexReader } from "../../../src/store/open-reader.ts";
import { connectPostgres, type PgClient } from "../../../src/store/postgres/client.ts";
import { publishIndex } from "../../../src/store/postgres/publish.ts";
import { PgIndexReader } from "../../../src/store/postgres/reader.ts";
import { SharedStore } from "../../../src/store/postgres/shared-store.ts";
import { EmbeddingVectorChannel } from "../../../src/engines/search/vector-channel.ts";
import { APP, embeddedProject, QUERIES, type EmbeddedProject } from "./embedded-project.ts";
import { serverSkipReason, startServer, type TestServer } from "./server.ts";

// indexes a project, runs the embedding worker and starts a database: seconds on a busy machine
setDefaultTimeout(120_000);

const skip = serverSkipReason();
if (skip !== undefined) console.warn(`skipping the PostgreSQL server tests: ${skip}`);

const SCHEMA = "t_vectors_fallback";
let server: TestServer;
let client: PgClient;
let app: EmbeddedProject;

beforeAll(async () => {
  if (skip !== undefined) return;
  server = startServer();
  client = connectPostgres(server.url(), { maxConnections: 4 });
  app = await embeddedProject(APP);
});

afterAll(async () => {
  app?.store.close();
  app?.session.close();
  app?.project.cleanup();
  await client?.close();
  server?.stop();
});

test.skipIf(skip !== undefined)("without pgvector the vectors are not stored, and the store says why", async () => {
  const store = SharedStore.connect(server.url());
  try {
    expect(await store.holdsVectors()).toBe(false);
  } finally {
    await store.close();
  }
  const r = await publishIndex(client, "app", app.store, { schema: SCHEMA, vectors: app.vectors });
  expect(r.vectors).toEqual({ state: "unavailable", reason: "the server has no pgvector extension" });
  expect(r.changed).toBe(Object.keys(APP).length); // the rest is published whole
  const reader = new PgIndexReader(client, ["app"], SCHEMA);
  expect(await reader.storedVectorDimensions(app.vectors.model)).toBeUndefined();
  expect(await reader.nearestChunks(app.vectors.model, await app.session.embedder()!.embedQuery("user"), 3, {})).toEqual([]);
});

test.skipIf(skip !== undefined)("semantic search then uses the process's own vector index, with the local index's hits", async () => {
  await publishIndex(client, "app", app.store, { schema: SCHEMA, vectors: app.vectors });
  const embedder = app.session.embedder()!;
  const local = new EmbeddingVectorChannel(openIndexReader(app.store.path), embedder);
  const shared = new EmbeddingVectorChannel(new PgIndexReader(client, ["app"], SCHEMA), embedder);
  try {
    await local.loaded();
    await shared.loaded();
    expect(shared.state()).toBe("ready");
    for (const query of QUERIES) {
      expect((await shared.search(query, 8, {})).map((h) => h.id)).toEqual((await local.search(query, 8, {})).map((h) => h.id));
    }
  } finally {
    local.close();
    shared.close();
  }

  // a session over the store with an empty vector cache embeds the chunks it reads itself
  const home = mkdtempSync(join(tmpdir(), "cortex-vectors-home-"));
  const saved = process.env.CORTEX_HOME;
  process.env.CORTEX_HOME = home;
  const session = new Session(app.project.root, {
    oneShot: true,
    shared: { reader: new PgIndexReader(client, ["app"], SCHEMA), store: { url: "pglite", repos: async () => [] } },
  });
  try {
    session.embedder();
    process.env.CORTEX_HOME = saved;
    expect(await session.embedAll(() => {})).toBe("ready");
    expect(session.embedder()!.progress().embedded).toBeGreaterThan(0);
    const r = await (await session.search()).search({ query: QUERIES[0]!, limit: 3, mode: "hybrid" });
    expect([r.mode, r.embeddings]).toEqual(["hybrid", "ready"]);
    expect(r.results[0]!.chunk.metadata.file_path).toBe("auth/login.go");
  } finally {
    process.env.CORTEX_HOME = saved;
    session.close();
    rmSync(home, { recursive: true, force: true });
  }
});

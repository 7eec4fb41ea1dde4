/**
 * A model that changed its vector size under the same identity (an OpenAI-compatible server on 127.0.0.1 that
 * starts serving another model under the same name), through a Session's search as the CLI and MCP run it.
 * The cache kept the former vectors: the query vector reached the vector index and the search failed as
 * "query vector: has 5 dimensions, the index holds 3" (over MCP: "invalid arguments", blaming the caller),
 * and re-indexing changed nothing since every text already "had" a vector.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Session } from "../../src/tools/session.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";

setDefaultTimeout(60_000);

let width = 3;
let server: ReturnType<typeof Bun.serve>;
let p: TmpProject;

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const { input } = (await req.json()) as { input: string[] };
      return Response.json({ data: input.map((t, index) => ({ index, embedding: Array.from({ length: width }, (_, i) => ((t.length + i) % 7) + 1) })) });
    },
  });
  p = tmpProject({
    "auth/login.go": 'package auth\n\n// Login checks a user\'s password.\nfunc Login(user, password string) bool { return password != "" }\n',
    "store/db.go": "package store\n\n// InsertRow writes a row into a table.\nfunc InsertRow(table string) error { return nil }\n",
    ".cortex/config.yml": `embeddings:\n  provider: openai\n  url: http://127.0.0.1:${server.port}/v1\n  model: m\n  batch_size: 8\n`,
  });
});
afterAll(() => {
  server.stop(true);
  p.cleanup();
});

/** Searches until embeddings are ready (the vectors re-made), returning every response seen. */
async function searchUntilReady(session: Session) {
  const engine = await session.search();
  const seen: Array<{ mode: string; embeddings: string }> = [];
  for (let i = 0; i < 200; i++) {
    const r = await engine.search({ query: "user password", limit: 3 });
    seen.push({ mode: r.mode, embeddings: r.embeddings });
    if (r.embeddings === "ready" && r.mode === "hybrid") break;
    await session.embedder()!.idle();
    await Bun.sleep(20);
  }
  return seen;
}

describe("a model whose vectors changed size under the same id", () => {
  test("searches fall back to keywords saying why, the vectors are made again, then hybrid", async () => {
    const first = new Session(p.root);
    await first.index();
    expect((await searchUntilReady(first)).at(-1)).toEqual({ mode: "hybrid", embeddings: "ready" });
    first.close();

    width = 5;
    const second = new Session(p.root);
    await second.index();
    const seen = await searchUntilReady(second);
    expect(seen.some((s) => s.mode === "keyword" && s.embeddings.includes("makes 5-dimensional vectors, the project's vectors have 3"))).toBe(true);
    // never an error; keyword answers meanwhile, and the state says why while the old vectors are held
    expect(seen.every((s) => s.mode === "hybrid" || s.mode === "keyword")).toBe(true);
    expect(seen.at(-1)).toEqual({ mode: "hybrid", embeddings: "ready" });
    const embedder = second.embedder()!;
    expect(embedder.cache.dimensions).toBe(5);
    expect((await embedder.embedQuery("user password")).length).toBe(5);
    second.close();
  });
});

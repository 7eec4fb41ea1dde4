/**
 * The vector side of hybrid search end to end: a real project indexed by the real pipeline, a Session
 * configured (.cortex/config.yml) with the tiny model, chunks embedded in the background worker, vectors
 * in the shared cache, and searches ranked by them.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync } from "node:fs";
import { Session } from "../../src/tools/session.ts";
import type { SearchEngine } from "../../src/engines/search/index.ts";
import { indexedForSearch } from "../helpers/search-project.ts";
import { tmpProject } from "../helpers/tmp-project.ts";
import { tinyModelFolder } from "../embed/helpers.ts";

setDefaultTimeout(60_000); // starts an embedding worker

const tiny = tinyModelFolder();

const FILES = {
  "auth/login.go": `package auth

// Login checks the user's password and opens a session with a token.
func Login(user, password string) (*Session, error) {
	if !checkPassword(user, password) {
		return nil, ErrDenied
	}
	return newSession(user), nil
}
`,
  "billing/invoice.go": `package billing

// ComputeTotal adds up the order lines and returns the total sum.
func ComputeTotal(prices []float64) float64 {
	total := 0.0
	for _, p := range prices {
		total += p
	}
	return total
}
`,
  "storage/db.go": `package storage

// Insert writes one row into the sql table of the database.
func Insert(db *DB, table string, row Row) error {
	return db.Exec("INSERT INTO " + table, row)
}
`,
};

function configFor(): string {
  return `embeddings:\n  model: tiny-test-model\n  model_path: ${tiny.dir}\n  batch_size: 4\n`;
}

/** Waits until the session's embedder has embedded everything the channel handed it. */
async function settle(session: Session, engine: SearchEngine): Promise<void> {
  const embedder = session.embedder()!;
  await engine.embeddingsState();
  await embedder.provider.ready();
  for (let i = 0; i < 100 && (await engine.embeddingsState()) !== "ready"; i++) {
    await embedder.idle();
    await Bun.sleep(10);
  }
}

describe("search with embeddings", () => {
  const indexed = indexedForSearch({ ...FILES, ".cortex/config.yml": configFor() });

  test("starts partial, embeds in the background, then reports ready", async () => {
    expect(await indexed.engine.embeddingsState()).toMatch(/^partial \d+%$/);
    await settle(indexed.session, indexed.engine);
    expect(await indexed.engine.embeddingsState()).toBe("ready");
    expect(indexed.session.embedder()!.progress().embedded).toBeGreaterThan(0);
  });

  test("vector ranking finds the chunk about the query's topic", async () => {
    await settle(indexed.session, indexed.engine);
    const top = async (query: string) => (await indexed.engine.search({ query, limit: 3, mode: "vector" })).results.map((r) => r.chunk.metadata.file_path);
    expect((await top("how is a user signed in with a password"))[0]).toBe("auth/login.go");
    expect((await top("add up the sum"))[0]).toBe("billing/invoice.go");
    expect((await top("store a record in the database"))[0]).toBe("storage/db.go");
    const r = await indexed.engine.search({ query: "user password", limit: 3, mode: "hybrid" });
    expect(r.mode).toBe("hybrid");
    expect(r.embeddings).toBe("ready");
  });

  test("filters apply to vector hits", async () => {
    await settle(indexed.session, indexed.engine);
    const r = await indexed.engine.search({ query: "user password indexed.session", limit: 5, mode: "vector", filters: { pathPrefixes: ["billing"] } });
    expect(r.results.length).toBeGreaterThan(0);
    expect(r.results.every((h) => h.chunk.metadata.file_path.startsWith("billing/"))).toBe(true);
  });

  test("a file added to the project is embedded after the next index run", async () => {
    await settle(indexed.session, indexed.engine);
    indexed.project.write(
      "web/handler.go",
      `package web\n\n// ServeHTTP routes the http request to its handler and writes the response.\nfunc ServeHTTP(w Writer, r *Request) {\n\troute(r.URL).handle(w, r)\n}\n`,
    );
    await indexed.session.index();
    const after = await indexed.session.search();
    await settle(indexed.session, after);
    expect(await after.embeddingsState()).toBe("ready");
    const r = await after.search({ query: "http request router", limit: 1, mode: "vector" });
    expect(r.results[0]!.chunk.metadata.file_path).toBe("web/handler.go");
  });

  test("another worktree of the project reuses every vector: nothing is embedded again", async () => {
    await settle(indexed.session, indexed.engine);
    const copy = tmpProject();
    cpSync(indexed.project.root, copy.root, { recursive: true });
    const other = new Session(copy.root);
    try {
      await other.index();
      const e = await other.search();
      await settle(other, e);
      expect(await e.embeddingsState()).toBe("ready");
      expect(other.embedder()!.progress().embedded).toBe(0);
      const r = await e.search({ query: "add up the sum", limit: 1, mode: "vector" });
      expect(r.results[0]!.chunk.metadata.file_path).toBe("billing/invoice.go");
    } finally {
      other.close();
      copy.cleanup();
    }
  });
});

describe("search without a usable model", () => {
  test("answers by keywords and says why semantic ranking is unavailable", async () => {
    const p = tmpProject({ ...FILES, ".cortex/config.yml": "embeddings:\n  model: Xenova/bge-small-en-v1.5\n" });
    const session = new Session(p.root);
    try {
      await session.index();
      const engine = await session.search();
      await engine.embeddingsState(); // the first look asks the provider to get ready: offline, it cannot
      await session
        .embedder()!
        .provider.ready()
        .catch(() => {});
      const r = await engine.search({ query: "password", limit: 3 });
      expect(r.mode).toBe("keyword");
      expect(r.embeddings).toStartWith("unavailable: offline and model not present");
      expect(r.results[0]!.chunk.metadata.file_path).toBe("auth/login.go");
      // nothing was queued behind the unavailable provider
      expect(session.embedder()!.progress().queued).toBe(0);
    } finally {
      session.close();
      p.cleanup();
    }
  });

  test("a configuration that cannot work costs semantic ranking, not search", async () => {
    const p = tmpProject({ ...FILES, ".cortex/config.yml": "embeddings:\n  model: ../../escape\n" });
    const session = new Session(p.root);
    try {
      await session.index();
      const engine = await session.search();
      const r = await engine.search({ query: "password", limit: 3 });
      expect(r.embeddings).toStartWith("unavailable: embeddings.model: must be a Hugging Face model id");
      expect(r.results.length).toBeGreaterThan(0);
    } finally {
      session.close();
      p.cleanup();
    }
  });
});

afterAll(() => tiny.remove());

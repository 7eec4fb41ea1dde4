/**
 * The cross-encoder in a search, end to end: a project whose .cortex/config.yml enables reranking with
 * the tiny cross-encoder (scripts/make-tiny-cross-encoder.ts), indexed by the real pipeline. The keyword
 * ranking puts the file that repeats the query's words first; the cross-encoder, reading query and
 * passage together, puts the one about the query's topic first, and only when the scores are close.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Session } from "../../src/tools/session.ts";
import { scoreGap } from "../../src/engines/search/rerank.ts";
import { writeTinyCrossEncoder } from "../../scripts/make-tiny-cross-encoder.ts";
import { tempDir } from "../embed/helpers.ts";
import { tmpProject } from "../helpers/tmp-project.ts";

setDefaultTimeout(60_000); // loads an ONNX runtime

const tiny = tempDir("tiny-cross-encoder");
writeTinyCrossEncoder(tiny.dir);
afterAll(() => tiny.remove());

const FILES = {
  "auth/login.go": `package auth

// Login checks the user's password and opens a session with a token.
func Login(user, password string) (*Session, error) {
	return newSession(user), nil
}
`,
  "storage/credentials.go": `package storage

// SaveCredential writes the credential row into the sql table; credential columns are credential data.
func SaveCredential(db *DB, row Row) error {
	return db.Exec("INSERT INTO credential", row)
}
`,
};

async function searchWith(rerank: string, query: string) {
  const p = tmpProject({ ...FILES, ".cortex/config.yml": `embeddings:\n  provider: none\nsearch:\n  rerank:\n${rerank}` });
  const session = new Session(p.root, { oneShot: true });
  try {
    await session.index();
    const engine = await session.search();
    return await engine.search({ query, limit: 5, mode: "keyword", filters: { chunkTypes: ["definitions"] } });
  } finally {
    session.close();
    p.cleanup();
  }
}

describe("reranking", () => {
  test("the score gap: how far the first result leads the second", () => {
    expect(scoreGap([1, 0.5])).toBe(0.5);
    expect(scoreGap([1, 1])).toBe(0);
    expect(scoreGap([1])).toBe(1);
    expect(scoreGap([])).toBe(1);
  });

  test("without reranking the keyword ranking stands and the response says nothing of a reranker", async () => {
    const r = await searchWith("    enabled: false\n", "credential user");
    expect(r.results[0]!.chunk.metadata.file_path).toBe("storage/credentials.go");
    expect(r).not.toHaveProperty("rerank");
  });

  test("an unsure ranking is reordered by the cross-encoder", async () => {
    const r = await searchWith(`    enabled: true\n    model_path: ${tiny.dir}\n    min_gap: 1\n`, "credential user");
    expect(r.rerank).toStartWith("applied to the top 2");
    expect(r.results.map((h) => h.chunk.metadata.file_path)).toEqual(["auth/login.go", "storage/credentials.go"]);
  });

  test("a confident ranking is left alone", async () => {
    const r = await searchWith(`    enabled: true\n    model_path: ${tiny.dir}\n    min_gap: 0\n`, "credential user");
    expect(r.rerank).toStartWith("skipped: confident");
    expect(r.results[0]!.chunk.metadata.file_path).toBe("storage/credentials.go");
  });

  test("an absent model leaves the order and says why", async () => {
    const r = await searchWith("    enabled: true\n    min_gap: 1\n", "credential user");
    expect(r.rerank).toStartWith("not applied: reranker unavailable: offline and model not present");
    expect(r.results[0]!.chunk.metadata.file_path).toBe("storage/credentials.go");
  });
});

import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { Database } from "bun:sqlite";
import { EmbeddingCache, embeddingCachePath } from "../../src/store/embedding-cache.ts";
import { isCortexError } from "../../src/core/errors.ts";
import { tempDir } from "./helpers.ts";
import { sha256, textKey } from "../../src/core/hash.ts";

const vec = (...xs: number[]) => Float32Array.from(xs);

function withHome(fn: (home: string) => void | Promise<void>): () => Promise<void> {
  return async () => {
    const t = tempDir("cache-home");
    try {
      await fn(t.dir);
    } finally {
      t.remove();
    }
  };
}

describe("embedding cache", () => {
  test(
    "lives in $CORTEX_HOME/embeddings/, one readable file per provider id",
    withHome((home) => {
      const a = embeddingCachePath(home, "local:Xenova/bge-small-en-v1.5:q8");
      expect(a).toStartWith(`${home}/embeddings/local_Xenova_bge-small-en-v1.5_q8-`);
      expect(a).toEndWith(".db");
      // ids that read alike after sanitising still get their own files
      expect(embeddingCachePath(home, "a:b")).not.toBe(embeddingCachePath(home, "a/b"));
      const c = EmbeddingCache.open("local:Xenova/bge-small-en-v1.5:q8", { home });
      expect(c.path).toBe(a);
      expect(existsSync(a)).toBe(true);
      c.close();
    }),
  );

  test(
    "stores vectors and gives back exactly what was stored",
    withHome((home) => {
      const c = EmbeddingCache.open("p", { home });
      c.put([
        { hash: "h1", vector: vec(0.1, 0.2, 0.3) },
        { hash: "h2", vector: vec(-1, 0, 1) },
      ]);
      const got = c.get(["h2", "h1", "absent", "h1"]);
      expect([...got.keys()].sort()).toEqual(["h1", "h2"]);
      expect(Array.from(got.get("h1")!)).toEqual(Array.from(vec(0.1, 0.2, 0.3)));
      expect(Array.from(got.get("h2")!)).toEqual([-1, 0, 1]);
      expect(c.dimensions).toBe(3);
      expect(c.size()).toBe(2);
      c.close();
    }),
  );

  test(
    "a vector that is a view into a larger buffer is stored as itself",
    withHome((home) => {
      const c = EmbeddingCache.open("p", { home });
      const block = Float32Array.from([9, 9, 1, 2, 9]);
      c.put([{ hash: "view", vector: block.subarray(2, 4) }]);
      expect(Array.from(c.get(["view"]).get("view")!)).toEqual([1, 2]);
      c.close();
    }),
  );

  test(
    "missing() and coverage() count distinct hashes against what is stored",
    withHome((home) => {
      const c = EmbeddingCache.open("p", { home });
      c.put([
        { hash: "a", vector: vec(1, 0) },
        { hash: "b", vector: vec(0, 1) },
      ]);
      expect(c.missing(["c", "a", "d", "c", "b"])).toEqual(["c", "d"]);
      expect(c.coverage(["a", "b", "c", "a"])).toEqual({ total: 3, cached: 2 });
      expect(c.coverage([])).toEqual({ total: 0, cached: 0 });
      c.close();
    }),
  );

  test(
    "handles sets larger than one statement's slice",
    withHome((home) => {
      const c = EmbeddingCache.open("p", { home });
      const hashes = Array.from({ length: 45_000 }, (_, i) => `h${i}`);
      c.put(hashes.filter((_, i) => i % 3 === 0).map((hash, i) => ({ hash, vector: vec(i, 1) })));
      expect(c.coverage(hashes)).toEqual({ total: 45_000, cached: 15_000 });
      expect(c.missing(hashes)).toHaveLength(30_000);
      // most of the file (one sequential pass) and a small part of it (index look-ups) read the same rows
      const all = c.get(hashes);
      expect(all.size).toBe(15_000);
      const few = c.get(hashes.slice(0, 100));
      expect(few.size).toBe(34);
      for (const [h, v] of few) expect(Array.from(v)).toEqual(Array.from(all.get(h)!));
      expect(Array.from(all.get("h3")!)).toEqual([1, 1]);
      c.close();
    }),
  );

  test(
    "two worktrees share one cache: what one stored, the other finds",
    withHome((home) => {
      const first = EmbeddingCache.open("local:m:q8", { home, recipe: "r1" });
      const second = EmbeddingCache.open("local:m:q8", { home, recipe: "r1" });
      first.put([{ hash: "shared", vector: vec(1, 2) }]);
      expect(second.missing(["shared", "new"])).toEqual(["new"]);
      second.put([{ hash: "new", vector: vec(3, 4) }]);
      expect(first.coverage(["shared", "new"])).toEqual({ total: 2, cached: 2 });
      first.close();
      second.close();
      const reopened = EmbeddingCache.open("local:m:q8", { home, recipe: "r1" });
      expect(reopened.size()).toBe(2);
      reopened.close();
    }),
  );

  test(
    "sees what another process stores or wipes after its own first look",
    withHome((home) => {
      const mine = EmbeddingCache.open("p", { home, recipe: "r" });
      const theirs = EmbeddingCache.open("p", { home, recipe: "r" });
      expect(mine.coverage(["x", "y"]).cached).toBe(0);
      theirs.put([{ hash: "x", vector: vec(1, 2) }]);
      expect(mine.coverage(["x", "y"]).cached).toBe(1);
      expect(mine.missing(["x", "y"])).toEqual(["y"]);
      // another cortex with a new recipe empties the file: this one must not go on claiming x is there
      EmbeddingCache.open("p", { home, recipe: "r2" }).close();
      expect(mine.coverage(["x"]).cached).toBe(0);
      expect(mine.get(["x"]).size).toBe(0);
      mine.close();
      theirs.close();
    }),
  );

  test(
    "another provider id has its own vectors",
    withHome((home) => {
      const a = EmbeddingCache.open("local:a:q8", { home });
      const b = EmbeddingCache.open("local:b:q8", { home });
      a.put([{ hash: "x", vector: vec(1) }]);
      expect(b.coverage(["x"]).cached).toBe(0);
      a.close();
      b.close();
    }),
  );

  test(
    "refuses a vector of another size than the cache holds, storing nothing of that batch",
    withHome((home) => {
      const c = EmbeddingCache.open("p", { home });
      c.put([{ hash: "a", vector: vec(1, 2, 3) }]);
      let err: unknown;
      try {
        c.put([
          { hash: "b", vector: vec(1, 2, 3) },
          { hash: "c", vector: vec(1, 2) },
        ]);
      } catch (e) {
        err = e;
      }
      expect(isCortexError(err) && err.code).toBe("INVALID_INPUT");
      expect((err as Error).message).toBe("vector of c: has 2 dimensions, the cache holds 3");
      expect(c.coverage(["b", "c"]).cached).toBe(0);
      expect(() => c.put([{ hash: "", vector: vec(1, 2, 3) }])).toThrow("hash: must be a non-empty string");
      c.close();
    }),
  );

  test(
    "a new recipe drops vectors made the old way",
    withHome((home) => {
      const old = EmbeddingCache.open("p", { home, recipe: "prefix-a" });
      old.put([{ hash: "a", vector: vec(1, 2) }]);
      old.close();
      const same = EmbeddingCache.open("p", { home, recipe: "prefix-a" });
      expect(same.size()).toBe(1);
      same.close();
      const changed = EmbeddingCache.open("p", { home, recipe: "prefix-b" });
      expect(changed.size()).toBe(0);
      expect(changed.dimensions).toBeUndefined();
      changed.put([{ hash: "a", vector: vec(1, 2, 3, 4) }]);
      expect(changed.dimensions).toBe(4);
      changed.close();
    }),
  );

  test(
    "ensureDimensions keeps matching vectors and drops vectors of another size",
    withHome((home) => {
      const c = EmbeddingCache.open("p", { home });
      c.put([{ hash: "a", vector: vec(1, 2) }]);
      c.ensureDimensions(2);
      expect(c.size()).toBe(1);
      c.ensureDimensions(3);
      expect(c.size()).toBe(0);
      expect(c.dimensions).toBe(3);
      expect(() => c.ensureDimensions(0)).toThrow("dimensions: must be a positive integer, got 0");
      c.close();
      expect(EmbeddingCache.open("p", { home }).dimensions).toBe(3);
    }),
  );

  test(
    "a damaged cache file is replaced by an empty cache",
    withHome((home) => {
      const path = embeddingCachePath(home, "p");
      EmbeddingCache.open("p", { home }).close();
      writeFileSync(path, "this is not a SQLite database, just bytes that happen to be here".repeat(100));
      const c = EmbeddingCache.open("p", { home });
      expect(c.size()).toBe(0);
      c.put([{ hash: "a", vector: vec(1) }]);
      expect(c.size()).toBe(1);
      c.close();
    }),
  );

  for (const [version, keyOf] of [
    [1, (text: string) => sha256(text)],
    [2, (text: string) => sha256(text).slice(0, 32)],
  ] as const)
    test(
      `a version ${version} cache keeps its vectors under the shorter text keys, and leaves other keys alone`,
      withHome((home) => {
        const path = embeddingCachePath(home, "p");
        // a file as that version wrote it: keys are sha256 hex digests (whole, or their first 32) and one
        // provider key
        mkdirSync(dirname(path), { recursive: true });
        const old = new Database(path, { create: true });
        old.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
          CREATE TABLE vectors (id INTEGER PRIMARY KEY, hash TEXT NOT NULL, vector BLOB NOT NULL, added_at INTEGER NOT NULL);
          CREATE UNIQUE INDEX vectors_hash ON vectors(hash);
          INSERT INTO meta VALUES ('provider', 'p'), ('recipe', ''), ('dimensions', '2'), ('generation', '3');
          PRAGMA user_version = ${version};`);
        const put = old.prepare("INSERT INTO vectors (hash, vector, added_at) VALUES (?, ?, 0)");
        const bytes = (...xs: number[]) => new Uint8Array(Float32Array.from(xs).buffer);
        put.run(keyOf("func a() {}"), bytes(1, 2));
        put.run(keyOf("func b() {}"), bytes(3, 4));
        put.run("not-a-digest", bytes(5, 6));
        put.finalize();
        old.close();

        const c = EmbeddingCache.open("p", { home });
        expect(textKey("func a() {}")).toHaveLength(16);
        const got = c.get([textKey("func a() {}"), textKey("func b() {}"), "not-a-digest", keyOf("func a() {}")]);
        expect([...got.keys()].sort()).toEqual([textKey("func a() {}"), textKey("func b() {}"), "not-a-digest"].sort());
        expect([...got.get(textKey("func b() {}"))!]).toEqual([3, 4]);
        expect(c.missing([textKey("func a() {}"), textKey("func c() {}")])).toEqual([textKey("func c() {}")]);
        expect(c.size()).toBe(3);
        c.close();
        const db = new Database(path);
        expect((db.query("PRAGMA user_version").get() as { user_version: number }).user_version).toBe(3);
        expect((db.query("SELECT value FROM meta WHERE key = 'generation'").get() as { value: string }).value).toBe("4");
        db.close();
      }),
    );

  test(
    "a cache written by a newer cortex is left alone and reported",
    withHome((home) => {
      const path = embeddingCachePath(home, "p");
      EmbeddingCache.open("p", { home }).close();
      const db = new Database(path);
      db.exec("PRAGMA user_version = 99");
      db.close();
      let err: unknown;
      try {
        EmbeddingCache.open("p", { home });
      } catch (e) {
        err = e;
      }
      expect(isCortexError(err) && err.code).toBe("INDEX_CORRUPT");
      expect(String((err as Error).message)).toContain("newer cortex (cache schema 99");
      expect(existsSync(path)).toBe(true);
    }),
  );
});

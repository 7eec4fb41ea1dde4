import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createEmbeddingProvider, Embedder, type ChunkText, type EmbeddingProvider } from "../../src/embed/index.ts";
import { EmbeddingCache } from "../../src/store/embedding-cache.ts";
import { isCortexError } from "../../src/core/errors.ts";
import { sha256 } from "../../src/core/hash.ts";
import { TINY_DIMENSIONS } from "../../scripts/make-tiny-model.ts";
import { cosine, embeddingConfig, norm, tempDir, tinyModelFolder } from "./helpers.ts";

// These tests start workers and load ONNX runtimes (WebAssembly compiles ~10 MB): seconds on a busy machine.
setDefaultTimeout(60_000);

const tiny = tinyModelFolder();
afterAll(() => tiny.remove());

const chunk = (text: string): ChunkText => ({ textHash: sha256(text), text });

const CHUNKS = [
  "func (h *Handler) Login(user, password string) (*Session, error)",
  "func OpenDatabase(path string) (*sql.DB, error) { return sql.Open(path) }",
  "def parse_expression(tokens): build the syntax tree",
  "class RetryPolicy: retry after a timeout error",
  "func ReadConfig(path string) (Config, error) // read the config file",
  "worker pool: a queue of jobs and a mutex",
].map(chunk);

function tinyProvider(home: string): EmbeddingProvider {
  return createEmbeddingProvider(embeddingConfig({ model: "tiny", model_path: tiny.dir, batch_size: 2 }), { home, offline: true });
}

/** An Embedder as a worktree's session would build it: provider + the shared cache under `home`. */
function embedderFor(provider: EmbeddingProvider, home: string, options: ConstructorParameters<typeof Embedder>[2] = {}): Embedder {
  return new Embedder(provider, EmbeddingCache.open(provider.id, { home, recipe: provider.recipe }), options);
}

/** An OpenAI-style server with fixed 3-dimensional vectors, whose behaviour per request the test sets. */
function vectorServer(before: (input: string[], n: number) => Promise<Response | undefined> | Response | undefined = () => undefined) {
  const inputs: string[][] = [];
  const s = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const { input } = (await req.json()) as { input: string[] };
      inputs.push(input);
      const early = await before(input, inputs.length);
      if (early) return early;
      return Response.json({ data: input.map((t, index) => ({ index, embedding: [t.length, 1, 2] })) });
    },
  });
  return { url: `http://127.0.0.1:${s.port}/v1`, inputs, stop: () => s.stop(true) };
}

function httpProvider(url: string, batch = 1): EmbeddingProvider {
  return createEmbeddingProvider(embeddingConfig({ provider: "openai", url, model: "m", batch_size: batch }), { home: "/nonexistent" });
}

describe("Embedder", () => {
  test("embeds in the background what the cache lacks, then reports ready", async () => {
    const home = tempDir("home");
    const stored: string[] = [];
    const e = embedderFor(tinyProvider(home.dir), home.dir);
    e.onVectors((entries) => stored.push(...entries.map((x) => x.hash)));
    const hashes = CHUNKS.map((c) => c.textHash);
    expect(e.submit(CHUNKS)).toEqual({ queued: CHUNKS.length, cached: 0 });
    // submit returned before anything was embedded
    expect(e.status(hashes).label).toBe("partial 0%");
    await e.idle();
    const status = e.status(hashes);
    expect(status.label).toBe("ready");
    expect([status.total, status.cached]).toEqual([CHUNKS.length, CHUNKS.length]);
    expect(e.progress()).toEqual({ activity: "idle", queued: 0, embedded: CHUNKS.length, failed: 0 });
    expect(stored.sort()).toEqual([...hashes].sort());
    const vectors = e.vectors(hashes);
    expect(vectors.size).toBe(CHUNKS.length);
    // the same vectors, read a slice at a time
    const sliced = new Map<string, Float32Array>();
    let slices = 0;
    for await (const part of e.vectorSlices([...hashes, "not-stored"], 4)) {
      slices++;
      for (const [h, v] of part) sliced.set(h, v);
    }
    expect(slices).toBe(2);
    expect([...sliced.keys()].sort()).toEqual([...hashes].sort());
    for (const [h, v] of sliced) expect(Array.from(v)).toEqual(Array.from(vectors.get(h)!));
    for (const v of vectors.values()) {
      expect(v.length).toBe(TINY_DIMENSIONS);
      expect(norm(v)).toBeCloseTo(1, 4);
    }
    // the query finds the login chunk among the stored vectors
    const q = await e.embedQuery("how does a user log in with a password");
    const best = hashes.reduce((a, b) => (cosine(q, vectors.get(a)!) >= cosine(q, vectors.get(b)!) ? a : b));
    expect(best).toBe(CHUNKS[0]!.textHash);
    await e.close();
    home.remove();
  });

  test("a slice-at-a-time read stops quietly when the embedder closes mid-read", async () => {
    const home = tempDir("home");
    const e = embedderFor(tinyProvider(home.dir), home.dir);
    e.submit(CHUNKS);
    await e.idle();
    const seen: string[] = [];
    // a session closing while its vector channel is still loading: before the fix, the next slice read a
    // closed cache and threw "Cannot use a closed database"
    for await (const part of e.vectorSlices(
      CHUNKS.map((c) => c.textHash),
      2,
    )) {
      seen.push(...part.keys());
      await e.close();
    }
    expect(seen.length).toBe(2);
    home.remove();
  });

  test("a second worktree re-embeds only text it has never seen", async () => {
    const home = tempDir("home");
    const first = embedderFor(tinyProvider(home.dir), home.dir);
    first.submit(CHUNKS.slice(0, 4));
    await first.idle();
    const firstVectors = first.vectors(CHUNKS.map((c) => c.textHash));
    await first.close();

    const second = embedderFor(tinyProvider(home.dir), home.dir);
    const fresh = [chunk("func Logout(session *Session) error"), chunk("SELECT * FROM users WHERE id = ?")];
    // the same texts as another branch has them, plus two new ones
    expect(second.submit([...CHUNKS, ...fresh])).toEqual({ queued: 4, cached: 4 });
    await second.idle();
    expect(second.progress().embedded).toBe(4);
    expect(second.status([...CHUNKS, ...fresh].map((c) => c.textHash)).label).toBe("ready");
    const again = second.vectors(CHUNKS.slice(0, 4).map((c) => c.textHash));
    for (const [h, v] of again) expect(Array.from(v)).toEqual(Array.from(firstVectors.get(h)!));
    // submitting what is cached or queued does nothing
    expect(second.submit(CHUNKS)).toEqual({ queued: 0, cached: CHUNKS.length });
    await second.close();
    home.remove();
  });

  test("offline without a model: 'unavailable: offline and model not present', the queue is kept", async () => {
    const home = tempDir("home");
    const provider = createEmbeddingProvider(embeddingConfig({}), { home: home.dir, offline: true });
    const e = embedderFor(provider, home.dir);
    e.submit(CHUNKS);
    await e.idle();
    const status = e.status(CHUNKS.map((c) => c.textHash));
    expect(status.state).toBe("unavailable");
    expect(status.label).toStartWith("unavailable: offline and model not present");
    expect(e.progress()).toMatchObject({ activity: "stopped", queued: CHUNKS.length, embedded: 0 });
    const err = await e.embedQuery("login").catch((x) => x);
    expect(isCortexError(err) && err.code).toBe("EMBEDDINGS_UNAVAILABLE");
    await e.close();
    home.remove();
  });

  test("partial coverage is reported as a floored percentage", async () => {
    const home = tempDir("home");
    const provider = tinyProvider(home.dir);
    const cache = EmbeddingCache.open(provider.id, { home: home.dir, recipe: provider.recipe });
    const v = new Float32Array(TINY_DIMENSIONS).fill(0.25);
    cache.put([
      { hash: "a", vector: v },
      { hash: "b", vector: v },
    ]);
    const e = new Embedder(provider, cache);
    expect(e.status(["a", "b", "c"]).label).toBe("partial 66%");
    expect(e.status(["a", "x", "y", "z"]).label).toBe("partial 25%");
    // every text has a vector, but queries cannot be embedded until the model is loaded
    expect(e.status(["a", "b"]).label).toBe("partial 100%");
    // nothing to embed (an empty index) lacks nothing, but "ready" needs a model that is loading or loaded:
    // before anything asked for one, whether one can be had is unknown
    expect(e.status([]).label).toBe("partial 100%");
    const loading = provider.ready();
    expect(e.status([]).label).toBe("ready");
    await loading;
    expect(e.status(["a", "b"]).label).toBe("ready");
    expect(e.status([]).label).toBe("ready");
    await e.close();
    home.remove();
  });

  test("embedQuery never waits for the model: it refuses, starts loading, and works once loaded", async () => {
    const home = tempDir("home");
    const provider = tinyProvider(home.dir);
    const e = embedderFor(provider, home.dir);
    expect(e.queryReady()).toBe(false);
    const err = await e.embedQuery("login").catch((x) => x);
    expect(isCortexError(err) && err.code).toBe("EMBEDDINGS_UNAVAILABLE");
    expect(err.data).toEqual({ state: "idle" });
    expect(provider.state().status).not.toBe("idle");
    await provider.ready();
    expect(e.queryReady()).toBe(true);
    const q = await e.embedQuery("login");
    expect(q.length).toBe(TINY_DIMENSIONS);
    await e.close();
    home.remove();
  });

  test("cancel() drops the queue and abandons the batch in flight; a later submit resumes", async () => {
    const home = tempDir("home");
    let release: (() => void) | undefined;
    const s = vectorServer(async (_input, n) => {
      if (n === 3) await new Promise<void>((r) => (release = r)); // the second batch hangs until released
      return undefined;
    });
    const texts = Array.from({ length: 10 }, (_, i) => chunk(`text number ${i}`));
    const e = embedderFor(httpProvider(s.url), home.dir);
    e.submit(texts);
    while (!release) await Bun.sleep(5);
    expect(e.progress()).toMatchObject({ activity: "embedding", embedded: 1, queued: 9 });
    e.cancel();
    await e.idle();
    release();
    expect(e.progress()).toMatchObject({ activity: "idle", queued: 0, embedded: 1 });
    expect(e.status(texts.map((t) => t.textHash)).label).toBe("partial 10%");
    // the abandoned batch was not stored, and nothing after it was sent
    expect(s.inputs).toHaveLength(3);
    expect(e.submit(texts)).toEqual({ queued: 9, cached: 1 });
    await e.idle();
    expect(e.status(texts.map((t) => t.textHash)).label).toBe("ready");
    await e.close();
    s.stop();
    home.remove();
  });

  test("a batch that keeps failing is skipped and counted; the rest is embedded", async () => {
    const home = tempDir("home");
    const s = vectorServer((input) => (input.some((t) => t.includes("poison")) ? new Response("cannot embed this", { status: 400 }) : undefined));
    const texts = [chunk("good one"), chunk("poison pill"), chunk("good two")];
    const e = embedderFor(httpProvider(s.url), home.dir, { attempts: 2, retryDelayMs: 1 });
    e.submit(texts);
    await e.idle();
    expect(e.progress()).toMatchObject({ activity: "idle", embedded: 2, failed: 1, queued: 0 });
    expect(s.inputs.filter((i) => i[0] === "poison pill")).toHaveLength(2);
    expect(e.status(texts.map((t) => t.textHash)).label).toBe("partial 66%");
    await e.close();
    s.stop();
    home.remove();
  });

  test("a provider that becomes unavailable stops the work and keeps the queue", async () => {
    const home = tempDir("home");
    const s = vectorServer((_input, n) => (n >= 3 ? Response.json({ error: "key revoked" }, { status: 401 }) : undefined));
    const texts = Array.from({ length: 5 }, (_, i) => chunk(`text ${i}`));
    const e = embedderFor(httpProvider(s.url), home.dir);
    e.submit(texts);
    await e.idle();
    expect(e.progress()).toMatchObject({ activity: "stopped", embedded: 1, queued: 4 });
    expect(e.status(texts.map((t) => t.textHash)).label).toMatch(/^unavailable: HTTP 401 .*key revoked/);
    await e.close();
    s.stop();
    home.remove();
  });

  test("work stopped by an unavailable provider resumes when it is back", async () => {
    const home = tempDir("home");
    let keyValid = false;
    const s = vectorServer(() => (keyValid ? undefined : Response.json({ error: "invalid key" }, { status: 401 })));
    const provider = createEmbeddingProvider(embeddingConfig({ provider: "openai", url: s.url, model: "m" }), { home: "/nonexistent", retryAfterMs: 0 });
    const e = embedderFor(provider, home.dir);
    const texts = [chunk("one"), chunk("two")];
    e.submit(texts);
    await e.idle();
    expect(e.status(texts.map((t) => t.textHash)).label).toBe(
      "unavailable: HTTP 401 from " + s.url + "/embeddings: invalid key (no API key: set $OPENAI_API_KEY)",
    );
    await e.idle();
    keyValid = true;
    // the next status check finds the provider usable again and the queue is worked off
    e.status(texts.map((t) => t.textHash));
    await e.idle();
    expect(e.status(texts.map((t) => t.textHash)).label).toBe("ready");
    expect(e.progress()).toMatchObject({ activity: "idle", embedded: 2, queued: 0 });
    await e.close();
    s.stop();
    home.remove();
  });

  test("texts another process stores meanwhile are not embedded again", async () => {
    const home = tempDir("home");
    let release: (() => void) | undefined;
    const s = vectorServer(async (_input, n) => {
      if (n === 2) await new Promise<void>((r) => (release = r));
      return undefined;
    });
    const provider = httpProvider(s.url);
    const e = embedderFor(provider, home.dir);
    const heard = new Map<string, number[]>();
    e.onVectors((entries) => entries.forEach((x) => heard.set(x.hash, [...x.vector])));
    const [a, b] = [chunk("aa"), chunk("bbbb")];
    e.submit([a, b]);
    while (!release) await Bun.sleep(5);
    // meanwhile, another worktree's process stores b
    const other = EmbeddingCache.open(provider.id, { home: home.dir, recipe: provider.recipe });
    other.put([{ hash: b.textHash, vector: Float32Array.from([1, 0, 0]) }]);
    other.close();
    release();
    await e.idle();
    expect(s.inputs).toEqual([["ping"], ["aa"]]);
    expect(e.progress().embedded).toBe(1);
    // the other process's vector reaches the listeners (a search index waits for it) as the embedded one does
    expect([...heard.keys()].sort()).toEqual([a.textHash, b.textHash].sort());
    expect(heard.get(b.textHash)).toEqual([1, 0, 0]);
    await e.close();
    s.stop();
    home.remove();
  });

  test("a submitted text another process stored since the caller looked reaches the listeners from the cache", async () => {
    const home = tempDir("home");
    const s = vectorServer();
    const provider = httpProvider(s.url);
    const e = embedderFor(provider, home.dir);
    const heard: Array<[string, number[]]> = [];
    e.onVectors((entries) => entries.forEach((x) => heard.push([x.hash, [...x.vector]])));
    const c = chunk("cc");
    const other = EmbeddingCache.open(provider.id, { home: home.dir, recipe: provider.recipe });
    other.put([{ hash: c.textHash, vector: Float32Array.from([0, 1, 0]) }]);
    other.close();
    expect(e.submit([c])).toEqual({ queued: 0, cached: 1 });
    const until = Date.now() + 5_000;
    while (heard.length === 0 && Date.now() < until) await Bun.sleep(5);
    expect(heard).toEqual([[c.textHash, [0, 1, 0]]]);
    // nothing was sent to the model
    expect(s.inputs).toEqual([]);
    await e.close();
    s.stop();
    home.remove();
  });

  test("a model that changed size under the same id: queries refused with the reason (keyword fallback), vectors made again", async () => {
    // An OpenAI-compatible server that starts serving another model under the same name keeps the provider's
    // id, so the cache still holds the former model's vectors: a query of the new size used to reach the
    // vector index and fail there as "invalid arguments: query vector has 5 dimensions, the index holds 3".
    const home = tempDir("home");
    let width = 3;
    const s = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        const { input } = (await req.json()) as { input: string[] };
        return Response.json({ data: input.map((t, index) => ({ index, embedding: Array.from({ length: width }, (_, i) => t.length + i) })) });
      },
    });
    const url = `http://127.0.0.1:${s.port}/v1`;
    const hashes = CHUNKS.map((c) => c.textHash);
    const first = embedderFor(httpProvider(url, 8), home.dir);
    first.submit(CHUNKS);
    await first.idle();
    expect(first.status(hashes).label).toBe("ready");
    await first.close();

    width = 5;
    const e = embedderFor(httpProvider(url, 8), home.dir);
    expect(e.vectors(hashes).size).toBe(CHUNKS.length); // what a search index loads: the 3-dimensional vectors
    await e.provider.ready();
    const refused = await e.embedQuery("login").catch((x: unknown) => x);
    expect(isCortexError(refused) && refused.code).toBe("EMBEDDINGS_UNAVAILABLE");
    expect((refused as Error).message).toContain("makes 5-dimensional vectors, the project's vectors have 3");
    expect(e.status(hashes).label).toMatch(/^unavailable: .*cortex index --embed/);
    // the stale vectors are dropped, so every text is embedded again
    expect(e.reconcileDimensions()).toBe(true);
    expect(e.cache.missing(hashes).length).toBe(CHUNKS.length);
    e.submit(CHUNKS);
    await e.idle();
    expect(e.dimensionProblem()).toBeUndefined();
    expect(e.status(hashes).label).toBe("ready");
    expect((await e.embedQuery("login")).length).toBe(5);
    await e.close();
    s.stop(true);
    home.remove();
  });

  test("refuses chunks without a hash, and work after close", async () => {
    const home = tempDir("home");
    const e = embedderFor(tinyProvider(home.dir), home.dir);
    expect(() => e.submit([{ textHash: "", text: "x" }])).toThrow("textHash: must be a non-empty string");
    await e.close();
    expect(() => e.submit(CHUNKS)).toThrow("the embedder is closed");
    home.remove();
  });
});

import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createEmbeddingProvider, type EmbeddingProvider } from "../../src/embed/index.ts";
import { isCortexError } from "../../src/core/errors.ts";
import { embeddingConfig, tempDir, tinyModelFolder } from "./helpers.ts";
import { expectClosed, providerSuite } from "./provider.case.ts";

// These tests start workers and load ONNX runtimes (WebAssembly compiles ~10 MB): seconds on a busy machine.
setDefaultTimeout(60_000);

interface Seen {
  auth: string | null;
  body: { model: string; input: string[]; encoding_format?: string; dimensions?: number };
}

type Reply = (body: Seen["body"], n: number) => Response | Promise<Response>;

/** An OpenAI-compatible /v1/embeddings server on 127.0.0.1 whose answers the test decides. */
function server(reply: Reply): { url: string; seen: Seen[]; stop(): void } {
  const seen: Seen[] = [];
  const s = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      if (new URL(req.url).pathname !== "/v1/embeddings" || req.method !== "POST") return new Response("not found", { status: 404 });
      const body = (await req.json()) as Seen["body"];
      seen.push({ auth: req.headers.get("authorization"), body });
      return reply(body, seen.length);
    },
  });
  return { url: `http://127.0.0.1:${s.port}/v1`, seen, stop: () => s.stop(true) };
}

/** Vectors of a fixed size that say which text they belong to (first component = text length). */
function fakeVectors(input: string[], dims = 4): Response {
  return Response.json({
    object: "list",
    data: input.map((t, index) => ({ object: "embedding", index, embedding: [t.length, 1, ...new Array(dims - 2).fill(0)] })),
    model: "m",
  });
}

function provider(url: string, fields: Record<string, unknown> = {}, env: Record<string, string> = {}): EmbeddingProvider {
  return createEmbeddingProvider(embeddingConfig({ provider: "openai", url, model: "m", ...fields }), { home: "/nonexistent", env });
}

// The shared suite against a server that embeds with the tiny model, so meaning must survive the trip.
const tiny = tinyModelFolder();
const home = tempDir("home");
const backing = createEmbeddingProvider(embeddingConfig({ model: "tiny", model_path: tiny.dir }), { home: home.dir, offline: true });
const tinyServer = server(async (body) => {
  const vs = await backing.embed(body.input, "passage");
  return Response.json({ data: vs.map((v, index) => ({ index, embedding: Array.from(v) })) });
});
afterAll(async () => {
  tinyServer.stop();
  await backing.close();
  tiny.remove();
  home.remove();
});

providerSuite("http (OpenAI-compatible)", async () => ({ provider: provider(tinyServer.url), cleanup() {} }));

describe("http provider", () => {
  test("sends batches of batch_size texts, in order, with the API key from the named variable", async () => {
    const s = server((b) => fakeVectors(b.input));
    const p = provider(s.url, { batch_size: 2, api_key_env: "MY_KEY" }, { MY_KEY: "sk-test-123" });
    const texts = ["a", "bb", "ccc", "dddd", "eeeee"];
    const vs = await p.embed(texts, "passage");
    // probe, then ⌈5/2⌉ batches
    expect(s.seen.map((x) => x.body.input)).toEqual([["ping"], ["a", "bb"], ["ccc", "dddd"], ["eeeee"]]);
    expect(s.seen.every((x) => x.auth === "Bearer sk-test-123")).toBe(true);
    expect(s.seen.every((x) => x.body.model === "m" && x.body.encoding_format === "float" && x.body.dimensions === undefined)).toBe(true);
    // normalised, and each text kept its own vector: [len, 1, 0, 0] / |…|
    vs.forEach((v, i) => {
      const n = Math.hypot(i + 1, 1);
      expect(v[0]).toBeCloseTo((i + 1) / n, 5);
      expect(v[1]).toBeCloseTo(1 / n, 5);
    });
    expect(p.id).toBe(`openai:${new URL(s.url).host}/v1:m`);
    await expectClosed(p);
    s.stop();
  });

  test("sends no Authorization header when no key is set", async () => {
    const s = server((b) => fakeVectors(b.input));
    const p = provider(s.url, {}, {});
    await p.embed(["x"], "passage");
    expect(s.seen.map((x) => x.auth)).toEqual([null, null]);
    await p.close();
    s.stop();
  });

  test("puts entries answered out of order back in order, and reads base64 vectors", async () => {
    const s = server((b) => {
      const data = b.input.map((t, index) => {
        const f = Float32Array.from([t.length, 1, 0]);
        return { index, embedding: Buffer.from(f.buffer).toString("base64") };
      });
      return Response.json({ data: data.reverse() });
    });
    const p = provider(s.url);
    const vs = await p.embed(["a", "bbb", "cc"], "passage");
    vs.forEach((v, i) => {
      const len = ["a", "bbb", "cc"][i]!.length;
      expect(v[0]).toBeCloseTo(len / Math.hypot(len, 1), 5);
      expect(v[2]).toBe(0);
    });
    await p.close();
    s.stop();
  });

  test("adds the model table's prefixes for a served model (nomic-embed-text through Ollama)", async () => {
    const s = server((b) => fakeVectors(b.input));
    const p = provider(s.url, { model: "nomic-embed-text:latest" });
    await p.embed(["how are users logged in"], "query");
    await p.embed(["func Login()"], "passage");
    expect(s.seen.slice(1).map((x) => x.body.input[0])).toEqual(["search_query: how are users logged in", "search_document: func Login()"]);
    await p.close();
    s.stop();
  });

  test("a refused key makes the provider unavailable, naming the variable", async () => {
    const s = server(() => Response.json({ error: { message: "Incorrect API key provided" } }, { status: 401 }));
    const p = provider(s.url, { api_key_env: "EMBED_KEY" }, { EMBED_KEY: "wrong" });
    const err = await p.ready().catch((e) => e);
    expect(isCortexError(err) && err.code).toBe("EMBEDDINGS_UNAVAILABLE");
    const state = p.state();
    expect(state.status === "unavailable" && state.reason).toBe(
      `HTTP 401 from ${s.url}/embeddings: Incorrect API key provided (the key in $EMBED_KEY was refused)`,
    );
    expect(s.seen).toHaveLength(1);
    await p.close();
    s.stop();
  });

  test("a missing key is reported as such", async () => {
    const s = server(() => new Response("unauthorized", { status: 403 }));
    const p = provider(s.url, {}, {});
    await expect(p.ready()).rejects.toThrow("(no API key: set $OPENAI_API_KEY)");
    await p.close();
    s.stop();
  });

  test("retries 429 and 5xx answers, honouring Retry-After", async () => {
    const s = server((b, n) => {
      if (n === 2) return new Response("slow down", { status: 429, headers: { "retry-after": "0" } });
      if (n === 3) return Response.json({ error: "model is loading" }, { status: 503, headers: { "retry-after": "0" } });
      return fakeVectors(b.input);
    });
    const p = provider(s.url);
    await p.ready();
    const vs = await p.embed(["abc"], "passage");
    expect(vs).toHaveLength(1);
    expect(s.seen).toHaveLength(4);
    expect(p.state()).toEqual({ status: "ready" });
    await p.close();
    s.stop();
  });

  test("a batch that keeps failing rejects, but the provider stays usable", async () => {
    const s = server((b) => (b.input.includes("poison") ? new Response("bad input", { status: 400 }) : fakeVectors(b.input)));
    const p = provider(s.url);
    const err = await p.embed(["poison"], "passage").catch((e) => e);
    expect(isCortexError(err) && err.code).toBe("EMBEDDINGS_UNAVAILABLE");
    expect(err.message).toBe(`embedding failed: HTTP 400 from ${s.url}/embeddings: bad input`);
    expect(p.state()).toEqual({ status: "ready" });
    expect(await p.embed(["fine"], "passage")).toHaveLength(1);
    await p.close();
    s.stop();
  });

  test("vectors of another size than before make the provider unavailable", async () => {
    const s = server((b, n) => fakeVectors(b.input, n === 1 ? 4 : 8));
    const p = provider(s.url);
    await p.ready();
    expect(p.dimensions).toBe(4);
    await expect(p.embed(["x"], "passage")).rejects.toThrow(`dimension mismatch: ${s.url}/embeddings returned 8-dimensional vectors for 'm', expected 4`);
    expect(p.state().status).toBe("unavailable");
    await p.close();
    s.stop();
  });

  test("asks for the configured dimensions and checks them", async () => {
    const s = server((b) => fakeVectors(b.input, 6));
    const p = provider(s.url, { dimensions: 8 });
    expect(p.id).toEndWith(":m:8");
    await expect(p.ready()).rejects.toThrow("returned 6-dimensional vectors for 'm', expected 8");
    expect(s.seen[0]!.body.dimensions).toBe(8);
    await p.close();
    s.stop();
  });

  test("a reply with the wrong number of embeddings is an error, not a misalignment", async () => {
    const s = server((b, n) => (n === 1 ? fakeVectors(b.input) : fakeVectors(b.input.slice(1))));
    const p = provider(s.url);
    await expect(p.embed(["a", "b"], "passage")).rejects.toThrow("returned 1 embeddings for 2 inputs");
    await p.close();
    s.stop();
  });

  test("a server that is not there: unavailable after a few quick tries", async () => {
    const s = server((b) => fakeVectors(b.input));
    const url = s.url;
    s.stop();
    const p = provider(url);
    const err = await p.ready().catch((e) => e);
    expect(isCortexError(err) && err.code).toBe("EMBEDDINGS_UNAVAILABLE");
    const state = p.state();
    expect(state.status === "unavailable" && state.reason).toStartWith(`cannot reach ${url}/embeddings`);
    await p.close();
  });

  test("a wrong base URL (404) is unavailable with a hint", async () => {
    const s = server((b) => fakeVectors(b.input));
    const p = provider(s.url.replace(/\/v1$/, ""));
    await expect(p.ready()).rejects.toThrow("is the url the API base, e.g. http://host:port/v1");
    await p.close();
    s.stop();
  });

  test("an aborted call stops waiting at once", async () => {
    const s = server(async (b, n) => {
      if (n > 1) await Bun.sleep(5_000);
      return fakeVectors(b.input);
    });
    const p = provider(s.url);
    await p.ready();
    const ac = new AbortController();
    const call = p.embed(["slow"], "passage", ac.signal);
    setTimeout(() => ac.abort(), 50);
    const err = await call.catch((e) => e);
    expect(isCortexError(err) && err.code).toBe("DEADLINE");
    await p.close();
    s.stop();
  });

  test("the config must name a URL", () => {
    expect(() => createEmbeddingProvider(embeddingConfig({ provider: "openai" }), { home: "/x" })).toThrow(
      "embeddings.url: required when embeddings.provider is 'openai'",
    );
  });
});

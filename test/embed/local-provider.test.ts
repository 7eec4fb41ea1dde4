import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createEmbeddingProvider, modelSpec } from "../../src/embed/index.ts";
import { isCortexError } from "../../src/core/errors.ts";
import { TINY_DIMENSIONS } from "../../scripts/make-tiny-model.ts";
import { cosine, embeddingConfig, hubServer, tempDir, tinyModelFolder } from "./helpers.ts";
import { expectClosed, providerSuite } from "./provider.case.ts";

// These tests start workers and load ONNX runtimes (WebAssembly compiles ~10 MB): seconds on a busy machine.
setDefaultTimeout(60_000);

const tiny = tinyModelFolder();
afterAll(() => tiny.remove());

providerSuite("local (native runtime)", async () => {
  const home = tempDir("home");
  const provider = createEmbeddingProvider(embeddingConfig({ model: "tiny", model_path: tiny.dir }), { home: home.dir, offline: true });
  return { provider, cleanup: home.remove };
});

providerSuite("local (WebAssembly runtime)", async () => {
  const home = tempDir("home");
  const provider = createEmbeddingProvider(embeddingConfig({ model: "tiny", model_path: tiny.dir }), {
    home: home.dir,
    offline: true,
    env: { CORTEX_ONNX_BACKEND: "wasm" },
  });
  return { provider, cleanup: home.remove };
});

describe("local provider", () => {
  test("both runtimes compute the same vectors", async () => {
    const home = tempDir("home");
    const cfg = embeddingConfig({ model: "tiny", model_path: tiny.dir });
    const native = createEmbeddingProvider(cfg, { home: home.dir, offline: true });
    const wasm = createEmbeddingProvider(cfg, { home: home.dir, offline: true, env: { CORTEX_ONNX_BACKEND: "wasm" } });
    const texts = ["getUserToken", "open the database file", "retry on timeout"];
    const [a, b] = await Promise.all([native.embed(texts, "passage"), wasm.embed(texts, "passage")]);
    for (let i = 0; i < texts.length; i++) expect(cosine(a[i]!, b[i]!)).toBeGreaterThan(0.99999);
    await Promise.all([native.close(), wasm.close()]);
    home.remove();
  });

  test("uses the model table's query prefix: bge queries carry the instruction, passages do not", async () => {
    const home = tempDir("home");
    // the tiny model standing in for bge-small: the table's entry (CLS pooling, query prefix) applies
    const p = createEmbeddingProvider(embeddingConfig({ model: "Xenova/bge-small-en-v1.5", model_path: tiny.dir }), { home: home.dir, offline: true });
    expect(modelSpec("Xenova/bge-small-en-v1.5").queryPrefix).toBe("Represent this sentence for searching relevant passages: ");
    const [asQuery] = await p.embed(["sql table row"], "query");
    const [asPassage] = await p.embed(["sql table row"], "passage");
    const [instruction] = await p.embed(["represent sentence searching relevant passages"], "passage");
    // the prefix's words pull the query towards the tiny vocabulary's "instruction" axis
    expect(cosine(asQuery!, instruction!)).toBeGreaterThan(cosine(asPassage!, instruction!) + 0.3);
    await p.close();
    home.remove();
  });

  test("is not started by being created, and closes cleanly", async () => {
    const home = tempDir("home");
    const p = createEmbeddingProvider(embeddingConfig({ model: "tiny", model_path: tiny.dir }), { home: home.dir, offline: true });
    expect(p.state()).toEqual({ status: "idle" });
    await p.ready();
    await expectClosed(p);
    home.remove();
  });

  test("offline without the model: unavailable at once, saying why, and nothing is downloaded", async () => {
    const home = tempDir("home");
    const hub = hubServer();
    const p = createEmbeddingProvider(embeddingConfig({}), { home: home.dir, offline: true, hubUrl: hub.url });
    const err = await p.ready().catch((e) => e);
    expect(isCortexError(err) && err.code).toBe("EMBEDDINGS_UNAVAILABLE");
    const state = p.state();
    expect(state.status).toBe("unavailable");
    expect(state.status === "unavailable" && state.reason).toStartWith("offline and model not present");
    expect(hub.requests).toEqual([]);
    const again = await p.embed(["x"], "passage").catch((e) => e);
    expect(isCortexError(again) && again.code).toBe("EMBEDDINGS_UNAVAILABLE");
    hub.stop();
    await p.close();
    home.remove();
  });

  test("downloads the default model on first use into $CORTEX_HOME/models, then works offline", async () => {
    const home = tempDir("home");
    const hub = hubServer();
    const online = createEmbeddingProvider(embeddingConfig({}), { home: home.dir, offline: false, hubUrl: hub.url });
    expect(online.id).toBe("local:Xenova/bge-small-en-v1.5:q8");
    await online.ready();
    expect(online.dimensions).toBe(TINY_DIMENSIONS);
    const dir = join(home.dir, "models", "Xenova", "bge-small-en-v1.5");
    for (const f of ["config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model_quantized.onnx"]) {
      expect(existsSync(join(dir, f))).toBe(true);
      expect(hub.requests).toContain(`/Xenova/bge-small-en-v1.5/resolve/main/${f}`);
    }
    const [v] = await online.embed(["login"], "passage");
    await online.close();
    hub.stop();

    // no server any more, and offline: the downloaded copy is used
    const offline = createEmbeddingProvider(embeddingConfig({}), { home: home.dir, offline: true, hubUrl: hub.url });
    const [w] = await offline.embed(["login"], "passage");
    expect(cosine(v!, w!)).toBeGreaterThan(0.99999);
    await offline.close();
    home.remove();
  });

  test("a model the hub does not have: unavailable with the download error", async () => {
    const home = tempDir("home");
    const hub = hubServer("missing");
    const p = createEmbeddingProvider(embeddingConfig({ model: "nobody/no-such-model" }), { home: home.dir, offline: false, hubUrl: hub.url });
    await expect(p.ready()).rejects.toThrow(/cannot load or download nobody\/no-such-model/);
    expect(hub.requests.length).toBeGreaterThan(0);
    await p.close();
    hub.stop();
    home.remove();
  });

  test("a hub that never answers: unavailable after the stall limit, not a hang", async () => {
    const home = tempDir("home");
    const hub = hubServer("stall");
    const p = createEmbeddingProvider(embeddingConfig({}), { home: home.dir, offline: false, hubUrl: hub.url, stallMs: 300 });
    const err = await p.ready().catch((e) => e);
    expect(isCortexError(err) && err.code).toBe("EMBEDDINGS_UNAVAILABLE");
    expect(String(err.message)).toContain("no data from");
    // nothing half-written is left where a later run would take it for the model
    expect(existsSync(join(home.dir, "models", "Xenova", "bge-small-en-v1.5", "onnx", "model_quantized.onnx"))).toBe(false);
    await p.close();
    hub.stop();
    home.remove();
  });

  test("model_path: a relative folder is resolved against the project root", async () => {
    const home = tempDir("home");
    const root = tempDir("root");
    const { writeTinyModel } = await import("../../scripts/make-tiny-model.ts");
    writeTinyModel(join(root.dir, "models", "mine"));
    const p = createEmbeddingProvider(embeddingConfig({ model: "mine", model_path: "models/mine" }), { home: home.dir, root: root.dir, offline: true });
    expect(p.id).toMatch(/^local:mine:fp32@[0-9a-f]{12}$/);
    await p.ready();
    expect(p.dimensions).toBe(TINY_DIMENSIONS);
    await p.close();
    root.remove();
    home.remove();
  });

  test("model_path: a folder without the model files is unavailable, naming what is missing", async () => {
    const home = tempDir("home");
    const folder = tempDir("half-model");
    writeFileSync(join(folder.dir, "config.json"), readFileSync(join(tiny.dir, "config.json")));
    const p = createEmbeddingProvider(embeddingConfig({ model: "tiny", model_path: folder.dir }), { home: home.dir, offline: false });
    await expect(p.ready()).rejects.toThrow(/lacks tokenizer\.json, tokenizer_config\.json, onnx\/model\.onnx/);
    await p.close();
    folder.remove();
    home.remove();
  });

  test("a damaged model file: the worker's load error becomes the provider's state", async () => {
    const home = tempDir("home");
    const broken = tinyModelFolder();
    writeFileSync(join(broken.dir, "onnx", "model.onnx"), "this is not an onnx graph");
    rmSync(join(broken.dir, "onnx", "model_quantized.onnx"));
    const p = createEmbeddingProvider(embeddingConfig({ model: "tiny", model_path: broken.dir }), { home: home.dir, offline: true });
    await expect(p.ready()).rejects.toThrow(`cannot load the model in ${broken.dir} (embeddings.model_path;`);
    expect(p.state().status).toBe("unavailable");
    await p.close();
    // Online, under a hub model's name, set by the environment: the error used to read "cannot load or download
    // Xenova/bge-small-en-v1.5 from https://huggingface.co/", though nothing is downloaded for a local folder.
    const env = { CORTEX_EMBEDDINGS_MODEL_PATH: broken.dir };
    const q = createEmbeddingProvider(embeddingConfig({ model: "Xenova/bge-small-en-v1.5", model_path: broken.dir }), {
      home: home.dir,
      offline: false,
      hubUrl: "http://127.0.0.1:9/",
      env,
    });
    const err = (await q.ready().catch((e: Error) => e)) as Error;
    expect(err.message).toContain(`cannot load the model in ${broken.dir} (CORTEX_EMBEDDINGS_MODEL_PATH;`);
    expect(err.message).not.toContain("download");
    await q.close();
    broken.remove();
    home.remove();
  });

  test("a worker that dies: pending calls fail and the provider says the worker exited", async () => {
    const home = tempDir("home");
    const p = createEmbeddingProvider(embeddingConfig({ model: "tiny", model_path: tiny.dir }), { home: home.dir, offline: true });
    await p.ready();
    const pending = p.embed(["a", "b"], "passage");
    (p as unknown as { worker: Worker }).worker.terminate();
    // the call posts its batch after awaiting ready(), so the worker is gone before it could answer
    const err = await pending.then(
      () => undefined,
      (e) => e,
    );
    expect(isCortexError(err) && err.code).toBe("EMBEDDINGS_UNAVAILABLE");
    for (let i = 0; i < 50 && p.state().status === "ready"; i++) await Bun.sleep(20);
    expect(p.state()).toEqual({ status: "unavailable", reason: "the embedding worker exited" });
    await p.close();
    home.remove();
  });

  test("dimensions in the config must match the model", async () => {
    const home = tempDir("home");
    const p = createEmbeddingProvider(embeddingConfig({ model: "tiny", model_path: tiny.dir, dimensions: 384 }), { home: home.dir, offline: true });
    await expect(p.ready()).rejects.toThrow(`tiny makes ${TINY_DIMENSIONS}-dimensional vectors, embeddings.dimensions says 384`);
    await p.close();
    home.remove();
  });

  test("refuses a model name that is not a hub id (it would become a path)", () => {
    for (const model of ["../../etc", "a/b/c", "/abs/path", "org/..", "x y"]) {
      let err: unknown;
      try {
        createEmbeddingProvider(embeddingConfig({ model }), { home: "/nonexistent", offline: true });
      } catch (e) {
        err = e;
      }
      expect(isCortexError(err) && err.code).toBe("INVALID_INPUT");
      expect(String((err as Error).message)).toStartWith("embeddings.model: must be a Hugging Face model id");
    }
  });

  test.each(["native", "wasm"])("%s: a long passage job runs in micro-batches, and a query sent after it is answered first", async (backend) => {
    const home = tempDir("home");
    const p = createEmbeddingProvider(embeddingConfig({ model: "tiny", model_path: tiny.dir }), {
      home: home.dir,
      offline: true,
      env: { CORTEX_ONNX_BACKEND: backend },
    });
    await p.ready();
    const texts = Array.from({ length: 400 }, (_, i) => `${["login", "sql", "http", "parse"][i % 4]} token number ${i}`);
    const finished: string[] = [];
    const passages = p.embed(texts, "passage").then((v) => {
      finished.push("passages");
      return v;
    });
    const query = p.embed(["where is the login"], "query").then((v) => {
      finished.push("query");
      return v;
    });
    const [vs] = await Promise.all([passages, query]);
    expect(finished).toEqual(["query", "passages"]);
    // micro-batching kept every text's own vector, in order
    expect(vs).toHaveLength(400);
    for (const i of [0, 7, 8, 9, 250, 399]) {
      const [alone] = await p.embed([texts[i]!], "passage");
      expect(cosine(alone!, vs[i]!)).toBeGreaterThan(0.9999);
    }
    await p.close();
    home.remove();
  });

  test("a cancelled query is dropped, and later calls still work", async () => {
    const home = tempDir("home");
    const p = createEmbeddingProvider(embeddingConfig({ model: "tiny", model_path: tiny.dir }), { home: home.dir, offline: true });
    await p.ready();
    // cancelled before the call, and cancelled while the call waits for the provider: both are dropped
    const before = new AbortController();
    before.abort();
    const early = await p.embed(["login"], "query", before.signal).then(
      () => undefined,
      (e) => e,
    );
    expect(isCortexError(early) && early.code).toBe("DEADLINE");
    const ac = new AbortController();
    const cancelled = p.embed(["login"], "query", ac.signal);
    ac.abort();
    const err = await cancelled.then(
      () => undefined,
      (e) => e,
    );
    expect(isCortexError(err) && err.code).toBe("DEADLINE");
    const [v] = await p.embed(["login"], "query");
    expect(v!.length).toBe(TINY_DIMENSIONS);
    await p.close();
    home.remove();
  });
});

/**
 * The cross-encoder through the real transformers.js path, on the tiny cross-encoder the repository builds
 * (scripts/make-tiny-cross-encoder.ts): loaded from a folder, downloaded from a hub look-alike on
 * 127.0.0.1 on first use, and unavailable (saying why) offline without it.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createCrossEncoder, locateCrossEncoder } from "../../src/embed/index.ts";
import { configSchema } from "../../src/core/config.ts";
import { isCortexError } from "../../src/core/errors.ts";
import { tinyCrossEncoderFiles, writeTinyCrossEncoder } from "../../scripts/make-tiny-cross-encoder.ts";
import { hubServer, tempDir } from "./helpers.ts";

setDefaultTimeout(60_000); // loads an ONNX runtime

const tiny = tempDir("tiny-cross-encoder");
writeTinyCrossEncoder(tiny.dir);
afterAll(() => tiny.remove());

const rerankConfig = (fields: Record<string, unknown>) => configSchema.parse({ search: { rerank: { enabled: true, ...fields } } }).search.rerank;

const PASSAGES = ["insert a row into the sql table", "check the user's password and open a session token", "read the file into a buffer"];

describe("cross-encoder", () => {
  test("is off unless enabled: nothing to create", () => {
    const home = tempDir("home");
    expect(createCrossEncoder(configSchema.parse({}).search.rerank, { home: home.dir, offline: true })).toBeUndefined();
    home.remove();
  });

  test("scores the passage that answers the query highest, read as a pair", async () => {
    const home = tempDir("home");
    const ce = createCrossEncoder(rerankConfig({ model_path: tiny.dir }), { home: home.dir, offline: true })!;
    expect(ce.state()).toEqual({ status: "idle" });
    const scores = await ce.score("how does a user log in with a password", PASSAGES);
    expect(ce.state()).toEqual({ status: "ready" });
    expect(scores).toHaveLength(3);
    expect(scores[1]!).toBeGreaterThan(scores[0]! + 0.5);
    expect(scores[1]!).toBeGreaterThan(scores[2]! + 0.5);
    const storage = await ce.score("store rows in the database", PASSAGES);
    expect(storage[0]!).toBeGreaterThan(storage[1]!);
    ce.close();
    home.remove();
  });

  test("downloads the model on first use into the models folder, then loads it without the network", async () => {
    const home = tempDir("home");
    const hub = hubServer("serve", tinyCrossEncoderFiles());
    try {
      const first = createCrossEncoder(rerankConfig({ model: "test-org/tiny-cross-encoder" }), { home: home.dir, offline: false, hubUrl: hub.url })!;
      const scores = await first.score("login password", PASSAGES);
      expect(scores[1]!).toBeGreaterThan(scores[0]!);
      expect(hub.requests.some((r) => r.startsWith("/test-org/tiny-cross-encoder/resolve/main/"))).toBe(true);
      expect(existsSync(join(home.dir, "models", "test-org", "tiny-cross-encoder", "onnx", "model_quantized.onnx"))).toBe(true);
      expect(locateCrossEncoder({ model: "test-org/tiny-cross-encoder", modelsDir: join(home.dir, "models") }).missing).toEqual([]);
      first.close();
      hub.stop();
      const requests = hub.requests.length;
      const second = createCrossEncoder(rerankConfig({ model: "test-org/tiny-cross-encoder" }), { home: home.dir, offline: true })!;
      await second.ready();
      expect(hub.requests.length).toBe(requests);
      second.close();
    } finally {
      hub.stop();
      home.remove();
    }
  });

  test("offline without the model: unavailable at once, saying why, and nothing is downloaded", async () => {
    const home = tempDir("home");
    const hub = hubServer("serve", tinyCrossEncoderFiles());
    const ce = createCrossEncoder(rerankConfig({}), { home: home.dir, offline: true, hubUrl: hub.url })!;
    const err = await ce.ready().catch((e) => e);
    expect(isCortexError(err)).toBe(true);
    const state = ce.state();
    expect(state.status).toBe("unavailable");
    expect(state.status === "unavailable" && state.reason).toStartWith("offline and model not present");
    expect(hub.requests).toEqual([]);
    hub.stop();
    home.remove();
  });

  test("a configured folder that lacks the model says which files are missing", async () => {
    const home = tempDir("home");
    const empty = tempDir("empty-model");
    const ce = createCrossEncoder(rerankConfig({ model_path: empty.dir }), { home: home.dir, offline: true })!;
    await ce.ready().catch(() => {});
    const state = ce.state();
    expect(state.status === "unavailable" && state.reason).toContain("lacks config.json, tokenizer.json, tokenizer_config.json");
    empty.remove();
    home.remove();
  });
});

/**
 * A server started over a project whose vectors are all cached (cortex mcp from source, over stdio, with the
 * tiny model): its first searches rank by meaning. The model used to load only on the first query, so the
 * first cortex_search was keyword-only ("partial 100%"), and search_semantic_concept, which never loaded the
 * model at all, answered embeddings_not_ready on every call until a cortex_search had loaded it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { join } from "node:path";
import { writeTinyModel } from "../../scripts/make-tiny-model.ts";
import { createEmbeddingProvider, Embedder } from "../../src/embed/index.ts";
import { mayHaveCachedVectors } from "../../src/tools/reader-thread.ts";
import { EmbeddingCache } from "../../src/store/embedding-cache.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { embeddingConfig, hubServer, tempDir } from "./helpers.ts";

const CLI = join(import.meta.dir, "../../src/cli/main.ts");
let home: { dir: string; remove(): void };
let model: { dir: string; remove(): void };
let p: TmpProject;
let env: Record<string, string>;

const text = (r: unknown) => (r as { content: Array<{ text: string }> }).content[0]!.text;

/** A server from source over stdio; `stderr` collects what it logs. */
async function server(root = p.root, withEnv = env): Promise<Client & { stderr: () => string }> {
  const t = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--root", root, "--tools", "all"], env: withEnv, stderr: "pipe" });
  let logged = "";
  t.stderr?.on("data", (b: Buffer) => (logged += b.toString()));
  const c = new Client({ name: "warm-start", version: "1" });
  await c.connect(t);
  return Object.assign(c, { stderr: () => logged });
}

beforeAll(() => {
  home = tempDir("warm-home");
  model = tempDir("warm-model");
  writeTinyModel(model.dir);
  p = tmpProject({
    "auth/login.go":
      'package auth\n\n// Login checks a user\'s password and opens a session.\nfunc Login(user, password string) bool { return password != "" }\n',
    "store/db.go": "package store\n\n// InsertRow writes a row into a database table.\nfunc InsertRow(table string) error { return nil }\n",
  });
  env = { ...(process.env as Record<string, string>), CORTEX_HOME: home.dir, CORTEX_OFFLINE: "1", CORTEX_EMBEDDINGS_MODEL_PATH: model.dir };
  const r = Bun.spawnSync([process.execPath, CLI, "index", p.root, "--embed"], { env, stdout: "pipe", stderr: "pipe" });
  expect(r.stdout.toString()).toContain("embeddings: ready");
});
afterAll(() => {
  p.cleanup();
  model.remove();
  home.remove();
});

describe("a server over cached vectors", () => {
  test("search_semantic_concept loads the model itself and ranks by meaning on its first call", async () => {
    const c = await server();
    try {
      const r = await c.callTool({ name: "search_semantic_concept", arguments: { concept_description: "checking a user's password", top_n_results: 2 } });
      const body = JSON.parse(text(r));
      expect([body.status, body.error_message]).toEqual(["success", undefined]);
      expect(body.results[0].file_path).toBe("auth/login.go");
    } finally {
      await c.close();
    }
  }, 60_000);

  test("the model loads when the server starts: the first cortex_search is hybrid", async () => {
    const c = await server(p.root, { ...env, CORTEX_LOG: "info" });
    try {
      // without the warm-up nothing loads the model before a query: this line would never come
      const until = Date.now() + 30_000;
      while (!c.stderr().includes("loaded ahead of the first query") && Date.now() < until) await Bun.sleep(50);
      expect(c.stderr()).toContain("loaded ahead of the first query");
      const r = await c.callTool({ name: "cortex_search", arguments: { query: "user password check", limit: 2 } });
      const body = JSON.parse(text(r));
      expect([body.mode, body.embeddings]).toEqual(["hybrid", "ready"]);
    } finally {
      await c.close();
    }
  }, 60_000);

  test("no vectors for the model: warming starts nothing (no worker, no download)", async () => {
    const other = tempDir("warm-empty-home");
    const provider = createEmbeddingProvider(embeddingConfig({ model: "tiny", model_path: model.dir }), { home: other.dir, offline: true });
    const e = new Embedder(provider, EmbeddingCache.open(provider.id, { home: other.dir, recipe: provider.recipe }));
    expect(e.warm()).toBe(false);
    expect(provider.state()).toEqual({ status: "idle" });
    // what the server asks before starting its reader thread: an empty cache file is no reason to
    const config = embeddingConfig({ model_path: model.dir });
    expect(mayHaveCachedVectors(config, { home: other.dir, root: p.root })).toBe(false);
    expect(mayHaveCachedVectors(config, { home: home.dir, root: p.root })).toBe(true);
    await e.close();
    other.remove();
  });
});

describe("get_indexing_status without a loadable model", () => {
  test("says unavailable, with the reason, for an index with nothing to embed yet (not 'ready')", async () => {
    // a fresh CORTEX_HOME and a hub that has no model (no network): nothing can be loaded
    const hub = hubServer("missing");
    const fresh = tempDir("status-home");
    const empty = tmpProject();
    const noModel: Record<string, string> = { ...(process.env as Record<string, string>), CORTEX_HOME: fresh.dir, HF_ENDPOINT: hub.url };
    delete noModel.CORTEX_OFFLINE;
    delete noModel.CORTEX_EMBEDDINGS_MODEL_PATH;
    Bun.spawnSync([process.execPath, CLI, "index", empty.root], { env: noModel, stdout: "pipe", stderr: "pipe" });
    const c = await server(empty.root, noModel);
    try {
      // the first report asks for the model (and waits a little for the outcome: longer on a busy machine)
      let st: { files: number; embeddings: string } | undefined;
      for (const until = Date.now() + 30_000; Date.now() < until; await Bun.sleep(200)) {
        st = JSON.parse(text(await c.callTool({ name: "get_indexing_status", arguments: {} })));
        if (st!.embeddings.startsWith("unavailable")) break;
      }
      expect(st!.files).toBe(0);
      expect(st!.embeddings).toStartWith("unavailable: cannot load or download Xenova/bge-small-en-v1.5");
    } finally {
      await c.close();
      hub.stop();
      empty.cleanup();
      fresh.remove();
    }
  }, 60_000);
});

/**
 * A model replaced inside its embeddings.model_path folder (same path, other files): the CLI, run as users
 * run it, with the tiny model and a wider copy of it (21 dimensions instead of 16). The vector cache used to
 * be named by the folder's path alone, so the new model inherited the former model's vectors: every hybrid
 * search then exited 2 with "query vector: has 21 dimensions, the index holds 16", and re-indexing fixed
 * nothing (every text "had" a vector).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createEmbeddingProvider } from "../../src/embed/index.ts";
import { writeModelFiles, writeTinyModel } from "../../scripts/make-tiny-model.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { embeddingConfig, tempDir, widerTinyModelFiles } from "./helpers.ts";

const CLI = join(import.meta.dir, "../../src/cli/main.ts");
let home: { dir: string; remove(): void };
let model: { dir: string; remove(): void };
let p: TmpProject;

function cortex(args: string[]) {
  const env: Record<string, string | undefined> = {
    ...process.env,
    CORTEX_HOME: home.dir,
    CORTEX_OFFLINE: "1",
    CORTEX_EMBEDDINGS_MODEL_PATH: model.dir,
  };
  const r = Bun.spawnSync([process.execPath, CLI, ...args], { cwd: p.root, env, stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

beforeAll(() => {
  home = tempDir("model-change-home");
  model = tempDir("model-change-model");
  writeTinyModel(model.dir);
  p = tmpProject({
    "src/auth.ts": "export function login(user: string, password: string) { return checkPassword(user, password); }\n",
    "src/db.ts": "export function insertRow(table: string, row: unknown) { return `insert into ${table}`; }\n",
  });
});
afterAll(() => {
  home.remove();
  model.remove();
  p.cleanup();
});

describe("a model replaced in its folder", () => {
  test("gets its own vectors: search keeps working, and index --embed makes them", () => {
    expect(cortex(["index", p.root, "--embed"])).toMatchObject({ code: 0 });
    const before = cortex(["search", "user password", "--root", p.root, "--json"]);
    expect(before.code).toBe(0);
    expect(JSON.parse(before.stdout).mode).toBe("hybrid");

    writeModelFiles(model.dir, widerTinyModelFiles(5));
    const after = cortex(["search", "user password", "--root", p.root, "--json"]);
    expect([after.code, after.stderr]).toEqual([0, ""]);
    expect(JSON.parse(after.stdout).results.length).toBeGreaterThan(0);
    expect(cortex(["search-codebase", "user password", "--root", p.root]).code).toBe(0);

    expect(cortex(["index", p.root, "--embed"]).stdout).toContain("embeddings: ready");
    const again = JSON.parse(cortex(["search", "user password", "--root", p.root, "--json"]).stdout);
    expect([again.mode, again.embeddings]).toEqual(["hybrid", "ready"]);
  });

  test("the provider's id says what the folder holds, not only where it is", () => {
    const t = tempDir("model-id");
    writeTinyModel(t.dir);
    const id = () => createEmbeddingProvider(embeddingConfig({ model: "tiny", model_path: t.dir }), { home: home.dir, offline: true }).id;
    const first = id();
    expect(id()).toBe(first);
    writeModelFiles(t.dir, widerTinyModelFiles(5));
    expect(id()).not.toBe(first);
    t.remove();
  });
});

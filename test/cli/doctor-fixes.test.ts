/**
 * `cortex doctor`'s exit status and fixes, as testers met them: a fresh, healthy install exited 1 (a model
 * not downloaded yet and ast-grep not cached yet counted as problems, while --json said "ok": true), and the
 * fixes it printed failed themselves (`cortex pattern '$X' …` exits 1 on 0 matches, `cortex index --embed`
 * exits 2 offline). Each fix printed here is a command that works. Nothing reaches the network: the model hub
 * and the npm registry are servers of this test on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tinyCrossEncoderFiles } from "../../scripts/make-tiny-cross-encoder.ts";
import { tinyModelFiles, writeTinyModel } from "../../scripts/make-tiny-model.ts";
import { copyFixture, type TmpProject } from "../helpers/tmp-project.ts";
import { ReleaseServer, packedTarball, testRelease } from "../helpers/ast-grep.ts";
import { hubServer, type HubServer } from "../embed/helpers.ts";

const CLI = join(import.meta.dir, "../../src/cli/main.ts");
let base: string;
let p: TmpProject;
let hub: HubServer;
let registry: ReleaseServer;
let model: string;

interface Problem {
  area: string;
  severity: string;
  message: string;
  fix: string;
}

/** cortex with a HOME and CORTEX_HOME of its own (`home` names a sub-folder of the test's), online to local servers only. */
function cortexEnv(home: string, extraEnv: Record<string, string> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    HOME: join(base, home),
    CORTEX_HOME: join(base, home, ".cortex"),
    HF_ENDPOINT: hub.url,
    CORTEX_AST_GREP_MIRROR: registry.url,
  };
  for (const k of ["CORTEX_OFFLINE", "CORTEX_AST_GREP", "CORTEX_EMBEDDINGS_MODEL_PATH", "CORTEX_EMBEDDINGS_MODEL", "XDG_CONFIG_HOME", "CODEX_HOME"])
    delete env[k];
  return Object.assign(env, extraEnv);
}

function cortex(args: string[], extraEnv: Record<string, string> = {}, home = "home") {
  const env = cortexEnv(home, extraEnv);
  const r = Bun.spawnSync([process.execPath, CLI, ...args], { cwd: p.root, env, stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

/** The same, asynchronously: this process's servers must answer while it runs (spawnSync would block them). */
async function cortexAsync(args: string[], home: string) {
  const env = cortexEnv(home);
  const proc = Bun.spawn([process.execPath, CLI, ...args], { cwd: p.root, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

function doctor(args: string[] = [], extraEnv: Record<string, string> = {}, home = "home") {
  const r = cortex(["doctor", "--json", ...args], extraEnv, home);
  const d = JSON.parse(r.stdout) as { ok: boolean; problems: Problem[]; embeddings: Record<string, unknown>; home: Record<string, unknown> };
  return { ...r, d, of: (area: string) => d.problems.filter((x) => x.area === area) };
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), "cortex-doctor-fixes-"));
  p = copyFixture("polyglot/go");
  hub = hubServer("serve");
  registry = new ReleaseServer();
  registry.publish(testRelease(), "npm", await packedTarball());
  model = join(base, "model");
  writeTinyModel(model);
}, 180_000);
afterAll(() => {
  hub.stop();
  registry.stop();
  p.cleanup();
  rmSync(base, { recursive: true, force: true });
});

describe("doctor on a fresh install", () => {
  test("what is fetched on first use is a note, not a problem: exit 0, ok, and the fix is cortex doctor --fetch", () => {
    const r = doctor([], {}, "fresh");
    expect([r.code, r.d.ok]).toEqual([0, true]);
    expect(r.d.problems.map((x) => `${x.area} ${x.severity}`).sort()).toEqual(["ast-grep note", "embeddings note", "index note"]);
    expect(r.of("ast-grep")[0]!.fix).toStartWith("cortex doctor --fetch");
    expect(r.of("embeddings")[0]!.fix).toStartWith("cortex doctor --fetch");
    expect(hub.requests).toEqual([]); // doctor itself downloads nothing
    const text = cortex(["doctor"], {}, "fresh");
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("No problems found; 3 notes (normal on a fresh install):");
  });

  test("cortex doctor --fetch downloads ast-grep and the model, exits 0, and the notes are gone", async () => {
    const r = await cortexAsync(["doctor", "--json", "--fetch"], "fetched");
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("embedding model Xenova/bge-small-en-v1.5: ready");
    const d = JSON.parse(r.stdout) as { problems: Problem[]; embeddings: unknown };
    expect(d.problems.filter((x) => x.area !== "index")).toEqual([]);
    expect(d.embeddings).toMatchObject({ present: true, loads: true });
    expect(registry.requests.length).toBeGreaterThan(0);
  }, 120_000);

  test("cortex doctor --fetch also downloads the reranker's model where the project turns the reranker on", async () => {
    // one hub for both models: the reranker's files under its name, the embedding model's under any other
    const cross = tinyCrossEncoderFiles();
    const embedding = tinyModelFiles();
    const requests: string[] = [];
    const both = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req) {
        const path = new URL(req.url).pathname;
        requests.push(path);
        const m = /^\/(.+?\/.+?)\/resolve\/main\/(.+)$/.exec(path);
        const body = m ? (m[1] === "test-org/tiny-cross-encoder" ? cross : embedding)[m[2]!] : undefined;
        return body === undefined ? new Response("Entry not found", { status: 404 }) : new Response(body);
      },
    });
    const project = copyFixture("polyglot/go");
    try {
      mkdirSync(join(project.root, ".cortex"), { recursive: true });
      writeFileSync(join(project.root, ".cortex", "config.yml"), "search:\n  rerank:\n    enabled: true\n    model: test-org/tiny-cross-encoder\n");
      const env = cortexEnv("reranked", { HF_ENDPOINT: `http://127.0.0.1:${both.port}/` });
      const before = Bun.spawnSync([process.execPath, CLI, "doctor", "--json", "--root", project.root], { env, stdout: "pipe", stderr: "pipe" });
      const notes = (JSON.parse(before.stdout.toString()) as { problems: Problem[] }).problems.filter((x) => x.area === "reranker");
      expect(notes.map((x) => x.severity)).toEqual(["note"]);
      expect(notes[0]!.fix).toStartWith("cortex doctor --fetch --root ");
      const proc = Bun.spawn([process.execPath, CLI, "doctor", "--json", "--fetch", "--root", project.root], { env, stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      expect(stderr).toContain("reranker model test-org/tiny-cross-encoder: ready");
      expect(code).toBe(0);
      const d = JSON.parse(stdout) as { problems: Problem[]; reranker: Record<string, unknown> };
      expect(d.problems.filter((x) => x.area === "reranker")).toEqual([]);
      expect(d.reranker).toMatchObject({ enabled: true, present: true });
      expect(requests.some((r) => r.startsWith("/test-org/tiny-cross-encoder/resolve/main/"))).toBe(true);
    } finally {
      both.stop(true);
      project.cleanup();
    }
  }, 120_000);

  test("offline with no model: a warning (exit 1) whose fix is not a command that fails offline", () => {
    const r = doctor([], { CORTEX_OFFLINE: "1" }, "offline");
    expect(r.code).toBe(1);
    const fix = r.of("embeddings")[0]!.fix;
    expect(fix).not.toContain("index");
    expect(fix).toContain("unset CORTEX_OFFLINE, then cortex doctor --fetch");
  });
});

describe("doctor's fixes", () => {
  test("a damaged index is reported once, with the command that rebuilds it (which works)", () => {
    expect(cortex(["index", p.root]).code).toBe(0);
    const cache = join(base, "home", ".cortex", "cache");
    const folder = join(cache, require("node:fs").readdirSync(cache)[0]);
    writeFileSync(join(folder, readFileSync(join(folder, "current"), "utf8").trim()), "not a database");
    const r = doctor();
    const index = r.of("index");
    expect(index.length).toBe(1);
    expect(index[0]!.fix).toBe(`cortex index --full ${p.root}`);
    expect(cortex(["index", "--full", p.root]).code).toBe(0);
    expect(doctor().of("index")).toEqual([]);
  });

  test("CORTEX_AST_GREP pointing nowhere: unset it or point it at ast-grep", () => {
    const r = doctor([], { CORTEX_AST_GREP: "/nope" });
    expect(r.of("ast-grep")[0]!.fix).toStartWith("unset CORTEX_AST_GREP (cortex then fetches ast-grep");
  });

  test("--root of a folder that does not exist says so", () => {
    const r = doctor(["--root", "/nonexistent-project"]);
    const runtime = r.of("runtime")[0]!;
    expect(runtime.message).toBe("/nonexistent-project does not exist: there is no project to check");
    expect(runtime.fix).not.toContain("config.yml");
  });

  test("a CORTEX_HOME that is a file, or cannot be created, is an error with its fix", () => {
    const file = join(base, "home-file");
    writeFileSync(file, "");
    const r = doctor([], { CORTEX_HOME: file });
    expect(r.code).toBe(1);
    expect(r.d.home).toEqual({ path: file, state: "not a folder" });
    expect(r.of("home")[0]!.fix).toContain("set CORTEX_HOME to a writable folder");
    expect(doctor([], { CORTEX_HOME: join(file, "sub") }).d.home).toMatchObject({ state: "cannot be created" });
    expect(doctor().d.home).toMatchObject({ state: "writable" });
  });

  test("a CORTEX_HOME that cannot be written is an error", () => {
    // root writes a 0555 folder anyway; /proc/self is a folder nobody can create a file in
    const ro = process.getuid?.() === 0 ? "/proc/self" : join(base, "home-ro");
    if (ro !== "/proc/self") {
      mkdirSync(ro);
      chmodSync(ro, 0o555);
    }
    try {
      expect(doctor([], { CORTEX_HOME: ro }).d.home).toMatchObject({ state: "not writable" });
    } finally {
      if (ro !== "/proc/self") chmodSync(ro, 0o755);
    }
  });

  test("a wrong model path: named by where it is set (environment or config), not as the default model", () => {
    const env = doctor([], { CORTEX_EMBEDDINGS_MODEL_PATH: "/nonexistent-model" });
    const e = env.of("embeddings")[0]!;
    expect(e.message).toBe("CORTEX_EMBEDDINGS_MODEL_PATH: no such folder: /nonexistent-model");
    expect(e.fix).toBe("unset CORTEX_EMBEDDINGS_MODEL_PATH or point it at a folder holding the model");
    const text = cortex(["doctor"], { CORTEX_EMBEDDINGS_MODEL_PATH: "/nonexistent-model" });
    expect(text.stdout).toContain("Embeddings: the model in /nonexistent-model (CORTEX_EMBEDDINGS_MODEL_PATH): misconfigured");
    expect(text.stdout).not.toContain("not downloaded");

    p.write(".cortex/config.yml", `embeddings:\n  model_path: ${join(base, "empty-model")}\n`);
    mkdirSync(join(base, "empty-model"), { recursive: true });
    const cfg = doctor().of("embeddings")[0]!;
    expect(cfg.message).toContain(`the model folder ${join(base, "empty-model")} (embeddings.model_path) is incomplete`);
    expect(cfg.fix).toContain(`correct embeddings.model_path in ${join(p.root, ".cortex", "config.yml")}`);
    p.remove(".cortex/config.yml");
  });

  test("a damaged model file: doctor loads the model and reports it, naming the folder and the fix", () => {
    const broken = join(base, "broken-model");
    writeTinyModel(broken);
    for (const f of ["model.onnx", "model_quantized.onnx"]) {
      const path = join(broken, "onnx", f);
      writeFileSync(path, readFileSync(path).subarray(0, 100)); // a truncated copy
    }
    const r = doctor([], { CORTEX_EMBEDDINGS_MODEL_PATH: broken });
    expect(r.code).toBe(1);
    expect(r.d.embeddings).toMatchObject({ present: true, loads: false });
    const e = r.of("embeddings")[0]!;
    expect(e.severity).toBe("error");
    expect(e.message).toContain(`cannot load the model in ${broken} (CORTEX_EMBEDDINGS_MODEL_PATH;`);
    expect(e.message).not.toContain("huggingface");
    expect(e.fix).toContain(`copy the model into ${broken} again`);
    // and a sound model loads
    expect(doctor([], { CORTEX_EMBEDDINGS_MODEL_PATH: model }).d.embeddings).toMatchObject({ present: true, loads: true });
  });
});

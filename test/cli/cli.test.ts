import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { copyFixture, tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { utimesSync } from "node:fs";
import { writeTinyModel } from "../../scripts/make-tiny-model.ts";
import { closeSync, openSync, rmSync, writeSync } from "node:fs";

const CLI = join(import.meta.dir, "../../src/cli/main.ts");
let p: TmpProject;

async function cortex(args: string[], cwd?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([process.execPath, CLI, ...args], { cwd: cwd ?? p.root, stdout: "pipe", stderr: "pipe", env: { ...process.env } });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

beforeAll(() => {
  p = copyFixture("polyglot/go");
});
afterAll(() => p.cleanup());

describe("cortex CLI", () => {
  test("index --json reports the run and writes nothing to stdout but the JSON", async () => {
    const r = await cortex(["index", p.root, "--json"]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.mode).toBe("full");
    expect(report.files).toBe(4);
  });

  test("index --dry-run --json prints the plan and writes no index", async () => {
    const other = copyFixture("polyglot/go");
    try {
      const r = await cortex(["index", other.root, "--dry-run", "--json"]);
      expect(r.code).toBe(0);
      const plan = JSON.parse(r.stdout);
      expect(plan.files).toBe(4);
      const st = await cortex(["status", "--json"], other.root);
      expect(JSON.parse(st.stdout).state).toBe("missing");
    } finally {
      other.cleanup();
    }
  });

  test("files takes the query as an argument or from --file, and --json prints the tool result", async () => {
    const q = { from: "files", fields: ["file_path"], where: { field: "is_test", operator: "=", value: true } };
    const a = await cortex(["files", JSON.stringify(q), "--json"]);
    expect(a.code).toBe(0);
    expect(JSON.parse(a.stdout).rows).toEqual([["auth/handler_test.go"]]);
    p.write("q.json", JSON.stringify(q));
    const b = await cortex(["files", "--file", join(p.root, "q.json"), "--json"]);
    expect(JSON.parse(b.stdout).rows).toEqual([["auth/handler_test.go"]]);
    p.remove("q.json");
    const text = await cortex(["files", JSON.stringify(q)]);
    expect(text.stdout).toContain("auth/handler_test.go");
    expect(text.stdout).toContain("1 row");
  });

  test("the README's `cortex files` examples run as written", async () => {
    const readme = await Bun.file(join(import.meta.dir, "../../README.md")).text();
    const examples = [...readme.matchAll(/^cortex files '([^']+)'(.*)$/gm)];
    expect(examples.length).toBeGreaterThan(0);
    for (const [line, query, rest] of examples) {
      const r = await cortex(["files", query!, ...rest!.trim().split(/\s+/).filter(Boolean)]);
      // found or not (this fixture has no complex function): never refused
      expect(`${line}: ${r.stderr}`).toBe(`${line}: `);
      expect([0, 1]).toContain(r.code);
    }
  });

  test("grep: prints every match as ripgrep does (a budget only with --max-tokens); --fresh searches files added since indexing; notes go to stderr", async () => {
    const q = tmpProject({ "a.txt": "needle old\n", "b.txt": "needle kept\n", "many.txt": "needle and more words on a line\n".repeat(1200) });
    try {
      expect((await cortex(["index", q.root], q.root)).code).toBe(0);
      q.write("a.txt", "needle changed and longer\n");
      utimesSync(join(q.root, "a.txt"), new Date(), new Date(Date.now() + 5000));
      q.write("c.txt", "needle added\n");
      const stale = "cortex: STALE: 1 file changed since indexing (a.txt); the lines are as indexed: run cortex index, or add --fresh\n";
      const many = Array.from({ length: 1200 }, (_, i) => `many.txt:${i + 1}:needle and more words on a line\n`).join("");
      // more lines than the tool's limit (500) and its output budget: the shell still gets them all, literal or regex
      for (const args of [["needle"], ["-e", "needle\\b"]]) {
        const all = await cortex(["grep", ...args, "-C", "0"], q.root);
        expect([all.code, all.stderr]).toEqual([0, stale]);
        expect(all.stdout).toBe(`a.txt:1:needle old\nb.txt:1:needle kept\n${many}`);
        const rows = await cortex(["grep", ...args, "-C", "0", "--ndjson"], q.root);
        expect([rows.code, rows.stdout.split("\n").length - 1]).toEqual([0, 1202]);
      }
      // a budget asked for cuts the lines, and says so on stderr; --json is the tool's result, as over MCP
      const cut = await cortex(["grep", "needle", "-C", "0", "--max-tokens", "500"], q.root);
      expect(cut.stdout.split("\n").length - 1).toBeLessThan(100);
      expect(cut.stderr).toMatch(/^cortex: stopped after \d+ matching lines/);
      expect(cut.stderr).toContain(`\n${stale}`);
      expect(cut.stderr.split(stale).length - 1).toBe(1); // the stale note once, though the printer saw the rows too
      const json = JSON.parse((await cortex(["grep", "needle", "-C", "0", "--json"], q.root)).stdout);
      expect([json.truncated, json.match_count <= 500, json.matches.length]).toEqual([true, true, json.match_count]);
      const fresh = await cortex(["grep", "needle", "-C", "0", "--fresh", "--path", "a.txt", "--path", "b.txt", "--path", "c.txt"], q.root);
      expect(fresh.stdout).toBe("a.txt:1:needle changed and longer\nb.txt:1:needle kept\nc.txt:1:needle added\n");
      expect(fresh.stderr).toBe("");
    } finally {
      q.cleanup();
    }
  });

  test("a UTF-16 file (byte-order mark) is indexed as text: grep finds its words, with --fresh too", async () => {
    const utf16le = (text: string) => new Uint8Array([0xff, 0xfe, ...Buffer.from(text, "utf16le")]);
    const q = tmpProject({ "notes.txt": utf16le("first line\nneedle in utf16\n"), "plain.txt": "nothing here\n" });
    try {
      expect((await cortex(["index", q.root], q.root)).code).toBe(0);
      const found = await cortex(["grep", "needle", "-C", "0"], q.root);
      expect(found.stdout).toBe("notes.txt:2:needle in utf16\n");
      q.write("notes.txt", utf16le("first line\nneedle moved\n"));
      utimesSync(join(q.root, "notes.txt"), new Date(), new Date(Date.now() + 5000));
      expect((await cortex(["grep", "needle", "-C", "0", "--fresh"], q.root)).stdout).toBe("notes.txt:2:needle moved\n");
    } finally {
      q.cleanup();
    }
  });

  test("pre-defined operations are flags", async () => {
    const r = await cortex(["files", "--operation", "top_files", "--order-by", "functions", "--limit", "1", "--json"]);
    expect(JSON.parse(r.stdout).rows[0][0]).toBe("auth/handler.go");
  });

  test("errors go to stderr with exit code 2", async () => {
    const bad = await cortex(["files", '{"from":"nope"}']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toBe("cortex: invalid table 'nope': expected one of files, types, functions, imports, modules\n");
    const json = await cortex(["files", "{not json"]);
    expect(json.code).toBe(2);
    expect(json.stderr).toStartWith("cortex: query: not valid JSON");
    const unknown = await cortex(["frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("cortex: unknown command 'frobnicate' (see cortex --help)\n");
    // a file is not a project: nothing indexed, no cache entry named after it
    for (const args of [
      ["index", join(p.root, "go.mod")],
      ["index", join(p.root, "go.mod"), "--dry-run"],
      ["grep", "x", "--root", join(p.root, "go.mod")],
    ]) {
      const file = await cortex(args);
      expect(file.code).toBe(2);
      expect(file.stderr).toBe(`cortex: project root is not a folder: ${join(p.root, "go.mod")}\n`);
    }
    // a two-word command with a wrong or missing second word names the ones it has
    const sub = await cortex(["memory", "bogus"]);
    expect([sub.code, sub.stderr]).toEqual([2, "cortex: unknown memory command 'bogus': use add, list, remove (see cortex memory --help)\n"]);
    const stats = await cortex(["stats"]);
    expect([stats.code, stats.stderr]).toEqual([2, "cortex: cortex stats needs a command: export or import (see cortex stats --help)\n"]);
    const flag = await cortex(["files", "--bogus"]);
    expect(flag.stderr).toBe("cortex: unknown option --bogus (see cortex files --help)\n");
    const limit = await cortex(["files", "--operation", "top_files", "--limit", "0"]);
    expect(limit.stderr).toBe("cortex: limit: must be at least 1\n");
    const nan = await cortex(["files", "--limit", "ten"]);
    expect(nan.stderr).toBe("cortex: --limit: expected a number, got 'ten'\n");
  }, 30_000);

  test("concept prints text like search, JSON with --json, rows with --ndjson", async () => {
    const text = await cortex(["concept", "user login password check", "--top", "2"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^2 results \(semantic ranking is .*; these results are keyword-ranked\)\n\n[^\n]+:\d+-\d+ {2}\(\d/);
    expect(JSON.parse((await cortex(["concept", "user login password check", "--top", "2", "--json"])).stdout).result_count).toBe(2);
    expect((await cortex(["concept", "user login password check", "--top", "2", "--ndjson"])).stdout.trim().split("\n")).toHaveLength(2);
  });

  test("status describes the index", async () => {
    const r = await cortex(["status", "--json"]);
    const s = JSON.parse(r.stdout);
    expect(s.state).toBe("ready");
    expect(s.files).toBe(4);
    expect(s.changed_since_index).toEqual({ modified: 0, added: 0, deleted: 0, examples: [] });
    // the embeddings' coverage names its cause: the model is not there (and this test is offline)
    expect(s.embedding_model).toMatchObject({ model: "Xenova/bge-small-en-v1.5", present: false });
    const text = (await cortex(["status"])).stdout;
    expect(text).toMatch(
      / {2}embeddings: .* \(the model Xenova\/bge-small-en-v1\.5 is not in .* and CORTEX_OFFLINE=1 forbids the download: search is keyword-ranked until it is there\)\n/,
    );
    // a folder that holds a model: present, and nothing more said
    const model = join(p.root, "..", `tiny-status-${Date.now()}`);
    writeTinyModel(model);
    try {
      const proc = Bun.spawn([process.execPath, CLI, "status", "--json"], {
        cwd: p.root,
        stdout: "pipe",
        env: { ...process.env, CORTEX_EMBEDDINGS_MODEL_PATH: model },
      });
      const withModel = JSON.parse(await new Response(proc.stdout).text());
      expect(withModel.embedding_model).toMatchObject({ present: true, folder: model });
    } finally {
      rmSync(model, { recursive: true, force: true });
    }
  });

  test("status names a damaged index as damaged, not as missing, and the next run builds it again", async () => {
    const proj = copyFixture("polyglot/go");
    try {
      expect((await cortex(["index", proj.root, "--json"])).code).toBe(0);
      const db = JSON.parse((await cortex(["status", "--json"], proj.root)).stdout).database as string;
      const fd = openSync(db, "r+");
      writeSync(fd, Buffer.from("not a database header, at all"), 0, 29, 0);
      closeSync(fd);
      const text = await cortex(["status"], proj.root);
      expect(text.stdout).toBe(
        `${proj.root}: no usable index: the index at ${db} is damaged: file is not a database (the next 'cortex index' or query builds it again)\n`,
      );
      const json = JSON.parse((await cortex(["status", "--json"], proj.root)).stdout);
      expect([json.state, json.damaged]).toEqual(["missing", `the index at ${db} is damaged: file is not a database`]);
      expect((await cortex(["index", proj.root, "--json"])).code).toBe(0);
      const again = JSON.parse((await cortex(["status", "--json"], proj.root)).stdout);
      expect([again.state, again.damaged]).toEqual(["ready", undefined]);
    } finally {
      proj.cleanup();
    }
  }, 60_000);

  test("index --embed computes embeddings and the CLI search then ranks hybrid", async () => {
    const proj = copyFixture("polyglot/go");
    try {
      const model = join(proj.root, "..", `tiny-${Date.now()}`);
      writeTinyModel(model);
      proj.write(".cortex/config.yml", `embeddings:\n  model: tiny\n  model_path: ${model}\n`);
      const idx = await cortex(["index", proj.root, "--embed", "--json"]);
      expect(idx.code).toBe(0);
      expect(JSON.parse(idx.stdout).embeddings).toBe("ready");
      const s = await cortex(["search", "user login password check", "--limit", "3", "--json"], proj.root);
      const r = JSON.parse(s.stdout);
      expect([r.mode, r.embeddings]).toEqual(["hybrid", "ready"]);
      rmSync(model, { recursive: true, force: true });
    } finally {
      proj.cleanup();
    }
  }, 60_000);

  test("--version and version print the package's version and nothing else", async () => {
    const { version } = await Bun.file(join(import.meta.dir, "../../package.json")).json();
    for (const args of [["--version"], ["version"]]) {
      const r = await cortex(args);
      expect(r).toEqual({ code: 0, stdout: `cortex ${version}\n`, stderr: "" });
    }
  });

  test("grep over an existing index (its fast path) says what to type and names grep's help", async () => {
    expect((await cortex(["status", "--json"])).stdout).toContain('"state": "ready"');
    const none = await cortex(["grep"]);
    expect([none.code, none.stderr]).toEqual([2, "cortex: cortex grep needs <pattern>: cortex grep <pattern> [options] (see cortex grep --help)\n"]);
    const typo = await cortex(["grep", "x", "--pth", "auth"]);
    expect([typo.code, typo.stderr]).toEqual([2, "cortex: unknown option --pth: did you mean '--path'? (see cortex grep --help)\n"]);
  });

  test("--help is generated from the tool registry", async () => {
    const r = await cortex(["--help"]);
    expect(r.stdout).toContain("files");
    const f = await cortex(["files", "--help"]);
    expect(f.stdout).toContain("MCP tool: cortex_files");
    expect(f.stdout).toContain("--order-by <string>");
  });
});

/**
 * `cortex index --repo` and `cortex repos` against a real PostgreSQL server the test starts (skipped, with
 * the reason printed, only where the machine has no server binaries), through the CLI process itself.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { serverSkipReason, startServer, type TestServer } from "../store/postgres/server.ts";
import { tmpProject } from "../helpers/tmp-project.ts";
import { connectPostgres } from "../../src/store/postgres/client.ts";

// builds local indexes, starts databases and command-line processes: seconds each on a busy machine
setDefaultTimeout(120_000);

const skip = serverSkipReason();
if (skip !== undefined) console.warn(`skipping the PostgreSQL server tests: ${skip}`);
const MAIN = join(import.meta.dir, "..", "..", "src", "cli", "main.ts");

let server: TestServer;
beforeAll(() => {
  if (skip === undefined) server = startServer();
});
afterAll(() => server?.stop());

function cortex(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: "utf8", env: { ...process.env, ...env }, timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("without a store, --repo and repos say how to name one", () => {
  const r = cortex(["repos"], { CORTEX_DATABASE_URL: "" });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("pass --store postgres://user@host/database or set CORTEX_DATABASE_URL");
});

test.skipIf(skip !== undefined)("index --repo publishes a project; repos lists it; the URL's password is never printed", () => {
  // trust authentication ignores the password: it is here to be masked
  const url = server.url("postgres").replace("cortex@", "cortex:hunter2@");
  const a = tmpProject({ "main.go": "package main\n\nfunc main() {}\n", "util/util.go": "package util\n\nfunc Help() int { return 1 }\n" });
  const b = tmpProject({ "app.py": "def run():\n    return 0\n" });
  try {
    const first = cortex(["index", "--repo", "svc-a", a.root, "--store", url, "--json"]);
    expect(first.stderr).not.toContain("hunter2");
    expect(first.code).toBe(0);
    const out = JSON.parse(first.stdout);
    expect(out).toMatchObject({ repo: "svc-a", generation: 1, changed: 2, deleted: 0, unchanged: 0 });
    // this server has no pgvector: nothing is embedded for the store, and the answer says so
    expect(out.vectors).toEqual({ state: "unavailable", reason: "the server has no pgvector extension" });
    expect(out.store).toContain("cortex:***@");
    expect(first.stdout).not.toContain("hunter2");

    const second = cortex(["index", "--repo", "lib-b", b.root], { CORTEX_DATABASE_URL: url });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("published lib-b generation 1 to postgres://cortex:***@");
    expect(second.stdout).toContain("vectors: not stored (the server has no pgvector extension); readers keep their own vector index");
    expect(second.stdout + second.stderr).not.toContain("hunter2");

    const listed = cortex(["repos", "--json"], { CORTEX_DATABASE_URL: url });
    expect(listed.code).toBe(0);
    const repos = JSON.parse(listed.stdout).repos as Array<{ name: string; generation: number; files: number }>;
    expect(repos.map((r) => [r.name, r.generation, r.files])).toEqual([
      ["lib-b", 1, 1],
      ["svc-a", 1, 2],
    ]);
    const text = cortex(["repos", "--store", url]);
    expect(text.stdout.split("\n")[0]).toMatch(/^repo\s+commit\s+generation\s+files\s+indexed at\s+freshness\s+vectors$/);
    expect(text.stdout).toMatch(/svc-a .* s ago/);
  } finally {
    a.cleanup();
    b.cleanup();
  }
});

test.skipIf(skip !== undefined)("repos remove removes a repository and says what it removed; an unknown name lists those held", () => {
  const url = server.url("postgres");
  const a = tmpProject({ "main.go": "package main\n\nfunc main() {}\n" });
  try {
    expect(cortex(["index", "--repo", "rm-a", a.root, "--store", url]).code).toBe(0);
    expect(cortex(["index", "--repo", "rm-b", a.root, "--store", url]).code).toBe(0);
    const removed = cortex(["repos", "remove", "rm-b", "--store", url]);
    expect(removed.stderr).toBe("");
    expect(removed.code).toBe(0);
    expect(removed.stdout.trim()).toBe(`removed rm-b (generation 1, 1 file) from ${url}`);
    const names = (JSON.parse(cortex(["repos", "--json", "--store", url]).stdout).repos as Array<{ name: string }>).map((r) => r.name);
    expect(names).toContain("rm-a");
    expect(names).not.toContain("rm-b");
    const again = cortex(["repos", "remove", "rm-b", "--store", url]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`cortex: unknown repository 'rm-b'; ${url} holds: `);
    expect(again.stderr).toContain("rm-a");
    const json = cortex(["repos", "remove", "rm-a", "--json"], { CORTEX_DATABASE_URL: url });
    expect(JSON.parse(json.stdout)).toEqual({ store: url, removed: { repo: "rm-a", generation: 1, files: 1 } });
    expect(cortex(["repos", "remove", "--store", url]).stderr).toContain("repos remove: name the repository to remove");
    expect(cortex(["repos", "--help"]).stdout).toContain("cortex repos remove <name>");
  } finally {
    a.cleanup();
  }
});

test.skipIf(skip !== undefined)("a repository name that is a folder of another's is refused, so no path names files of two repositories", () => {
  const url = server.url("postgres");
  const small = tmpProject({ "src/auth.py": "def login_user():\n    return 1\n" });
  const org = tmpProject({ "small/src/auth.py": "def login_user():\n    return 2\n" });
  try {
    expect(cortex(["index", "--repo", "acme/small", small.root, "--store", url]).code).toBe(0);
    const refused = cortex(["index", "--repo", "acme", org.root, "--store", url]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("cortex: repo: 'acme' would share paths with repository 'acme/small' of the store");
    expect(refused.stderr).toContain("remove 'acme/small' first (cortex repos remove acme/small)");
    const names = (JSON.parse(cortex(["repos", "--json", "--store", url]).stdout).repos as Array<{ name: string }>).map((r) => r.name);
    expect(names).not.toContain("acme");
    // every hit of acme/small/… is acme/small's own file
    const grep = cortex(["grep", "login_user", "--repo", "all", "--store", url, "--json"]);
    expect(
      JSON.parse(grep.stdout)
        .matches.filter((m: { file_path: string }) => m.file_path.startsWith("acme"))
        .map((m: { file_path: string }) => m.file_path),
    ).toEqual(["acme/small/src/auth.py"]);
    // the way out the message names
    expect(cortex(["repos", "remove", "acme/small", "--store", url]).code).toBe(0);
    expect(cortex(["index", "--repo", "acme", org.root, "--store", url]).code).toBe(0);
    expect(cortex(["repos", "remove", "acme", "--store", url]).code).toBe(0);
  } finally {
    small.cleanup();
    org.cleanup();
  }
});

test.skipIf(skip !== undefined)("a store that cannot be reached is an error naming it without the password", () => {
  const url = `postgres://agent:hunter2@localhost/cortex?host=${encodeURIComponent(join(server.dir, "no-such-folder"))}`;
  const r = cortex(["repos", "--store", url]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("postgres://agent:***@localhost/cortex");
  expect(r.stderr + r.stdout).not.toContain("hunter2");
});

test.skipIf(skip !== undefined)("a password given as ?password= is used, and masked wherever the URL is shown", async () => {
  // the test server trusts only the superuser `cortex`: the role `agent` must give its password
  const admin = connectPostgres(server.url("postgres"));
  await admin.exec(
    "CREATE ROLE agent LOGIN PASSWORD 'hunter2'; CREATE SCHEMA IF NOT EXISTS cortex; GRANT USAGE ON SCHEMA cortex TO agent; GRANT SELECT ON ALL TABLES IN SCHEMA cortex TO agent",
  );
  await admin.close();
  const at = (password: string) => server.url("postgres").replace("cortex@", "agent@") + `&password=${password}`;
  const ok = cortex(["repos", "--store", at("hunter2"), "--json"]);
  expect(ok.stderr).toBe("");
  expect(ok.code).toBe(0);
  expect(JSON.parse(ok.stdout).store).toContain("&password=***");
  expect(ok.stdout).not.toContain("hunter2");
  const wrong = cortex(["repos", "--store", at("hunter3")]);
  expect(wrong.code).toBe(2);
  expect(wrong.stderr).toContain("password authentication failed");
  expect(wrong.stderr).toContain("&password=***");
  expect(wrong.stderr + wrong.stdout).not.toContain("hunter3");
  const project = tmpProject({ "a.ts": "export const a = 1;\n" });
  try {
    const doctor = cortex(["doctor", "--json", "--root", project.root], { CORTEX_DATABASE_URL: at("hunter2") });
    expect(doctor.stdout + doctor.stderr).not.toContain("hunter2");
    expect(JSON.parse(doctor.stdout).shared_store).toMatchObject({ state: "ready" });
    expect(JSON.parse(doctor.stdout).shared_store.url).toContain("&password=***");
  } finally {
    project.cleanup();
  }
});

test.skipIf(skip !== undefined)("doctor describes the shared store and never shows its password", () => {
  const url = server.url("postgres").replace("cortex@", "cortex:hunter2@");
  const project = tmpProject({ "a.ts": "export const a = 1;\n" });
  try {
    const json = cortex(["doctor", "--json", "--root", project.root], { CORTEX_DATABASE_URL: url });
    expect(json.stdout + json.stderr).not.toContain("hunter2");
    const report = JSON.parse(json.stdout);
    expect(report.shared_store).toMatchObject({ state: "ready", vector: false });
    expect(report.shared_store.url).toContain("cortex:***@");
    expect(report.shared_store.vectors).toContain("pgvector not installed: the store holds no vectors, so each process embeds the chunks it reads");
    expect(report.shared_store.vectors).toContain("searches its own in-memory vector index");
    const text = cortex(["doctor", "--root", project.root], { CORTEX_DATABASE_URL: url });
    expect(text.stdout).toMatch(/Shared store: postgres:\/\/cortex:\*\*\*@\S+ PostgreSQL 15\.\d+[^,]*, \d+ repositories, pgvector not installed/);
    expect(text.stdout + text.stderr).not.toContain("hunter2");

    const down = `postgres://agent:hunter2@localhost/cortex?host=${encodeURIComponent(join(server.dir, "no-such-folder"))}`;
    const unreachable = cortex(["doctor", "--json", "--root", project.root], { CORTEX_DATABASE_URL: down });
    expect(unreachable.stdout + unreachable.stderr).not.toContain("hunter2");
    const r2 = JSON.parse(unreachable.stdout);
    expect(r2.shared_store).toEqual({
      url: "postgres://agent:***@localhost/cortex?host=" + encodeURIComponent(join(server.dir, "no-such-folder")),
      state: "unreachable",
    });
    expect(r2.problems.some((p: { area: string }) => p.area === "store")).toBe(true);
  } finally {
    project.cleanup();
  }
});

test.skipIf(skip !== undefined)("tools answer from the shared store with --repo: one repository, several, all; every hit names its repository", () => {
  const url = server.url("postgres");
  const a = tmpProject({ "main.go": "package main\n\nfunc main() { Help() }\n", "util/util.go": "package util\n\nfunc Help() int { return 1 }\n" });
  const b = tmpProject({ "app.py": "def Help():\n    return 0\n" });
  try {
    expect(cortex(["index", "--repo", "tools-a", a.root, "--store", url]).code).toBe(0);
    expect(cortex(["index", "--repo", "tools-b", b.root, "--store", url]).code).toBe(0);
    const oneRun = cortex(["grep", "Help", "--repo", "tools-a", "--store", url, "--json"]);
    expect(oneRun.stderr).toBe("");
    const one = JSON.parse(oneRun.stdout);
    expect(one.matches.map((m: { file_path: string; line_number: number }) => `${m.file_path}:${m.line_number}`)).toEqual(["main.go:3", "util/util.go:3"]);
    const both = cortex(["grep", "-e", "def|func", "--repo", "tools-a,tools-b", "--json"], { CORTEX_DATABASE_URL: url });
    expect(both.code).toBe(0);
    expect(JSON.parse(both.stdout).matches.map((m: { file_path: string }) => m.file_path)).toEqual([
      "tools-a/main.go",
      "tools-a/util/util.go",
      "tools-b/app.py",
    ]);
    const files = cortex([
      "files",
      JSON.stringify({ from: "files", fields: ["file_path", "language"], orderBy: [{ field: "file_path" }] }),
      "--repo",
      "all",
      "--store",
      url,
      "--json",
    ]);
    expect(files.code).toBe(0);
    const rows = JSON.parse(files.stdout).rows as unknown[][];
    expect(rows.map((r) => r[0])).toEqual(expect.arrayContaining(["tools-a/main.go", "tools-a/util/util.go", "tools-b/app.py"]));
    const missing = cortex(["grep", "Help", "--store", url]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--repo: name the repositories to search");
    // a name the store does not hold is an error listing those it holds, not an empty answer
    const unknown = cortex(["grep", "Help", "--repo", "tools-a,tools-z", "--store", url]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("--repo: unknown repository 'tools-z'");
    expect(unknown.stderr).toMatch(/holds: .*tools-a, tools-b/);
    // symbol look-ups run once per repository, merged, every path <repo>/<path>
    const occurrences = cortex(["occurrences", "Help", "--no-find-references", "--repo", "tools-b,tools-a", "--store", url, "--json"]);
    expect(occurrences.stderr).toBe("");
    expect(JSON.parse(occurrences.stdout).occurrences.map((o: { file_path: string }) => o.file_path)).toEqual(["tools-a/util/util.go", "tools-b/app.py"]);
    // a tool that reads a working tree says so rather than answering from the current folder
    const memory = cortex(["memory", "list", "--repo", "all", "--store", url]);
    expect(memory.code).toBe(2);
    expect(memory.stderr).toContain("get_memory does not work on the shared store");
  } finally {
    a.cleanup();
    b.cleanup();
  }
});

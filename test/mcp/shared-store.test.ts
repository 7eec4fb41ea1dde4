/**
 * `cortex mcp --store URL` serves a shared store's repositories: the real server process over stdio, driven
 * by the MCP SDK's client, against a real PostgreSQL server the test starts (skipped, with the reason
 * printed, only where the machine has no server binaries). Two small repositories are published; tools
 * are called with `repo` naming one, several, all, and names the store does not hold.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { serverSkipReason, startServer, type TestServer } from "../store/postgres/server.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { Session } from "../../src/tools/session.ts";
import { indexLocation } from "../../src/store/location.ts";
import { SharedStore } from "../../src/store/postgres/shared-store.ts";
import { TOOLS } from "../../src/tools/index.ts";
import { connectPostgres } from "../../src/store/postgres/client.ts";

// starts a database, indexes two projects and starts server processes: seconds each on a busy machine
setDefaultTimeout(120_000);

const skip = serverSkipReason();
if (skip !== undefined) console.warn(`skipping the PostgreSQL server tests: ${skip}`);
const MAIN = join(import.meta.dir, "..", "..", "src", "cli", "main.ts");

const PAYMENTS = {
  "charge.go": "package payments\n\n// Charge bills a card.\nfunc Charge(amount int) int { return ParseHeader(amount) }\n",
  "header.go": "package payments\n\n// ParseHeader reads the amount header.\nfunc ParseHeader(v int) int { return v }\n",
};
const WEB = {
  "server.ts": 'import { ParseHeader } from "./header.ts";\n\nexport function serve(raw: string): string {\n  return ParseHeader(raw);\n}\n',
  "header.ts": "// ParseHeader reads a header line\nexport function ParseHeader(line: string): string {\n  return line.trim();\n}\n",
};

let server: TestServer;
let url: string;
let work: TmpProject;
const projects: TmpProject[] = [];

async function publish(name: string, files: Record<string, string>): Promise<void> {
  const p = tmpProject(files);
  projects.push(p);
  const session = new Session(p.root);
  await session.index();
  session.close();
  const store = SharedStore.connect(url);
  try {
    await store.publish(name, indexLocation(p.root).current()!);
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  // the folder the server runs in: a project of its own, which a shared-store server must not read
  work = tmpProject({ "local.go": "package local\n\nfunc ParseHeader() {}\n" });
  if (skip !== undefined) return;
  server = startServer();
  url = server.url("postgres");
  await publish("payments", PAYMENTS);
  await publish("web", WEB);
});

afterAll(() => {
  for (const p of projects) p.cleanup();
  work?.cleanup();
  server?.stop();
});

interface Running {
  client: Client;
  stderr: () => string;
  close(): Promise<void>;
}

async function serve(args: string[], env: Record<string, string> = {}): Promise<Running> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, "mcp", "--root", work.root, "--tools", "all", ...args],
    env: { ...(process.env as Record<string, string>), CORTEX_DATABASE_URL: "", ...env },
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: "shared-store-test", version: "1" });
  await client.connect(transport);
  return { client, stderr: () => err, close: () => client.close() };
}

interface ToolAnswer {
  isError: boolean;
  text: string;
  json: any;
}

async function call(c: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const r = (await c.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ text: string }> };
  const text = r.content[0]!.text;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {}
  return { isError: r.isError === true, text, json };
}

/** The files a cortex_exact answer hits (one result per matching line). */
const exactPaths = (a: ToolAnswer) => [...new Set((a.json.results as Array<{ file_path: string }>).map((h) => h.file_path))].sort();

describe.skipIf(skip !== undefined)("cortex mcp --store", () => {
  let s: Running;
  beforeAll(async () => {
    s = await serve(["--store", url]);
  });
  afterAll(() => s?.close());

  test("lists the tools that read the store, each with an optional repo argument; tools that write or read a working tree are left out", async () => {
    const { tools } = await s.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["cortex_exact", "cortex_search", "search_text_pattern", "find_symbol_occurrences", "get_indexing_status"]));
    for (const gone of ["cortex_pattern", "remember", "get_memory", "refresh_index"]) expect(names).not.toContain(gone);
    for (const t of tools) {
      const repo = (t.inputSchema.properties as Record<string, { description?: string }>).repo;
      expect(`${t.name}: ${repo?.description?.slice(0, 38)}`).toBe(`${t.name}: Which repositories of the shared store`);
      expect(t.inputSchema.required ?? []).not.toContain("repo");
      expect(t.description).toContain("On this shared store 'repo'");
    }
  });

  test("the instructions describe a shared store: <repo>/<path> over several repositories, nothing stale, no project root", () => {
    const said = s.client.getInstructions() ?? "";
    expect(said).toStartWith("cortex answers questions about the repositories of a shared store. Pick the tool by the question: ");
    expect(said).toContain("a regular expression → search_text_pattern");
    expect(said).toContain(
      "With one repository paths\nare relative to its root; with more than one every path is <repo>/<path>, in results and in path filters.",
    );
    expect(said).toContain("never marked 'stale'");
    expect(said).toContain("(default: all of them)");
    // the local server's words, untrue here
    expect(said).not.toContain("relative to the project root");
    expect(said).not.toContain("carry 'stale'");
    expect(said).not.toContain("this codebase");
  });

  test("every listed tool answers its own example over one repository, and over all", async () => {
    const { tools } = await s.client.listTools();
    // (cortex_graph's example names a definition these repositories do not have: it says so, as a local server would)
    const verdict = (a: ToolAnswer) => (!a.isError ? "ok" : a.text === "target: no definition named 'auth.Login'" ? "ok" : a.text);
    for (const t of tools) {
      const tool = TOOLS.find((x) => x.name === t.name)!;
      const one = await call(s.client, t.name, { ...(tool.example as Record<string, unknown>), repo: "payments" });
      expect(`${t.name}: ${verdict(one)}`).toBe(`${t.name}: ok`);
      // over several repositories path filters are <repo>/<path>: the examples' own paths name none
      const { target_paths: _, ...pathless } = tool.example as Record<string, unknown>;
      const all = await call(s.client, t.name, { ...pathless, repo: "all" });
      expect(`${t.name} over all: ${verdict(all)}`).toBe(`${t.name} over all: ok`);
    }
  });

  test("repo names one repository: its hits only, with the repository's own paths", async () => {
    const a = await call(s.client, "cortex_exact", { query: "ParseHeader", repo: "payments" });
    expect(a.isError).toBe(false);
    expect(exactPaths(a)).toEqual(["charge.go", "header.go"]);
    const b = await call(s.client, "cortex_exact", { query: "parseHeader", repo: "web" });
    expect(exactPaths(b)).toEqual(["header.ts", "server.ts"]);
  });

  test("repo names several (an array or commas) or all: every hit names its repository as <repo>/<path>", async () => {
    const expected = ["payments/charge.go", "payments/header.go", "web/header.ts", "web/server.ts"];
    for (const repo of [["payments", "web"], "web,payments", "all"]) {
      const a = await call(s.client, "cortex_exact", { query: "parseheader", repo });
      expect(a.isError).toBe(false);
      expect(exactPaths(a)).toEqual(expected);
    }
    // without repo and without --repo the server reads every repository, never the folder it runs in
    const dflt = await call(s.client, "cortex_exact", { query: "parseheader" });
    expect(exactPaths(dflt)).toEqual(expected);

    const grep = await call(s.client, "search_text_pattern", { query: "func \\w+", is_regex: true, repo: "all", context_lines: 0 });
    const matches = grep.json.matches as Array<{ file_path: string; stale?: boolean }>;
    expect(matches.map((m) => m.file_path).sort()).toEqual(["payments/charge.go", "payments/header.go"]);
    // the files are not on this machine: a hit is never called stale for that
    expect(matches.every((m) => m.stale === undefined)).toBe(true);

    // path filters name files as results do, <repo>/<path>, and need no such folder on disk
    const filtered = await call(s.client, "search_text_pattern", { query: "parseHeader", repo: "all", target_paths: ["web/header.ts"], context_lines: 0 });
    expect(filtered.json.status).toBe("success");
    expect((filtered.json.matches as Array<{ file_path: string }>).map((m) => m.file_path)).toEqual(["web/header.ts", "web/header.ts"]);

    const search = await call(s.client, "cortex_search", { query: "parse header", mode: "keyword", repo: ["payments", "web"] });
    const files = new Set((search.json.results as Array<{ chunk: { metadata: { file_path: string } } }>).map((r) => r.chunk.metadata.file_path));
    expect([...files].every((f) => f.startsWith("payments/") || f.startsWith("web/"))).toBe(true);
    expect([...files].some((f) => f.startsWith("payments/"))).toBe(true);
    expect([...files].some((f) => f.startsWith("web/"))).toBe(true);
  });

  test("symbol look-ups and graphs read the whole scope, every path <repo>/<path>", async () => {
    const one = await call(s.client, "find_symbol_occurrences", { symbol_name: "ParseHeader", repo: "payments" });
    expect(one.isError).toBe(false);
    const occ = one.json.occurrences as Array<{ file_path: string; type: string; line_number: number }>;
    expect(occ.map((o) => `${o.type} ${o.file_path}:${o.line_number}`)).toEqual(["definition header.go:4", "reference charge.go:4"]);

    // "who uses this, in any repository": a Go function and a TypeScript one of the same name
    for (const repo of ["all", ["payments", "web"], undefined]) {
      const many = await call(s.client, "find_symbol_occurrences", { symbol_name: "ParseHeader", ...(repo ? { repo } : {}) });
      expect(many.isError).toBe(false);
      const found = many.json.occurrences as Array<{ file_path: string; type: string }>;
      expect(found.filter((o) => o.type === "definition").map((o) => o.file_path)).toEqual(["payments/header.go", "web/header.ts"]);
      expect(new Set(found.map((o) => o.file_path))).toEqual(new Set(["payments/header.go", "payments/charge.go", "web/header.ts", "web/server.ts"]));
      expect(many.json.occurrence_count).toBe(found.length);
    }
    // path filters are <repo>/<path>: a repository none of them names is not asked
    const filtered = await call(s.client, "find_symbol_occurrences", { symbol_name: "ParseHeader", target_paths: ["web/server.ts"] });
    expect((filtered.json.occurrences as Array<{ file_path: string }>).map((o) => o.file_path)).toEqual(["web/server.ts", "web/server.ts"]);
    const nowhere = await call(s.client, "find_symbol_occurrences", { symbol_name: "ParseHeader", target_paths: ["server.ts"] });
    expect(nowhere.text).toBe(
      "invalid arguments: target_paths: 'server.ts' is in none of the repositories payments, web: over several, paths are <repo>/<path>",
    );

    const refs = await call(s.client, "get_symbol_references", { symbol: "ParseHeader", repo: "all" });
    expect(refs.isError).toBe(false);
    expect(refs.json.definitions.map((d: { file: string }) => d.file)).toEqual(["payments/header.go", "web/header.ts"]);
    expect(refs.json.usages.map((u: { file: string }) => u.file).sort()).toEqual(["payments/charge.go", "web/server.ts", "web/server.ts"]);
    expect(refs.json.usageCount).toBe(3);
    const own = await call(s.client, "get_symbol_references", { symbol: "ParseHeader", repo: "web" });
    expect(own.json.usages.map((u: { file: string }) => u.file)).toEqual(["server.ts", "server.ts"]);

    const graph = await call(s.client, "cortex_graph", { operation: "callers", target: "ParseHeader", repo: "payments" });
    expect(graph.isError).toBe(false);
    expect(JSON.stringify(graph.json.edges)).toContain("charge.go");
    const graphs = await call(s.client, "cortex_graph", { operation: "callers", target: "ParseHeader", repo: "all" });
    expect(graphs.isError).toBe(false);
    expect(JSON.stringify(graphs.json.edges)).toContain("payments/charge.go");
    expect(JSON.stringify(graphs.json)).toContain("web/");
  });

  test("an unknown repository is an error naming it and listing the store's repositories", async () => {
    const one = await call(s.client, "cortex_exact", { query: "x", repo: "paymnts" });
    expect(one.isError).toBe(true);
    expect(one.text).toBe(
      `invalid arguments: repo: unknown repository 'paymnts'; postgres://cortex@localhost/postgres?host=${encodeURIComponent(server.dir)} holds: payments, web`,
    );
    const two = await call(s.client, "cortex_search", { query: "x", repo: ["web", "nope", "zz"] });
    expect(two.isError).toBe(true);
    expect(two.text).toContain("unknown repositories 'nope', 'zz'; ");
    expect(two.text).toEndWith("holds: payments, web");
    const bad = await call(s.client, "cortex_exact", { query: "x", repo: 42 });
    expect(bad.text).toBe('invalid arguments: repo: must be a repository name, an array of names, or "all"');
  });

  test("status, metadata, team patterns and the context resource describe the repositories; tools that cannot work on a store say why", async () => {
    const st = await call(s.client, "get_indexing_status", {});
    expect(st.json.repos.map((r: { name: string; generation: number; files: number }) => [r.name, r.generation, r.files])).toEqual([
      ["payments", 1, 2],
      ["web", 1, 2],
    ]);
    const one = await call(s.client, "get_indexing_status", { repo: "web" });
    expect(one.json.repos.map((r: { name: string }) => r.name)).toEqual(["web"]);
    // what describes the project describes the repositories, never the folder the server runs in
    const meta = await call(s.client, "get_codebase_metadata", { repo: ["web", "payments"] });
    expect(meta.json).toMatchObject({ name: "payments, web", root: `postgres://cortex@localhost/postgres?host=${encodeURIComponent(server.dir)}` });
    expect(meta.json.languages.map((l: { language: string }) => l.language).sort()).toEqual(["go", "typescript"]);
    const patterns = await call(s.client, "get_team_patterns", {});
    expect(patterns.json.history).toEqual({ unavailable: "a shared store holds indexes, not git history" });
    const resource = await s.client.readResource({ uri: "codebase://context" });
    const overview = (resource.contents[0] as { text: string }).text;
    expect(overview).toContain("# Shared store postgres://cortex@localhost/");
    expect(overview).toContain("Repositories: payments (generation 1), web (generation 1)");
    expect(overview).toContain("Size: 4 files");
    expect(overview).not.toContain(work.root);

    const remember = await call(s.client, "remember", { type: "decision", category: "x", memory: "y", reason: "z" });
    expect(remember.isError).toBe(true);
    expect(remember.text).toStartWith("remember does not work on this server, which reads a shared store: ");
    const pattern = await call(s.client, "cortex_pattern", { pattern: "func $F() {}" });
    expect(pattern.text).toContain("use cortex_exact or search_text_pattern across repositories");
  });
});

describe.skipIf(skip !== undefined)("cortex mcp --store --repo", () => {
  test("--repo sets the default scope; a call's repo overrides it; CORTEX_DATABASE_URL names the store", async () => {
    const s = await serve(["--repo", "web"], { CORTEX_DATABASE_URL: url });
    try {
      expect(s.stderr()).toContain("default repositories: web");
      expect(exactPaths(await call(s.client, "cortex_exact", { query: "parseheader" }))).toEqual(["header.ts", "server.ts"]);
      expect(exactPaths(await call(s.client, "cortex_exact", { query: "parseheader", repo: "payments" }))).toEqual(["charge.go", "header.go"]);
      const refs = await call(s.client, "get_symbol_references", { symbol: "ParseHeader" });
      expect(refs.isError).toBe(false);
    } finally {
      await s.close();
    }
  });

  test("a --repo naming an unknown repository stops the server at start, naming it; the URL's password is never shown", () => {
    // trust authentication ignores the password: it is here to be masked
    const secret = url.replace("cortex@", "cortex:hunter2@");
    const r = spawnSync(process.execPath, [MAIN, "mcp", "--root", work.root, "--store", secret, "--repo", "web,paymnts"], {
      encoding: "utf8",
      input: "",
      timeout: 60_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--repo: unknown repository 'paymnts'; postgres://cortex:***@localhost/");
    expect(r.stderr).toContain("holds: payments, web");
    expect(r.stderr + r.stdout).not.toContain("hunter2");
  });
});

describe.skipIf(skip !== undefined)("cortex mcp --store, the store unusable", () => {
  test("a wrong password stops the server at start with the store's message (exit 2), never claiming to serve, the password never shown", async () => {
    // the test server asks every role but its superuser for a password
    const admin = connectPostgres(url);
    await admin.exec("CREATE ROLE agent_mcp LOGIN PASSWORD 'hunter2'");
    await admin.close();
    for (const store of [url.replace("cortex@", "agent_mcp:hunter3@"), `${url.replace("cortex@", "agent_mcp@")}&password=hunter3`]) {
      const r = spawnSync(process.execPath, [MAIN, "mcp", "--root", work.root, "--store", store], { encoding: "utf8", input: "", timeout: 60_000 });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('password authentication failed for user "agent_mcp"');
      expect(r.stderr).not.toContain("serving the shared store");
      expect(r.stderr + r.stdout).not.toContain("hunter3");
    }
  });
});

describe.skipIf(skip !== undefined)("cortex mcp --store while the store changes", () => {
  test("a repository published after the server started is found by path filters over all; removed, it is no longer listed", async () => {
    const s = await serve(["--store", url]);
    try {
      // the server has read the store's names (payments, web) for this call
      const before = await call(s.client, "search_text_pattern", { query: "ParseHeader", target_paths: ["web/header.ts"], context_lines: 0 });
      expect(before.isError).toBe(false);
      await publish("json", { "src/decode.go": "package json\n\n// Deserializer reads values.\ntype Deserializer struct{}\n" });
      // a path filter naming the new repository: the names are read again on the miss, not refused
      const filtered = await call(s.client, "search_text_pattern", { query: "Deserializer", target_paths: ["json/src"], context_lines: 0 });
      expect(filtered.text).not.toContain("is in none of the repositories");
      expect((filtered.json.matches as Array<{ file_path: string }>).map((m) => m.file_path)).toEqual(["json/src/decode.go", "json/src/decode.go"]);
      // a path naming no repository at all is still refused, the new one listed
      const nowhere = await call(s.client, "search_text_pattern", { query: "Deserializer", target_paths: ["jsn/src"] });
      expect(nowhere.text).toBe(
        "invalid arguments: target_paths: 'jsn/src' is in none of the repositories json, payments, web: over several, paths are <repo>/<path>",
      );
      const one = await call(s.client, "cortex_exact", { query: "Deserializer", repo: "json" });
      expect(exactPaths(one)).toEqual(["src/decode.go"]);

      // removed while the server serves the store: it stops listing it and goes on answering without it
      const removed = spawnSync(process.execPath, [MAIN, "repos", "remove", "json", "--store", url], { encoding: "utf8", timeout: 60_000 });
      expect(removed.stdout).toStartWith("removed json (generation 1, 1 file) from ");
      const status = await call(s.client, "get_indexing_status", {});
      expect(status.json.repos.map((r: { name: string }) => r.name)).toEqual(["payments", "web"]);
      const all = await call(s.client, "search_text_pattern", { query: "Deserializer|ParseHeader", is_regex: true, context_lines: 0 });
      expect(all.isError).toBe(false);
      expect([...new Set((all.json.matches as Array<{ file_path: string }>).map((m) => m.file_path))].sort()).toEqual([
        "payments/charge.go",
        "payments/header.go",
        "web/header.ts",
        "web/server.ts",
      ]);
      const gone = await call(s.client, "cortex_exact", { query: "Deserializer", repo: "json" });
      expect(gone.isError).toBe(false);
      expect(gone.json.results).toEqual([]);
      // the names the server read are read again after a few seconds: then "json" is an unknown name
      await Bun.sleep(5500);
      const unknown = await call(s.client, "cortex_exact", { query: "Deserializer", repo: "json" });
      expect(unknown.text).toEndWith("unknown repository 'json'; " + `${url} holds: payments, web`);
    } finally {
      await s.close();
    }
  });
});

describe("cortex mcp without a store", () => {
  test("lists no repo argument, and a call passing one says a shared store is needed", async () => {
    const s = await serve([]);
    try {
      const { tools } = await s.client.listTools();
      for (const t of tools) expect(Object.keys(t.inputSchema.properties ?? {})).not.toContain("repo");
      const r = await call(s.client, "cortex_exact", { query: "ParseHeader", repo: "payments" });
      expect(r.isError).toBe(true);
      expect(r.text).toContain("invalid arguments: repo: this server reads the index of one project");
      expect(r.text).toContain("needs a shared store: start the server with 'cortex mcp --store postgres://…' or with CORTEX_DATABASE_URL set");
    } finally {
      await s.close();
    }
  });

  test("--repo without a store is refused at start", () => {
    const project = tmpProject({ "a.go": "package a\n" });
    try {
      const r = spawnSync(process.execPath, [MAIN, "mcp", "--root", project.root, "--repo", "web"], {
        encoding: "utf8",
        input: "",
        env: { ...process.env, CORTEX_DATABASE_URL: "" },
        timeout: 60_000,
      });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain("--repo needs a shared store");
    } finally {
      project.cleanup();
    }
  });
});

/**
 * A client that is not our own: the official MCP Inspector (@modelcontextprotocol/inspector, CLI mode)
 * drives the built executable over stdio and over Streamable HTTP. It lists the tools and calls every tool
 * of the registry once per transport on a small shop project, and each answer is checked for what it
 * should find there (a search finds the invoice code, a symbol lookup its definition, the cycle check the
 * cycle), not only for the absence of an error.
 *
 * The Inspector declares Node >= 22.19 but runs under Node 20 and under Bun alike; it runs here under the
 * project's Bun, so the test does not depend on which Node a machine has. Over stdio it starts the server
 * itself, one process per call (`mcp-inspector --cli <command> …`), handing it only a few environment
 * variables: the sandbox's HOME and CORTEX_HOME travel as `-e` flags.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { sandbox, useTinyModel, type Sandbox } from "./executable.ts";
import { startHttpServer, type HttpServer } from "./http-server.ts";
import { shopProject } from "../helpers/shop-project.ts";
import type { TmpProject } from "../helpers/tmp-project.ts";
import { TOOLS } from "../../src/tools/index.ts";

const INSPECTOR_PACKAGE = join(import.meta.dir, "../../node_modules/@modelcontextprotocol/inspector/package.json");
const INSPECTOR = join(dirname(INSPECTOR_PACKAGE), JSON.parse(readFileSync(INSPECTOR_PACKAGE, "utf8")).bin["mcp-inspector"]);
/** Inspector processes at once: each is a runtime start (plus, over stdio, a server start) on shared cores. */
const PARALLEL = 4;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;
type Transport = "stdio" | "http";

interface Case {
  args: Record<string, unknown>;
  /** What the answer must hold on the shop project. */
  check(body: Body, transport: Transport): void;
}

const distinctFiles = (rows: Array<Record<string, unknown>>, key = "file_path") => [...new Set(rows.map((r) => r[key] as string))].sort();

/** One call per tool of the registry; a tool added without a case here fails the test. */
const CASES: Record<string, Case> = {
  cortex_search: {
    args: { query: "invoice totals", limit: 5 },
    check(b) {
      expect(b.results[0].chunk.id).toBe("definitions:billing/invoice.go#Total");
    },
  },
  cortex_files: {
    args: {
      query: { from: "files", aggregations: [{ function: "COUNT", alias: "n" }], groupBy: ["language"], orderBy: [{ field: "language", direction: "ASC" }] },
    },
    check(b) {
      expect(b.columns).toEqual(["language", "n"]);
      expect(b.rows).toEqual([
        ["editorconfig", 1],
        ["go", 12],
        ["go-module", 1],
        ["markdown", 1],
        ["python", 9],
      ]);
    },
  },
  cortex_exact: {
    args: { query: "shipping.Rate", limit: 20, context_lines: 0 },
    check(b) {
      expect(distinctFiles(b.results)).toEqual(["inbound", "outbound", "pallets", "returns", "samples"].map((n) => `warehouse/${n}.go`));
      expect(b.results.every((r: Body) => r.line === "\t\tc += shipping.Rate(w)")).toBe(true);
    },
  },
  search_text_pattern: {
    args: { query: 'fmt\\.Errorf\\(".*%w"', is_regex: true, context_lines: 0 },
    check(b) {
      expect(b.status).toBe("success");
      expect(b.matches.map((m: Body) => `${m.file_path}:${m.line_number}`)).toEqual(["billing/invoice.go:20", "orders/checkout.go:14", "payments/refund.go:8"]);
    },
  },
  cortex_pattern: {
    args: { pattern: "errors.Wrap($ERR, $MSG)", language: "go", context_lines: 0 },
    check(b) {
      expect(b.total).toBe(1);
      expect(b.matches[0]).toMatchObject({ file_path: "payments/charge.go", start_line: 9, metavars: { ERR: "err", MSG: '"charge card payment"' } });
    },
  },
  search_semantic_concept: {
    args: { concept_description: "compute the sum total", top_n_results: 3 },
    check(b) {
      // Over HTTP the server lives on and the tiny model is loaded before the call (see beforeAll). Over
      // stdio every Inspector call is a fresh process: the concept search loads the model itself and waits
      // for it within the call, so it ranks by meaning there too.
      expect(b.status).toBe("success");
      expect(b.results[0].file_path).toBe("billing/invoice.go");
    },
  },
  get_codebase_metadata: {
    args: {},
    check(b) {
      expect(b.name).toBe("example.com/shop");
      expect(b.languages.map((l: Body) => [l.language, l.files])).toEqual([
        ["go", 12],
        ["python", 9],
        ["markdown", 1],
        ["editorconfig", 1],
        ["go-module", 1],
      ]);
      expect(b.dependencies).toEqual([expect.objectContaining({ ecosystem: "go", name: "github.com/pkg/errors", version: "v0.9.1" })]);
    },
  },
  get_style_guide: {
    args: {},
    check(b) {
      expect(b.rules.map((r: Body) => [r.rule, r.source.file, r.source.line])).toEqual([
        ["Indent with tabs (files *.go)", ".editorconfig", 4],
        ["Run gofmt on every Go file before committing.", "CONTRIBUTING.md", 5],
        ["Wrap errors with fmt.Errorf and %w, never pkg/errors.", "CONTRIBUTING.md", 6],
      ]);
    },
  },
  get_team_patterns: {
    args: { category: "errors" },
    check(b) {
      const wrapping = b.groups.find((g: Body) => g.id === "go-error-wrapping");
      expect(wrapping).toMatchObject({ conflict: true, preferred: "fmt.Errorf with %w" });
      expect(wrapping.patterns.map((p: Body) => [p.name, p.files])).toEqual([
        ["fmt.Errorf with %w", 3],
        ["pkg/errors", 1],
      ]);
    },
  },
  get_indexing_status: {
    args: {},
    check(b) {
      // each stdio call is a new server, whose first freshness run starts as the client initializes: the
      // index answers meanwhile, so the state is ready either way (updating: true while that run holds it)
      expect(b.state).toBe("ready");
      expect(b.languages).toEqual({ go: 12, python: 9, markdown: 1, editorconfig: 1, "go-module": 1 });
      expect(b.changed_since_index).toMatchObject({ modified: 0, added: 0, deleted: 0 });
    },
  },
  refresh_index: {
    args: { incremental: true, reason: "inspector e2e" },
    check(b) {
      expect(b).toMatchObject({ mode: "incremental", files: 24, reason: "inspector e2e", errors: [] });
    },
  },
  remember: {
    args: { type: "gotcha", category: "shipping", memory: "Rate prices a weightless parcel at 0 cents", reason: "seen by the Inspector" },
    check(b) {
      expect(["created", "exists"]).toContain(b.status);
      expect(b.memory).toMatchObject({ type: "gotcha", category: "shipping", memory: "Rate prices a weightless parcel at 0 cents" });
    },
  },
  get_memory: {
    args: { category: "payments" },
    check(b) {
      expect(b.memories.map((m: Body) => m.id)).toEqual(["m-fail"]);
      expect(b.memories[0].memory).toBe("A retried refund once paid a card payment back twice");
    },
  },
  find_symbol_occurrences: {
    args: { symbol_name: "billing.Total" },
    check(b) {
      expect(b.status).toBe("success");
      expect(b.occurrences.map((o: Body) => `${o.type} ${o.file_path}:${o.line_number}`)).toEqual([
        "definition billing/invoice.go:16",
        "reference billing/invoice_test.go:6",
        "reference orders/checkout.go:12",
      ]);
    },
  },
  get_symbol_references: {
    args: { symbol: "shipping.Rate" },
    check(b) {
      expect(b.usageCount).toBe(5);
      expect(distinctFiles(b.usages, "file")).toEqual(["inbound", "outbound", "pallets", "returns", "samples"].map((n) => `warehouse/${n}.go`));
      expect(b.definitions).toEqual([expect.objectContaining({ fqn: "shipping.Rate", file: "shipping/rates.go", line: 5 })]);
    },
  },
  cortex_graph: {
    args: { operation: "callers", target: "billing.Total" },
    check(b) {
      expect(b.edges.map((e: Body) => e.from.name).sort()).toEqual(["billing.TestTotal", "orders.Checkout"]);
    },
  },
  detect_circular_dependencies: {
    args: {},
    check(b) {
      expect(b.count).toBe(1);
      expect(b.cycles[0].files).toEqual(["cyclic/a.py", "cyclic/b.py", "cyclic/a.py"]);
      expect(b.cycles[0].imports.map((i: Body) => i.statement)).toEqual(["from cyclic.b import g", "from cyclic.a import f"]);
    },
  },
  search_codebase: {
    args: { query: "where invoices are totalled", intent: "edit", limit: 3 },
    check(b) {
      expect(b.results[0]).toMatchObject({ file: "billing/invoice.go", symbol: "Total", relationships: { hasTests: true } });
      expect(b.results[0].hints.callers).toContain("orders/checkout.go");
      expect(b.relatedMemories.map((m: Body) => m.id)).toContain("m-conv");
      expect(typeof b.preflight.ready).toBe("boolean");
    },
  },
};

interface Run {
  code: number;
  /** The Inspector's JSON answer on stdout (`{"result": …}`), or undefined when it printed none. */
  json: Body;
  /** Its stderr and stdout, for failure messages. */
  output: string;
}

let sb: Sandbox;
let p: TmpProject;
let inspectorHome = "";
let server: HttpServer | undefined;

/** Runs the Inspector CLI once against a server: `target` is the stdio command or the HTTP URL. */
async function inspector(target: string[], args: string[]): Promise<Run> {
  const proc = Bun.spawn([process.execPath, INSPECTOR, "--cli", ...target, ...args, "--format", "json"], {
    env: { HOME: inspectorHome, PATH: sb.env.PATH!, TMPDIR: process.env.TMPDIR! },
    cwd: inspectorHome,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  let json: Body;
  try {
    json = JSON.parse(out);
  } catch {
    json = undefined;
  }
  return { code, json, output: `${stderr}\n${out}` };
}

function target(transport: Transport): string[] {
  if (transport === "http") return [server!.url];
  const env = Object.entries(sb.env).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
  return [sb.exe, "mcp", "--root", p.root, "--tools", "all", ...env];
}

const callArgs = (tool: string) => ["--method", "tools/call", "--tool-name", tool, "--tool-args-json", JSON.stringify(CASES[tool]!.args)];

/** A tool result's body: the structured content, or the JSON of its text. */
function body(run: Run): Body {
  const result = run.json?.result;
  return result?.structuredContent ?? JSON.parse(result.content[0].text);
}

/** Runs the jobs at most PARALLEL at a time. */
function limited<T>(jobs: Array<() => Promise<T>>): Promise<T>[] {
  let active = 0;
  const waiting: Array<() => void> = [];
  return jobs.map(async (job) => {
    if (active >= PARALLEL) await new Promise<void>((go) => waiting.push(go));
    active++;
    try {
      return await job();
    } finally {
      active--;
      waiting.shift()?.();
    }
  });
}

/** Every Inspector run of the file, started once: tools/list and one tools/call per tool per transport. */
const runs = new Map<string, Promise<Run>>();
type Job = [name: string, run: () => Promise<Run>];

/** Starts the jobs once `after` has settled, at most PARALLEL at a time; settles when all have. */
function schedule(jobs: Job[], after: Promise<unknown>): Promise<unknown> {
  const started = limited(
    jobs.map(
      ([, run]) =>
        () =>
          after.then(run),
    ),
  );
  started.forEach((run, i) => runs.set(jobs[i]![0], run));
  return Promise.allSettled(started);
}

/**
 * Waits, through the Inspector, until the HTTP server ranks by embeddings: the model loads on the first
 * query that needs it, and until then search answers by keywords with embeddings "partial".
 */
async function untilEmbeddingsReady(): Promise<void> {
  const until = Date.now() + 30_000;
  let last = "";
  while (Date.now() < until) {
    const r = await inspector(target("http"), [
      "--method",
      "tools/call",
      "--tool-name",
      "cortex_search",
      "--tool-args-json",
      JSON.stringify({ query: "warm up", limit: 1 }),
    ]);
    last = r.code === 0 ? body(r).embeddings : r.output;
    if (last === "ready") return;
    await Bun.sleep(100);
  }
  throw new Error(`embeddings never became ready over HTTP: ${last}`);
}

beforeAll(async () => {
  sb = await sandbox();
  inspectorHome = join(dirname(sb.home), "inspector-home");
  mkdirSync(inspectorHome, { recursive: true });
  p = shopProject();
  // what the shop lacks for two tools: an import cycle and style rules
  p.write("cyclic/a.py", "from cyclic.b import g\n\n\ndef f():\n    return g()\n");
  p.write("cyclic/b.py", "from cyclic.a import f\n\n\ndef g():\n    return 1\n");
  p.write(
    "CONTRIBUTING.md",
    "# Contributing\n\n## Style\n\n- Run gofmt on every Go file before committing.\n- Wrap errors with fmt.Errorf and %w, never pkg/errors.\n",
  );
  p.write(".editorconfig", "root = true\n\n[*.go]\nindent_style = tab\n");
  useTinyModel(p.root, sb);
  // indexed with embeddings beforehand, as a user would: a one-shot stdio call then finds the index ready
  const index = Bun.spawnSync([sb.exe, "index", p.root, "--embed", "--json"], { env: sb.env });
  if (index.exitCode !== 0) throw new Error(`cortex index failed: ${index.stderr}`);
  server = await startHttpServer(sb, p.root, ["--tools", "all"]);
  await untilEmbeddingsReady();

  // The read-only calls first, several at a time; then the tools that write (refresh_index, remember), so
  // that no read-only answer depends on whether a refresh happened to be running when it was asked.
  const t0 = performance.now();
  const list = (transport: Transport): Job => [`${transport} tools/list`, () => inspector(target(transport), ["--method", "tools/list", "--strict"])];
  const calls = (transport: Transport, readOnly: boolean): Job[] =>
    TOOLS.filter((t) => t.annotations.readOnlyHint === readOnly && CASES[t.name]).map((t) => [
      `${transport} ${t.name}`,
      () => inspector(target(transport), callArgs(t.name)),
    ]);
  const reads = schedule([list("stdio"), list("http"), ...calls("stdio", true), ...calls("http", true)], Promise.resolve());
  const writes = schedule([...calls("stdio", false), ...calls("http", false)], reads);
  void writes.then(() => console.error(`inspector: ${runs.size} runs in ${Math.round(performance.now() - t0)} ms`));
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(runs.values());
  await server?.stop();
  p?.cleanup();
});

test("every tool of the registry has a case here", () => {
  expect(Object.keys(CASES).sort()).toEqual(TOOLS.map((t) => t.name).sort());
});

for (const transport of ["stdio", "http"] as const) {
  describe(`the MCP Inspector over ${transport === "http" ? "Streamable HTTP" : "stdio"}`, () => {
    test("tools/list names every tool of the registry, and the Inspector's schema check finds no errors", async () => {
      const run = await runs.get(`${transport} tools/list`)!;
      // --strict exits 6 when a tool schema has an error-severity portability problem
      expect(`exit ${run.code}`, run.output).toBe("exit 0");
      const tools = run.json.result.tools as Array<{ name: string; inputSchema: { type: string } }>;
      expect(tools.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => t.name).sort());
      expect(tools.every((t) => t.inputSchema.type === "object")).toBe(true);
    }, 60_000);

    for (const tool of TOOLS) {
      test(`tools/call ${tool.name}`, async () => {
        const c = CASES[tool.name];
        expect(c, `no case for ${tool.name}`).toBeDefined();
        const run = await runs.get(`${transport} ${tool.name}`)!;
        expect(`exit ${run.code}`, run.output).toBe("exit 0");
        expect(run.json.result.isError).toBeFalsy();
        c!.check(body(run), transport);
      }, 60_000);
    }
  });
}

test("the memories remembered over both transports are in .cortex/memory.json once", async () => {
  await Promise.all([runs.get("stdio remember"), runs.get("http remember")]);
  const saved = JSON.parse(readFileSync(join(p.root, ".cortex", "memory.json"), "utf8")).memories as Array<{ memory: string }>;
  expect(saved.filter((m) => m.memory === "Rate prices a weightless parcel at 0 cents").length).toBe(1);
  expect(saved.length).toBe(4);
}, 60_000);

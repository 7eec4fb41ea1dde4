/**
 * find_symbol_occurrences, get_symbol_references, cortex_graph and detect_circular_dependencies through
 * the same path MCP and the CLI take (schema validation, handler, output budget), over the Go, Python
 * and JavaScript truth fixtures indexed for real; and the CLI spellings of refs, graph and cycles.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { Session } from "../../src/tools/session.ts";
import { findTool } from "../../src/tools/index.ts";
import { invokeTool } from "../../src/tools/invoke.ts";
import { isCortexError } from "../../src/core/errors.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "graph");
const CLI = join(import.meta.dir, "../../src/cli/main.ts");
let p: TmpProject;
let session: Session;

async function call(tool: string, args: Record<string, unknown>): Promise<any> {
  return invokeTool(findTool(tool)!, args, { session, signal: new AbortController().signal, deadline: Date.now() + 30_000 });
}

async function failure(tool: string, args: Record<string, unknown>): Promise<{ code: string; message: string }> {
  try {
    await call(tool, args);
  } catch (e) {
    if (isCortexError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error("expected a failure");
}

async function cortex(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([process.execPath, CLI, ...args], { cwd: p.root, stdout: "pipe", stderr: "pipe", env: { ...process.env } });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

beforeAll(async () => {
  p = tmpProject();
  for (const lang of ["go", "python", "javascript"]) cpSync(join(FIXTURES, lang), join(p.root, lang), { recursive: true });
  session = new Session(p.root, { autoIndex: true });
  await session.index();
});
afterAll(() => {
  session.close();
  p.cleanup();
});

describe("find_symbol_occurrences", () => {
  test("a qualified name gives its definition and the references resolved to it, never comments", async () => {
    const r = await call("find_symbol_occurrences", { symbol_name: "ledger.Account.Withdraw" });
    expect(r.status).toBe("success");
    expect(r.occurrences.map((o: any) => [o.file_path, o.line_number, o.column_number, o.type, o.symbol_fqn, o.resolution ?? ""])).toEqual([
      ["go/ledger/ledger.go", 33, 1, "definition", "ledger.Account.Withdraw", ""],
      ["go/service/transfer.go", 19, 16, "reference", "ledger.Account.Withdraw", "name-only"],
    ]);
    expect(r.occurrences[0].snippet).toBe("func (a *Account) Withdraw(amount int) error {");
    // "Withdraw(" in the comment on ledger.go:26 is not an occurrence
    expect(r.occurrences.some((o: any) => o.line_number === 26)).toBe(false);
    expect(r.occurrence_count).toBe(2);
  });

  test("a partial name matches every definition of it; imports are typed as imports", async () => {
    const r = await call("find_symbol_occurrences", { symbol_name: "Item", language: "python" });
    const types = r.occurrences.map((o: any) => `${o.type}:${o.file_path}:${o.line_number}`);
    expect(types[0]).toBe("definition:python/inventory/models.py:13");
    expect(types).toContain("import:python/inventory/service.py:5");
    expect(types).toContain("reference:python/inventory/service.py:20");
    expect(r.occurrences.every((o: any) => o.file_path.startsWith("python/"))).toBe(true);
  });

  test("target_paths, find_definitions and find_references narrow the result", async () => {
    const defsOnly = await call("find_symbol_occurrences", { symbol_name: "Record", find_references: false });
    expect(defsOnly.occurrences.map((o: any) => o.type)).toEqual(["definition"]);
    const inService = await call("find_symbol_occurrences", { symbol_name: "Record", target_paths: ["go/service"] });
    expect(inService.occurrences.map((o: any) => `${o.file_path}:${o.line_number}`)).toEqual(["go/service/transfer.go:23"]);
    const capped = await call("find_symbol_occurrences", { symbol_name: "Record", max_results: 1 });
    expect([capped.occurrences.length, capped.occurrence_count, capped.truncated]).toEqual([1, 3, true]);
    // only the shown sites' lines are read, and each shown site still carries its own line
    expect(capped.occurrences[0].snippet).toBe(defsOnly.occurrences[0].snippet);
    expect(capped.occurrences[0].snippet).toContain("Record");
  });

  test("an unknown symbol is no_occurrences_found with near-miss suggestions", async () => {
    const r = await call("find_symbol_occurrences", { symbol_name: "Withdrawl" });
    expect(r.status).toBe("no_occurrences_found");
    expect(r.suggestions).toContain("ledger.Account.Withdraw");
    expect(r.error_message).toContain("similar names: ledger.Account.Withdraw");
    const caseOnly = await call("find_symbol_occurrences", { symbol_name: "notestore" });
    expect(caseOnly.suggestions[0]).toBe("NoteStore");
  });

  test("a path outside the root and a request for nothing are errors in the result's own shape", async () => {
    const outside = await call("find_symbol_occurrences", { symbol_name: "Record", target_paths: ["../elsewhere"] });
    expect([outside.status, outside.error_message]).toEqual(["error", "target_paths[0]: path is outside the project root: ../elsewhere"]);
    const nothing = await call("find_symbol_occurrences", { symbol_name: "Record", find_definitions: false, find_references: false });
    expect(nothing.status).toBe("error");
    expect((await failure("find_symbol_occurrences", { symbol_name: "" })).message).toContain("symbol_name");
  });
});

test("find_symbol_occurrences: a project without an index answers indexing_required", async () => {
  const bare = tmpProject({ "a.go": "package a\n\nfunc A() {}\n" });
  const s = new Session(bare.root);
  try {
    const r = await invokeTool(
      findTool("find_symbol_occurrences")!,
      { symbol_name: "A" },
      { session: s, signal: new AbortController().signal, deadline: Date.now() + 10_000 },
    );
    expect(r).toMatchObject({ status: "indexing_required", occurrences: [], occurrence_count: 0 });
  } finally {
    s.close();
    bare.cleanup();
  }
});

describe("get_symbol_references", () => {
  test("usageCount counts every reference; usages are the top ones with previews; isComplete says whether all came", async () => {
    const r = await call("get_symbol_references", { symbol: "createStore", limit: 2 });
    expect(r.status).toBe("success");
    expect(r.usageCount).toBe(4); // index.js import + call, the test's import + call
    expect(r.usages).toHaveLength(2);
    expect(r.isComplete).toBe(false);
    expect(r.confidence).toBe("syntactic");
    expect(r.definitions).toEqual([{ fqn: "createStore", kind: "function", file: "javascript/lib/store.js", line: 23 }]);
    expect(r.usages[0].preview).toBe('import { createStore } from "./lib/store.js";\nimport * as format from "./lib/format.js";');
    const all = await call("get_symbol_references", { symbol: "createStore", limit: 10 });
    expect([all.usages.length, all.isComplete]).toEqual([4, true]);
  });

  test("each usage shown names the definition it is written in (truth.txt), read for the shown usages only", async () => {
    const r = await call("get_symbol_references", { symbol: "audit.Record", limit: 10 });
    const calls = r.usages
      .filter((u: { kind: string }) => u.kind === "call")
      .map((u: { file: string; line: number; enclosing?: string }) => `${u.file}:${u.line} ${u.enclosing}`);
    expect(calls.sort()).toEqual(["go/ledger/ledger.go:29 ledger.Account.Deposit", "go/service/transfer.go:23 service.Transfer"]);
    const one = await call("get_symbol_references", { symbol: "audit.Record", limit: 1 });
    expect(one.usages).toHaveLength(1);
    expect(r.usages).toContainEqual(one.usages[0]);
  });

  test("an unknown symbol has no usages and similar names", async () => {
    const r = await call("get_symbol_references", { symbol: "createStor" });
    expect([r.usageCount, r.isComplete]).toEqual([0, true]);
    expect(r.suggestions).toContain("createStore");
  });
});

describe("cortex_graph", () => {
  const graph = (args: Record<string, unknown>) => call("cortex_graph", args);
  const pairs = (r: any) => r.edges.map((e: any) => `${e.depth} ${e.from.name} -> ${e.to.name}`);

  test("callers at depth 1 and 3, callees, and the site of each edge", async () => {
    const one = await graph({ operation: "callers", target: "audit.Record" });
    expect(pairs(one)).toEqual(["1 ledger.Account.Deposit -> audit.Record", "1 service.Transfer -> audit.Record"]);
    expect(one.edges[0].site).toEqual({ file_path: "go/ledger/ledger.go", line: 29, column: 8, resolution: "import" });
    const three = await graph({ operation: "callers", target: "audit.Record", depth: 3 });
    expect(pairs(three)).toEqual([
      "1 ledger.Account.Deposit -> audit.Record",
      "1 service.Transfer -> audit.Record",
      "2 ledger.Account.Withdraw -> ledger.Account.Deposit",
      "2 service.Transfer -> ledger.Account.Deposit",
      "2 service.TestTransfer -> service.Transfer",
      "3 service.Transfer -> ledger.Account.Withdraw",
    ]);
    const callees = await graph({ operation: "callees", target: "service.Report" });
    expect(pairs(callees)).toEqual([
      "1 service.Report -> ledger.Store.Load",
      "1 service.Report -> ledger.Store.Load",
      "1 service.Report -> ledger.Describe",
      "1 service.Report -> ledger.Describe",
    ]);
  });

  test("a cycle in the call graph ends: every depth up to 10 terminates", async () => {
    for (const depth of [1, 5, 10]) {
      const r = await graph({ operation: "callees", target: "quote", depth });
      expect(r.partial).toBe(false);
      expect(r.count).toBeGreaterThan(0);
    }
  });

  test("max_results cuts the edges and says truncated", async () => {
    const r = await graph({ operation: "callers", target: "audit.Record", depth: 3, max_results: 2 });
    expect([r.count, r.truncated]).toEqual([2, true]);
  });

  test("dependencies and dependents of files and modules", async () => {
    const deps = await graph({ operation: "dependencies", target: "go/service/transfer.go" });
    expect(pairs(deps)).toEqual([
      "1 go/service/transfer.go -> go/audit/audit.go",
      "1 go/service/transfer.go -> go/ledger/ledger.go",
      "1 go/service/transfer.go -> go/ledger/memory.go",
    ]);
    const dependents = await graph({ operation: "dependents", target: "go/ledger", level: "module" });
    expect(pairs(dependents)).toEqual(["1 go/service -> go/ledger"]);
    // a folder's imports among its own files are neither its dependents nor its dependencies
    expect(pairs(await graph({ operation: "dependents", target: "go", level: "module" }))).toEqual([]);
    expect(pairs(await graph({ operation: "dependencies", target: "go" }))).toEqual([]);
    const moduleDeps = await graph({ operation: "dependencies", target: "go/service", level: "module", depth: 2 });
    // go/ledger also holds gen.go, a program that imports go/service: at folder level that is an edge
    expect(pairs(moduleDeps)).toEqual(["1 go/service -> go/audit", "1 go/service -> go/ledger", "2 go/ledger -> go/service", "2 go/ledger -> go/audit"]);
  });

  test("type_usages, implementations (Go by method sets) and impact", async () => {
    const uses = await graph({ operation: "type_usages", target: "ledger.Store" });
    expect(pairs(uses)).toEqual(["1 service.Transfer -> ledger.Store", "1 service.Report -> ledger.Store"]);
    const impls = await graph({ operation: "implementations", target: "ledger.Store" });
    expect(impls.edges.map((e: any) => `${e.from.name} ${e.relation} ${e.to.name}`)).toEqual(["ledger.MemoryStore method-set ledger.Store"]);
    const py = await graph({ operation: "implementations", target: "Stock" });
    expect(pairs(py)).toEqual(["1 inventory.models.PerishableStock -> inventory.models.Stock"]);
    const impact = await graph({ operation: "impact", target: "go/audit/audit.go" });
    expect(impact.affected_files).toEqual([
      "go/ledger/gen.go",
      "go/ledger/ledger.go",
      "go/ledger/memory.go",
      "go/service/transfer.go",
      "go/service/transfer_test.go",
    ]);
  });

  test("path: the shortest call path and the shortest import path", async () => {
    const calls = await graph({ operation: "path", target: "service.TestTransfer", to: "audit.Record" });
    expect(calls.found).toBe(true);
    expect(pairs(calls)).toEqual(["1 service.TestTransfer -> service.Transfer", "2 service.Transfer -> audit.Record"]);
    const imports = await graph({ operation: "path", target: "javascript/index.js", to: "javascript/lib/text.js" });
    // two paths are as short (through store.js and through format.js): the first found, by path, is given
    expect(pairs(imports)).toEqual(["1 javascript/index.js -> javascript/lib/format.js", "2 javascript/lib/format.js -> javascript/lib/text.js"]);
    const none = await graph({ operation: "path", target: "audit.format", to: "service.Transfer" });
    expect([none.found, none.count]).toEqual([false, 0]);
  });

  test("include_context cuts lines from the stored content, non-ASCII text whole", async () => {
    const r = await graph({ operation: "callers", target: "quote", include_context: true, context_lines: 1 });
    const inPreview = r.edges.find((e: any) => e.from.name === "preview");
    expect(inPreview.context).toEqual({ start_line: 7, lines: ["export function preview(note) {", "  return quote(excerpt(note.body));", "}"] });
    const q = await graph({ operation: "callees", target: "headline", include_context: true, context_lines: 20 });
    expect(q.edges[0].context.lines).toContain('  return body.length > length ? body.slice(0, length) + "…" : body;');
    const zero = await graph({ operation: "callers", target: "quote", include_context: true, context_lines: 0 });
    expect(zero.edges.every((e: any) => e.context.lines.length === 1)).toBe(true);
  });

  test("bad input: depth 0 or 50, an unknown operation, a path outside the root, an unknown symbol", async () => {
    expect(await failure("cortex_graph", { operation: "callers", target: "audit.Record", depth: 0 })).toEqual({
      code: "INVALID_INPUT",
      message: "depth: must be at least 1",
    });
    expect(await failure("cortex_graph", { operation: "callers", target: "audit.Record", depth: 50 })).toEqual({
      code: "INVALID_INPUT",
      message: "depth: must be at most 10",
    });
    const op = await failure("cortex_graph", { operation: "friends", target: "audit.Record" });
    expect(op.code).toBe("INVALID_INPUT");
    expect(op.message).toStartWith("operation: must be one of");
    expect(await failure("cortex_graph", { operation: "dependents", target: "../../etc/passwd" })).toEqual({
      code: "PATH_OUTSIDE_ROOT",
      message: "path is outside the project root: ../../etc/passwd",
    });
    const unknown = await failure("cortex_graph", { operation: "callers", target: "Recrod" });
    expect(unknown).toEqual({ code: "NOT_FOUND", message: "target: no definition named 'Recrod' (did you mean 'audit.Record'?)" });
    expect((await failure("cortex_graph", { operation: "path", target: "audit.Record" })).message).toBe(
      "to: required for operation 'path' (the end of the path)",
    );
    expect((await failure("cortex_graph", { operation: "callers", target: "x", context_lines: 21 })).message).toBe("context_lines: must be at most 20");
  });
});

describe("detect_circular_dependencies", () => {
  test("each cycle is the chain of files and the import statements that close it", async () => {
    const r = await call("detect_circular_dependencies", {});
    expect(r.status).toBe("warning");
    expect(r.cycles.map((c: any) => c.files)).toEqual([
      ["python/inventory/__init__.py", "python/inventory/service.py", "python/inventory/__init__.py"],
      ["javascript/lib/format.js", "javascript/lib/text.js", "javascript/lib/format.js"],
    ]);
    expect(r.cycles[0].component_size).toBe(3);
    expect(r.cycles[0].component).toEqual(["python/inventory/__init__.py", "python/inventory/pricing.py", "python/inventory/service.py"]);
    expect(r.cycles[1].imports).toEqual([
      {
        file_path: "javascript/lib/format.js",
        line: 1,
        column: 1,
        imports: "./text.js",
        statement: 'import { excerpt } from "./text.js";',
        target: "javascript/lib/text.js",
      },
      {
        file_path: "javascript/lib/text.js",
        line: 1,
        column: 1,
        imports: "./format.js",
        statement: 'import { quote } from "./format.js";',
        target: "javascript/lib/format.js",
      },
    ]);
    expect(r.cycles[1].severity).toBe("high");
  });

  test("scope keeps the files under a prefix; a scope without cycles says so", async () => {
    const js = await call("detect_circular_dependencies", { scope: "javascript" });
    expect(js.cycles.map((c: any) => c.files[0])).toEqual(["javascript/lib/format.js"]);
    // index.js, store.js, format.js, text.js and the test import 7 distinct files
    expect(js.graphStats).toEqual({ files: 5, edges: 7 });
    const go = await call("detect_circular_dependencies", { scope: "go" });
    expect([go.status, go.count, go.message]).toEqual(["success", 0, "No circular dependencies detected in scope: go."]);
    expect((await failure("detect_circular_dependencies", { scope: "../x" })).code).toBe("PATH_OUTSIDE_ROOT");
    // a scope naming nothing indexed is an error, not "no cycles"
    expect(await failure("detect_circular_dependencies", { scope: "nonexist" })).toEqual({
      code: "NOT_FOUND",
      message: "scope: no indexed file or folder 'nonexist'",
    });
    const file = await call("detect_circular_dependencies", { scope: "go/ledger/ledger.go" });
    expect(file.status).toBe("success");
  });
});

describe("the command line", () => {
  test("refs takes the symbol as a positional or --symbol, with --limit", async () => {
    const a = await cortex(["refs", "createStore", "--json"]);
    const b = await cortex(["refs", "--symbol", "createStore", "--limit", "1", "--json"]);
    expect(a.code).toBe(0);
    expect(JSON.parse(a.stdout).usageCount).toBe(4);
    expect(JSON.parse(b.stdout).usages).toHaveLength(1);
  }, 30_000);

  test("graph takes the operation and target as positionals; cycles takes the scope either way", async () => {
    const g = await cortex(["graph", "callers", "audit.Record", "--depth", "2", "--json"]);
    expect(JSON.parse(g.stdout).edges.length).toBe(5);
    const human = await cortex(["graph", "callers", "audit.Record"]);
    expect(human.stdout).toContain("[1] ledger.Account.Deposit (go/ledger/ledger.go:27) -call-> audit.Record");
    const c1 = await cortex(["cycles", "javascript", "--json"]);
    const c2 = await cortex(["cycles", "--scope", "javascript", "--json"]);
    expect(JSON.parse(c1.stdout)).toMatchObject({ count: 1, scope: "javascript" });
    expect(JSON.parse(c2.stdout).cycles).toEqual(JSON.parse(c1.stdout).cycles);
    const bad = await cortex(["graph", "callers", "audit.Record", "--depth", "0"]);
    expect([bad.code, bad.stderr]).toEqual([2, "cortex: depth: must be at least 1\n"]);
  }, 30_000);
});

describe("reads of imported constants and functions passed by name (Python, TypeScript)", () => {
  let q: TmpProject;
  let own: Session;
  const ask = (tool: string, args: Record<string, unknown>): Promise<any> =>
    invokeTool(findTool(tool)!, args, { session: own, signal: new AbortController().signal, deadline: Date.now() + 30_000 });

  beforeAll(async () => {
    q = tmpProject({
      "py/shop/__init__.py": "",
      "py/shop/pricing.py":
        "DISCOUNT_RATE = 0.1\n\n\ndef discounted(subtotal):\n    return round(subtotal * (1 - DISCOUNT_RATE), 2)\n\n\ndef calculate_tax(amount):\n    return amount * 0.2\n",
      "py/shop/rates.py": [
        "from .pricing import DISCOUNT_RATE, calculate_tax",
        'RATES = {"std": DISCOUNT_RATE}',
        "",
        "",
        "def pick(kind):",
        "    fn = calculate_tax",
        "    if kind == DISCOUNT_RATE:",
        "        return fn",
        "    return apply(rate=DISCOUNT_RATE)",
        "",
      ].join("\n"),
      "py/tests/test_rates.py": "from shop.rates import pick\n\n\ndef test_pick():\n    assert pick('std')\n",
      "ts/config.ts": "export const DEFAULT_PORT = 8080;\nexport interface Config { port: number }\n",
      "ts/validate.ts":
        'import { DEFAULT_PORT, type Config } from "./config";\n\nexport function validate(c: Config): Config {\n  if (!c.port) c.port = DEFAULT_PORT;\n  return c;\n}\n',
    });
    own = new Session(q.root, { autoIndex: true });
    await own.index();
  });
  afterAll(() => {
    own.close();
    q.cleanup();
  });

  test("Python: a constant read as an operand, a dict value, a comparison and a keyword argument's value", async () => {
    const r = await ask("find_symbol_occurrences", { symbol_name: "DISCOUNT_RATE" });
    const where = r.occurrences.map((o: any) => `${o.file_path}:${o.line_number} ${o.type}`).sort();
    expect(where).toEqual([
      "py/shop/pricing.py:1 definition",
      "py/shop/pricing.py:5 reference",
      "py/shop/rates.py:1 import",
      "py/shop/rates.py:2 reference",
      "py/shop/rates.py:7 reference",
      "py/shop/rates.py:9 reference",
    ]);
  });

  test("Python: a function assigned by name is a reference to it", async () => {
    const r = await ask("find_symbol_occurrences", { symbol_name: "calculate_tax", target_paths: ["py/shop/rates.py"] });
    expect(r.occurrences.map((o: any) => o.line_number).sort()).toEqual([1, 6]);
  });

  test("Python: a test beside the package imports it by its name (the folder above is on the path, as a test runner puts it)", async () => {
    const r = await ask("cortex_graph", { operation: "dependents", target: "py/shop/rates.py" });
    expect(r.edges.map((e: any) => `${e.from.name} -> ${e.to.name}`)).toContain("py/tests/test_rates.py -> py/shop/rates.py");
    const callers = await ask("cortex_graph", { operation: "callers", target: "pick" });
    expect(callers.edges.map((e: any) => e.from.name)).toContain("test_rates.test_pick");
  });

  test("TypeScript: an imported constant on an assignment's right side", async () => {
    const r = await ask("get_symbol_references", { symbol: "DEFAULT_PORT" });
    expect(r.usages.map((u: any) => `${u.file}:${u.line} ${u.kind}`).sort()).toEqual(["ts/validate.ts:1 import", "ts/validate.ts:4 read"]);
  });

  test("usages and definitions in files changed since indexing are marked stale (last: it changes the project)", async () => {
    q.write("py/shop/rates.py", `${"# edited\n"}from .pricing import DISCOUNT_RATE, calculate_tax\n`);
    utimesSync(join(q.root, "py/shop/rates.py"), new Date(), new Date(Date.now() + 5000));
    const r = await ask("get_symbol_references", { symbol: "DISCOUNT_RATE" });
    const marks = r.usages.map((u: any) => `${u.file} ${u.stale ?? false}`);
    expect(marks).toContain("py/shop/rates.py true");
    expect(marks).toContain("py/shop/pricing.py false");
    expect(r.definitions.map((d: any) => `${d.file} ${d.stale ?? false}`)).toEqual(["py/shop/pricing.py false"]);
  });
});

describe("a cycle through a file changed since indexing", () => {
  test("names that file as stale, in the result and its text", async () => {
    const q = tmpProject({
      "a.js": 'import { b } from "./b.js";\nexport const a = () => b();\n',
      "b.js": 'import { a } from "./a.js";\nexport const b = () => a();\n',
    });
    const own = new Session(q.root, { autoIndex: true });
    try {
      await own.index();
      q.write("a.js", 'import { b } from "./b.js";\nexport const a = () => b() + 1;\n');
      utimesSync(join(q.root, "a.js"), new Date(), new Date(Date.now() + 5000));
      const tool = findTool("detect_circular_dependencies")!;
      const r = (await invokeTool(tool, {}, { session: own, signal: new AbortController().signal, deadline: Date.now() + 30_000 })) as any;
      expect(r.cycles).toHaveLength(1);
      expect(r.cycles[0].stale_files).toEqual(["a.js"]);
      expect(tool.render!(r)).toContain("STALE: a.js changed since indexing");
    } finally {
      own.close();
      q.cleanup();
    }
  });
});

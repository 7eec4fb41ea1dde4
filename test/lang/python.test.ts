import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { FIXTURE_ROOT, commonInvariants, factsOf } from "./common.case.ts";
import { python, pythonModuleName, classifyPythonImport } from "../../src/lang/python.ts";
import { buildProjectInfo } from "../../src/indexer/project-info.ts";
import { emptyProjectInfo, type ProjectInfo } from "../../src/lang/project.ts";
import type { ProjectFiles } from "../../src/lang/module.ts";
import type { FileFacts } from "../../src/lang/types.ts";
import { tmpProject } from "../helpers/tmp-project.ts";

// The fixture folder indexed as a project of its own: its paths are relative to python/.
const PY_ROOT = join(FIXTURE_ROOT, "python");
const PY_FILES = (readdirSync(PY_ROOT, { recursive: true }) as string[]).map(String).filter((p) => p.endsWith(".py"));
const project = buildProjectInfo(PY_ROOT, PY_FILES);

const FILES = ["python/src/shop/__init__.py", "python/src/shop/models.py", "python/src/shop/service.py", "python/tests/test_service.py"];
commonInvariants("python", FILES, project);

const calls = (f: FileFacts) =>
  f.references.filter((r) => r.kind === "call").map((r) => `${r.qualifier ? r.qualifier + "." : ""}${r.name}@${r.line}<${r.enclosing ?? ""}`);
const refsOf = (f: FileFacts, kind: string) =>
  f.references.filter((r) => r.kind === kind).map((r) => `${r.qualifier ? r.qualifier + "." : ""}${r.name}@${r.line}<${r.enclosing ?? ""}`);
const importRow = (i: FileFacts["imports"][number]) => [
  i.module,
  i.isStandardLib ? "std" : i.isExternal ? "external" : i.isRelative ? "relative" : "internal",
  i.symbols,
  i.alias ?? null,
  i.line,
];

describe("python facts (hand-counted truth)", () => {
  test("the project's own packages are found: src/shop and tests", () => {
    expect(project.pythonTopLevel).toEqual(["shop", "tests"]);
    expect(project.pythonRootPackage).toBeUndefined();
  });

  test("__init__.py: __all__ decides what is exported", async () => {
    const f = await factsOf("python/src/shop/__init__.py", project);
    expect(f.packageName).toBe("shop");
    expect(f.lines).toEqual({ total: 13, code: 7, comment: 1, blank: 5 });
    expect(f.variables.map((v) => [v.qualifiedName, v.kind, v.exported, v.startLine])).toEqual([
      ["shop.__all__", "variable", false, 6],
      ["shop.VERSION", "constant", true, 8],
      ["shop._registry", "variable", false, 9],
    ]);
    expect(f.functions.map((fn) => [fn.qualifiedName, fn.exported, fn.paramCount, fn.returnCount, fn.complexity])).toEqual([
      ["shop._private_helper", false, 0, 1, 1],
    ]);
    expect(f.imports.map(importRow)).toEqual([
      [".models", "relative", ["Order", "Status"], null, 3],
      [".service", "relative", ["place_order"], null, 4],
    ]);
    // the local names imports bind, where they are written (the alias for `as`)
    expect(refsOf(f, "import")).toEqual(["Order@3<", "Status@3<", "place@4<"]);
    expect(refsOf(f, "read")).toEqual(["_registry@13<shop._private_helper"]);
  });

  test("models.py: class kinds, fields, methods, parameters, returns, docstrings", async () => {
    const f = await factsOf("python/src/shop/models.py", project);
    expect(f.packageName).toBe("shop.models");
    // docstrings are comment lines; the blank lines inside them stay blank
    expect(f.lines).toEqual({ total: 86, code: 51, comment: 9, blank: 26 });
    expect(f.types.map((t) => [t.qualifiedName, t.kind, t.exported, t.fieldCount, t.methodCount, t.startLine, t.endLine, t.container ?? null])).toEqual([
      ["shop.models.Status", "enum", true, 3, 1, 15, 23, null],
      ["shop.models.Priced", "interface", true, 0, 1, 26, 27, null],
      ["shop.models.Point", "record", true, 2, 0, 30, 32, null],
      ["shop.models.Address", "struct", true, 2, 0, 35, 37, null],
      ["shop.models.Line", "class", true, 3, 1, 40, 48, null],
      // kind + the five self attributes of __init__ (status and _note in one tuple assignment)
      ["shop.models.Order", "class", true, 6, 5, 51, 86, null],
      ["shop.models.Order.Meta", "class", true, 1, 0, 80, 81, "Order"],
    ]);
    expect(f.types.find((t) => t.name === "Status")!.docStartLine).toBe(16);
    expect(f.types.find((t) => t.name === "Order")!.docStartLine).toBe(52);
    expect(
      f.functions.map((fn) => [
        fn.qualifiedName,
        fn.exported,
        fn.isMethod,
        fn.receiverType ?? null,
        fn.paramCount,
        fn.returnCount,
        fn.complexity,
        fn.startLine,
        fn.endLine,
      ]),
    ).toEqual([
      ["shop.models.Status.is_final", true, true, "Status", 0, 1, 1, 22, 23],
      ["shop.models.Priced.total", true, true, "Priced", 0, 1, 1, 27, 27],
      // the decorator line belongs to the definition
      ["shop.models.Line.amount", true, true, "Line", 0, 1, 1, 46, 48],
      // self is not a parameter; *lines and note are
      ["shop.models.Order.__init__", true, true, "Order", 3, 0, 1, 59, 63],
      // generator expression: for + if
      ["shop.models.Order.total", true, true, "Order", 0, 1, 3, 65, 67],
      // a static method counts every parameter; tuple[str, int] returns two values
      ["shop.models.Order.parse", true, true, "Order", 1, 2, 1, 69, 72],
      // if + and; a bare return gives nothing
      ["shop.models.Order.refresh", true, true, "Order", 1, 0, 3, 74, 78],
      ["shop.models.Order._check", false, true, "Order", 0, 0, 2, 83, 86],
    ]);
    const check = f.functions.find((fn) => fn.name === "_check")!;
    expect(check.docStartLine).toBe(84);
    expect(check.bodyLines).toBe(3);
    expect(f.functions.find((fn) => fn.name === "refresh")!.signature).toBe('async def refresh(self, client: "Client"):');
    expect(f.variables.map((v) => [v.qualifiedName, v.kind, v.exported, v.container ?? null])).toEqual([
      ["shop.models.MAX_ITEMS", "constant", true, null],
      ["shop.models.currency", "variable", true, null],
      ["shop.models.Status.NEW", "enum_member", true, "Status"],
      ["shop.models.Status.PAID", "enum_member", true, "Status"],
      ["shop.models.Status.SHIPPED", "enum_member", true, "Status"],
    ]);
    expect(f.imports.map(importRow)).toEqual([
      ["__future__", "std", ["annotations"], null, 5],
      ["enum", "std", [], null, 7],
      ["dataclasses", "std", ["dataclass", "field"], null, 8],
      ["typing", "std", ["NamedTuple", "Protocol", "TypedDict"], null, 9],
    ]);
    expect([...refsOf(f, "inherit"), ...refsOf(f, "implement")]).toEqual([
      "enum.Enum@15<shop.models.Status",
      "Protocol@26<shop.models.Priced",
      "NamedTuple@30<shop.models.Point",
      "TypedDict@35<shop.models.Address",
      // Priced is a Protocol of this file: subclassing it implements it
      "Priced@51<shop.models.Order",
    ]);
    expect(calls(f)).toEqual([
      "list@61<shop.models.Order.__init__",
      "sum@67<shop.models.Order.total",
      "text.partition@71<shop.models.Order.parse",
      "int@72<shop.models.Order.parse",
      "client.fetch@75<shop.models.Order.refresh",
      "Status@77<shop.models.Order.refresh",
      "ValueError@86<shop.models.Order._check",
    ]);
    // code-like text in the docstring (line 54) and in a string (line 86) is not a reference
    expect(f.references.filter((r) => r.line === 54)).toEqual([]);
    expect(f.references.filter((r) => r.line === 86).map((r) => r.name)).toEqual(["ValueError"]);
    expect(refsOf(f, "read")).toEqual(["MAX_ITEMS@62<shop.models.Order.__init__"]);
    expect(refsOf(f, "type")).toEqual([]); // only builtin types and a string annotation are written
  });

  test("service.py: complexity, returns, nested functions, import classes, calls", async () => {
    const f = await factsOf("python/src/shop/service.py", project);
    expect(f.lines).toEqual({ total: 65, code: 49, comment: 2, blank: 14 });
    expect(f.types).toEqual([]);
    expect(f.functions.map((fn) => [fn.qualifiedName, fn.exported, fn.isMethod, fn.paramCount, fn.returnCount, fn.complexity, fn.bodyLines])).toEqual([
      // if, elif, for, except; every return gives two values
      ["shop.service.place_order", true, false, 3, 2, 5, 15],
      // a conditional expression
      ["shop.service.url_for", true, false, 1, 1, 2, 2],
      // dict comprehension for, while, two refutable cases and a guard (case _ is the default)
      ["shop.service.summarize", true, false, 2, 1, 6, 15],
      ["shop.service.summarize.line_of", false, false, 1, 1, 1, 1],
      ["shop.service._load", false, false, 1, 1, 2, 2],
      // list comprehension for + if
      ["shop.service.lines_from", true, false, 1, 1, 3, 1],
    ]);
    expect(f.functions[0]!.docStartLine).toBe(19);
    expect(f.functions[0]!.signature).toBe("def place_order(number, lines, *, retries=3):");
    expect(f.variables.map((v) => [v.name, v.kind, v.exported])).toEqual([
      ["TIMEOUT", "constant", true],
      ["_cache", "variable", false],
    ]);
    expect(f.imports.map(importRow)).toEqual([
      ["json", "std", [], null, 2],
      ["logging", "std", [], "log", 3],
      ["os.path", "std", [], null, 4],
      ["collections", "std", ["defaultdict"], null, 5],
      ["requests", "external", [], null, 7],
      ["yaml", "external", ["safe_load"], null, 8],
      [".", "relative", ["models"], null, 10],
      [".models", "relative", ["MAX_ITEMS", "Order", "Status"], null, 11],
      ["shop.models", "internal", ["Line"], null, 12],
    ]);
    expect(refsOf(f, "import").map((r) => r.split("@")[0])).toEqual([
      "json",
      "log",
      "os",
      "defaultdict",
      "requests",
      "load_yaml",
      "models",
      "MAX_ITEMS",
      "Order",
      "Status",
      "Line",
    ]);
    expect(calls(f)).toEqual([
      "defaultdict@15<shop.service._cache",
      "Order@20<shop.service.place_order",
      "len@21<shop.service.place_order",
      "ValueError@22<shop.service.place_order",
      "len@22<shop.service.place_order", // inside an f-string's interpolation: code, not text
      "range@25<shop.service.place_order",
      "requests.post@27<shop.service.place_order",
      "url_for@27<shop.service.place_order",
      "json.dumps@27<shop.service.place_order",
      "log.warning@29<shop.service.place_order",
      "os.path.join@37<shop.service.url_for",
      "str@37<shop.service.url_for",
      "orders.pop@47<shop.service.summarize",
      "log.info@51<shop.service.summarize",
      "line_of@51<shop.service.summarize",
      "log.debug@53<shop.service.summarize",
      "open@60<shop.service._load",
      "load_yaml@61<shop.service._load",
      "Line@65<shop.service.lines_from",
      "data.get@65<shop.service.lines_from",
    ]);
    expect(refsOf(f, "type")).toEqual(["models.Order@36<shop.service.url_for", "Line@64<shop.service.lines_from"]);
    expect(refsOf(f, "read")).toEqual([
      "requests.Timeout@28<shop.service.place_order",
      "os.path@37<shop.service.url_for",
      "Status.NEW@38<shop.service.url_for",
      // imported and module-level names read where an expression holds them: a comparison, a keyword
      // argument's value, a comprehension's iterable
      "MAX_ITEMS@21<shop.service.place_order",
      "TIMEOUT@27<shop.service.place_order",
      "Status@45<shop.service.summarize",
    ]);
  });

  test("test_service.py: a test file; parameters shadow module-level names", async () => {
    expect(python.isTestFile("tests/test_service.py")).toBe(true);
    const f = await factsOf("python/tests/test_service.py", project);
    expect(f.packageName).toBe("tests.test_service");
    expect(f.lines).toEqual({ total: 17, code: 10, comment: 0, blank: 7 });
    expect(f.types.map((t) => [t.qualifiedName, t.kind, t.fieldCount, t.methodCount])).toEqual([["tests.test_service.TestSummary", "class", 0, 1]]);
    expect(f.functions.map((fn) => [fn.qualifiedName, fn.isMethod, fn.paramCount, fn.returnCount, fn.startLine])).toEqual([
      ["tests.test_service.orders", false, 0, 1, 6],
      ["tests.test_service.test_empty_order_is_refused", false, 1, 0, 11],
      ["tests.test_service.TestSummary.test_counts", true, 1, 0, 16],
    ]);
    expect(f.imports.map(importRow)).toEqual([
      ["pytest", "external", [], null, 1],
      ["shop.service", "internal", ["place_order", "summarize"], null, 3],
    ]);
    expect(calls(f)).toEqual(["place_order@12<tests.test_service.test_empty_order_is_refused", "summarize@17<tests.test_service.TestSummary.test_counts"]);
    // `orders` in the calls is the fixture parameter, not the module-level function
    expect(refsOf(f, "read")).toEqual(["pytest.fixture@6<tests.test_service.orders"]);
  });
});

describe("python rules", () => {
  test("test files: test_*.py, *_test.py, conftest.py and tests/ folders", () => {
    for (const p of ["test_x.py", "pkg/x_test.py", "conftest.py", "pkg/tests/helpers.py", "test/util.py", "a/test_b.pyi"])
      expect(python.isTestFile(p)).toBe(true);
    for (const p of ["pkg/testing.py", "pkg/contest.py", "latest/x.py", "pkg/attest_x.py", "tests.py"]) expect(python.isTestFile(p)).toBe(false);
  });

  test("module names follow packages: src layout, __init__, stubs, and a root that is itself a package", () => {
    const p: ProjectInfo = { ...emptyProjectInfo(), pythonTopLevel: ["shop", "tools"] };
    expect(pythonModuleName("src/shop/models.py", p)).toBe("shop.models");
    expect(pythonModuleName("src/shop/__init__.py", p)).toBe("shop");
    expect(pythonModuleName("src/shop/api/v1.pyi", p)).toBe("shop.api.v1");
    expect(pythonModuleName("scripts/deploy/run.py", p)).toBe("run");
    const rooted: ProjectInfo = { ...emptyProjectInfo(), pythonRootPackage: "django" };
    expect(pythonModuleName("db/models/base.py", rooted)).toBe("django.db.models.base");
    expect(pythonModuleName("__init__.py", rooted)).toBe("django");
  });

  test("the root folder is a package when it holds __init__.py", () => {
    const proj = tmpProject({ "__init__.py": "", "db/__init__.py": "", "db/models.py": "x = 1\n", "shortcuts.py": "" });
    try {
      const info = buildProjectInfo(proj.root, ["__init__.py", "db/__init__.py", "db/models.py", "shortcuts.py"]);
      expect(info.pythonRootPackage).toBe(proj.root.slice(proj.root.lastIndexOf("/") + 1));
      const name = info.pythonRootPackage!;
      expect(classifyPythonImport(`${name}.db.models`, info)).toEqual({ isStandardLib: false, isExternal: false, isRelative: false });
    } finally {
      proj.cleanup();
    }
  });

  test("the standard library is Python 3.12's", () => {
    const p = emptyProjectInfo();
    for (const m of ["tomllib", "asyncio.tasks", "xml.etree.ElementTree", "_thread", "__future__", "zoneinfo"])
      expect(classifyPythonImport(m, p).isStandardLib).toBe(true);
    // removed before 3.12 (distutils, imp, asyncore) or never standard
    for (const m of ["distutils.core", "imp", "asyncore", "numpy", "six"])
      expect(classifyPythonImport(m, p)).toEqual({ isStandardLib: false, isExternal: true, isRelative: false });
    expect(classifyPythonImport("..pkg.mod", p)).toEqual({ isStandardLib: false, isExternal: false, isRelative: true });
  });

  test("__all__ built with += and .extend, private names listed there are exported", async () => {
    const proj = tmpProject({
      "m.py": ['__all__ = ["a"]', '__all__ += ["_b"]', '__all__.extend(["C"])', "def a(): pass", "def _b(): pass", "class C: pass", "def d(): pass", ""].join(
        "\n",
      ),
    });
    try {
      const { FactsParser } = await import("../../src/lang/parser.ts");
      const parser = await FactsParser.create();
      const parsed = await parser.parse("m.py", await Bun.file(join(proj.root, "m.py")).text(), emptyProjectInfo());
      const facts = parsed.facts!;
      expect(facts.functions.map((f) => [f.name, f.exported])).toEqual([
        ["a", true],
        ["_b", true],
        ["d", false],
      ]);
      expect(facts.types.map((t) => [t.name, t.exported])).toEqual([["C", true]]);
    } finally {
      proj.cleanup();
    }
  });

  test("type aliases: `type X = ...` (3.12) and `X: TypeAlias = ...`; the alias name is no type use", async () => {
    const { FactsParser } = await import("../../src/lang/parser.ts");
    const parser = await FactsParser.create();
    const source = ["from typing import TypeAlias", "", "class Node: pass", "Tree: TypeAlias = dict[str, Node]", "type Forest[T] = list[Tree | T]", ""].join(
      "\n",
    );
    const f = (await parser.parse("graph.py", source, emptyProjectInfo())).facts!;
    expect(f.types.map((t) => [t.qualifiedName, t.kind, t.startLine])).toEqual([
      ["graph.Node", "class", 3],
      ["graph.Tree", "type_alias", 4],
      ["graph.Forest", "type_alias", 5],
    ]);
    expect(f.variables).toEqual([]);
    // Node and Tree are used; Forest and its parameter T are declared on line 5's left side
    const typeUses = f.references.filter((r) => r.kind === "type").sort((a, b) => a.line - b.line || a.column - b.column);
    expect(typeUses.map((r) => `${r.name}@${r.line}`)).toEqual(["TypeAlias@4", "Node@4", "Tree@5", "T@5"]);
  });

  test("imports resolve to project files: relative, package-relative, src layout, submodules", async () => {
    const files: ProjectFiles = {
      project,
      has: (p) => PY_FILES.includes(p),
      inDir: (d) => PY_FILES.filter((p) => p.slice(0, Math.max(0, p.lastIndexOf("/"))) === d),
    };
    const service = await factsOf("python/src/shop/service.py", project);
    const resolved = Object.fromEntries(service.imports.map((i) => [i.module, python.resolveImport!(i, "src/shop/service.py", files)]));
    expect(resolved).toEqual({
      json: [],
      logging: [],
      "os.path": [],
      collections: [],
      requests: [],
      yaml: [],
      ".": ["src/shop/__init__.py", "src/shop/models.py"],
      ".models": ["src/shop/models.py"],
      "shop.models": ["src/shop/models.py"],
    });
    const tests = await factsOf("python/tests/test_service.py", project);
    expect(python.resolveImport!(tests.imports[1]!, "tests/test_service.py", files)).toEqual(["src/shop/service.py"]);
    // climbing above the root resolves to nothing
    const tooHigh = { module: "....x", isStandardLib: false, isExternal: false, isRelative: true, symbols: [], line: 1, column: 1 };
    expect(python.resolveImport!(tooHigh, "src/shop/service.py", files)).toEqual([]);
  });
});

import { describe, expect, test } from "bun:test";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { FIXTURE_ROOT, commonInvariants, factsOf } from "./common.case.ts";
import { php, classifyPhpUse } from "../../src/lang/php.ts";
import { buildProjectInfo } from "../../src/indexer/project-info.ts";
import { emptyProjectInfo, type ProjectInfo } from "../../src/lang/project.ts";
import type { ProjectFiles } from "../../src/lang/module.ts";
import type { FileFacts, ReferenceFact } from "../../src/lang/types.ts";
import { FactsParser } from "../../src/lang/parser.ts";

// The fixture folder indexed as a project of its own: its paths are relative to php/.
const PHP_ROOT = join(FIXTURE_ROOT, "php");
const PHP_FILES = (readdirSync(PHP_ROOT, { recursive: true }) as string[]).map(String).filter((p) => statSync(join(PHP_ROOT, p)).isFile());
const project = buildProjectInfo(PHP_ROOT, PHP_FILES);

const FILES = [
  "src/Models/Model.php",
  "src/Models/Order.php",
  "src/Http/OrderController.php",
  "src/helpers.php",
  "views/order.php",
  "views/footer.php",
  "tests/OrderTest.php",
].map((p) => `php/${p}`);
commonInvariants("php", FILES, project);

const byPosition = (a: ReferenceFact, b: ReferenceFact) => a.line - b.line || a.column - b.column;
const refsOf = (f: FileFacts, ...kinds: string[]) =>
  f.references
    .filter((r) => kinds.includes(r.kind))
    .sort(byPosition)
    .map((r) => `${r.qualifier ? r.qualifier + "." : ""}${r.name}@${r.line}<${r.enclosing ?? ""}`);
const importRow = (i: FileFacts["imports"][number]) => [
  i.module,
  i.isStandardLib ? "std" : i.isExternal ? "external" : i.isRelative ? "relative" : "internal",
  i.alias ?? null,
  i.line,
];
const fnRow = (fn: FileFacts["functions"][number]) => [
  fn.qualifiedName,
  fn.exported,
  fn.isMethod,
  fn.paramCount,
  fn.returnCount,
  fn.complexity,
  fn.startLine,
  fn.endLine,
];

describe("php facts (hand-counted truth)", () => {
  test("composer.json autoload namespaces, dev included", () => {
    expect(project.phpNamespaces).toEqual([
      { prefix: "App\\Tests", dirs: ["tests"], psr0: false },
      { prefix: "App", dirs: ["src"], psr0: false },
    ]);
  });

  test("Model.php: abstract class, static method, doc comment", async () => {
    const f = await factsOf("php/src/Models/Model.php", project);
    expect(f.packageName).toBe("App\\Models");
    expect(f.lines).toEqual({ total: 20, code: 12, comment: 3, blank: 5 });
    expect(f.types.map((t) => [t.qualifiedName, t.kind, t.exported, t.fieldCount, t.methodCount, t.startLine, t.endLine, t.docStartLine ?? null])).toEqual([
      ["App.Models.Model", "class", true, 1, 2, 10, 20, 7],
    ]);
    expect(f.functions.map(fnRow)).toEqual([
      ["App.Models.Model.id", true, true, 0, 1, 1, 14, 14],
      ["App.Models.Model.tableName", true, true, 0, 1, 2, 16, 19],
    ]);
    expect(f.functions[0]!.bodyLines).toBe(0); // abstract: no body
    expect(f.functions[0]!.signature).toBe("abstract public function id(): int");
    expect(refsOf(f, "call", "type")).toEqual(["strtolower@18<App.Models.Model.tableName"]); // static::class is no reference
  });

  test("Order.php: enum, interface, trait, class; visibility, promoted properties, constants", async () => {
    const f = await factsOf("php/src/Models/Order.php", project);
    expect(f.lines).toEqual({ total: 82, code: 61, comment: 4, blank: 17 });
    expect(f.types.map((t) => [t.qualifiedName, t.kind, t.fieldCount, t.methodCount, t.startLine, t.endLine])).toEqual([
      ["App.Models.Status", "enum", 2, 1, 10, 19],
      ["App.Models.Priced", "interface", 0, 1, 21, 26],
      ["App.Models.HasTimestamps", "trait", 1, 1, 28, 36],
      // $lines, $status and the two promoted constructor parameters
      ["App.Models.Order", "class", 4, 5, 41, 82],
    ]);
    expect(f.types[3]!.docStartLine).toBe(38);
    expect(f.functions.map(fnRow)).toEqual([
      ["App.Models.Status.label", true, true, 0, 1, 1, 15, 18],
      ["App.Models.Priced.total", true, true, 0, 1, 1, 25, 25],
      ["App.Models.HasTimestamps.touch", true, true, 0, 0, 1, 32, 35], // void
      ["App.Models.Order.__construct", true, true, 2, 0, 1, 52, 54],
      ["App.Models.Order.id", true, true, 0, 1, 1, 56, 59],
      ["App.Models.Order.total", true, true, 0, 1, 2, 61, 68], // foreach
      ["App.Models.Order.jsonSerialize", true, true, 0, 1, 1, 70, 73],
      // private; no return type, but its returns give values; if
      ["App.Models.Order.check", false, true, 1, 1, 2, 75, 81],
    ]);
    expect(f.functions.every((fn) => fn.receiverType === fn.qualifiedName.split(".")[2])).toBe(true);
    expect(f.variables.map((v) => [v.qualifiedName, v.kind, v.exported, v.container ?? null])).toEqual([
      ["App.Models.Status.New", "enum_member", true, "Status"],
      ["App.Models.Status.Paid", "enum_member", true, "Status"],
      ["App.Models.Priced.CURRENCY", "constant", true, "Priced"],
      ["App.Models.Order.MAX_LINES", "constant", true, "Order"],
      ["App.Models.Order.SECRET", "constant", false, "Order"],
    ]);
    expect(f.imports.map(importRow)).toEqual([
      ["JsonSerializable", "std", null, 7],
      ["App\\Support\\Money", "internal", null, 8],
    ]);
    expect(refsOf(f, "inherit", "implement")).toEqual([
      "Model@41<App.Models.Order",
      "Priced@41<App.Models.Order",
      "JsonSerializable@41<App.Models.Order",
      "HasTimestamps@43<App.Models.Order", // trait use
    ]);
    expect(f.references.filter((r) => r.kind === "inherit").map((r) => r.name)).toEqual(["Model"]);
    expect(refsOf(f, "call")).toEqual([
      "ucfirst@17<App.Models.Status.label",
      "time@34<App.Models.HasTimestamps.touch",
      "Money@67<App.Models.Order.total", // new Money(...)
      "$this->status.label@72<App.Models.Order.jsonSerialize",
      "count@77<App.Models.Order.check",
    ]);
    expect(refsOf(f, "type")).toEqual([
      "Money@25<App.Models.Priced.total",
      "Status@50<App.Models.Order", // the property's type
      "Status@50<App.Models.Order", // Status::New
      "Money@61<App.Models.Order.total",
      "Line@80<App.Models.Order.check", // instanceof
    ]);
    expect(f.references.filter((r) => r.line === 48)).toEqual([]); // inside the /** @var */ comment
  });

  test("OrderController.php: group use, function and const imports, complexity of every construct", async () => {
    const f = await factsOf("php/src/Http/OrderController.php", project);
    expect(f.packageName).toBe("App\\Http");
    expect(f.lines).toEqual({ total: 84, code: 71, comment: 4, blank: 9 });
    expect(f.types.map((t) => [t.qualifiedName, t.kind, t.fieldCount, t.methodCount, t.docStartLine ?? null])).toEqual([
      ["App.Http.OrderController", "class", 1, 5, 17], // the # comment above it
    ]);
    expect(f.functions.map(fnRow)).toEqual([
      ["App.Http.OrderController.__construct", true, true, 1, 0, 1, 20, 22],
      // ??, if, ||, elseif, and, two match arms (default is not counted)
      ["App.Http.OrderController.show", true, true, 2, 1, 8, 24, 41],
      ["App.Http.OrderController.allowDeepPages", false, true, 0, 1, 1, 46, 49],
      // do-while, catch
      ["App.Http.OrderController.retry", false, true, 2, 1, 3, 51, 62],
      // for, while, three cases, the ternary inside the arrow function
      ["App.Http.OrderController.pages", true, true, 1, 1, 7, 64, 83],
    ]);
    expect(f.functions[2]!.docStartLine).toBe(43); // the /* */ block comment
    expect(f.variables.map((v) => [v.qualifiedName, v.kind, v.exported])).toEqual([
      ["App.Http.PAGE_SIZE", "constant", true],
      ["API_VERSION", "constant", true], // define() names a global constant
    ]);
    expect(f.imports.map(importRow)).toEqual([
      ["App\\Models\\Order", "internal", null, 5],
      ["App\\Models\\Status", "internal", "OrderStatus", 5],
      ["App\\Models\\Model", "internal", null, 6],
      ["App\\Support\\format_money", "internal", null, 7],
      ["App\\Support\\TAX_RATE", "internal", null, 8],
      ["Psr\\Log\\LoggerInterface", "external", null, 9],
      ["InvalidArgumentException", "std", null, 10],
      ["__DIR__ . '/../helpers.php'", "relative", null, 12],
    ]);
    expect(refsOf(f, "import").map((r) => r.split("@")[0])).toEqual([
      "Order",
      "OrderStatus",
      "Model",
      "format_money",
      "TAX_RATE",
      "LoggerInterface",
      "InvalidArgumentException",
    ]);
    expect(refsOf(f, "inherit")).toEqual(["BaseController@18<App.Http.OrderController"]);
    expect(refsOf(f, "call")).toEqual([
      "InvalidArgumentException@28<App.Http.OrderController.show",
      "$this.allowDeepPages@29<App.Http.OrderController.show",
      "$this->logger.info@32<App.Http.OrderController.show",
      "Order.find@34<App.Http.OrderController.show",
      "format_money@40<App.Http.OrderController.show",
      "$order.total@40<App.Http.OrderController.show",
      "$this->logger.warning@58<App.Http.OrderController.retry",
      "$e.getMessage@58<App.Http.OrderController.retry",
      "count@70<App.Http.OrderController.pages",
      "array_pop@71<App.Http.OrderController.pages",
      "count@73<App.Http.OrderController.pages",
      "array_map@80<App.Http.OrderController.pages",
    ]);
    expect(refsOf(f, "type")).toEqual([
      "LoggerInterface@20<App.Http.OrderController.__construct",
      "OrderStatus@36<App.Http.OrderController.show",
      "OrderStatus@37<App.Http.OrderController.show",
      "RuntimeException@57<App.Http.OrderController.retry",
      "LogicException@57<App.Http.OrderController.retry",
    ]);
    // show() inside the string on line 28 and the comment on line 44 is text
    expect(f.references.filter((r) => r.name === "show")).toEqual([]);
  });

  test("helpers.php: namespaced functions, a conditional definition, constants and variables", async () => {
    const f = await factsOf("php/src/helpers.php", project);
    expect(f.lines).toEqual({ total: 22, code: 16, comment: 1, blank: 5 });
    expect(f.functions.map(fnRow)).toEqual([
      ["App.Support.format_money", true, false, 2, 1, 1, 7, 10],
      ["App.Support.dump", true, false, 1, 0, 2, 14, 19],
    ]);
    expect(f.functions[1]!.docStartLine).toBe(13);
    expect(f.variables.map((v) => [v.qualifiedName, v.kind, v.exported])).toEqual([
      ["App.Support.TAX_RATE", "constant", true],
      ["App.Support.defaultCurrency", "variable", false],
    ]);
    expect(refsOf(f, "call")).toEqual(["sprintf@9<App.Support.format_money", "function_exists@12<", "var_dump@17<App.Support.dump"]);
  });

  test("templates: HTML around PHP is code; include is a relative import", async () => {
    const view = await factsOf("php/views/order.php", project);
    expect(view.lines).toEqual({ total: 8, code: 8, comment: 0, blank: 0 });
    expect(view.imports.map(importRow)).toEqual([["footer.php", "relative", null, 8]]);
    expect(refsOf(view, "call", "type")).toEqual(["htmlspecialchars@2<", "$order.id@2<", "App\\Models.Status@3<"]);
    const footer = await factsOf("php/views/footer.php", project);
    expect(footer.lines).toEqual({ total: 3, code: 3, comment: 0, blank: 0 });
    expect([...footer.types, ...footer.functions, ...footer.imports, ...footer.references]).toEqual([]);
  });

  test("OrderTest.php: a PHPUnit test", async () => {
    expect(php.isTestFile("tests/OrderTest.php")).toBe(true);
    const f = await factsOf("php/tests/OrderTest.php", project);
    expect(f.lines).toEqual({ total: 15, code: 12, comment: 0, blank: 3 });
    expect(f.functions.map(fnRow)).toEqual([["App.Tests.OrderTest.testNewOrderHasNoLines", true, true, 0, 0, 1, 10, 14]]);
    expect(f.imports.map(importRow)).toEqual([
      ["App\\Models\\Order", "internal", null, 5],
      ["PHPUnit\\Framework\\TestCase", "external", null, 6],
    ]);
    expect(refsOf(f, "inherit")).toEqual(["TestCase@8<App.Tests.OrderTest"]);
    expect(refsOf(f, "call").map((r) => r.split("<")[0])).toEqual(["Order@12", "$this.assertSame@13", "$order.total@13", "$order->total().amount@13"]);
  });
});

describe("php rules", () => {
  test("test files: *Test.php and tests/ folders", () => {
    for (const p of ["tests/Unit/CartTest.php", "src/FooTest.php", "Tests/Fixture.php", "test/helpers.php"]) expect(php.isTestFile(p)).toBe(true);
    for (const p of ["src/Testing.php", "src/Contest.php", "src/Latest/X.php"]) expect(php.isTestFile(p)).toBe(false);
  });

  test("use classification: PHP's own names, composer namespaces, the file's namespace, vendors", () => {
    const none = emptyProjectInfo();
    expect(classifyPhpUse("DateTimeImmutable", "class", "App", none).isStandardLib).toBe(true);
    expect(classifyPhpUse("arrayobject", "class", "App", none).isStandardLib).toBe(true); // class names ignore case
    expect(classifyPhpUse("strlen", "function", "App", none).isStandardLib).toBe(true);
    expect(classifyPhpUse("Random\\Randomizer", "class", "App", none).isStandardLib).toBe(true);
    expect(classifyPhpUse("Twig_Environment", "class", "App", none).isExternal).toBe(true);
    // without composer.json, the file's own top-level namespace is the project's
    expect(classifyPhpUse("App\\Models\\User", "class", "App\\Http", none)).toEqual({ isStandardLib: false, isExternal: false, isRelative: false });
    expect(classifyPhpUse("Symfony\\Component\\Yaml\\Yaml", "class", "App\\Http", none).isExternal).toBe(true);
    const withComposer: ProjectInfo = { ...none, phpNamespaces: [{ prefix: "Acme\\Shop", dirs: ["src"], psr0: false }] };
    expect(classifyPhpUse("Acme\\Shop\\Cart", "class", undefined, withComposer).isExternal).toBe(false);
    expect(classifyPhpUse("Acme\\Other\\Cart", "class", undefined, withComposer).isExternal).toBe(true);
  });

  test("braced namespaces qualify what they contain", async () => {
    const parser = await FactsParser.create();
    const source = "<?php\nnamespace Shop\\Core {\n  class Cart {}\n}\nnamespace Shop\\Web {\n  function render(): string { return ''; }\n}\n";
    const f = (await parser.parse("multi.php", source, emptyProjectInfo())).facts!;
    expect(f.types.map((t) => t.qualifiedName)).toEqual(["Shop.Core.Cart"]);
    expect(f.functions.map((fn) => fn.qualifiedName)).toEqual(["Shop.Web.render"]);
    expect(f.packageName).toBe("Shop\\Core");
  });

  test("imports resolve through PSR-4 and PSR-0 folders and relative include paths", async () => {
    const files: ProjectFiles = { project, has: (p) => PHP_FILES.includes(p), inDir: () => [] };
    const controller = await factsOf("php/src/Http/OrderController.php", project);
    expect(controller.imports.map((i) => php.resolveImport!(i, "src/Http/OrderController.php", files))).toEqual([
      ["src/Models/Order.php"],
      [], // Status is declared in Order.php, not in a file of its own
      ["src/Models/Model.php"],
      [],
      [],
      [],
      [],
      ["src/helpers.php"],
    ]);
    const view = await factsOf("php/views/order.php", project);
    expect(php.resolveImport!(view.imports[0]!, "views/order.php", files)).toEqual(["views/footer.php"]);
    const test0 = await factsOf("php/tests/OrderTest.php", project);
    expect(php.resolveImport!(test0.imports[0]!, "tests/OrderTest.php", files)).toEqual(["src/Models/Order.php"]);
    const psr0: ProjectFiles = {
      project: { ...emptyProjectInfo(), phpNamespaces: [{ prefix: "Legacy", dirs: ["lib"], psr0: true }] },
      has: (p) => p === "lib/Legacy/Mail/Smtp/Transport.php",
      inDir: () => [],
    };
    const legacy = { module: "Legacy\\Mail\\Smtp_Transport", isStandardLib: false, isExternal: false, isRelative: false, symbols: [], line: 1, column: 1 };
    expect(php.resolveImport!(legacy, "src/a.php", psr0)).toEqual(["lib/Legacy/Mail/Smtp/Transport.php"]);
  });
});

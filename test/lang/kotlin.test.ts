import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { commonInvariants, factsOf, FIXTURE_ROOT } from "./common.case.ts";
import { buildProjectInfo } from "../../src/indexer/project-info.ts";
import { kotlin } from "../../src/lang/kotlin.ts";
import { FactsParser } from "../../src/lang/parser.ts";
import type { ProjectFiles } from "../../src/lang/module.ts";
import type { FileFacts } from "../../src/lang/types.ts";

const files = readdirSync(join(FIXTURE_ROOT, "kotlin"), { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && (e.name.endsWith(".kt") || e.name.endsWith(".kts")))
  .map((e) => relative(FIXTURE_ROOT, join(e.parentPath, e.name)))
  .sort();
const project = buildProjectInfo(FIXTURE_ROOT, files);

const MAIN = "kotlin/src/main/kotlin/com/example/shop";
const CATALOG = `${MAIN}/catalog/Catalog.kt`;
const CART = `${MAIN}/cart/Cart.kt`;
const CART_TEST = "kotlin/src/test/kotlin/com/example/shop/cart/CartTest.kt";
const BUILD = "kotlin/build.gradle.kts";

commonInvariants("kotlin", files, project);

const types = (f: FileFacts) => f.types.map((t) => [t.qualifiedName, t.kind, t.exported, t.fieldCount, t.methodCount, t.startLine, t.endLine]);
const fns = (f: FileFacts) =>
  f.functions.map((fn) => [fn.qualifiedName, fn.exported, fn.isMethod, fn.receiverType ?? null, fn.paramCount, fn.returnCount, fn.complexity, fn.bodyLines]);
const vars = (f: FileFacts) => f.variables.map((v) => [v.qualifiedName, v.kind, v.exported]);
const imports = (f: FileFacts) =>
  f.imports.map((i) => [i.module, i.isStandardLib ? "std" : i.isExternal ? "external" : i.isRelative ? "relative" : "internal", i.symbols, i.alias ?? null]);
const refs = (f: FileFacts, kind: string) =>
  f.references.filter((r) => r.kind === kind).map((r) => `${r.qualifier ? r.qualifier + "." : ""}${r.name}@${r.line}<${r.enclosing ?? ""}`);

describe("kotlin facts (hand-counted truth)", () => {
  test("the project info lists the packages the .kt files declare", () => {
    expect(project.jvmPackages).toEqual({
      "com.example.shop.cart": [`${MAIN}/cart`, "kotlin/src/test/kotlin/com/example/shop/cart"],
      "com.example.shop.catalog": [`${MAIN}/catalog`],
    });
  });

  test("Catalog.kt: interface, type alias, enum class, data class, object, top-level and extension declarations", async () => {
    const f = await factsOf(CATALOG, project);
    expect(f.packageName).toBe("com.example.shop.catalog");
    expect(f.lines).toEqual({ total: 52, code: 34, comment: 4, blank: 14 });
    expect(types(f)).toEqual([
      ["com.example.shop.catalog.Repository", "interface", true, 0, 2, 7, 11],
      ["com.example.shop.catalog.Sku", "type_alias", true, 0, 0, 13, 13],
      ["com.example.shop.catalog.Category", "enum", true, 3, 1, 18, 25],
      ["com.example.shop.catalog.Product", "class", true, 4, 0, 27, 27],
      ["com.example.shop.catalog.Catalog", "object", true, 1, 3, 32, 47],
    ]);
    expect(f.types.map((t) => t.docStartLine)).toEqual([6, undefined, undefined, undefined, 29]);
    // TOOLS' override of taxable (line 21) lives in an enum entry body: no definition of its own
    expect(fns(f)).toEqual([
      ["com.example.shop.catalog.Repository.find", true, true, "Repository", 1, 1, 1, 0],
      ["com.example.shop.catalog.Repository.all", true, true, "Repository", 0, 1, 1, 0],
      ["com.example.shop.catalog.Category.taxable", true, true, "Category", 0, 1, 1, 1],
      ["com.example.shop.catalog.Catalog.find", true, true, "Catalog", 1, 1, 1, 4],
      ["com.example.shop.catalog.Catalog.all", true, true, "Catalog", 0, 1, 1, 1],
      ["com.example.shop.catalog.Catalog.add", true, true, "Catalog", 1, 0, 2, 5],
      ["com.example.shop.catalog.describe", true, false, "Product", 0, 1, 1, 1],
    ]);
    expect(f.functions[6]!.signature).toBe("fun Product.describe(): String");
    expect(vars(f)).toEqual([
      ["com.example.shop.catalog.MAX_RESULTS", "constant", true],
      ["com.example.shop.catalog.lookups", "variable", false],
      ["com.example.shop.catalog.Category.label", "property", true],
      ["com.example.shop.catalog.Category.FOOD", "enum_member", true],
      ["com.example.shop.catalog.Category.TOOLS", "enum_member", true],
      ["com.example.shop.catalog.Product.sku", "property", true],
      ["com.example.shop.catalog.Product.name", "property", true],
      ["com.example.shop.catalog.Product.price", "property", true],
      ["com.example.shop.catalog.Product.category", "property", true],
      ["com.example.shop.catalog.Catalog.items", "property", false],
      ["com.example.shop.catalog.isExpensive", "variable", true],
    ]);
    expect(imports(f)).toEqual([
      ["java.math.BigDecimal", "std", ["BigDecimal"], null],
      ["kotlin.collections.List", "std", ["List"], null],
    ]);
    // Repository is declared here as an interface: implemented, not inherited
    expect(refs(f, "implement")).toEqual(["Repository@32<com.example.shop.catalog.Catalog"]);
    expect(refs(f, "inherit")).toEqual([]);
    expect(refs(f, "call")).toEqual([
      "mutableMapOf@33<com.example.shop.catalog.Catalog.items",
      "items.values.sortedBy@40<com.example.shop.catalog.Catalog.all",
      "BigDecimal@50<com.example.shop.catalog.isExpensive",
    ]);
    // a default argument read through the enum's name; "fun fake() {}" in the block comment is nothing
    expect(refs(f, "read")).toEqual(["Category.FOOD@27<com.example.shop.catalog.Product"]);
    expect(f.references.filter((r) => r.line === 30)).toEqual([]);
    // T is a type parameter and Boolean a primitive: neither is a reference
    expect(refs(f, "type").filter((r) => r.startsWith("T@") || r.startsWith("Boolean@"))).toEqual([]);
    expect(refs(f, "type")).toContain("Product@52<com.example.shop.catalog.describe");
  });

  test("Cart.kt: sealed hierarchy, companion object, supertypes, local and extension functions, complexity", async () => {
    const f = await factsOf(CART, project);
    expect(f.lines).toEqual({ total: 86, code: 70, comment: 4, blank: 12 });
    expect(types(f)).toEqual([
      ["com.example.shop.cart.CartEvent", "interface", true, 0, 0, 11, 14],
      ["com.example.shop.cart.CartEvent.Added", "class", true, 2, 0, 12, 12],
      ["com.example.shop.cart.CartEvent.Cleared", "object", true, 0, 0, 13, 13],
      ["com.example.shop.cart.Observable", "class", true, 1, 1, 16, 20],
      ["com.example.shop.cart.Cart", "class", true, 4, 4, 25, 77],
      ["com.example.shop.cart.Cart.Companion", "object", true, 1, 1, 31, 35],
    ]);
    expect(f.types.map((t) => t.docStartLine)).toEqual([10, undefined, undefined, undefined, 22, undefined]);
    expect(f.types[1]!.container).toBe("com.example.shop.cart.CartEvent");
    expect(fns(f)).toEqual([
      ["com.example.shop.cart.Observable.emit", false, true, "Observable", 1, 1, 1, 1],
      ["com.example.shop.cart.Cart.Companion.empty", true, true, "Companion", 1, 1, 1, 1],
      ["com.example.shop.cart.Cart.add", true, true, "Cart", 2, 1, 6, 15],
      ["com.example.shop.cart.Cart.summary", true, true, "Cart", 0, 1, 5, 12],
      ["com.example.shop.cart.Cart.iterator", true, true, "Cart", 0, 1, 1, 1],
      ["com.example.shop.cart.Cart.clear", false, true, "Cart", 0, 0, 2, 9],
      ["com.example.shop.cart.isEmpty", true, false, "Cart", 0, 1, 1, 8],
      ["com.example.shop.cart.isEmpty.count", false, false, null, 0, 1, 2, 5],
    ]);
    expect(f.functions[2]!.signature).toBe("fun add(sku: String, quantity: Int = 1): Int");
    expect(vars(f)).toEqual([
      ["com.example.shop.cart.CartEvent.Added.sku", "property", true],
      ["com.example.shop.cart.CartEvent.Added.quantity", "property", true],
      ["com.example.shop.cart.Observable.listeners", "property", false],
      ["com.example.shop.cart.Cart.owner", "property", false],
      ["com.example.shop.cart.Cart.lines", "property", false],
      ["com.example.shop.cart.Cart.state", "property", true],
      ["com.example.shop.cart.Cart.updatedAt", "property", true],
      ["com.example.shop.cart.Cart.Companion.LIMIT", "constant", true],
    ]);
    expect(imports(f)).toEqual([
      ["com.example.shop.catalog.Catalog", "internal", ["Catalog"], null],
      ["com.example.shop.catalog.Product", "internal", ["Product"], null],
      ["com.example.shop.catalog.describe", "internal", ["describe"], null],
      ["java.time.Instant", "std", ["Instant"], "Moment"],
      ["kotlin.math.max", "std", ["max"], null],
      ["kotlinx.coroutines.flow.MutableStateFlow", "external", ["MutableStateFlow"], null],
    ]);
    // the local name of an aliased import is the alias
    expect(refs(f, "import")).toEqual(["Catalog@3<", "Product@4<", "describe@5<", "Moment@6<", "max@7<", "MutableStateFlow@8<"]);
    // a supertype with a constructor call is inherited; the others are implemented
    expect(refs(f, "inherit")).toEqual(["Observable@25<com.example.shop.cart.Cart"]);
    expect(refs(f, "implement")).toEqual([
      "CartEvent@12<com.example.shop.cart.CartEvent.Added",
      "CartEvent@13<com.example.shop.cart.CartEvent.Cleared",
      "Iterable@25<com.example.shop.cart.Cart",
    ]);
    expect(refs(f, "call")).toEqual([
      "mutableListOf@17<com.example.shop.cart.Observable.listeners",
      "listeners.forEach@19<com.example.shop.cart.Observable.emit",
      "it@19<com.example.shop.cart.Observable.emit",
      "linkedMapOf@26<com.example.shop.cart.Cart.lines",
      "MutableStateFlow@27<com.example.shop.cart.Cart.state",
      "Cart@34<com.example.shop.cart.Cart.Companion.empty",
      "Catalog.find@38<com.example.shop.cart.Cart.add",
      "max@40<com.example.shop.cart.Cart.add",
      "owner.startsWith@41<com.example.shop.cart.Cart.add",
      "IllegalStateException@42<com.example.shop.cart.Cart.add",
      "lines.remove@44<com.example.shop.cart.Cart.add",
      "Moment.now@48<com.example.shop.cart.Cart.add",
      "emit@49<com.example.shop.cart.Cart.add",
      "CartEvent.Added@49<com.example.shop.cart.Cart.add",
      "mutableListOf@54<com.example.shop.cart.Cart.summary",
      "Catalog.find@57<com.example.shop.cart.Cart.summary",
      "Catalog.find(sku).describe@57<com.example.shop.cart.Cart.summary",
      "parts.joinToString@63<com.example.shop.cart.Cart.summary",
      "lines.keys.mapNotNull@66<com.example.shop.cart.Cart.iterator",
      "Catalog.find@66<com.example.shop.cart.Cart.iterator",
      "lines.keys.mapNotNull { Catalog.find(it) }.iterator@66<com.example.shop.cart.Cart.iterator",
      "lines.clear@70<com.example.shop.cart.Cart.clear",
      "emit@74<com.example.shop.cart.Cart.clear",
      "count@85<com.example.shop.cart.isEmpty",
    ]);
    expect(refs(f, "read")).toEqual(["CartEvent.Cleared@74<com.example.shop.cart.Cart.clear"]);
    // "$owner" in a string template is an expression, the text around it is not
    expect(f.references.filter((r) => r.line === 42).map((r) => r.name)).toEqual(["IllegalStateException"]);
  });

  test("CartTest.kt: a test under src/test", async () => {
    const f = await factsOf(CART_TEST, project);
    expect(f.lines).toEqual({ total: 12, code: 10, comment: 0, blank: 2 });
    expect(types(f)).toEqual([["com.example.shop.cart.CartTest", "class", true, 0, 1, 6, 12]]);
    expect(fns(f)).toEqual([["com.example.shop.cart.CartTest.addsNothingForAnUnknownSku", true, true, "CartTest", 0, 0, 1, 4]]);
    expect(imports(f).map((i) => i[1])).toEqual(["std", "std"]);
    expect(refs(f, "call")).toEqual([
      "Cart@9<com.example.shop.cart.CartTest.addsNothingForAnUnknownSku",
      "assertEquals@10<com.example.shop.cart.CartTest.addsNothingForAnUnknownSku",
      "cart.add@10<com.example.shop.cart.CartTest.addsNothingForAnUnknownSku",
    ]);
    expect(refs(f, "type")).toEqual(["Test@7<com.example.shop.cart.CartTest.addsNothingForAnUnknownSku"]);
  });

  test("build.gradle.kts: a script is parsed as Kotlin, its top-level calls are references", async () => {
    const f = await factsOf(BUILD, project);
    expect(f.lines).toEqual({ total: 9, code: 7, comment: 1, blank: 1 });
    expect([f.types, f.functions, f.variables, f.imports]).toEqual([[], [], [], []]);
    expect(refs(f, "call")).toEqual(["plugins@2<", "kotlin@3<", "dependencies@6<", "implementation@7<", "testImplementation@8<", "kotlin@8<"]);
  });

  test("test files: Gradle test source sets and *Test.kt names", () => {
    expect(kotlin.isTestFile(CART_TEST)).toBe(true);
    expect(kotlin.isTestFile(CART)).toBe(false);
    expect(kotlin.isTestFile(BUILD)).toBe(false);
    expect(kotlin.isTestFile("shared/src/commonTest/kotlin/a/Codec.kt")).toBe(true);
    expect(kotlin.isTestFile("app/src/androidTest/java/a/Screen.kt")).toBe(true);
    expect(kotlin.isTestFile("a/ParserTests.kt")).toBe(true);
    expect(kotlin.isTestFile("a/Contest.kt")).toBe(false);
  });

  test("imports resolve to the file named after the type, else to every file of the package", async () => {
    const all = new Set(files);
    const tree: ProjectFiles = {
      project,
      has: (p) => all.has(p),
      inDir: (d) => files.filter((p) => p.slice(0, p.lastIndexOf("/")) === d),
    };
    const f = await factsOf(CART, project);
    const resolve = (i: number) => kotlin.resolveImport!(f.imports[i]!, CART, tree);
    expect(resolve(0)).toEqual([CATALOG]); // com.example.shop.catalog.Catalog → Catalog.kt
    expect(resolve(2)).toEqual([CATALOG]); // the top-level function describe: the package's files
    expect(resolve(3)).toEqual([]); // java.time.Instant
    expect(resolve(5)).toEqual([]); // kotlinx.coroutines
  });

  test("rules stated in the module: kinds, visibility, supertypes, Unit", async () => {
    const f = await inline(
      "Rules.kt",
      `package a

annotation class Marker
fun interface Pred {
    fun ok(): Boolean
}
interface Named : Pred
value class Id(val v: String)
open class Base
class Child : Base {
    constructor() : super()

    companion object
    public fun shown(): Unit {}
    private fun hidden() = 1
    protected val guarded = 2
}
`,
    );
    expect(types(f)).toEqual([
      ["a.Marker", "interface", true, 0, 0, 3, 3],
      ["a.Pred", "interface", true, 0, 1, 4, 6],
      ["a.Named", "interface", true, 0, 0, 7, 7],
      ["a.Id", "class", true, 1, 0, 8, 8],
      ["a.Base", "class", true, 0, 0, 9, 9],
      ["a.Child", "class", true, 1, 3, 10, 17],
      ["a.Child.Companion", "object", true, 0, 0, 13, 13],
    ]);
    expect(fns(f)).toEqual([
      ["a.Pred.ok", true, true, "Pred", 0, 1, 1, 0],
      ["a.Child.Child", true, true, "Child", 0, 0, 1, 0],
      ["a.Child.shown", true, true, "Child", 0, 0, 1, 1],
      ["a.Child.hidden", false, true, "Child", 0, 1, 1, 1],
    ]);
    expect(vars(f)).toEqual([
      ["a.Id.v", "property", true],
      ["a.Child.guarded", "property", false],
    ]);
    // an interface's supertype is inherited; Base has no constructor call here but is declared as a class
    expect(refs(f, "inherit")).toEqual(["Pred@7<a.Named", "Base@10<a.Child"]);
    expect(refs(f, "implement")).toEqual([]);
  });
});

let parser: Promise<FactsParser> | undefined;
async function inline(path: string, text: string): Promise<FileFacts> {
  parser ??= FactsParser.create();
  const parsed = await (await parser).parse(path, text, project);
  expect(parsed.facts?.syntaxErrors).toBe(0);
  return parsed.facts!;
}

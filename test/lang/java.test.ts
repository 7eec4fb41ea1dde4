import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { commonInvariants, factsOf, FIXTURE_ROOT } from "./common.case.ts";
import { buildProjectInfo } from "../../src/indexer/project-info.ts";
import { java } from "../../src/lang/java.ts";
import { FactsParser } from "../../src/lang/parser.ts";
import type { ProjectFiles } from "../../src/lang/module.ts";
import type { FileFacts } from "../../src/lang/types.ts";

const files = readdirSync(join(FIXTURE_ROOT, "java"), { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith(".java"))
  .map((e) => relative(FIXTURE_ROOT, join(e.parentPath, e.name)))
  .sort();
// The project info the indexer would build over this tree (package declarations → folders).
const project = buildProjectInfo(FIXTURE_ROOT, files);

const MAIN = "java/src/main/java/com/example/shop";
const PRODUCT = `${MAIN}/catalog/Product.java`;
const PRICED = `${MAIN}/catalog/Priced.java`;
const ORDER = `${MAIN}/orders/Order.java`;
const AUDITED = `${MAIN}/orders/Audited.java`;
const BASE = `${MAIN}/common/BaseEntity.java`;
const ORDER_TEST = "java/src/test/java/com/example/shop/orders/OrderTest.java";

commonInvariants("java", files, project);

const types = (f: FileFacts) => f.types.map((t) => [t.qualifiedName, t.kind, t.exported, t.fieldCount, t.methodCount, t.startLine, t.endLine]);
const fns = (f: FileFacts) => f.functions.map((fn) => [fn.qualifiedName, fn.exported, fn.paramCount, fn.returnCount, fn.complexity, fn.bodyLines]);
const vars = (f: FileFacts) => f.variables.map((v) => [v.qualifiedName, v.kind, v.exported]);
const imports = (f: FileFacts) =>
  f.imports.map((i) => [i.module, i.isStandardLib ? "std" : i.isExternal ? "external" : i.isRelative ? "relative" : "internal", i.symbols]);
/** `qualifier.name@line<enclosing` for the references of one kind. */
const refs = (f: FileFacts, kind: string) =>
  f.references.filter((r) => r.kind === kind).map((r) => `${r.qualifier ? r.qualifier + "." : ""}${r.name}@${r.line}<${r.enclosing ?? ""}`);

describe("java facts (hand-counted truth)", () => {
  test("the project info lists every declared package with its folders", () => {
    expect(project.jvmPackages).toEqual({
      "com.example.shop.catalog": [`${MAIN}/catalog`],
      "com.example.shop.common": [`${MAIN}/common`],
      "com.example.shop.orders": [`${MAIN}/orders`, "java/src/test/java/com/example/shop/orders"],
    });
  });

  test("Priced.java: an interface with a constant, abstract, default and static methods", async () => {
    const f = await factsOf(PRICED, project);
    expect(f.packageName).toBe("com.example.shop.catalog");
    expect(f.lines).toEqual({ total: 21, code: 12, comment: 4, blank: 5 });
    expect(types(f)).toEqual([["com.example.shop.catalog.Priced", "interface", true, 1, 3, 8, 21]]);
    expect(f.types[0]!.docStartLine).toBe(5);
    // interface members are public without the keyword
    expect(fns(f)).toEqual([
      ["com.example.shop.catalog.Priced.price", true, 0, 1, 1, 0],
      ["com.example.shop.catalog.Priced.isFree", true, 0, 1, 1, 3],
      ["com.example.shop.catalog.Priced.cheaper", true, 2, 1, 2, 3],
    ]);
    expect(f.functions.map((fn) => [fn.isMethod, fn.receiverType])).toEqual([
      [true, "Priced"],
      [true, "Priced"],
      [true, "Priced"],
    ]);
    expect(f.functions[2]!.signature).toBe("static <T extends Priced> T cheaper(T a, T b)");
    expect(vars(f)).toEqual([["com.example.shop.catalog.Priced.SCALE", "constant", true]]);
    expect(f.variables[0]!.container).toBe("com.example.shop.catalog.Priced");
    expect(imports(f)).toEqual([["java.math.BigDecimal", "std", ["BigDecimal"]]]);
    expect(refs(f, "call")).toEqual([
      "price@15<com.example.shop.catalog.Priced.isFree",
      "price().signum@15<com.example.shop.catalog.Priced.isFree",
      "a.price@19<com.example.shop.catalog.Priced.cheaper",
      "a.price().compareTo@19<com.example.shop.catalog.Priced.cheaper",
      "b.price@19<com.example.shop.catalog.Priced.cheaper",
    ]);
    // the type parameter T is not a reference; its bound Priced is
    expect(refs(f, "type")).toEqual(["BigDecimal@12<com.example.shop.catalog.Priced.price", "Priced@18<com.example.shop.catalog.Priced.cheaper"]);
  });

  test("Product.java: fields, constructor, overrides, a nested builder, inheritance", async () => {
    const f = await factsOf(PRODUCT, project);
    expect(f.lines).toEqual({ total: 65, code: 49, comment: 5, blank: 11 });
    expect(types(f)).toEqual([
      ["com.example.shop.catalog.Product", "class", true, 6, 5, 12, 65],
      ["com.example.shop.catalog.Product.Builder", "class", true, 1, 2, 53, 64],
    ]);
    expect(f.types[0]!.docStartLine).toBe(9);
    expect(f.types[1]!.container).toBe("com.example.shop.catalog.Product");
    expect(fns(f)).toEqual([
      ["com.example.shop.catalog.Product.Product", true, 3, 0, 1, 7],
      ["com.example.shop.catalog.Product.name", true, 0, 1, 1, 3],
      ["com.example.shop.catalog.Product.price", true, 0, 1, 3, 7],
      ["com.example.shop.catalog.Product.compareTo", true, 1, 1, 1, 3],
      ["com.example.shop.catalog.Product.applyDiscount", false, 1, 0, 1, 3],
      ["com.example.shop.catalog.Product.Builder.sku", true, 1, 1, 1, 4],
      ["com.example.shop.catalog.Product.Builder.build", false, 0, 1, 1, 3],
    ]);
    // annotations belong to the declaration; the block comment above compareTo is its doc
    expect(f.functions.map((fn) => fn.startLine)).toEqual([21, 29, 34, 44, 49, 56, 61]);
    expect(f.functions[3]!.docStartLine).toBe(43);
    expect(f.functions[5]!.receiverType).toBe("Builder");
    expect(f.functions[0]!.signature).toBe("public Product(String sku, String name, BigDecimal price)");
    expect(vars(f)).toEqual([
      ["com.example.shop.catalog.Product.BY_NAME", "constant", true],
      ["com.example.shop.catalog.Product.created", "field", false],
      ["com.example.shop.catalog.Product.sku", "field", false],
      ["com.example.shop.catalog.Product.name", "field", false],
      ["com.example.shop.catalog.Product.price", "field", false],
      ["com.example.shop.catalog.Product.discount", "field", false],
      ["com.example.shop.catalog.Product.Builder.sku", "field", false],
    ]);
    expect(imports(f)).toEqual([
      ["java.math.BigDecimal", "std", ["BigDecimal"]],
      ["java.util.Comparator", "std", ["Comparator"]],
      ["java.util.Objects", "std", ["Objects"]],
      ["com.fasterxml.jackson.annotation.JsonProperty", "external", ["JsonProperty"]],
      ["com.example.shop.common.BaseEntity", "internal", ["BaseEntity"]],
    ]);
    expect(refs(f, "import")).toEqual(["BigDecimal@3<", "Comparator@4<", "Objects@5<", "JsonProperty@6<", "BaseEntity@7<"]);
    expect(refs(f, "inherit")).toEqual(["BaseEntity@12<com.example.shop.catalog.Product"]);
    expect(refs(f, "implement")).toEqual(["Priced@12<com.example.shop.catalog.Product", "Comparable@12<com.example.shop.catalog.Product"]);
    // a method reference is a call of the method; a `new` is a call of the class
    expect(refs(f, "call")).toEqual([
      "Comparator.comparing@13<com.example.shop.catalog.Product.BY_NAME",
      "Product.name@13<com.example.shop.catalog.Product.BY_NAME",
      "Objects.requireNonNull@23<com.example.shop.catalog.Product.Product",
      "discount.compareTo@37<com.example.shop.catalog.Product.price",
      "price.subtract@40<com.example.shop.catalog.Product.price",
      "sku.compareTo@46<com.example.shop.catalog.Product.compareTo",
      "Product@62<com.example.shop.catalog.Product.Builder.build",
    ]);
    expect(refs(f, "read")).toEqual(["BigDecimal.ZERO@62<com.example.shop.catalog.Product.Builder.build"]);
    // the comment on line 43 mentions BY_NAME and name(order): no reference
    expect(f.references.filter((r) => r.line === 43)).toEqual([]);
    expect(refs(f, "type")).toContain("JsonProperty@16<com.example.shop.catalog.Product");
    expect(refs(f, "type")).toContain("Override@44<com.example.shop.catalog.Product.compareTo");
  });

  test("BaseEntity.java: an abstract class with a protected constructor", async () => {
    const f = await factsOf(BASE, project);
    expect(f.lines).toEqual({ total: 12, code: 8, comment: 1, blank: 3 });
    expect(types(f)).toEqual([["com.example.shop.common.BaseEntity", "class", true, 1, 2, 4, 12]]);
    expect(fns(f)).toEqual([
      ["com.example.shop.common.BaseEntity.BaseEntity", false, 1, 0, 1, 3],
      ["com.example.shop.common.BaseEntity.name", true, 0, 1, 1, 0],
    ]);
    expect(f.functions[1]!.signature).toBe("public abstract String name();");
    expect(vars(f)).toEqual([["com.example.shop.common.BaseEntity.id", "field", false]]);
  });

  test("Audited.java: an annotation type is an interface whose elements are methods", async () => {
    const f = await factsOf(AUDITED, project);
    expect(f.lines).toEqual({ total: 15, code: 11, comment: 1, blank: 3 });
    expect(types(f)).toEqual([["com.example.shop.orders.Audited", "interface", true, 0, 2, 9, 15]]);
    expect(f.types[0]!.docStartLine).toBe(8);
    expect(fns(f)).toEqual([
      ["com.example.shop.orders.Audited.reason", true, 0, 1, 1, 0],
      ["com.example.shop.orders.Audited.level", true, 0, 1, 1, 0],
    ]);
    expect(imports(f).map((i) => i[1])).toEqual(["std", "std", "std", "std"]);
    expect(refs(f, "read")).toEqual(["RetentionPolicy.RUNTIME@9<com.example.shop.orders.Audited", "ElementType.TYPE@10<com.example.shop.orders.Audited"]);
  });

  test("Order.java: enum with constructor and constant body, record, inner and local classes, complexity", async () => {
    const f = await factsOf(ORDER, project);
    expect(f.packageName).toBe("com.example.shop.orders");
    expect(f.lines).toEqual({ total: 123, code: 101, comment: 6, blank: 16 });
    expect(types(f)).toEqual([
      ["com.example.shop.orders.Order", "class", true, 3, 6, 13, 123],
      ["com.example.shop.orders.Order.Status", "enum", true, 4, 2, 16, 33],
      ["com.example.shop.orders.Order.LineItem", "record", true, 2, 2, 36, 44],
      ["com.example.shop.orders.Order.Receipt", "class", false, 0, 1, 113, 122],
      ["com.example.shop.orders.Order.Receipt.render.Line", "class", false, 0, 1, 115, 119],
    ]);
    expect(f.types.map((t) => t.docStartLine)).toEqual([12, 15, 35, undefined, undefined]);
    expect(f.types[4]!.container).toBe("com.example.shop.orders.Order.Receipt.render");
    // SHIPPED's isFinal override (line 19) and the anonymous Runnable's run (line 96) are not definitions:
    // the `if` in run counts toward reporter
    expect(fns(f)).toEqual([
      ["com.example.shop.orders.Order.Status.Status", false, 1, 0, 1, 3],
      ["com.example.shop.orders.Order.Status.isFinal", false, 0, 1, 1, 3],
      ["com.example.shop.orders.Order.LineItem.LineItem", true, 2, 0, 2, 3],
      ["com.example.shop.orders.Order.LineItem.total", false, 0, 1, 1, 3],
      ["com.example.shop.orders.Order.Order", true, 1, 0, 1, 3],
      ["com.example.shop.orders.Order.price", true, 0, 1, 2, 7],
      ["com.example.shop.orders.Order.advance", true, 1, 0, 3, 13],
      ["com.example.shop.orders.Order.count", true, 1, 1, 5, 11],
      ["com.example.shop.orders.Order.reporter", false, 0, 1, 2, 10],
      ["com.example.shop.orders.Order.safe", false, 1, 1, 2, 8],
      ["com.example.shop.orders.Order.Receipt.render", false, 0, 1, 2, 8],
      ["com.example.shop.orders.Order.Receipt.render.Line.text", false, 1, 1, 2, 3],
    ]);
    expect(f.functions.find((fn) => fn.name === "advance")!.docStartLine).toBe(64);
    expect(f.functions.find((fn) => fn.name === "advance")!.signature).toBe("public void advance(Instant now) throws IllegalStateException");
    expect(vars(f)).toEqual([
      ["com.example.shop.orders.Order.Status.NEW", "enum_member", true],
      ["com.example.shop.orders.Order.Status.PAID", "enum_member", true],
      ["com.example.shop.orders.Order.Status.SHIPPED", "enum_member", true],
      ["com.example.shop.orders.Order.Status.code", "field", false],
      ["com.example.shop.orders.Order.LineItem.product", "field", true],
      ["com.example.shop.orders.Order.LineItem.quantity", "field", true],
      ["com.example.shop.orders.Order.lines", "field", false],
      ["com.example.shop.orders.Order.status", "field", false],
      ["com.example.shop.orders.Order.paidAt", "field", false],
    ]);
    // javax.inject is no part of the JDK (javax.xml, javax.swing… are)
    expect(imports(f)).toEqual([
      ["java.time.Instant", "std", ["Instant"]],
      ["java.util.*", "std", []],
      ["java.util.function.Predicate", "std", ["Predicate"]],
      ["javax.inject.Inject", "external", ["Inject"]],
      ["java.util.Objects.requireNonNull", "std", ["requireNonNull"]],
      ["com.example.shop.catalog.Priced", "internal", ["Priced"]],
      ["com.example.shop.catalog.Product", "internal", ["Product"]],
    ]);
    // a wildcard import names no local symbol
    expect(refs(f, "import")).toEqual(["Instant@3<", "Predicate@5<", "Inject@6<", "requireNonNull@7<", "Priced@9<", "Product@10<"]);
    expect(refs(f, "implement")).toEqual(["Priced@14<com.example.shop.orders.Order"]);
    expect(refs(f, "inherit")).toEqual([]);
    expect(refs(f, "call")).toEqual([
      "IllegalArgumentException@38<com.example.shop.orders.Order.LineItem.LineItem",
      "product.price@42<com.example.shop.orders.Order.LineItem.total",
      "product.price().multiply@42<com.example.shop.orders.Order.LineItem.total",
      "java.math.BigDecimal.valueOf@42<com.example.shop.orders.Order.LineItem.total",
      "ArrayList@46<com.example.shop.orders.Order.lines",
      "lines.addAll@52<com.example.shop.orders.Order.Order",
      "requireNonNull@52<com.example.shop.orders.Order.Order",
      "sum.add@59<com.example.shop.orders.Order.price",
      "line.total@59<com.example.shop.orders.Order.price",
      "IllegalStateException@77<com.example.shop.orders.Order.advance",
      "lines.size@84<com.example.shop.orders.Order.count",
      "lines.get@85<com.example.shop.orders.Order.count",
      "filter.test@86<com.example.shop.orders.Order.count",
      "item.product@86<com.example.shop.orders.Order.count",
      "item.quantity@86<com.example.shop.orders.Order.count",
      "item.quantity@87<com.example.shop.orders.Order.count",
      "Runnable@94<com.example.shop.orders.Order.reporter",
      "status.isFinal@97<com.example.shop.orders.Order.reporter",
      "System.out.println@98<com.example.shop.orders.Order.reporter",
      "r.run@106<com.example.shop.orders.Order.safe",
      "item.quantity@117<com.example.shop.orders.Order.Receipt.render.Line.text",
      "item.quantity@117<com.example.shop.orders.Order.Receipt.render.Line.text",
      "lines.isEmpty@120<com.example.shop.orders.Order.Receipt.render",
      "Line@120<com.example.shop.orders.Order.Receipt.render",
      "new Line().text@120<com.example.shop.orders.Order.Receipt.render",
      "lines.get@120<com.example.shop.orders.Order.Receipt.render",
    ]);
    expect(refs(f, "read")).toEqual([
      "Status.NEW@47<com.example.shop.orders.Order.status",
      "Status.PAID@70<com.example.shop.orders.Order.advance",
      "Status.SHIPPED@74<com.example.shop.orders.Order.advance",
      "Status.NEW@86<com.example.shop.orders.Order.count",
      "System.out@98<com.example.shop.orders.Order.reporter",
    ]);
    // "pay()" in the Javadoc and in strings is no call
    expect(f.references.filter((r) => r.name === "pay" || r.line === 65)).toEqual([]);
    expect(refs(f, "type")).toContain("Audited@13<com.example.shop.orders.Order");
    expect(refs(f, "type")).toContain("LineItem@51<com.example.shop.orders.Order.Order");
  });

  test("OrderTest.java: a JUnit test under src/test", async () => {
    const f = await factsOf(ORDER_TEST, project);
    expect(f.lines).toEqual({ total: 14, code: 11, comment: 0, blank: 3 });
    expect(types(f)).toEqual([["com.example.shop.orders.OrderTest", "class", false, 0, 1, 8, 14]]);
    expect(fns(f)).toEqual([["com.example.shop.orders.OrderTest.countsOnlyMatchingLines", false, 0, 0, 1, 4]]);
    expect(imports(f)).toEqual([
      ["org.junit.jupiter.api.Assertions.assertEquals", "external", ["assertEquals"]],
      ["java.util.List", "std", ["List"]],
      ["org.junit.jupiter.api.Test", "external", ["Test"]],
    ]);
    expect(refs(f, "call")).toEqual([
      "Order@11<com.example.shop.orders.OrderTest.countsOnlyMatchingLines",
      "List.of@11<com.example.shop.orders.OrderTest.countsOnlyMatchingLines",
      "assertEquals@12<com.example.shop.orders.OrderTest.countsOnlyMatchingLines",
      "order.count@12<com.example.shop.orders.OrderTest.countsOnlyMatchingLines",
      "p.isFree@12<com.example.shop.orders.OrderTest.countsOnlyMatchingLines",
    ]);
  });

  test("test files: Maven / Gradle test source sets and Surefire / Failsafe class names", () => {
    expect(java.isTestFile(ORDER_TEST)).toBe(true);
    expect(java.isTestFile(ORDER)).toBe(false);
    expect(java.isTestFile("app/src/androidTest/java/a/MainScreen.java")).toBe(true);
    expect(java.isTestFile("lib/src/integrationTest/java/a/Db.java")).toBe(true);
    expect(java.isTestFile("a/ParserTests.java")).toBe(true);
    expect(java.isTestFile("a/StoreIT.java")).toBe(true);
    expect(java.isTestFile("a/TestHelpers.java")).toBe(true);
    expect(java.isTestFile("a/Testimonial.java")).toBe(false);
    expect(java.isTestFile("a/Contest.java")).toBe(false);
    expect(java.isTestFile("src/main/java/a/Latest.java")).toBe(false);
  });

  test("imports resolve to the files of the project's packages", async () => {
    const all = new Set(files);
    const tree: ProjectFiles = {
      project,
      has: (p) => all.has(p),
      inDir: (d) => files.filter((p) => p.slice(0, p.lastIndexOf("/")) === d),
    };
    const f = await factsOf(ORDER, project);
    const resolve = (module: string) => java.resolveImport!({ ...f.imports[0]!, module }, ORDER, tree);
    expect(resolve("com.example.shop.catalog.Product")).toEqual([PRODUCT]);
    // a static import of a member resolves to its class's file
    expect(resolve("com.example.shop.catalog.Priced.SCALE")).toEqual([PRICED]);
    expect(resolve("com.example.shop.catalog.*")).toEqual([PRICED, PRODUCT]);
    expect(resolve("com.example.shop.orders.*")).toEqual([AUDITED, ORDER, ORDER_TEST]);
    expect(resolve("java.util.*")).toEqual([]);
    expect(resolve("com.example.shop.billing.Invoice")).toEqual([]);
  });

  test("rules stated in the module: implied public members, enum constants, arrow-switch labels, lambdas", async () => {
    const f = await inline(
      "Rules.java",
      `package a;
interface Api {
    class Default {}
    private static void helper() {}
}
class Holder {
    private enum Mode { ON, OFF }
    int pick(int x, java.util.List<String> xs) {
        xs.forEach(s -> { if (s.isEmpty()) return; });
        return switch (x) {
            case 1, 2 -> 10;
            case 3 -> 30;
            default -> 0;
        };
    }
}
`,
    );
    expect(types(f)).toEqual([
      ["a.Api", "interface", false, 0, 1, 2, 5],
      ["a.Api.Default", "class", true, 0, 0, 3, 3],
      ["a.Holder", "class", false, 0, 1, 6, 16],
      ["a.Holder.Mode", "enum", false, 2, 0, 7, 7],
    ]);
    // a private interface method is not public; the lambda's `if` counts toward pick; `case 1, 2` is one label
    expect(fns(f)).toEqual([
      ["a.Api.helper", false, 0, 0, 1, 1],
      ["a.Holder.pick", false, 2, 1, 4, 8],
    ]);
    expect(vars(f)).toEqual([
      ["a.Holder.Mode.ON", "enum_member", true],
      ["a.Holder.Mode.OFF", "enum_member", true],
    ]);
  });
});

let parser: Promise<FactsParser> | undefined;
async function inline(path: string, text: string): Promise<FileFacts> {
  parser ??= FactsParser.create();
  const parsed = await (await parser).parse(path, text, project);
  expect(parsed.facts?.syntaxErrors).toBe(0);
  return parsed.facts!;
}

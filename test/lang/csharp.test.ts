import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { commonInvariants, factsOf, FIXTURE_ROOT } from "./common.case.ts";
import { buildProjectInfo } from "../../src/indexer/project-info.ts";
import { csharp } from "../../src/lang/csharp.ts";
import { FactsParser } from "../../src/lang/parser.ts";
import type { ProjectFiles } from "../../src/lang/module.ts";
import type { FileFacts } from "../../src/lang/types.ts";

const files = readdirSync(join(FIXTURE_ROOT, "csharp"), { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith(".cs"))
  .map((e) => relative(FIXTURE_ROOT, join(e.parentPath, e.name)))
  .sort();
const project = buildProjectInfo(FIXTURE_ROOT, files);

const CORE = "csharp/src/Shop.Core";
const PRODUCT = `${CORE}/Catalog/Product.cs`;
const REPOSITORY = `${CORE}/Catalog/Repository.cs`;
const ORDER = `${CORE}/Orders/Order.cs`;
const USINGS = `${CORE}/GlobalUsings.cs`;
const TESTS = "csharp/tests/Shop.Core.Tests/OrderTests.cs";

commonInvariants("c_sharp", files, project);

const types = (f: FileFacts) => f.types.map((t) => [t.qualifiedName, t.kind, t.exported, t.fieldCount, t.methodCount, t.startLine, t.endLine]);
const fns = (f: FileFacts) =>
  f.functions.map((fn) => [fn.qualifiedName, fn.exported, fn.isMethod, fn.receiverType ?? null, fn.paramCount, fn.returnCount, fn.complexity, fn.bodyLines]);
const vars = (f: FileFacts) => f.variables.map((v) => [v.qualifiedName, v.kind, v.exported]);
const imports = (f: FileFacts) =>
  f.imports.map((i) => [i.module, i.isStandardLib ? "std" : i.isExternal ? "external" : i.isRelative ? "relative" : "internal", i.alias ?? null]);
const refs = (f: FileFacts, kind: string) =>
  f.references.filter((r) => r.kind === kind).map((r) => `${r.qualifier ? r.qualifier + "." : ""}${r.name}@${r.line}<${r.enclosing ?? ""}`);

describe("c# facts (hand-counted truth)", () => {
  test("the project info lists the namespaces the files declare", () => {
    expect(project.jvmPackages).toEqual({
      "Shop.Core.Catalog": [`${CORE}/Catalog`],
      "Shop.Core.Orders": [`${CORE}/Orders`],
      "Shop.Core.Tests": ["csharp/tests/Shop.Core.Tests"],
    });
  });

  test("GlobalUsings.cs: global usings; Microsoft.Extensions ships with .NET, EF Core comes from NuGet", async () => {
    const f = await factsOf(USINGS, project);
    expect(f.packageName).toBeUndefined();
    expect(f.lines).toEqual({ total: 5, code: 4, comment: 1, blank: 0 });
    expect(imports(f)).toEqual([
      ["System", "std", null],
      ["System.Collections.Generic", "std", null],
      ["Microsoft.Extensions.Logging", "std", null],
      ["Microsoft.EntityFrameworkCore", "external", null],
    ]);
    expect(f.references).toEqual([]);
  });

  test("Product.cs: a block namespace with an interface, abstract class, enum and class", async () => {
    const f = await factsOf(PRODUCT, project);
    expect(f.packageName).toBe("Shop.Core.Catalog");
    expect(f.lines).toEqual({ total: 47, code: 35, comment: 2, blank: 10 });
    expect(types(f)).toEqual([
      ["Shop.Core.Catalog.IPriced", "interface", true, 1, 1, 7, 12],
      ["Shop.Core.Catalog.Entity", "class", true, 1, 1, 14, 19],
      ["Shop.Core.Catalog.Category", "enum", true, 2, 0, 21, 25],
      ["Shop.Core.Catalog.Product", "class", true, 5, 3, 28, 46],
    ]);
    expect(f.types.map((t) => t.docStartLine)).toEqual([6, undefined, undefined, 27]);
    // an interface member without an access modifier is public
    expect(fns(f)).toEqual([
      ["Shop.Core.Catalog.IPriced.IsFree", true, true, "IPriced", 0, 1, 1, 1],
      ["Shop.Core.Catalog.Entity.Entity", false, true, "Entity", 1, 0, 1, 1],
      ["Shop.Core.Catalog.Product.Product", true, true, "Product", 3, 0, 2, 4],
      ["Shop.Core.Catalog.Product.Equals", true, true, "Product", 1, 1, 2, 1],
      ["Shop.Core.Catalog.Product.GetHashCode", true, true, "Product", 0, 1, 1, 1],
    ]);
    expect(f.functions[2]!.signature).toBe("public Product(Guid id, string name, decimal price) : base(id)");
    expect(vars(f)).toEqual([
      ["Shop.Core.Catalog.IPriced.Price", "property", true],
      ["Shop.Core.Catalog.Entity.Id", "property", true],
      ["Shop.Core.Catalog.Category.Food", "enum_member", true],
      ["Shop.Core.Catalog.Category.Tools", "enum_member", true],
      ["Shop.Core.Catalog.Product.MaxNameLength", "constant", true],
      ["Shop.Core.Catalog.Product._tags", "field", false],
      ["Shop.Core.Catalog.Product.Name", "property", true],
      ["Shop.Core.Catalog.Product.Price", "property", true],
      ["Shop.Core.Catalog.Product.Category", "property", true],
    ]);
    expect(imports(f)).toEqual([
      ["System", "std", null],
      ["System.Collections.Generic", "std", null],
    ]);
    // Entity is declared in this file as a class: the first base is inherited
    expect(refs(f, "inherit")).toEqual(["Entity@28<Shop.Core.Catalog.Product"]);
    expect(refs(f, "implement")).toEqual(["IPriced@28<Shop.Core.Catalog.Product", "IEquatable@28<Shop.Core.Catalog.Product"]);
    expect(refs(f, "call")).toEqual(["Id.GetHashCode@45<Shop.Core.Catalog.Product.GetHashCode"]);
    expect(refs(f, "read")).toEqual(["Category.Food@41<Shop.Core.Catalog.Product.Category"]);
    // "new Product()" in the comment is nothing
    expect(f.references.filter((r) => r.line === 27)).toEqual([]);
    expect(refs(f, "type")).toContain("Product@28<Shop.Core.Catalog.Product");
    expect(refs(f, "type")).toContain("Product@43<Shop.Core.Catalog.Product.Equals");
  });

  test("Repository.cs: nested namespaces, generic interface, struct and class, indexer, conversion, params", async () => {
    const f = await factsOf(REPOSITORY, project);
    expect(f.packageName).toBe("Shop.Core.Catalog.Storage");
    expect(f.lines).toEqual({ total: 42, code: 32, comment: 2, blank: 8 });
    // the indexer (line 29) is neither a field nor a method
    expect(types(f)).toEqual([
      ["Shop.Core.Catalog.Storage.IRepository", "interface", true, 0, 2, 6, 10],
      ["Shop.Core.Catalog.Storage.Page", "struct", true, 2, 1, 13, 19],
      ["Shop.Core.Catalog.Storage.MemoryRepository", "class", false, 1, 4, 21, 40],
    ]);
    expect(f.types.map((t) => t.docStartLine)).toEqual([5, 12, undefined]);
    expect(fns(f)).toEqual([
      ["Shop.Core.Catalog.Storage.IRepository.Find", true, true, "IRepository", 1, 1, 1, 0],
      ["Shop.Core.Catalog.Storage.IRepository.All", true, true, "IRepository", 0, 1, 1, 0],
      ["Shop.Core.Catalog.Storage.Page.IsLast", true, true, "Page", 1, 1, 1, 1],
      ["Shop.Core.Catalog.Storage.MemoryRepository.Find", true, true, "MemoryRepository", 1, 1, 2, 1],
      ["Shop.Core.Catalog.Storage.MemoryRepository.All", true, true, "MemoryRepository", 0, 1, 1, 1],
      ["Shop.Core.Catalog.Storage.MemoryRepository.implicit operator Page<T>", true, true, "MemoryRepository", 1, 1, 1, 1],
      ["Shop.Core.Catalog.Storage.MemoryRepository.Load", true, true, "MemoryRepository", 1, 0, 2, 6],
    ]);
    expect(vars(f)).toEqual([
      ["Shop.Core.Catalog.Storage.Page.Number", "field", true],
      ["Shop.Core.Catalog.Storage.Page.Items", "property", true],
      ["Shop.Core.Catalog.Storage.MemoryRepository._items", "field", false],
    ]);
    // IRepository is declared here as an interface: implemented even as the first base
    expect(refs(f, "implement")).toEqual(["IRepository@21<Shop.Core.Catalog.Storage.MemoryRepository"]);
    expect(refs(f, "inherit")).toEqual([]);
    expect(refs(f, "call")).toEqual([
      "_items.TryGetValue@25<Shop.Core.Catalog.Storage.MemoryRepository.Find",
      "repo.All@31<Shop.Core.Catalog.Storage.MemoryRepository.implicit operator Page<T>",
      "repo.All().ToList@31<Shop.Core.Catalog.Storage.MemoryRepository.implicit operator Page<T>",
    ]);
    // Items.Count reads through the struct's own property, not through a type
    expect(refs(f, "read")).toEqual([]);
    // constraints are type uses; the type parameter T never is
    expect(refs(f, "type").filter((r) => r.startsWith("Entity@"))).toEqual([
      "Entity@6<Shop.Core.Catalog.Storage.IRepository",
      "Entity@21<Shop.Core.Catalog.Storage.MemoryRepository",
    ]);
    expect(refs(f, "type").filter((r) => r.startsWith("T@"))).toEqual([]);
  });

  test("Order.cs: file-scoped namespace, delegate, event, destructor, operator, local function, switch expression", async () => {
    const f = await factsOf(ORDER, project);
    expect(f.packageName).toBe("Shop.Core.Orders");
    expect(f.lines).toEqual({ total: 117, code: 95, comment: 3, blank: 19 });
    expect(types(f)).toEqual([
      ["Shop.Core.Orders.Order", "class", true, 5, 10, 11, 103],
      ["Shop.Core.Orders.Order.StatusChanged", "type_alias", true, 0, 0, 13, 13],
      ["Shop.Core.Orders.OrderStatus", "enum", true, 3, 0, 105, 110],
      ["Shop.Core.Orders.OrderLine", "record", true, 2, 0, 112, 112],
      ["Shop.Core.Orders.OrderExtensions", "class", false, 0, 1, 114, 117],
    ]);
    expect(f.types[0]!.docStartLine).toBe(8);
    expect(f.types[1]!.container).toBe("Shop.Core.Orders.Order");
    expect(fns(f)).toEqual([
      ["Shop.Core.Orders.Order.Order", true, true, "Order", 1, 0, 1, 1],
      ["Shop.Core.Orders.Order.~Order", false, true, "Order", 0, 0, 1, 1],
      ["Shop.Core.Orders.Order.Add", true, true, "Order", 2, 0, 3, 8],
      ["Shop.Core.Orders.Order.Total", true, true, "Order", 0, 1, 2, 8],
      ["Shop.Core.Orders.Order.Summary", true, true, "Order", 0, 2, 1, 1],
      ["Shop.Core.Orders.Order.Describe", true, true, "Order", 0, 1, 4, 7],
      ["Shop.Core.Orders.Order.Advance", true, true, "Order", 0, 0, 4, 16],
      ["Shop.Core.Orders.Order.ToJson", true, true, "Order", 0, 1, 3, 9],
      ["Shop.Core.Orders.Order.ToJson.Escape", false, false, null, 1, 1, 1, 1],
      ["Shop.Core.Orders.Order.Dispose", true, true, "Order", 0, 0, 2, 9],
      ["Shop.Core.Orders.Order.operator +", true, true, "Order", 2, 1, 1, 4],
      // an extension method's receiver is the extended type
      ["Shop.Core.Orders.OrderExtensions.IsEmpty", true, true, "Order", 1, 1, 1, 1],
    ]);
    expect(f.functions[4]!.signature).toBe("public (int Count, decimal Total) Summary()");
    expect(vars(f)).toEqual([
      ["Shop.Core.Orders.Order.Changed", "field", true],
      ["Shop.Core.Orders.Order._lines", "field", false],
      ["Shop.Core.Orders.Order.Revision", "field", false],
      ["Shop.Core.Orders.Order.Status", "property", true],
      ["Shop.Core.Orders.Order.Lines", "property", true],
      ["Shop.Core.Orders.OrderStatus.New", "enum_member", true],
      ["Shop.Core.Orders.OrderStatus.Paid", "enum_member", true],
      ["Shop.Core.Orders.OrderStatus.Shipped", "enum_member", true],
      ["Shop.Core.Orders.OrderLine.Product", "property", true],
      ["Shop.Core.Orders.OrderLine.Quantity", "property", true],
    ]);
    expect(imports(f)).toEqual([
      ["System.Text", "std", null],
      ["System.Math", "std", null],
      ["Newtonsoft.Json.JsonConvert", "external", "Json"],
      ["Shop.Core.Catalog", "internal", null],
    ]);
    // only an alias introduces a local name
    expect(refs(f, "import")).toEqual(["Json@3<"]);
    // Entity is not declared here and has no I- prefix: a base class; IDisposable: an interface
    expect(refs(f, "inherit")).toEqual(["Entity@11<Shop.Core.Orders.Order"]);
    expect(refs(f, "implement")).toEqual(["IDisposable@11<Shop.Core.Orders.Order"]);
    expect(refs(f, "call")).toEqual([
      "Dispose@22<Shop.Core.Orders.Order.~Order",
      "InvalidOperationException@32<Shop.Core.Orders.Order.Add",
      "_lines.Add@34<Shop.Core.Orders.Order.Add",
      "OrderLine@34<Shop.Core.Orders.Order.Add",
      "Round@45<Shop.Core.Orders.Order.Total",
      "Total@48<Shop.Core.Orders.Order.Summary",
      "Total@53<Shop.Core.Orders.Order.Describe",
      "Changed.Invoke@73<Shop.Core.Orders.Order.Advance",
      "s.Replace@78<Shop.Core.Orders.Order.ToJson.Escape",
      "StringBuilder@79<Shop.Core.Orders.Order.ToJson",
      "text.Append@82<Shop.Core.Orders.Order.ToJson",
      "Escape@82<Shop.Core.Orders.Order.ToJson",
      "Json.SerializeObject@84<Shop.Core.Orders.Order.ToJson",
      "text.ToString@84<Shop.Core.Orders.Order.ToJson",
      "_lines.Clear@91<Shop.Core.Orders.Order.Dispose",
      "order._lines.Add@100<Shop.Core.Orders.Order.operator +",
    ]);
    expect(refs(f, "read")).toEqual([
      "OrderStatus.New@24<Shop.Core.Orders.Order.Status",
      "OrderStatus.New@30<Shop.Core.Orders.Order.Add",
      "OrderStatus.New@52<Shop.Core.Orders.Order.Describe",
      "OrderStatus.Paid@53<Shop.Core.Orders.Order.Describe",
      "OrderStatus.Paid@54<Shop.Core.Orders.Order.Describe",
      "OrderStatus.New@63<Shop.Core.Orders.Order.Advance",
      "OrderStatus.Paid@64<Shop.Core.Orders.Order.Advance",
      "OrderStatus.Paid@66<Shop.Core.Orders.Order.Advance",
      "OrderStatus.Shipped@67<Shop.Core.Orders.Order.Advance",
      "OrderStatus.Shipped@68<Shop.Core.Orders.Order.Advance",
    ]);
    // the escaped quotes on line 78 and the interpolation holes on line 32 hide no reference
    expect(f.references.filter((r) => r.line === 78).map((r) => r.name)).toEqual(["Replace"]);
    expect(refs(f, "type")).toContain("Product@112<Shop.Core.Orders.OrderLine");
    expect(refs(f, "type")).toContain("OrderLine@98<Shop.Core.Orders.Order.operator +");
  });

  test("OrderTests.cs: an xUnit test in a test project", async () => {
    const f = await factsOf(TESTS, project);
    expect(f.lines).toEqual({ total: 16, code: 14, comment: 0, blank: 2 });
    expect(types(f)).toEqual([["Shop.Core.Tests.OrderTests", "class", true, 0, 1, 7, 16]]);
    expect(fns(f)).toEqual([["Shop.Core.Tests.OrderTests.AddingToAPaidOrderFails", true, true, "OrderTests", 0, 0, 1, 5]]);
    expect(imports(f)).toEqual([
      ["Shop.Core.Catalog", "internal", null],
      ["Shop.Core.Orders", "internal", null],
      ["Xunit", "external", null],
    ]);
    const m = "Shop.Core.Tests.OrderTests.AddingToAPaidOrderFails";
    expect(refs(f, "call")).toEqual([
      `Order@12<${m}`,
      `Guid.NewGuid@12<${m}`,
      `order.Advance@13<${m}`,
      `Assert.Throws@14<${m}`,
      `order.Add@14<${m}`,
      `Product@14<${m}`,
      `Guid.NewGuid@14<${m}`,
    ]);
    expect(refs(f, "type")).toEqual([`Fact@9<${m}`, `InvalidOperationException@14<${m}`]);
  });

  test("test files: *Tests.cs / *Test.cs and test folders or projects", () => {
    expect(csharp.isTestFile(TESTS)).toBe(true);
    expect(csharp.isTestFile("src/Shop.UnitTests/Money.cs")).toBe(true);
    expect(csharp.isTestFile("test/Helpers.cs")).toBe(true);
    expect(csharp.isTestFile("src/IntegrationTests/Db.cs")).toBe(true);
    expect(csharp.isTestFile("src/Billing/InvoiceTest.cs")).toBe(true);
    expect(csharp.isTestFile(ORDER)).toBe(false);
    expect(csharp.isTestFile("src/Latest/Contest.cs")).toBe(false);
    expect(csharp.isTestFile("src/Shop.Testing/Fakes.cs")).toBe(false);
  });

  test("a using resolves to the files of its namespace, an alias of a type to the type's file", async () => {
    const all = new Set(files);
    const tree: ProjectFiles = {
      project,
      has: (p) => all.has(p),
      inDir: (d) => files.filter((p) => p.slice(0, p.lastIndexOf("/")) === d),
    };
    const f = await factsOf(TESTS, project);
    expect(csharp.resolveImport!(f.imports[0]!, TESTS, tree)).toEqual([PRODUCT, REPOSITORY]);
    expect(csharp.resolveImport!(f.imports[1]!, TESTS, tree)).toEqual([ORDER]);
    expect(csharp.resolveImport!(f.imports[2]!, TESTS, tree)).toEqual([]);
    expect(csharp.resolveImport!({ ...f.imports[1]!, module: "Shop.Core.Orders.Order" }, TESTS, tree)).toEqual([ORDER]);
  });

  test("rules stated in the module: base lists, conversions, top-level local functions, switch arms", async () => {
    const f = await inline(
      "Rules.cs",
      `int Twice(int x) => x * 2;

namespace A
{
    public record Money(decimal Amount) : Value(Amount), IFormattable;
    record struct Point(int X) : IComparable<Point>;
    interface IShape : IDrawable, ISized { }
    class Widget : IControl, Component { }
    class Cash
    {
        public static explicit operator decimal(Cash c) => 0m;

        int Pick(int x)
        {
            switch (x)
            {
                case 1:
                    goto case 2;
                case 2:
                    return x switch { > 9 => 1, _ when x < 0 => 2, _ => 3 };
                default:
                    return 0;
            }
        }
    }
}
`,
    );
    expect(f.packageName).toBe("A");
    expect(fns(f)).toEqual([
      ["Twice", false, false, null, 1, 1, 1, 1],
      ["A.Cash.explicit operator decimal", true, true, "Cash", 1, 1, 1, 1],
      // case 1, case 2, the `> 9` arm and the guarded discard arm; not `goto case`, `default` or `_`
      ["A.Cash.Pick", false, true, "Cash", 1, 1, 5, 11],
    ]);
    // a base with constructor arguments is a class; a struct and an interface have no base class;
    // Widget's first base goes by the I- prefix, the second is an interface whatever its name
    expect(refs(f, "inherit")).toEqual(["Value@5<A.Money", "IDrawable@7<A.IShape", "ISized@7<A.IShape"]);
    expect(refs(f, "implement")).toEqual(["IFormattable@5<A.Money", "IComparable@6<A.Point", "IControl@8<A.Widget", "Component@8<A.Widget"]);
  });
});

let parser: Promise<FactsParser> | undefined;
async function inline(path: string, text: string): Promise<FileFacts> {
  parser ??= FactsParser.create();
  const parsed = await (await parser).parse(path, text, project);
  expect(parsed.facts?.syntaxErrors).toBe(0);
  return parsed.facts!;
}

/**
 * The Java, Kotlin and C# fixtures indexed end to end by the real pipeline (walk, project info, parse
 * workers, SQLite): test-file flags, the statistics tables, and import classes that depend on the
 * packages and namespaces the whole project declares (ProjectInfo.jvmPackages reaching the workers).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { INDEX_HOOKS } from "../../src/tools/index-hooks.ts";
import { runIndex } from "../../src/indexer/pipeline.ts";
import { copyFixture, type TmpProject } from "../helpers/tmp-project.ts";

const projects: TmpProject[] = [];
afterAll(() => projects.forEach((p) => p.cleanup()));

async function indexed(p: TmpProject): Promise<Database> {
  const report = await runIndex({ hooks: INDEX_HOOKS, root: p.root, workers: 1 });
  expect(report.errors).toEqual([]);
  return new Database(report.database, { readonly: true });
}

function fixture(name: string): TmpProject {
  const p = copyFixture(`polyglot/${name}`);
  projects.push(p);
  return p;
}

const rows = (db: Database, sql: string) => db.query(sql).values();

describe("managed languages through the indexer", () => {
  test("java: src/test flagged, whole packages internal, nested types in the stats tables", async () => {
    const p = fixture("java");
    let db = await indexed(p);
    expect(rows(db, "SELECT file_path, language, is_test FROM files ORDER BY file_path")).toEqual([
      ["src/main/java/com/example/shop/catalog/Priced.java", "java", 0],
      ["src/main/java/com/example/shop/catalog/Product.java", "java", 0],
      ["src/main/java/com/example/shop/common/BaseEntity.java", "java", 0],
      ["src/main/java/com/example/shop/orders/Audited.java", "java", 0],
      ["src/main/java/com/example/shop/orders/Order.java", "java", 0],
      ["src/test/java/com/example/shop/orders/OrderTest.java", "java", 1],
    ]);
    const order = "src/main/java/com/example/shop/orders/Order.java";
    expect(
      rows(db, `SELECT imported_module, is_standard_lib, is_external, symbol_count FROM imports WHERE file_path = '${order}' ORDER BY imported_module`),
    ).toEqual([
      ["com.example.shop.catalog.Priced", 0, 0, 1],
      ["com.example.shop.catalog.Product", 0, 0, 1],
      ["java.time.Instant", 1, 0, 1],
      ["java.util.*", 1, 0, 0],
      ["java.util.Objects.requireNonNull", 1, 0, 1],
      ["java.util.function.Predicate", 1, 0, 1],
      ["javax.inject.Inject", 0, 1, 1],
    ]);
    expect(rows(db, `SELECT name, kind, is_exported, field_count, method_count FROM types WHERE file_path = '${order}' ORDER BY start_line`)).toEqual([
      ["Order", "class", 1, 3, 6],
      ["Status", "enum", 1, 4, 2],
      ["LineItem", "record", 1, 2, 2],
      ["Receipt", "class", 0, 0, 1],
      ["Line", "class", 0, 0, 1],
    ]);
    expect(rows(db, "SELECT qualified_name, kind FROM symbols WHERE name = 'Line'")).toEqual([["com.example.shop.orders.Order.Receipt.render.Line", "class"]]);
    expect(rows(db, "SELECT package_name FROM file_state WHERE file_path = 'src/test/java/com/example/shop/orders/OrderTest.java'")).toEqual([
      ["com.example.shop.orders"],
    ]);
    db.close();

    // a file that brings a new package, and one that imports it: internal once the project knows it
    p.write("src/main/java/com/example/billing/Invoice.java", "package com.example.billing;\n\npublic class Invoice {}\n");
    p.write(
      "src/main/java/com/example/shop/orders/Billing.java",
      "package com.example.shop.orders;\n\nimport com.example.billing.Invoice;\n\nclass Billing {}\n",
    );
    db = await indexed(p);
    expect(rows(db, "SELECT is_external FROM imports WHERE file_path = 'src/main/java/com/example/shop/orders/Billing.java'")).toEqual([[0]]);
    db.close();
  });

  test("kotlin: .kt and .kts, src/test flagged, extension functions keep their receiver", async () => {
    const db = await indexed(fixture("kotlin"));
    expect(rows(db, "SELECT file_path, language, is_test FROM files ORDER BY file_path")).toEqual([
      ["build.gradle.kts", "kotlin", 0],
      ["src/main/kotlin/com/example/shop/cart/Cart.kt", "kotlin", 0],
      ["src/main/kotlin/com/example/shop/catalog/Catalog.kt", "kotlin", 0],
      ["src/test/kotlin/com/example/shop/cart/CartTest.kt", "kotlin", 1],
    ]);
    expect(
      rows(
        db,
        "SELECT imported_module, is_standard_lib, is_external FROM imports WHERE file_path = 'src/main/kotlin/com/example/shop/cart/Cart.kt' ORDER BY imported_module",
      ),
    ).toEqual([
      ["com.example.shop.catalog.Catalog", 0, 0],
      ["com.example.shop.catalog.Product", 0, 0],
      ["com.example.shop.catalog.describe", 0, 0],
      ["java.time.Instant", 1, 0],
      ["kotlin.math.max", 1, 0],
      ["kotlinx.coroutines.flow.MutableStateFlow", 0, 1],
    ]);
    expect(
      rows(
        db,
        "SELECT name, is_method, receiver_type, complexity FROM functions WHERE file_path = 'src/main/kotlin/com/example/shop/cart/Cart.kt' AND receiver_type = 'Cart' ORDER BY start_line",
      ),
    ).toEqual([
      ["add", 1, "Cart", 6],
      ["summary", 1, "Cart", 5],
      ["iterator", 1, "Cart", 1],
      ["clear", 1, "Cart", 2],
      ["isEmpty", 0, "Cart", 1],
    ]);
    db.close();
  });

  test("c#: test projects flagged, the project's namespaces internal, nested namespaces in package_name", async () => {
    const db = await indexed(fixture("csharp"));
    expect(rows(db, "SELECT file_path, language, is_test FROM files ORDER BY file_path")).toEqual([
      ["src/Shop.Core/Catalog/Product.cs", "c_sharp", 0],
      ["src/Shop.Core/Catalog/Repository.cs", "c_sharp", 0],
      ["src/Shop.Core/GlobalUsings.cs", "c_sharp", 0],
      ["src/Shop.Core/Orders/Order.cs", "c_sharp", 0],
      ["tests/Shop.Core.Tests/OrderTests.cs", "c_sharp", 1],
    ]);
    expect(
      rows(
        db,
        "SELECT imported_module, is_standard_lib, is_external FROM imports WHERE file_path = 'tests/Shop.Core.Tests/OrderTests.cs' ORDER BY imported_module",
      ),
    ).toEqual([
      ["Shop.Core.Catalog", 0, 0],
      ["Shop.Core.Orders", 0, 0],
      ["Xunit", 0, 1],
    ]);
    expect(rows(db, "SELECT file_path, package_name FROM file_state ORDER BY file_path")).toEqual([
      ["src/Shop.Core/Catalog/Product.cs", "Shop.Core.Catalog"],
      ["src/Shop.Core/Catalog/Repository.cs", "Shop.Core.Catalog.Storage"],
      ["src/Shop.Core/GlobalUsings.cs", null],
      ["src/Shop.Core/Orders/Order.cs", "Shop.Core.Orders"],
      ["tests/Shop.Core.Tests/OrderTests.cs", "Shop.Core.Tests"],
    ]);
    expect(
      rows(
        db,
        "SELECT name, param_count, return_count, complexity FROM functions WHERE file_path = 'src/Shop.Core/Orders/Order.cs' AND complexity > 2 ORDER BY start_line",
      ),
    ).toEqual([
      ["Add", 2, 0, 3],
      ["Describe", 0, 1, 4],
      ["Advance", 0, 0, 4],
      ["ToJson", 0, 1, 3],
    ]);
    db.close();
  });
});

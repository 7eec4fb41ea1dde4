/**
 * The Python, Ruby and PHP fixtures indexed end to end by the real pipeline (walk, project info, parse
 * workers, SQLite): languages by extension and by file name, test-file flags, and import classes that
 * depend on project-wide knowledge (src/ packages, lib/ load paths, composer.json namespaces).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { INDEX_HOOKS } from "../../src/tools/index-hooks.ts";
import { runIndex } from "../../src/indexer/pipeline.ts";
import { copyFixture, type TmpProject } from "../helpers/tmp-project.ts";

const projects: TmpProject[] = [];
afterAll(() => projects.forEach((p) => p.cleanup()));

async function indexed(fixture: string, extra: Record<string, string> = {}): Promise<Database> {
  const p = copyFixture(`polyglot/${fixture}`);
  projects.push(p);
  for (const [path, text] of Object.entries(extra)) p.write(path, text);
  const report = await runIndex({ hooks: INDEX_HOOKS, root: p.root, workers: 1 });
  expect(report.errors).toEqual([]);
  return new Database(report.database, { readonly: true });
}

const rows = (db: Database, sql: string) => db.query(sql).values();

describe("script languages through the indexer", () => {
  test("python: packages under src/, tests/ flagged, internal imports known from the project", async () => {
    const db = await indexed("python");
    expect(rows(db, "SELECT file_path, language, is_test FROM files ORDER BY file_path")).toEqual([
      ["src/shop/__init__.py", "python", 0],
      ["src/shop/models.py", "python", 0],
      ["src/shop/service.py", "python", 0],
      ["tests/test_service.py", "python", 1],
    ]);
    expect(
      rows(
        db,
        "SELECT imported_module, is_standard_lib, is_external, is_relative FROM imports WHERE file_path = 'tests/test_service.py' ORDER BY imported_module",
      ),
    ).toEqual([
      ["pytest", 0, 1, 0],
      ["shop.service", 0, 0, 0],
    ]);
    expect(rows(db, "SELECT qualified_name FROM symbols WHERE name = 'place_order'")).toEqual([["shop.service.place_order"]]);
    db.close();
  });

  test("ruby: Gemfile and Rakefile are Ruby, spec/ is tests, lib/ requires are internal", async () => {
    const db = await indexed("ruby");
    expect(rows(db, "SELECT file_path, language, is_test FROM files ORDER BY file_path")).toEqual([
      ["Gemfile", "ruby", 0],
      ["Rakefile", "ruby", 0],
      ["lib/shop.rb", "ruby", 0],
      ["lib/shop/cart.rb", "ruby", 0],
      ["lib/shop/version.rb", "ruby", 0],
      ["spec/cart_spec.rb", "ruby", 1],
      ["spec/spec_helper.rb", "ruby", 1],
    ]);
    expect(
      rows(db, "SELECT imported_module, is_standard_lib, is_external, is_relative FROM imports WHERE file_path = 'lib/shop.rb' ORDER BY imported_module"),
    ).toEqual([
      ["active_support/core_ext/object", 0, 1, 0],
      ["json", 1, 0, 0],
      ["net/http", 1, 0, 0],
      ["shop/cart", 0, 0, 0],
      ["shop/checkout", 0, 0, 0],
    ]);
    expect(rows(db, "SELECT name, kind, field_count, method_count FROM types WHERE file_path = 'lib/shop/cart.rb' ORDER BY start_line")).toEqual([
      ["Shop", "module", 0, 0],
      ["CartFull", "class", 0, 0],
      ["Cart", "class", 5, 11],
      ["Item", "struct", 2, 1],
      ["Receipt", "record", 2, 0],
    ]);
    db.close();
  });

  test("php: composer.json namespaces make App\\ internal; tests/ flagged; HTML templates indexed", async () => {
    // a file in another namespace: only composer.json can tell that App\ is the project's
    const mailer = "<?php\nnamespace Services;\n\nuse App\\Models\\Order;\nuse Symfony\\Component\\Mailer\\Mailer;\n";
    const db = await indexed("php", { "src/Services/Mailer.php": mailer });
    expect(rows(db, "SELECT imported_module, is_external FROM imports WHERE file_path = 'src/Services/Mailer.php' ORDER BY imported_module")).toEqual([
      ["App\\Models\\Order", 0],
      ["Symfony\\Component\\Mailer\\Mailer", 1],
    ]);
    expect(rows(db, "SELECT file_path, is_test FROM files WHERE language = 'php' ORDER BY file_path")).toEqual([
      ["src/Http/OrderController.php", 0],
      ["src/Models/Model.php", 0],
      ["src/Models/Order.php", 0],
      ["src/Services/Mailer.php", 0],
      ["src/helpers.php", 0],
      ["tests/OrderTest.php", 1],
      ["views/footer.php", 0],
      ["views/order.php", 0],
    ]);
    expect(
      rows(
        db,
        "SELECT imported_module, is_standard_lib, is_external, is_relative FROM imports WHERE file_path = 'tests/OrderTest.php' ORDER BY imported_module",
      ),
    ).toEqual([
      ["App\\Models\\Order", 0, 0, 0],
      ["PHPUnit\\Framework\\TestCase", 0, 1, 0],
    ]);
    expect(rows(db, "SELECT package_name FROM file_state WHERE file_path = 'src/Http/OrderController.php'")).toEqual([["App\\Http"]]);
    db.close();
  });
});

/**
 * cortex_files over an index reads types, functions and imports from their stored rows (file ids) and joins
 * their files itself (SQLITE_INDEX_DIALECT): every query answers what the views answer, and
 * the plans that were slow through the views (a LEFT JOIN materialized the whole view, a count over one
 * column read every row's file) read only what the query names.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { compileQuery } from "../../src/engines/files/compile.ts";
import { queryDefinitionSchema, type QueryDefinitionInput } from "../../src/engines/files/query-schema.ts";
import { IndexStore } from "../../src/store/index-store.ts";
import { indexLocation } from "../../src/store/location.ts";
import { SQLITE_DIALECT, SQLITE_INDEX_DIALECT } from "../../src/store/sql-dialect.ts";
import { sqliteOf } from "../../src/store/sqlite-access.ts";
import { Session } from "../../src/tools/session.ts";
import { copyFixture, type TmpProject } from "../helpers/tmp-project.ts";

// indexes a fixture of twelve languages: seconds on a busy machine
setDefaultTimeout(60_000);

let project: TmpProject;
let store: IndexStore;

beforeAll(async () => {
  project = copyFixture("polyglot");
  const session = new Session(project.root);
  await session.index();
  session.close();
  store = IndexStore.open(indexLocation(project.root).current()!, { readonly: true });
}, 120_000);

afterAll(() => {
  store?.close();
  project?.cleanup();
});

const on = (a: string, b: string, operator = "=") => ({ field: a, operator, value: b });

/** Queries that read a file's columns of types and functions every way the compiler writes them. */
const QUERIES: QueryDefinitionInput[] = [
  { from: "types", limit: 1000 },
  { from: "functions", fields: ["function_id", "file_path", "module_path", "name"], limit: 1000 },
  { from: "types", where: { field: "file_path", operator: "LIKE", value: "java/%" }, limit: 1000 },
  { from: "functions", fields: ["name", "param_count"], where: { field: "module_path", operator: "=", value: "go/auth" }, limit: 1000 },
  { from: "types", fields: ["kind"], aggregations: [{ function: "COUNT", alias: "n" }], groupBy: ["kind"] },
  {
    from: "types",
    fields: ["module_path"],
    aggregations: [{ function: "COUNT", alias: "n" }],
    groupBy: ["module_path"],
    orderBy: [{ field: "n", direction: "DESC" }],
  },
  { from: "functions", aggregations: [{ function: "COUNT", alias: "n" }], where: { field: "param_count", operator: ">", value: 1 } },
  { from: "functions", fields: ["function_id"], orderBy: [{ field: "function_id", direction: "DESC" }], limit: 7, offset: 3 },
  {
    from: "files",
    joins: [{ table: "types", type: "LEFT", on: on("files.file_path", "types.file_path") }],
    fields: ["files.file_path", "types.type_id", "types.name", "types.module_path"],
    limit: 1000,
  },
  {
    from: "files",
    joins: [{ table: "functions", type: "LEFT", on: on("functions.file_path", "files.file_path") }],
    fields: ["files.file_path"],
    aggregations: [{ function: "COUNT", field: "functions.name", alias: "n" }],
    groupBy: ["files.file_path"],
    having: { field: "n", operator: ">=", value: 0 },
    limit: 1000,
  },
  // a condition on the joined table's own columns beside its file: files with no such type keep one row
  {
    from: "files",
    joins: [
      { table: "types", type: "LEFT", on: { and: [on("files.file_path", "types.file_path"), { field: "types.kind", operator: "=", value: "interface" }] } },
    ],
    fields: ["files.file_path", "types.name"],
    limit: 1000,
  },
  // under NOT and with another operator the file is read row by row, with the same answer
  {
    from: "files",
    joins: [{ table: "types", type: "LEFT", on: { and: [{ not: on("files.file_path", "types.file_path") }, on("files.module_path", "types.module_path")] } }],
    fields: ["files.file_path", "types.type_id"],
    limit: 1000,
  },
  {
    from: "files",
    joins: [{ table: "functions", type: "INNER", on: on("files.file_path", "functions.file_path", "<") }],
    fields: ["files.file_path"],
    aggregations: [{ function: "COUNT", alias: "n" }],
    groupBy: ["files.file_path"],
  },
  {
    from: "types",
    joins: [{ table: "functions", type: "LEFT", on: { and: [on("types.file_path", "functions.file_path"), on("types.name", "functions.receiver_type")] } }],
    fields: ["types.type_id", "functions.function_id", "functions.module_path"],
    limit: 1000,
  },
  {
    from: "modules",
    joins: [{ table: "types", type: "LEFT", on: on("modules.module_path", "types.module_path") }],
    fields: ["modules.module_path"],
    aggregations: [{ function: "COUNT", field: "types.name", alias: "n" }],
    groupBy: ["modules.module_path"],
  },
  {
    from: "imports",
    joins: [{ table: "functions", type: "INNER", on: on("imports.file_path", "functions.file_path") }],
    fields: ["imports.imported_module", "functions.name", "functions.file_path"],
    limit: 1000,
  },
  { from: "imports", fields: ["import_id", "file_path", "imported_module", "is_external", "symbol_count"], limit: 1000 },
  { from: "imports", where: { field: "file_path", operator: "LIKE", value: "python/%" }, limit: 1000 },
  {
    from: "imports",
    fields: ["imported_module"],
    aggregations: [{ function: "COUNT", field: "file_path", alias: "n" }],
    groupBy: ["imported_module"],
    limit: 1000,
  },
  {
    from: "files",
    joins: [{ table: "imports", type: "LEFT", on: on("files.file_path", "imports.file_path") }],
    fields: ["files.file_path", "imports.import_id", "imports.imported_module"],
    limit: 1000,
  },
  {
    from: "functions",
    joins: [
      { table: "files", type: "INNER", on: on("functions.file_path", "files.file_path") },
      { table: "types", type: "LEFT", on: on("types.file_path", "functions.file_path") },
    ],
    fields: ["files.language", "functions.name", "types.name"],
    where: { field: "files.is_test", operator: "=", value: false },
    limit: 1000,
  },
  {
    from: "types",
    joins: [{ table: "files", type: "RIGHT", on: on("types.file_path", "files.file_path") }],
    fields: ["files.file_path", "types.type_id"],
    limit: 1000,
  },
  {
    from: "files",
    joins: [{ table: "types", type: "FULL", on: on("files.file_path", "types.file_path") }],
    fields: ["files.file_path", "types.file_path"],
    limit: 1000,
  },
  {
    from: "files",
    joins: [{ table: "types", type: "INNER", on: on("files.file_path", "types.file_path") }],
    fields: ["types.*", "files.language"],
    limit: 1000,
  },
  // a type's kind is stored as a code: every comparison, order and aggregate answers as the names do
  { from: "types", fields: ["name", "kind"], where: { field: "kind", operator: "=", value: "interface" }, limit: 1000 },
  { from: "types", fields: ["name", "kind"], where: { field: "kind", operator: "!=", value: "class" }, limit: 1000 },
  { from: "types", fields: ["name"], where: { field: "kind", operator: "IN", value: ["struct", "enum", "no-such-kind"] }, limit: 1000 },
  { from: "types", fields: ["name"], where: { not: { field: "kind", operator: "NOT IN", value: ["class", "Struct"] } }, limit: 1000 },
  { from: "types", fields: ["name"], where: { field: "kind", operator: "=", value: "Class" }, limit: 1000 },
  { from: "types", fields: ["name", "kind"], where: { field: "kind", operator: "LIKE", value: "%a%" }, limit: 1000 },
  { from: "types", fields: ["name", "kind"], where: { field: "kind", operator: ">=", value: "m" }, limit: 1000 },
  { from: "types", fields: ["name"], where: { field: "kind", operator: "BETWEEN", value: ["c", "s"] }, limit: 1000 },
  {
    from: "types",
    fields: ["type_id", "kind"],
    orderBy: [
      { field: "kind", direction: "DESC" },
      { field: "type_id", direction: "ASC" },
    ],
    limit: 9,
  },
  {
    from: "types",
    fields: ["type_id"],
    orderBy: [
      { field: "types.kind", direction: "ASC" },
      { field: "type_id", direction: "DESC" },
    ],
    limit: 9,
    offset: 2,
  },
  {
    from: "types",
    fields: ["kind"],
    aggregations: [{ function: "COUNT", alias: "n" }],
    groupBy: ["kind"],
    having: { field: "kind", operator: "!=", value: "struct" },
    orderBy: [{ field: "kind", direction: "DESC" }],
  },
  {
    from: "types",
    aggregations: [
      { function: "MIN", field: "kind", alias: "first" },
      { function: "MAX", field: "kind", alias: "last" },
      { function: "COUNT", field: "kind", distinct: true, alias: "kinds" },
    ],
  },
  {
    from: "functions",
    joins: [{ table: "types", type: "INNER", on: { and: [on("types.file_path", "functions.file_path"), on("types.kind", "functions.name", "!=")] } }],
    fields: ["functions.function_id", "types.kind"],
    limit: 1000,
  },
  // a kind or a module against another column (not a text that names one): true for every row here
  {
    from: "functions",
    joins: [{ table: "types", type: "INNER", on: { and: [on("types.file_path", "functions.file_path"), on("types.kind", "types.kind")] } }],
    fields: ["functions.function_id", "types.kind"],
    limit: 1000,
  },
  {
    from: "files",
    joins: [
      { table: "imports", type: "INNER", on: { and: [on("files.file_path", "imports.file_path"), on("imports.imported_module", "imports.imported_module")] } },
    ],
    fields: ["files.file_path", "imports.imported_module"],
    limit: 1000,
  },
  // an import's module is stored as the id of its text: the same answers
  { from: "imports", fields: ["import_id", "imported_module"], where: { field: "imported_module", operator: "=", value: "os" }, limit: 1000 },
  { from: "imports", fields: ["import_id"], where: { field: "imported_module", operator: "=", value: "no.such.module" }, limit: 1000 },
  { from: "imports", fields: ["import_id"], where: { field: "imported_module", operator: "!=", value: "no.such.module" }, limit: 1000 },
  { from: "imports", fields: ["import_id"], where: { field: "imported_module", operator: "!=", value: "os" }, limit: 1000 },
  { from: "imports", fields: ["import_id"], where: { field: "imported_module", operator: "IN", value: ["os", "fmt", "nothing"] }, limit: 1000 },
  { from: "imports", fields: ["import_id"], where: { not: { field: "imported_module", operator: "NOT IN", value: ["os", "net/http"] } }, limit: 1000 },
  { from: "imports", fields: ["imported_module"], where: { field: "imported_module", operator: "LIKE", value: "%.%" }, limit: 1000 },
  {
    from: "imports",
    fields: ["import_id", "imported_module"],
    orderBy: [
      { field: "imported_module", direction: "DESC" },
      { field: "import_id", direction: "ASC" },
    ],
    limit: 11,
  },
  {
    from: "imports",
    fields: ["imported_module"],
    aggregations: [{ function: "COUNT", alias: "n" }],
    groupBy: ["imported_module"],
    having: { field: "imported_module", operator: "!=", value: "os" },
    orderBy: [
      { field: "n", direction: "DESC" },
      { field: "imported_module", direction: "ASC" },
    ],
  },
  {
    from: "imports",
    aggregations: [
      { function: "COUNT", field: "imported_module", distinct: true, alias: "modules" },
      { function: "MAX", field: "imported_module", alias: "last" },
    ],
  },
  {
    from: "files",
    joins: [{ table: "imports", type: "LEFT", on: { and: [on("files.file_path", "imports.file_path"), on("imports.imported_module", "files.module_path")] } }],
    fields: ["files.file_path", "imports.import_id"],
    limit: 1000,
  },
];

/** A query's rows through the views (SQLite dialect over tables named as the statistics tables) and through the stored rows. */
function bothWays(input: QueryDefinitionInput): { views: string[]; rows: string[]; sql: string } {
  const q = queryDefinitionSchema.parse(input);
  const run = (dialect: typeof SQLITE_DIALECT) => {
    const c = compileQuery(q, dialect);
    return { sql: c.sql, rows: store.runStatsQuery(c.sql, c.params).rows.map((r) => JSON.stringify(r)) };
  };
  const views = run(SQLITE_DIALECT);
  const stored = run(SQLITE_INDEX_DIALECT);
  // without an ORDER BY naming every column the order is the plan's: compare the rows as sets
  return { views: views.rows.sort(), rows: stored.rows.sort(), sql: stored.sql };
}

test("every query answers what the views types, functions and imports answer", () => {
  expect(store.dialect).toBe(SQLITE_INDEX_DIALECT);
  let rows = 0;
  for (const q of QUERIES) {
    const r = bothWays(q);
    expect({ query: q, rows: r.rows }).toEqual({ query: q, rows: r.views });
    // the stored rows are read, not the views
    if (q.from === "types" || q.joins?.some((j) => j.table === "types")) expect(r.sql).toContain('"type_rows" AS "types"');
    if (q.from === "imports" || q.joins?.some((j) => j.table === "imports")) expect(r.sql).toContain('"import_rows" AS "imports"');
    rows += r.rows.length;
    if (q.joins?.[0]?.on && JSON.stringify(q.joins[0].on).includes('"value":"types.kind"')) expect(r.rows.length).toBeGreaterThan(10);
    if (q.joins?.[0]?.on && JSON.stringify(q.joins[0].on).includes('"value":"imports.imported_module"')) expect(r.rows.length).toBeGreaterThan(10);
  }
  expect(rows).toBeGreaterThan(300);
});

test("a join on a file's path or module finds the rows by file id; a row's file is read only where the query names its columns", () => {
  const db = sqliteOf(store);
  const plan = (input: QueryDefinitionInput, dialect = SQLITE_INDEX_DIALECT) => {
    const c = compileQuery(queryDefinitionSchema.parse(input), dialect);
    return (db.query(`EXPLAIN QUERY PLAN ${c.sql}`).all(...c.params) as Array<{ detail: string }>).map((r) => r.detail).join("; ");
  };
  const leftJoin: QueryDefinitionInput = {
    from: "files",
    joins: [{ table: "types", type: "LEFT", on: on("files.file_path", "types.file_path") }],
    fields: ["files.file_path", "types.name"],
    where: { field: "files.module_path", operator: "=", value: "go/auth" },
  };
  // through the view (a join) SQLite builds the whole of it each query
  expect(plan(leftJoin, SQLITE_DIALECT)).toContain("MATERIALIZE");
  expect(plan(leftJoin)).not.toContain("MATERIALIZE");
  expect(plan(leftJoin)).toContain("idx_types_file (file_id=?)");
  const importsJoin: QueryDefinitionInput = {
    ...leftJoin,
    joins: [{ table: "imports", type: "LEFT", on: on("files.file_path", "imports.file_path") }],
    fields: ["files.file_path", "imports.imported_module"],
  };
  expect(plan(importsJoin)).not.toContain("MATERIALIZE");
  expect(plan(importsJoin)).toContain("idx_imports_file (file_id=?)");
  const byModule: QueryDefinitionInput = {
    from: "modules",
    joins: [{ table: "functions", type: "LEFT", on: on("functions.module_path", "modules.module_path") }],
    fields: ["modules.module_path", "functions.name"],
  };
  // (a module's files by their ids: the planner may scan a table as small as this fixture's instead)
  expect(plan(byModule)).not.toContain("MATERIALIZE");
  expect(plan(byModule, SQLITE_DIALECT)).toContain("MATERIALIZE");
  expect(compileQuery(queryDefinitionSchema.parse(byModule), SQLITE_INDEX_DIALECT).sql).toContain(
    '"functions"."file_id" IN (SELECT "file_rows"."file_id" FROM "file_rows" WHERE "file_rows"."module_path" = "modules"."module_path")',
  );
  // an aggregate over a row's own columns reads no file (the view "types" reads it for every row, as f)
  const byKind = plan({ from: "types", fields: ["kind"], aggregations: [{ function: "COUNT", alias: "n" }], groupBy: ["kind"] });
  expect(byKind).toContain("COVERING INDEX idx_types_kind");
  expect(byKind).not.toContain("TEMP B-TREE");
  // a kind by its name finds its code's rows through the index; the kinds in order need no sort
  expect(plan({ from: "types", fields: ["name"], where: { field: "kind", operator: "IN", value: ["struct", "enum"] } })).toContain(
    "INDEX idx_types_kind (kind=?)",
  );
  expect(plan({ from: "types", fields: ["kind"], orderBy: [{ field: "kind", direction: "ASC" }], limit: 5 })).not.toContain("TEMP B-TREE");
  // an import's module by its text: its id, then the imports of that id by the index
  expect(plan({ from: "imports", fields: ["file_path"], where: { field: "imported_module", operator: "=", value: "os" } })).toContain(
    "INDEX idx_imports_module (module_id=?)",
  );
  const byModuleCount = plan({ from: "imports", fields: ["imported_module"], aggregations: [{ function: "COUNT", alias: "n" }], groupBy: ["imported_module"] });
  expect(byModuleCount).toContain("COVERING INDEX idx_imports_module");
  expect(byModuleCount).not.toContain("TEMP B-TREE");
  expect(byKind).not.toContain("file_rows");
  expect(plan({ from: "types", fields: ["kind"], aggregations: [{ function: "COUNT", alias: "n" }], groupBy: ["kind"] }, SQLITE_DIALECT)).toContain(
    "SEARCH f USING INTEGER PRIMARY KEY",
  );
  const count = plan({ from: "functions", aggregations: [{ function: "COUNT", alias: "n" }], where: { field: "param_count", operator: ">", value: 5 } });
  expect(count).toContain("COVERING INDEX idx_functions_param_count");
  expect(count).not.toContain("file_rows");
  // a query by path starts from the file
  expect(plan({ from: "types", where: { field: "file_path", operator: "=", value: "go/auth/handler.go" } })).toMatch(
    /SEARCH file of types USING .*INDEX .*\(file_path=\?\).*SEARCH types USING INDEX idx_types_file \(file_id=\?\)/,
  );
});

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Session } from "../../src/tools/session.ts";
import type { FilesEngine } from "../../src/engines/files/index.ts";
import { copyFixture, type TmpProject } from "../helpers/tmp-project.ts";
import { CortexError } from "../../src/core/errors.ts";

let p: TmpProject;
let session: Session;
let files: FilesEngine;

beforeAll(async () => {
  p = copyFixture("polyglot/go");
  session = new Session(p.root, { autoIndex: true });
  files = await session.files();
});
afterAll(() => {
  session.close();
  p.cleanup();
});

const rows = (q: object) => files.query(q as never).rows;
const fails = (q: object): string => {
  try {
    files.query(q as never);
  } catch (e) {
    expect(e).toBeInstanceOf(CortexError);
    return (e as CortexError).message;
  }
  throw new Error("expected the query to fail");
};

describe("cortex_files query language", () => {
  test("simple select with where, orderBy and limit; booleans come back as booleans", () => {
    const r = files.query({
      from: "files",
      fields: ["file_path", "is_test", "lines_total"],
      where: { field: "language", operator: "=", value: "go" },
      orderBy: [{ field: "lines_total", direction: "DESC" }],
      limit: 2,
    });
    expect(r.columns).toEqual(["file_path", "is_test", "lines_total"]);
    expect(r.rows).toEqual([
      ["auth/handler.go", false, 46],
      ["store/store.go", false, 30],
    ]);
    expect(r.row_count).toBe(2);
    expect(r.metadata.source).toBe("stats");
    expect(r.metadata.query).toBe(
      'SELECT "files"."file_path" AS "file_path", "files"."is_test" AS "is_test", "files"."lines_total" AS "lines_total" FROM "files" WHERE "files"."language" = ? ORDER BY "lines_total" DESC LIMIT ?',
    );
  });

  test("every comparison operator", () => {
    const names = (where: object) => rows({ from: "functions", fields: ["name"], where, orderBy: [{ field: "name", direction: "ASC" }] }).map((r) => r[0]);
    // Authenticator.Check (an interface method, no body) takes 2 as well
    expect(names({ field: "param_count", operator: "=", value: 2 })).toEqual(["Check", "Login", "ServeHTTP"]);
    expect(names({ field: "param_count", operator: "!=", value: 2 })).toEqual(["Get", "TestLogin", "greet"]);
    expect(names({ field: "complexity", operator: ">", value: 2 })).toEqual(["Get", "ServeHTTP"]);
    expect(names({ field: "complexity", operator: ">=", value: 3 })).toEqual(["Get", "ServeHTTP"]);
    expect(names({ field: "complexity", operator: "<", value: 2 })).toEqual(["Check", "Login", "greet"]);
    expect(names({ field: "complexity", operator: "<=", value: 2 })).toEqual(["Check", "Login", "TestLogin", "greet"]);
    expect(names({ field: "name", operator: "LIKE", value: "%Log%" })).toEqual(["Login", "TestLogin"]);
    expect(names({ field: "name", operator: "NOT LIKE", value: "%Log%" })).toEqual(["Check", "Get", "ServeHTTP", "greet"]);
    expect(names({ field: "name", operator: "IN", value: ["greet", "Get", "nope"] })).toEqual(["Get", "greet"]);
    expect(names({ field: "name", operator: "NOT IN", value: ["greet", "Get"] })).toEqual(["Check", "Login", "ServeHTTP", "TestLogin"]);
    expect(names({ field: "receiver_type", operator: "IS NULL" })).toEqual(["Login", "TestLogin"]);
    expect(names({ field: "receiver_type", operator: "IS NOT NULL" })).toEqual(["Check", "Get", "ServeHTTP", "greet"]);
    expect(names({ field: "lines", operator: "BETWEEN", value: [3, 9] })).toEqual(["Get", "Login", "TestLogin", "greet"]);
    expect(names({ field: "is_exported", operator: "=", value: false })).toEqual(["greet"]);
  });

  test("and / or / not nest", () => {
    const r = rows({
      from: "functions",
      fields: ["name"],
      where: {
        and: [
          { field: "is_method", operator: "=", value: true },
          { or: [{ field: "complexity", operator: ">", value: 5 }, { not: { field: "is_exported", operator: "=", value: true } }] },
        ],
      },
      orderBy: [{ field: "name", direction: "asc" }],
    });
    expect(r).toEqual([["ServeHTTP"], ["greet"]]);
  });

  test("aggregations with groupBy, having, distinct and ordering by alias", () => {
    const r = files.query({
      from: "functions",
      groupBy: ["module_path"],
      aggregations: [
        { function: "COUNT", alias: "n" },
        { function: "SUM", field: "complexity", alias: "total_complexity" },
        { function: "AVG", field: "param_count", alias: "avg_params" },
        { function: "MIN", field: "lines", alias: "shortest" },
        { function: "MAX", field: "lines", alias: "longest" },
        { function: "COUNT", field: "file_path", distinct: true, alias: "files" },
      ],
      having: { field: "n", operator: ">", value: 1 },
      orderBy: [{ field: "n", direction: "DESC" }],
    });
    expect(r.columns).toEqual(["module_path", "n", "total_complexity", "avg_params", "shortest", "longest", "files"]);
    // auth: Check (interface method: 2 params, complexity 1, 0 lines), ServeHTTP, greet, Login and the test
    expect(r.rows).toEqual([["auth", 5, 11, 1.6, 0, 14, 2]]);
  });

  test("joins of every type with column-to-column conditions", () => {
    const on = { field: "files.file_path", operator: "=", value: "types.file_path" };
    const inner = rows({
      fields: ["files.file_path", "types.name"],
      from: "files",
      joins: [{ table: "types", type: "INNER", on }],
      orderBy: [{ field: "types.name", direction: "ASC" }],
    });
    expect(inner).toEqual([
      ["auth/handler.go", "Authenticator"],
      ["store/store.go", "DB"],
      ["auth/handler.go", "Handler"],
    ]);
    const left = rows({
      fields: ["files.file_path", "types.name"],
      from: "files",
      joins: [{ table: "types", type: "LEFT", on }],
      where: { field: "files.language", operator: "=", value: "go" },
    });
    expect(left.filter((r) => r[1] === null).map((r) => r[0])).toEqual(["auth/handler_test.go"]);
    const right = rows({ fields: ["types.name"], from: "files", joins: [{ table: "types", type: "RIGHT", on }] });
    expect(right.length).toBe(3);
    const full = rows({ fields: ["files.file_path"], from: "files", joins: [{ table: "types", type: "FULL", on }] });
    expect(full.length).toBe(inner.length + rows({ from: "files", fields: ["file_path"] }).length - 2);
  });

  test("offset pages through results; select * returns every column", () => {
    const all = rows({ from: "files", fields: ["file_path"], orderBy: [{ field: "file_path", direction: "ASC" }] });
    const page = rows({ from: "files", fields: ["file_path"], orderBy: [{ field: "file_path", direction: "ASC" }], limit: 2, offset: 1 });
    expect(page).toEqual(all.slice(1, 3));
    const star = files.query({ from: "modules", limit: 1 });
    expect(star.columns).toHaveLength(12);
  });

  test("modules are aggregated from files", () => {
    const r = files.query({
      from: "modules",
      fields: [
        "module_path",
        "file_count",
        "test_file_count",
        "function_count",
        "exported_function_count",
        "type_count",
        "exported_type_count",
        "import_count",
        "external_import_count",
        "depth",
      ],
      orderBy: [{ field: "module_path", direction: "ASC" }],
    });
    expect(r.rows).toEqual([
      [".", 1, 0, 0, 0, 0, 0, 0, 0, 0],
      ["auth", 2, 1, 5, 4, 2, 2, 5, 1, 1],
      ["store", 1, 0, 1, 1, 1, 1, 2, 0, 1],
    ]);
  });
});

describe("cortex_files refuses bad queries with a message naming the problem", () => {
  test("unknown table, field, join table and qualified field", () => {
    expect(fails({ from: "users" })).toBe("invalid table 'users': expected one of files, types, functions, imports, modules");
    expect(fails({ from: "files", fields: ["foo"] })).toBe("invalid field 'foo' for table 'files'");
    expect(fails({ from: "files", where: { field: "types.name", operator: "=", value: "x" } })).toBe(
      "table 'types' is not in the query (add it to joins) in field 'types.name'",
    );
    expect(fails({ from: "files", joins: [{ table: "secrets", type: "INNER", on: { field: "file_path", operator: "=", value: "x" } }] })).toContain(
      "invalid join table 'secrets'",
    );
    expect(fails({ from: "files", orderBy: [{ field: "nope", direction: "ASC" }] })).toBe("invalid field 'nope' for table 'files'");
    expect(fails({ from: "files", orderBy: [{ field: "lines_total", direction: "SIDEWAYS" }] })).toBe(
      'query.orderBy[0].direction: must be one of "ASC", "DESC"',
    );
  });

  test("operators and their values", () => {
    expect(fails({ from: "files", where: { field: "lines_total", operator: "BETWEEN", value: [1] } })).toContain("BETWEEN needs an array of exactly 2 values");
    expect(fails({ from: "files", where: { field: "lines_total", operator: "BETWEEN", value: 5 } })).toContain("BETWEEN needs an array of exactly 2 values");
    expect(fails({ from: "files", where: { field: "language", operator: "IN", value: [] } })).toContain("IN needs a non-empty array");
    expect(fails({ from: "files", where: { field: "language", operator: "LIKE", value: 3 } })).toContain("LIKE needs a string pattern");
    expect(fails({ from: "files", where: { field: "language", operator: "=", value: ["a"] } })).toContain("not an array (use IN)");
    expect(fails({ from: "files", where: { field: "language", operator: "IS NULL", value: "x" } })).toContain("IS NULL takes no value");
    expect(fails({ from: "files", where: { field: "language", operator: "~=", value: "x" } })).toContain("query.where");
  });

  test("limit bounds: 0 and 5000 are refused", () => {
    expect(fails({ from: "files", limit: 0 })).toBe("query.limit: must be at least 1");
    expect(fails({ from: "files", limit: 5000 })).toBe("query.limit: must be at most 1000");
  });

  test("injection attempts in identifiers are refused; in values they are inert data", () => {
    expect(fails({ from: "files; DROP TABLE files" })).toContain("invalid table");
    expect(fails({ from: "files", fields: ['file_path" FROM files; --'] })).toContain("invalid field");
    expect(fails({ from: "files", fields: ["file_path"], orderBy: [{ field: "file_path; DELETE FROM files", direction: "ASC" }] })).toContain("invalid field");
    expect(fails({ from: "files", aggregations: [{ function: "COUNT", alias: 'n"; DROP TABLE files; --' }] })).toContain("invalid alias");
    const r = rows({ from: "files", fields: ["file_path"], where: { field: "file_path", operator: "=", value: "x' OR '1'='1" } });
    expect(r).toEqual([]);
    expect(rows({ from: "files", fields: ["file_path"] }).length).toBeGreaterThan(0);
  });

  test("aggregation rules", () => {
    expect(fails({ from: "files", fields: ["language", "file_path"], groupBy: ["language"], aggregations: [{ function: "COUNT", alias: "n" }] })).toBe(
      "field 'file_path' must be in groupBy when aggregations are used",
    );
    expect(fails({ from: "files", aggregations: [{ function: "SUM", alias: "s" }] })).toBe("aggregation 's': SUM needs a field");
    expect(
      fails({
        from: "files",
        aggregations: [
          { function: "COUNT", alias: "n" },
          { function: "COUNT", alias: "n" },
        ],
      }),
    ).toContain("appears twice");
    expect(fails({ from: "files", having: { field: "lines_total", operator: ">", value: 1 } })).toBe("having needs groupBy or aggregations");
  });
});

describe("pre-defined operations", () => {
  test("top_files orders by the chosen measure and leaves tests out by default", () => {
    const r = files.topFiles({ limit: 10, orderBy: "functions", includeTests: false });
    expect(r.rows.map((x) => x[0])).toEqual(["auth/handler.go", "store/store.go", "go.mod"]);
    const withTests = files.topFiles({ limit: 10, orderBy: "lines", includeTests: true, language: "go" });
    expect(withTests.rows.map((x) => x[0])).toEqual(["auth/handler.go", "store/store.go", "auth/handler_test.go"]);
  });

  test("module_stats gives a module and the ones below it", () => {
    expect(files.moduleStats({ modulePath: "auth", limit: 10 }).rows.map((r) => r[0])).toEqual(["auth"]);
    expect(files.moduleStats({ limit: 10 }).rows.length).toBe(3);
  });

  test("test_coverage counts test and source files and lines per language", () => {
    const r = files.testCoverage({ by: "language", limit: 10 });
    expect(r.columns).toEqual([
      "language",
      "files",
      "test_files",
      "source_files",
      "source_code_lines",
      "test_code_lines",
      "test_to_source_files",
      "test_to_source_lines",
    ]);
    expect(r.rows).toEqual([["go", 3, 1, 2, 55, 7, 0.5, 0.127]]);
  });
});

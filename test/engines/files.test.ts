import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Session } from "../../src/tools/session.ts";
import type { FilesEngine } from "../../src/engines/files/index.ts";
import { copyFixture, tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
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

const rows = async (q: object) => (await files.query(q as never)).rows;
const fails = async (q: object): Promise<string> => {
  try {
    await files.query(q as never);
  } catch (e) {
    expect(e).toBeInstanceOf(CortexError);
    return (e as CortexError).message;
  }
  throw new Error("expected the query to fail");
};

describe("cortex_files query language", () => {
  test("simple select with where, orderBy and limit; booleans come back as booleans", async () => {
    const r = await files.query({
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

  test("every comparison operator", async () => {
    const names = async (where: object) =>
      (await rows({ from: "functions", fields: ["name"], where, orderBy: [{ field: "name", direction: "ASC" }] })).map((r) => r[0]);
    // Authenticator.Check (an interface method, no body) takes 2 as well
    expect(await names({ field: "param_count", operator: "=", value: 2 })).toEqual(["Check", "Login", "ServeHTTP"]);
    expect(await names({ field: "param_count", operator: "!=", value: 2 })).toEqual(["Get", "TestLogin", "greet"]);
    expect(await names({ field: "complexity", operator: ">", value: 2 })).toEqual(["Get", "ServeHTTP"]);
    expect(await names({ field: "complexity", operator: ">=", value: 3 })).toEqual(["Get", "ServeHTTP"]);
    expect(await names({ field: "complexity", operator: "<", value: 2 })).toEqual(["Check", "Login", "greet"]);
    expect(await names({ field: "complexity", operator: "<=", value: 2 })).toEqual(["Check", "Login", "TestLogin", "greet"]);
    expect(await names({ field: "name", operator: "LIKE", value: "%Log%" })).toEqual(["Login", "TestLogin"]);
    expect(await names({ field: "name", operator: "NOT LIKE", value: "%Log%" })).toEqual(["Check", "Get", "ServeHTTP", "greet"]);
    expect(await names({ field: "name", operator: "IN", value: ["greet", "Get", "nope"] })).toEqual(["Get", "greet"]);
    expect(await names({ field: "name", operator: "NOT IN", value: ["greet", "Get"] })).toEqual(["Check", "Login", "ServeHTTP", "TestLogin"]);
    expect(await names({ field: "receiver_type", operator: "IS NULL" })).toEqual(["Login", "TestLogin"]);
    expect(await names({ field: "receiver_type", operator: "IS NOT NULL" })).toEqual(["Check", "Get", "ServeHTTP", "greet"]);
    expect(await names({ field: "lines", operator: "BETWEEN", value: [3, 9] })).toEqual(["Get", "Login", "TestLogin", "greet"]);
    expect(await names({ field: "is_exported", operator: "=", value: false })).toEqual(["greet"]);
  });

  test("and / or / not nest", async () => {
    const r = await rows({
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

  test("aggregations with groupBy, having, distinct and ordering by alias", async () => {
    const r = await files.query({
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

  test("joins of every type with column-to-column conditions", async () => {
    const on = { field: "files.file_path", operator: "=", value: "types.file_path" };
    const inner = await rows({
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
    const left = await rows({
      fields: ["files.file_path", "types.name"],
      from: "files",
      joins: [{ table: "types", type: "LEFT", on }],
      where: { field: "files.language", operator: "=", value: "go" },
    });
    expect(left.filter((r) => r[1] === null).map((r) => r[0])).toEqual(["auth/handler_test.go"]);
    const right = await rows({ fields: ["types.name"], from: "files", joins: [{ table: "types", type: "RIGHT", on }] });
    expect(right.length).toBe(3);
    const full = await rows({ fields: ["files.file_path"], from: "files", joins: [{ table: "types", type: "FULL", on }] });
    expect(full.length).toBe(inner.length + (await rows({ from: "files", fields: ["file_path"] })).length - 2);
  });

  test("offset pages through results; select * returns every column", async () => {
    const all = await rows({ from: "files", fields: ["file_path"], orderBy: [{ field: "file_path", direction: "ASC" }] });
    const page = await rows({ from: "files", fields: ["file_path"], orderBy: [{ field: "file_path", direction: "ASC" }], limit: 2, offset: 1 });
    expect(page).toEqual(all.slice(1, 3));
    const star = await files.query({ from: "modules", limit: 1 });
    expect(star.columns).toHaveLength(12);
  });

  test("modules are aggregated from files", async () => {
    const r = await files.query({
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
  test("unknown table, field, join table and qualified field", async () => {
    expect(await fails({ from: "users" })).toBe("invalid table 'users': expected one of files, types, functions, imports, modules");
    expect(await fails({ from: "files", fields: ["foo"] })).toStartWith("invalid field 'foo' for table 'files': expected one of file_path, ");
    // the fields a table has are listed, so a guess (cyclomatic) finds its name (complexity)
    expect(await fails({ from: "functions", fields: ["cyclomatic"] })).toContain(", lines, complexity");
    expect(
      await fails({
        from: "files",
        fields: ["types.nope"],
        joins: [{ table: "types", type: "INNER", on: { field: "file_path", operator: "=", value: "types.file_path" } }],
      }),
    ).toContain("invalid field 'nope' for table 'types': expected one of ");
    expect(await fails({ from: "files", where: { field: "types.name", operator: "=", value: "x" } })).toBe(
      "table 'types' is not in the query (add it to joins) in field 'types.name'",
    );
    expect(await fails({ from: "files", joins: [{ table: "secrets", type: "INNER", on: { field: "file_path", operator: "=", value: "x" } }] })).toContain(
      "invalid join table 'secrets'",
    );
    expect(await fails({ from: "files", orderBy: [{ field: "nope", direction: "ASC" }] })).toStartWith(
      "invalid field 'nope' for table 'files': expected one of ",
    );
    expect(await fails({ from: "files", orderBy: [{ field: "lines_total", direction: "SIDEWAYS" }] })).toBe(
      'query.orderBy[0].direction: must be one of "ASC", "DESC"',
    );
  });

  test("operators and their values", async () => {
    expect(await fails({ from: "files", where: { field: "lines_total", operator: "BETWEEN", value: [1] } })).toContain(
      "BETWEEN needs an array of exactly 2 values",
    );
    expect(await fails({ from: "files", where: { field: "lines_total", operator: "BETWEEN", value: 5 } })).toContain(
      "BETWEEN needs an array of exactly 2 values",
    );
    expect(await fails({ from: "files", where: { field: "language", operator: "IN", value: [] } })).toContain("IN needs a non-empty array");
    expect(await fails({ from: "files", where: { field: "language", operator: "LIKE", value: 3 } })).toContain("LIKE needs a string pattern");
    expect(await fails({ from: "files", where: { field: "language", operator: "=", value: ["a"] } })).toContain("not an array (use IN)");
    expect(await fails({ from: "files", where: { field: "language", operator: "IS NULL", value: "x" } })).toContain("IS NULL takes no value");
    expect(await fails({ from: "files", where: { field: "language", operator: "~=", value: "x" } })).toContain("query.where");
  });

  test("limit bounds: 0 and 5000 are refused", async () => {
    expect(await fails({ from: "files", limit: 0 })).toBe("query.limit: must be at least 1");
    expect(await fails({ from: "files", limit: 5000 })).toBe("query.limit: must be at most 1000");
  });

  test("injection attempts in identifiers are refused; in values they are inert data", async () => {
    expect(await fails({ from: "files; DROP TABLE files" })).toContain("invalid table");
    expect(await fails({ from: "files", fields: ['file_path" FROM files; --'] })).toContain("invalid field");
    expect(await fails({ from: "files", fields: ["file_path"], orderBy: [{ field: "file_path; DELETE FROM files", direction: "ASC" }] })).toContain(
      "invalid field",
    );
    expect(await fails({ from: "files", aggregations: [{ function: "COUNT", alias: 'n"; DROP TABLE files; --' }] })).toContain("invalid alias");
    const r = await rows({ from: "files", fields: ["file_path"], where: { field: "file_path", operator: "=", value: "x' OR '1'='1" } });
    expect(r).toEqual([]);
    expect((await rows({ from: "files", fields: ["file_path"] })).length).toBeGreaterThan(0);
  });

  test("aggregation rules", async () => {
    expect(await fails({ from: "files", fields: ["language", "file_path"], groupBy: ["language"], aggregations: [{ function: "COUNT", alias: "n" }] })).toBe(
      "field 'file_path' must be in groupBy when aggregations are used",
    );
    expect(await fails({ from: "files", aggregations: [{ function: "SUM", alias: "s" }] })).toBe("aggregation 's': SUM needs a field");
    expect(
      await fails({
        from: "files",
        aggregations: [
          { function: "COUNT", alias: "n" },
          { function: "COUNT", alias: "n" },
        ],
      }),
    ).toContain("appears twice");
    expect(await fails({ from: "files", having: { field: "lines_total", operator: ">", value: 1 } })).toBe("having needs groupBy or aggregations");
  });

  test("a grouped query names only what has one value per group: grouped fields and aggregations", async () => {
    const count = [{ function: "COUNT", alias: "n" }];
    // SQLite would answer these from an arbitrary row of each group
    expect(await fails({ from: "files", groupBy: ["language"], aggregations: count, having: { field: "lines_total", operator: ">", value: 3 } })).toBe(
      "having: 'lines_total' has no one value per group: use a groupBy field or an aggregation's alias",
    );
    expect(await fails({ from: "files", groupBy: ["language"], aggregations: count, orderBy: [{ field: "lines_total", direction: "DESC" }] })).toBe(
      "orderBy[0]: 'lines_total' has no one value per group: order by a groupBy field or an aggregation's alias",
    );
    expect(await fails({ from: "files", fields: ["file_path", "language"], groupBy: ["language"] })).toBe(
      "field 'file_path' must be in groupBy when rows are grouped",
    );
    expect(await fails({ from: "files", fields: ["*"], groupBy: ["language"] })).toBe(
      "'*' cannot be combined with groupBy or aggregations: list the grouped fields",
    );
    // without fields, a grouping gives its groups; having and orderBy on what is grouped or aggregated work
    expect(await rows({ from: "files", groupBy: ["language"], orderBy: [{ field: "language", direction: "ASC" }] })).toEqual([["go"], ["go-module"]]);
    expect(
      await rows({
        from: "files",
        groupBy: ["language"],
        aggregations: [{ function: "MAX", field: "lines_total", alias: "longest" }],
        having: {
          and: [
            { field: "longest", operator: ">", value: 3 },
            { field: "language", operator: "=", value: "go" },
          ],
        },
        orderBy: [{ field: "longest", direction: "DESC" }],
      }),
    ).toEqual([["go", 46]]);
  });

  test("a value of the wrong kind for its column is an error, not an empty answer; languages match in any case", async () => {
    expect(await fails({ from: "files", where: { field: "is_test", operator: "=", value: "true" } })).toBe(
      'where (is_test =): is_test is true or false, not "true"',
    );
    expect(await fails({ from: "files", where: { field: "lines_total", operator: ">", value: "abc" } })).toBe(
      'where (lines_total >): lines_total is a number, not "abc"',
    );
    expect(await fails({ from: "files", where: { field: "file_path", operator: "IN", value: ["a.go", 5] } })).toBe(
      "where (file_path IN): file_path is text: give a string, not 5",
    );
    expect(await fails({ from: "files", aggregations: [{ function: "SUM", field: "language", alias: "m" }] })).toBe(
      "aggregation 'm': SUM needs a number column; language is text (COUNT, MIN and MAX take it)",
    );
    // booleans as 0 / 1 and a sum of them (how many are tests) are fine
    expect(await rows({ from: "files", where: { field: "is_test", operator: "=", value: 1 }, fields: ["file_path"] })).toEqual([["auth/handler_test.go"]]);
    expect(await rows({ from: "files", aggregations: [{ function: "SUM", field: "is_test", alias: "tests" }] })).toEqual([[1]]);
    const go = await rows({ from: "files", fields: ["file_path"], where: { field: "language", operator: "=", value: "go" } });
    expect(await rows({ from: "files", fields: ["file_path"], where: { field: "language", operator: "=", value: "Go" } })).toEqual(go);
    expect((await files.topFiles({ limit: 10, orderBy: "lines", includeTests: true, language: "GO" })).rows.length).toBe(go.length);
  });

  test("a limit that cuts the answer says so (truncated), one exactly met does not", async () => {
    const all = (await rows({ from: "files", aggregations: [{ function: "COUNT", alias: "n" }] }))[0]![0] as number;
    expect(all).toBeGreaterThan(2);
    const cut = await files.query({ from: "files", fields: ["file_path"], limit: all - 1 });
    expect([cut.row_count, cut.truncated]).toEqual([all - 1, true]);
    const exact = await files.query({ from: "files", fields: ["file_path"], limit: all });
    expect([exact.row_count, exact.truncated]).toEqual([all, false]);
    const paged = await files.query({ from: "files", fields: ["file_path"], limit: 1, offset: all - 1 });
    expect([paged.row_count, paged.truncated]).toEqual([1, false]);
  });
});

describe("pre-defined operations", () => {
  test("top_files orders by the chosen measure and leaves tests out by default", async () => {
    const r = await files.topFiles({ limit: 10, orderBy: "functions", includeTests: false });
    expect(r.rows.map((x) => x[0])).toEqual(["auth/handler.go", "store/store.go", "go.mod"]);
    // the measure ranked by is a column of the answer
    for (const [order, column] of [
      ["imports", "import_count"],
      ["comments", "lines_comment"],
      ["lines", "lines_total"],
    ] as const) {
      const ranked = await files.topFiles({ limit: 10, orderBy: order, includeTests: false });
      const i = ranked.columns.indexOf(column);
      expect(i).toBeGreaterThanOrEqual(0);
      const values = ranked.rows.map((row) => row[i] as number);
      expect(values).toEqual([...values].sort((a, b) => b - a));
    }
    const withTests = await files.topFiles({ limit: 10, orderBy: "lines", includeTests: true, language: "go" });
    expect(withTests.rows.map((x) => x[0])).toEqual(["auth/handler.go", "store/store.go", "auth/handler_test.go"]);
  });

  test("top_files leaves lockfiles out: a package manager's pins are nobody's code", async () => {
    const q = tmpProject({
      "src/app.ts": "export function a() {\n  return 1;\n}\n",
      "package-lock.json": JSON.stringify(
        { lockfileVersion: 3, packages: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`node_modules/p${i}`, { version: "1.0.0" }])) },
        null,
        2,
      ),
      "bun.lock": `{\n${Array.from({ length: 300 }, (_, i) => `  "p${i}": ["p${i}@1.0.0"],`).join("\n")}\n}\n`,
      "README.md": "# x\n\nSome words.\n",
    });
    const s = new Session(q.root, { autoIndex: true });
    try {
      const f = await s.files();
      const top = await f.topFiles({ limit: 10, orderBy: "lines", includeTests: false });
      expect(top.rows.map((r) => r[0]).sort()).toEqual(["README.md", "src/app.ts"]);
      // asked for by language, they are there
      const locks = await f.topFiles({ limit: 10, orderBy: "lines", includeTests: false, language: "lockfile" });
      expect(locks.rows.map((r) => r[0]).sort()).toEqual(["bun.lock", "package-lock.json"]);
    } finally {
      s.close();
      q.cleanup();
    }
  });

  test("module_stats gives a module and the ones below it", async () => {
    expect((await files.moduleStats({ modulePath: "auth", limit: 10 })).rows.map((r) => r[0])).toEqual(["auth"]);
    expect((await files.moduleStats({ limit: 10 })).rows.length).toBe(3);
    // written as other tools take a folder
    for (const spelling of ["./auth", "auth/", "./auth/"])
      expect((await files.moduleStats({ modulePath: spelling, limit: 10 })).rows.map((r) => r[0])).toEqual(["auth"]);
  });

  test("test_coverage counts test and source files and lines per language", async () => {
    const r = await files.testCoverage({ by: "language", limit: 10 });
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

describe("what the statistics tables say of odd projects", () => {
  let q: TmpProject;
  let s: Session;
  let f: FilesEngine;
  beforeAll(async () => {
    q = tmpProject({
      // `_` and `%` in a folder's name are not wildcards for module_stats
      "a_b/m.py": "def x():\n    return 1\n",
      "aXb/c/n.py": "def y():\n    return 2\n",
      // two functions named h on one line (a minified file): one statistics row, as function_id names it
      "bundle.js": "function outer(){function h(){return 1}return h()} function other(){function h(){return 2}return h()}\n",
    });
    s = new Session(q.root, { autoIndex: true });
    f = await s.files();
  });
  afterAll(() => {
    s.close();
    q.cleanup();
  });

  test("module_stats of a_b is a_b alone, not aXb", async () => {
    expect((await f.moduleStats({ modulePath: "a_b", limit: 10 })).rows.map((r) => r[0])).toEqual(["a_b"]);
    expect((await f.moduleStats({ modulePath: "aXb", limit: 10 })).rows.map((r) => r[0])).toEqual(["aXb/c"]);
  });

  test("files.function_count and modules.function_count agree with the functions rows", async () => {
    const perFile = await f.query({ from: "files", fields: ["function_count"], where: { field: "file_path", operator: "=", value: "bundle.js" } });
    const functionRows = await f.query({
      from: "functions",
      where: { field: "file_path", operator: "=", value: "bundle.js" },
      aggregations: [{ function: "COUNT", alias: "n" }],
    });
    expect(perFile.rows).toEqual([[3]]); // outer, other, h
    expect(functionRows.rows).toEqual([[3]]);
    const fileTotal = await f.query({ from: "files", aggregations: [{ function: "SUM", field: "function_count", alias: "n" }] });
    const rowTotal = await f.query({ from: "functions", aggregations: [{ function: "COUNT", alias: "n" }] });
    const moduleTotal = await f.query({ from: "modules", aggregations: [{ function: "SUM", field: "function_count", alias: "n" }] });
    expect(fileTotal.rows).toEqual(rowTotal.rows);
    expect(moduleTotal.rows).toEqual(rowTotal.rows);
  });
});

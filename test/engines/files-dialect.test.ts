import { expect, test } from "bun:test";
import { compileQuery } from "../../src/engines/files/compile.ts";
import { queryDefinitionSchema } from "../../src/engines/files/query-schema.ts";
import { POSTGRES_DIALECT, SQLITE_DIALECT } from "../../src/store/sql-dialect.ts";

const query = queryDefinitionSchema.parse({
  from: "files",
  joins: [{ table: "functions", type: "INNER", on: { field: "files.file_path", operator: "=", value: "functions.file_path" } }],
  where: {
    and: [
      { field: "files.file_path", operator: "LIKE", value: "src/%" },
      { field: "files.is_test", operator: "=", value: false },
      { field: "functions.complexity", operator: "BETWEEN", value: [3, 9] },
    ],
  },
  fields: ["files.file_path"],
  aggregations: [{ function: "COUNT", alias: "n" }],
  groupBy: ["files.file_path"],
  having: { field: "n", operator: ">", value: 2 },
  orderBy: [{ field: "n", direction: "DESC" }],
  limit: 10,
  offset: 5,
});

test("the same query compiles for PostgreSQL: numbered placeholders in order, ILIKE, real booleans", () => {
  const pg = compileQuery(query, POSTGRES_DIALECT);
  expect(pg.sql).toBe(
    'SELECT "files"."file_path" AS "files.file_path", COUNT(*) AS "n" FROM "files" INNER JOIN "functions" ON "files"."file_path" = "functions"."file_path"' +
      ` WHERE ("files"."file_path" ILIKE $1 ESCAPE '\\' AND "files"."is_test" = $2 AND "functions"."complexity" BETWEEN $3 AND $4)` +
      ' GROUP BY "files"."file_path" HAVING "n" > $5 ORDER BY "n" DESC LIMIT $6 OFFSET $7',
  );
  expect(pg.params).toEqual(["src/%", false, 3, 9, 2, 10, 5]);
});

test("for SQLite the placeholders are anonymous, LIKE already ignores case and booleans are 0 and 1", () => {
  const lite = compileQuery(query, SQLITE_DIALECT);
  expect(lite.sql).toContain(`"files"."file_path" LIKE ? ESCAPE '\\' AND "files"."is_test" = ? AND "functions"."complexity" BETWEEN ? AND ?`);
  expect(lite.sql.endsWith("LIMIT ? OFFSET ?")).toBe(true);
  expect(lite.params).toEqual(["src/%", 0, 3, 9, 2, 10, 5]);
});

/**
 * cortex_files queries on a kept index of boost (/tmp/cortex-bench-corpora/boost), in process through the
 * engine of the source tree given (this checkout, or another version's, to compare): the p50 of N runs of
 * each after a warm-up, and a hash of each answer's rows (sorted) to compare two versions' answers.
 * VIEWS=1 compiles for the views types and functions instead of the stored rows (the path before
 * STATS_FILE_LAYOUT). docs/benchmarks.md "cortex_files over the stored rows".
 *
 *   bun scripts/files-queries.ts <source root> <index.db> [runs]
 */
import { existsSync } from "node:fs";
import { benchFilesQueries } from "./bench/files-query-cases.ts";

const [root, dbPath, runsArg] = process.argv.slice(2) as [string, string, string?];
if (!root || !dbPath || !existsSync(`${root}/src/engines/files/index.ts`) || !existsSync(dbPath)) {
  console.error("usage: bun scripts/files-queries.ts <source root> <index.db> [runs]");
  process.exit(1);
}
const { IndexStore } = await import(`${root}/src/store/index-store.ts`);
const { FilesEngine } = await import(`${root}/src/engines/files/index.ts`);
const store = IndexStore.open(dbPath, { readonly: true });
const views = process.env.VIEWS === "1" ? (await import(`${root}/src/store/sql-dialect.ts`)).SQLITE_DIALECT : undefined;
const files = new FilesEngine(views ? { dialect: views, runStatsQuery: (sql: string, p: unknown[]) => store.runStatsQuery(sql, p) } : store);
const runs = Number(runsArg ?? 15);
const BIG = "fusion/container/map/detail/cpp03/preprocessed/as_map50.hpp";
const F50 = "accumulators/statistics/mean.hpp";
const F21 = "accumulators/framework/accumulators/droppable_accumulator.hpp";
const MOD = "archive/impl";
const cases: Array<[string, () => Promise<{ rows: unknown[][] }>]> = [
  ...benchFilesQueries(files).map(([what, run]): [string, () => Promise<{ rows: unknown[][] }>] => [`bench: ${what}`, run]),
  [
    "types WHERE file_path (3,923, limit 1000)",
    () =>
      files.query({ from: "types", where: { field: "file_path", operator: "=", value: BIG }, orderBy: [{ field: "type_id", direction: "ASC" }], limit: 1000 }),
  ],
  ["types WHERE file_path (50)", () => files.query({ from: "types", where: { field: "file_path", operator: "=", value: F50 }, limit: 1000 })],
  ["functions WHERE file_path (22)", () => files.query({ from: "functions", where: { field: "file_path", operator: "=", value: F21 }, limit: 1000 })],
  [
    "types WHERE module_path (limit 1000)",
    () =>
      files.query({
        from: "types",
        fields: ["name", "file_path"],
        where: { field: "module_path", operator: "=", value: "typeof" },
        orderBy: [
          { field: "file_path", direction: "ASC" },
          { field: "start_line", direction: "ASC" },
          { field: "name", direction: "ASC" },
        ],
        limit: 1000,
      }),
  ],
  [
    "files JOIN types WHERE files.module_path",
    () =>
      files.query({
        from: "files",
        joins: [{ table: "types", type: "INNER", on: { field: "files.file_path", operator: "=", value: "types.file_path" } }],
        fields: ["files.file_path", "types.name", "types.kind"],
        where: { field: "files.module_path", operator: "=", value: MOD },
        limit: 1000,
      }),
  ],
  [
    "files LEFT JOIN types WHERE files.module_path",
    () =>
      files.query({
        from: "files",
        joins: [{ table: "types", type: "LEFT", on: { field: "files.file_path", operator: "=", value: "types.file_path" } }],
        fields: ["files.file_path", "types.name", "types.type_id"],
        where: { field: "files.module_path", operator: "=", value: MOD },
        limit: 1000,
      }),
  ],
  [
    "files LEFT JOIN functions, count per file",
    () =>
      files.query({
        from: "files",
        joins: [{ table: "functions", type: "LEFT", on: { field: "files.file_path", operator: "=", value: "functions.file_path" } }],
        fields: ["files.file_path"],
        aggregations: [{ function: "COUNT", field: "functions.name", alias: "n" }],
        groupBy: ["files.file_path"],
        where: { field: "files.module_path", operator: "LIKE", value: "archive/%" },
        orderBy: [
          { field: "n", direction: "DESC" },
          { field: "files.file_path", direction: "ASC" },
        ],
        limit: 50,
      }),
  ],
  [
    "types LEFT JOIN functions ON file_path, module",
    () =>
      files.query({
        from: "types",
        joins: [
          {
            table: "functions",
            type: "LEFT",
            on: {
              and: [
                { field: "types.file_path", operator: "=", value: "functions.file_path" },
                { field: "types.name", operator: "=", value: "functions.receiver_type" },
              ],
            },
          },
        ],
        fields: ["types.type_id", "functions.function_id"],
        where: { field: "types.module_path", operator: "=", value: MOD },
        limit: 1000,
      }),
  ],
  [
    "modules LEFT JOIN types ON module_path",
    () =>
      files.query({
        from: "modules",
        joins: [{ table: "types", type: "LEFT", on: { field: "modules.module_path", operator: "=", value: "types.module_path" } }],
        fields: ["modules.module_path"],
        aggregations: [{ function: "COUNT", field: "types.name", alias: "n" }],
        groupBy: ["modules.module_path"],
        where: { field: "modules.module_path", operator: "LIKE", value: "archive%" },
        orderBy: [{ field: "modules.module_path", direction: "ASC" }],
        limit: 100,
      }),
  ],
  [
    "imports JOIN functions ON file_path",
    () =>
      files.query({
        from: "imports",
        joins: [{ table: "functions", type: "INNER", on: { field: "imports.file_path", operator: "=", value: "functions.file_path" } }],
        fields: ["imports.imported_module"],
        aggregations: [{ function: "COUNT", alias: "n" }],
        groupBy: ["imports.imported_module"],
        where: { field: "imports.file_path", operator: "LIKE", value: "archive/impl/%" },
        orderBy: [
          { field: "n", direction: "DESC" },
          { field: "imports.imported_module", direction: "ASC" },
        ],
        limit: 20,
      }),
  ],
  [
    "types COUNT GROUP BY module_path top 10",
    () =>
      files.query({
        from: "types",
        fields: ["module_path"],
        aggregations: [{ function: "COUNT", alias: "n" }],
        groupBy: ["module_path"],
        orderBy: [{ field: "n", direction: "DESC" }],
        limit: 10,
      }),
  ],
  [
    "types COUNT GROUP BY kind",
    () =>
      files.query({
        from: "types",
        fields: ["kind"],
        aggregations: [{ function: "COUNT", alias: "n" }],
        groupBy: ["kind"],
        orderBy: [{ field: "n", direction: "DESC" }],
      }),
  ],
  [
    "functions COUNT WHERE param_count > 5",
    () => files.query({ from: "functions", aggregations: [{ function: "COUNT", alias: "n" }], where: { field: "param_count", operator: ">", value: 5 } }),
  ],
  [
    "functions WHERE param_count > 5 LIMIT 20",
    () =>
      files.query({
        from: "functions",
        fields: ["function_id", "param_count"],
        where: { field: "param_count", operator: ">", value: 5 },
        orderBy: [
          { field: "param_count", direction: "DESC" },
          { field: "function_id", direction: "ASC" },
        ],
        limit: 20,
      }),
  ],
  [
    "types WHERE is_exported, kind = struct COUNT",
    () =>
      files.query({
        from: "types",
        aggregations: [{ function: "COUNT", alias: "n" }],
        where: {
          and: [
            { field: "kind", operator: "=", value: "struct" },
            { field: "is_exported", operator: "=", value: true },
          ],
        },
      }),
  ],
];
const hash = (rows: unknown[][]) => {
  const lines = rows.map((r) => JSON.stringify(r)).sort();
  return new Bun.CryptoHasher("sha256").update(lines.join("\n")).digest("hex").slice(0, 12);
};
const out: Array<Record<string, unknown>> = [];
for (const [name, run] of cases) {
  const first = await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  out.push({ query: name, p50_ms: Number(times[Math.floor(times.length / 2)]!.toFixed(2)), rows: first.rows.length, hash: hash(first.rows) });
}
console.table(out);
console.log(JSON.stringify(out));

/**
 * The cortex_files queries the index benchmark times (scripts/bench/index-suite.ts), shared with
 * scripts/files-queries.ts, which runs them through another version's engine to compare: one list, so
 * both time the same questions. `files` is any FilesEngine (typed by shape: the other version's class is
 * imported at run time).
 */
export interface FilesQueryEngine {
  query(definition: unknown): Promise<{ rows: unknown[][] }>;
  topFiles(options: { limit: number; orderBy: "lines"; includeTests: boolean }): Promise<{ rows: unknown[][] }>;
  testCoverage(options: { by: "module_path"; limit: number }): Promise<{ rows: unknown[][] }>;
}

/** [what the query asks, a call running it] for the bench's four cortex_files questions. */
export function benchFilesQueries(files: FilesQueryEngine): Array<[string, () => Promise<{ rows: unknown[][] }>]> {
  return [
    [
      "lines per language (GROUP BY, COUNT, SUM)",
      () =>
        files.query({
          from: "files",
          fields: ["language"],
          aggregations: [
            { function: "COUNT", alias: "n" },
            { function: "SUM", field: "lines_code", alias: "code" },
          ],
          groupBy: ["language"],
          orderBy: [{ field: "n", direction: "DESC" }],
        }),
    ],
    ["top_files by lines", () => files.topFiles({ limit: 10, orderBy: "lines", includeTests: false })],
    [
      "complex functions (WHERE, ORDER BY, LIMIT)",
      () =>
        files.query({
          from: "functions",
          fields: ["file_path", "name", "complexity"],
          where: { field: "complexity", operator: ">", value: 15 },
          orderBy: [{ field: "complexity", direction: "DESC" }],
          limit: 20,
        }),
    ],
    ["test_coverage by module", () => files.testCoverage({ by: "module_path", limit: 20 })],
  ];
}

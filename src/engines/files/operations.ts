/**
 * The pre-defined cortex_files operations: each is a named QueryDefinition (or two), so they go through
 * the same compiler and validation as hand-written queries.
 */
import type { QueryDefinitionInput } from "./query-schema.ts";

export const TOP_FILES_ORDER = {
  lines: "lines_total",
  code: "lines_code",
  comments: "lines_comment",
  size: "size_bytes",
  functions: "function_count",
  types: "type_count",
  imports: "import_count",
} as const;
export type TopFilesOrder = keyof typeof TOP_FILES_ORDER;

/** The languages of files a package manager writes (lockfiles, go.sum): left out of the largest files. */
const GENERATED_LANGUAGES = ["lockfile", "go-sum"] as const;

export function topFilesQuery(o: { limit: number; orderBy: TopFilesOrder; language?: string; includeTests: boolean }): QueryDefinitionInput {
  const filters = [];
  if (o.language) filters.push({ field: "language", operator: "=" as const, value: o.language });
  if (!o.includeTests) filters.push({ field: "is_test", operator: "=" as const, value: false });
  // generated dependency pins are nobody's code: hono's bun.lock led its largest files
  if (!o.language) filters.push({ field: "language", operator: "NOT IN" as const, value: [...GENERATED_LANGUAGES] });
  const shown = ["file_path", "language", "module_path", "lines_total", "lines_code", "size_bytes", "function_count", "type_count"];
  // the measure the files are ranked by is shown too (imports and comments were not: a ranking nobody could check)
  const by = TOP_FILES_ORDER[o.orderBy];
  const q: QueryDefinitionInput = {
    from: "files",
    fields: shown.includes(by) ? shown : [...shown, by],
    orderBy: [
      { field: TOP_FILES_ORDER[o.orderBy], direction: "DESC" },
      { field: "file_path", direction: "ASC" },
    ],
    limit: o.limit,
  };
  if (filters.length > 0) q.where = { and: filters };
  return q;
}

/** One module's row, or (with a prefix) every module under it, largest first. */
export function moduleStatsQuery(o: { modulePath?: string; limit: number }): QueryDefinitionInput {
  const q: QueryDefinitionInput = {
    from: "modules",
    orderBy: [
      { field: "total_lines", direction: "DESC" },
      { field: "module_path", direction: "ASC" },
    ],
    limit: o.limit,
  };
  // written as other tools take a folder: `./src/middleware/`, `src/middleware`
  const modulePath = o.modulePath?.replace(/^(\.\/)+/, "").replace(/\/+$/, "");
  if (modulePath && modulePath !== ".") {
    q.where = {
      or: [
        { field: "module_path", operator: "=", value: modulePath },
        // `_` and `%` in a folder's name are themselves, not wildcards (`a_b` is not `aXb`)
        { field: "module_path", operator: "LIKE", value: `${modulePath.replace(/[\\%_]/g, (c) => `\\${c}`)}/%` },
      ],
    };
  }
  return q;
}

/** Languages that are data or prose, left out of test-coverage figures. */
const NOT_CODE = [
  "markdown",
  "text",
  "json",
  "yaml",
  "toml",
  "xml",
  "html",
  "css",
  "restructuredtext",
  "csv",
  "tsv",
  "svg",
  "lockfile",
  "go-sum",
  "go-module",
  "gitignore",
  "ini",
  "config",
  "editorconfig",
];

/** Per language (or module): all code files, and the test files among them. Merged by the engine. */
export function testCoverageQueries(o: { by: "language" | "module_path"; limit: number }): { all: QueryDefinitionInput; tests: QueryDefinitionInput } {
  const notCode = { field: "language", operator: "NOT IN" as const, value: NOT_CODE };
  const aggregations = [
    { function: "COUNT" as const, alias: "files" },
    { function: "SUM" as const, field: "lines_code", alias: "code_lines" },
  ];
  return {
    all: { from: "files", where: notCode, groupBy: [o.by], aggregations, orderBy: [{ field: "files", direction: "DESC" }], limit: o.limit },
    tests: { from: "files", where: { and: [notCode, { field: "is_test", operator: "=", value: true }] }, groupBy: [o.by], aggregations, limit: 1000 },
  };
}

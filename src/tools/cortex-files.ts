/**
 * cortex_files: code statistics through SQL-like JSON queries over five tables (files, types, functions,
 * imports, modules), plus pre-defined operations.
 */
import { z } from "zod";
import { defineTool, READ_ONLY } from "./define.ts";
import { queryDefinitionSchema, TOP_FILES_ORDER, type FilesResult } from "../engines/files/index.ts";
import { CortexError } from "../core/errors.ts";

const QUERY_REQUIRED =
  'required for operation \'query\': a JSON query such as {"from":"files","orderBy":[{"field":"lines_total","direction":"DESC"}],"limit":5}, ' +
  "or operation top_files, module_stats or test_coverage";

const input = z
  .object({
    operation: z
      .enum(["query", "top_files", "module_stats", "test_coverage"])
      .default("query")
      .describe("'query' runs `query`; top_files, module_stats and test_coverage are ready-made questions"),
    query: queryDefinitionSchema.optional().describe("The JSON query (required for operation 'query')"),
    limit: z.number().int().min(1).max(1000).default(10).describe("Rows for the pre-defined operations (1-1000, default 10)"),
    order_by: z
      .enum(Object.keys(TOP_FILES_ORDER) as [keyof typeof TOP_FILES_ORDER, ...Array<keyof typeof TOP_FILES_ORDER>])
      .default("lines")
      .describe("top_files: sort by lines, code, comments, size, functions, types or imports"),
    language: z.string().min(1).optional().describe("top_files: only this language"),
    include_tests: z.boolean().default(false).describe("top_files: include test files"),
    module_path: z.string().optional().describe("module_stats: a module and the modules below it (default: all)"),
    group_by: z.enum(["language", "module_path"]).default("language").describe("test_coverage: group by language or module"),
    stats_file: z
      .string()
      .min(1)
      .optional()
      .describe("Query a statistics export (NDJSON, e.g. .cortex/stats.ndjson written by 'cortex stats export') instead of the live index"),
  })
  .strict()
  // checked with the arguments, before anything runs: `cortex files` alone on a project without an index
  // built it for minutes before saying the query was missing
  .superRefine((v, ctx) => {
    if (v.operation === "query" && v.query === undefined) ctx.addIssue({ code: "custom", path: ["query"], message: QUERY_REQUIRED });
  });

const output = z.object({
  columns: z.array(z.string()),
  rows: z.array(z.array(z.unknown())),
  row_count: z.number().int(),
  truncated: z
    .boolean()
    .describe("More rows match than the limit let through (query limit default 100, at most 1000): raise limit, page with offset, or count with aggregations"),
  metadata: z.object({ took_ms: z.number(), query: z.string(), source: z.literal("stats") }),
});

export const filesTool = defineTool({
  name: "cortex_files",
  title: "Code statistics (SQL-like queries)",
  description:
    "Answer quantitative questions about the codebase with a JSON query over five tables: files (per-file language, " +
    "test flag, module, line counts code/comment/blank, size, counts), types (structs, classes, interfaces, enums…), " +
    "functions (params, returns, lines, cyclomatic complexity, exported, receiver), imports (std/external/relative) and " +
    "modules (aggregates per package directory). Supports where (= != > >= < <= LIKE, NOT LIKE, IN, NOT IN, IS NULL, " +
    "IS NOT NULL, BETWEEN, and/or/not), joins, groupBy, having, orderBy, limit, offset and COUNT/SUM/AVG/MIN/MAX. " +
    "Use it for 'which modules are biggest', 'functions with more than 5 parameters', 'test ratio per language'. " +
    "Pre-defined operations: top_files, module_stats, test_coverage.",
  input,
  output,
  annotations: READ_ONLY,
  profiles: ["cortex"],
  sharedStore: "reads",
  needsIndex: true,
  cli: { command: ["files"], positionals: ["query"], fromFile: "query", summary: "query code statistics: cortex files '<json query>'" },
  example: {
    operation: "query",
    query: {
      from: "files",
      aggregations: [
        { function: "COUNT", alias: "file_count" },
        { function: "SUM", field: "lines_total", alias: "total_lines" },
      ],
      groupBy: ["language"],
      orderBy: [{ field: "total_lines", direction: "DESC" }],
    },
  },
  async handler(args, ctx): Promise<FilesResult> {
    const engine = args.stats_file ? ctx.session.statsFileEngine(args.stats_file) : await ctx.session.files();
    switch (args.operation) {
      case "query":
        if (!args.query) throw new CortexError("INVALID_INPUT", `query: ${QUERY_REQUIRED}`);
        return engine.query(args.query);
      case "top_files": {
        const o: Parameters<typeof engine.topFiles>[0] = { limit: args.limit, orderBy: args.order_by, includeTests: args.include_tests };
        if (args.language) o.language = args.language;
        return engine.topFiles(o);
      }
      case "module_stats": {
        const o: Parameters<typeof engine.moduleStats>[0] = { limit: args.limit };
        if (args.module_path !== undefined) o.modulePath = args.module_path;
        return engine.moduleStats(o);
      }
      case "test_coverage":
        return engine.testCoverage({ by: args.group_by, limit: args.limit });
    }
  },
  // one object per row, keyed by column, so a pipeline reads fields by name
  rows: (r) => r.rows.map((row) => Object.fromEntries(r.columns.map((c, i) => [c, row[i]]))),
  render(r) {
    // rows an output budget cut leave row_count as the query answered it
    const shown = r.rows.length < r.row_count ? `${r.rows.length} of ${r.row_count} rows` : `${r.row_count} row${r.row_count === 1 ? "" : "s"}`;
    return renderTable(r.columns, r.rows) + `\n${shown}${r.truncated ? ", more match" : ""} (${r.metadata.took_ms} ms)`;
  },
  notes: (r) =>
    r.truncated
      ? [`more rows match than the ${r.row_count} returned (the limit): raise "limit" (up to 1000), page with "offset", or count them with aggregations`]
      : [],
});

/** A plain aligned text table for terminals. */
export function renderTable(columns: string[], rows: unknown[][]): string {
  const cells = [columns, ...rows.map((r) => r.map((v) => (v === null || v === undefined ? "" : String(v))))];
  const widths = columns.map((_, i) => Math.min(60, Math.max(...cells.map((r) => (r[i] ?? "").length))));
  const fmt = (r: string[]) =>
    r
      .map((c, i) => (c.length > widths[i]! ? c.slice(0, widths[i]! - 1) + "…" : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [fmt(cells[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(fmt)].join("\n");
}

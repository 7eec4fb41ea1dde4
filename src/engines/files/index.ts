/**
 * The statistics engine behind cortex_files: validated JSON queries compiled to SQL over the index's
 * five statistics tables, and the pre-defined operations built on the same compiler.
 */
import { CortexError } from "../../core/errors.ts";
import { formatIssues } from "../../core/zod-issues.ts";
import { compileQuery } from "./compile.ts";
import type { StatsReader } from "../../store/contract.ts";
import { queryDefinitionSchema, type QueryDefinitionInput } from "./query-schema.ts";
import { moduleStatsQuery, testCoverageQueries, topFilesQuery, type TopFilesOrder } from "./operations.ts";

export { queryDefinitionSchema, type QueryDefinitionInput } from "./query-schema.ts";
export { TOP_FILES_ORDER, type TopFilesOrder } from "./operations.ts";

export interface FilesResult {
  columns: string[];
  rows: unknown[][];
  row_count: number;
  /** More rows match than the query's limit let through (the default limit is 100): the answer is partial. */
  truncated: boolean;
  metadata: { took_ms: number; query: string; source: "stats" };
}

/** Anything that runs a compiled statistics query: the index's reader, or an NDJSON export loaded in memory. */
export type StatsSource = StatsReader;

export class FilesEngine {
  constructor(private readonly store: StatsSource) {}

  /** Validates, compiles and runs one query definition. */
  async query(input: QueryDefinitionInput): Promise<FilesResult> {
    const started = performance.now();
    const parsed = queryDefinitionSchema.safeParse(input);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({ ...i, path: ["query", ...i.path] }));
      throw new CortexError("INVALID_INPUT", formatIssues(issues));
    }
    // one row more than the limit tells a complete answer from a cut one (a default limit nobody typed
    // made a count of 1,691 functions read as 100)
    const limit = parsed.data.limit;
    const compiled = compileQuery({ ...parsed.data, limit: limit + 1 }, this.store.dialect);
    const { columns, rows } = await this.store.runStatsQuery(compiled.sql, compiled.params);
    const truncated = rows.length > limit;
    if (truncated) rows.length = limit;
    if (compiled.booleanColumns.size > 0) {
      const idx = columns.map((c, i) => (compiled.booleanColumns.has(c) ? i : -1)).filter((i) => i >= 0);
      for (const r of rows) for (const i of idx) if (r[i] === 0 || r[i] === 1) r[i] = r[i] === 1;
    }
    return {
      columns,
      rows,
      row_count: rows.length,
      truncated,
      metadata: { took_ms: Math.round((performance.now() - started) * 100) / 100, query: compiled.sql, source: "stats" },
    };
  }

  topFiles(o: { limit: number; orderBy: TopFilesOrder; language?: string; includeTests: boolean }): Promise<FilesResult> {
    return this.query(topFilesQuery(o));
  }

  moduleStats(o: { modulePath?: string; limit: number }): Promise<FilesResult> {
    return this.query(moduleStatsQuery(o));
  }

  async testCoverage(o: { by: "language" | "module_path"; limit: number }): Promise<FilesResult> {
    const started = performance.now();
    const q = testCoverageQueries(o);
    const all = await this.query(q.all);
    const tests = await this.query(q.tests);
    const testsBy = new Map(tests.rows.map((r) => [r[0], r]));
    const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 1000) / 1000 : 0);
    const rows = all.rows.map((r) => {
      const files = Number(r[1]);
      const code = Number(r[2] ?? 0);
      const t = testsBy.get(r[0]);
      const testFiles = t ? Number(t[1]) : 0;
      const testCode = t ? Number(t[2] ?? 0) : 0;
      return [r[0], files, testFiles, files - testFiles, code - testCode, testCode, ratio(testFiles, files - testFiles), ratio(testCode, code - testCode)];
    });
    return {
      columns: [o.by, "files", "test_files", "source_files", "source_code_lines", "test_code_lines", "test_to_source_files", "test_to_source_lines"],
      rows,
      row_count: rows.length,
      truncated: all.truncated,
      metadata: { took_ms: Math.round((performance.now() - started) * 100) / 100, query: `${all.metadata.query}; ${tests.metadata.query}`, source: "stats" },
    };
  }
}

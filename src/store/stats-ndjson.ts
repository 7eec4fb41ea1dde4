/**
 * Statistics as NDJSON (`.cortex/stats.ndjson`): one object per file with its types, functions and imports,
 * the format of the cortex_files specification. Export reads the index; import validates every line and
 * loads the rows into an in-memory database with the same five tables, so the same query compiler runs
 * over either.
 */
import { Database } from "bun:sqlite";
import { sqliteOf } from "./sqlite-access.ts";
import { runOnce } from "./db.ts";
import { SQLITE_DIALECT, type SqlDialect } from "./sql-dialect.ts";
import { readFileSync } from "node:fs";
import { z } from "zod";
import type { IndexStore } from "./index-store.ts";
import { BUILD_INDEXES } from "./schema.ts";
import { writeFileAtomic } from "../core/fs-atomic.ts";
import { CortexError } from "../core/errors.ts";
import { formatIssues } from "../core/zod-issues.ts";

const typeRow = z.object({
  name: z.string(),
  kind: z.string(),
  start_line: z.number().int(),
  end_line: z.number().int(),
  is_exported: z.boolean(),
  field_count: z.number().int(),
  method_count: z.number().int(),
});
const functionRow = z.object({
  name: z.string(),
  start_line: z.number().int(),
  end_line: z.number().int(),
  is_exported: z.boolean(),
  is_method: z.boolean(),
  receiver_type: z.string().nullable().optional(),
  param_count: z.number().int(),
  return_count: z.number().int(),
  lines: z.number().int(),
  complexity: z.number().int().nullable().optional(),
});
const importRow = z.object({
  imported_module: z.string(),
  is_standard_lib: z.boolean(),
  is_external: z.boolean(),
  is_relative: z.boolean(),
  symbol_count: z.number().int().nullable().optional(),
});
export const statsLineSchema = z.object({
  file_path: z.string().min(1),
  language: z.string(),
  is_test: z.boolean(),
  module_path: z.string(),
  lines_total: z.number().int(),
  lines_code: z.number().int(),
  lines_comment: z.number().int(),
  lines_blank: z.number().int(),
  size_bytes: z.number().int(),
  last_modified: z.string(),
  type_count: z.number().int(),
  function_count: z.number().int(),
  import_count: z.number().int(),
  types: z.array(typeRow),
  functions: z.array(functionRow),
  imports: z.array(importRow),
});
export type StatsLine = z.infer<typeof statsLineSchema>;

const bool = (v: unknown) => v === 1 || v === true;

/** Reads every file's statistics from the index, ordered by path. */
export function readStats(store: IndexStore): StatsLine[] {
  const db = sqliteOf(store);
  const group = <T>(sql: string) => {
    const m = new Map<string, T[]>();
    for (const r of db.query(sql).all() as Array<T & { file_path: string }>) {
      const { file_path, ...rest } = r;
      let list = m.get(file_path);
      if (!list) m.set(file_path, (list = []));
      list.push(rest as unknown as T);
    }
    return m;
  };
  const types = group<Record<string, unknown>>(
    "SELECT file_path, name, kind, start_line, end_line, is_exported, field_count, method_count FROM types ORDER BY file_path, start_line",
  );
  const functions = group<Record<string, unknown>>(
    "SELECT file_path, name, start_line, end_line, is_exported, is_method, receiver_type, param_count, return_count, lines, complexity FROM functions ORDER BY file_path, start_line",
  );
  const imports = group<Record<string, unknown>>(
    "SELECT file_path, imported_module, is_standard_lib, is_external, is_relative, symbol_count FROM imports ORDER BY file_path, imported_module",
  );
  const files = db.query("SELECT * FROM files ORDER BY file_path").all() as Array<Record<string, unknown>>;
  return files.map((f) => ({
    ...(f as Omit<StatsLine, "is_test" | "types" | "functions" | "imports">),
    is_test: bool(f.is_test),
    types: (types.get(f.file_path as string) ?? []).map((t) => ({ ...t, is_exported: bool(t.is_exported) })) as StatsLine["types"],
    functions: (functions.get(f.file_path as string) ?? []).map((x) => ({
      ...x,
      is_exported: bool(x.is_exported),
      is_method: bool(x.is_method),
    })) as StatsLine["functions"],
    imports: (imports.get(f.file_path as string) ?? []).map((i) => ({
      ...i,
      is_standard_lib: bool(i.is_standard_lib),
      is_external: bool(i.is_external),
      is_relative: bool(i.is_relative),
    })) as StatsLine["imports"],
  }));
}

/** Writes the statistics to `path` atomically (a reader never sees half a file). Returns the line count. */
export function exportStats(store: IndexStore, path: string): number {
  const lines = readStats(store);
  writeFileAtomic(path, lines.map((l) => JSON.stringify(l)).join("\n") + (lines.length ? "\n" : ""));
  return lines.length;
}

/** Parses and validates an NDJSON export; an error names the line and the field. */
export function parseStats(text: string, label: string): StatsLine[] {
  const out: StatsLine[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw new CortexError("INVALID_INPUT", `${label}:${i + 1}: not valid JSON (${(e as Error).message})`);
    }
    const r = statsLineSchema.safeParse(value);
    if (!r.success) throw new CortexError("INVALID_INPUT", `${label}:${i + 1}: ${formatIssues(r.error.issues)}`);
    out.push(r.data);
  }
  return out;
}

const STATS_DDL = `
CREATE TABLE files (file_path TEXT PRIMARY KEY, language TEXT NOT NULL, is_test BOOLEAN NOT NULL, module_path TEXT NOT NULL,
  lines_total INTEGER NOT NULL, lines_code INTEGER NOT NULL, lines_comment INTEGER NOT NULL, lines_blank INTEGER NOT NULL,
  size_bytes INTEGER NOT NULL, last_modified TEXT NOT NULL, type_count INTEGER NOT NULL, function_count INTEGER NOT NULL,
  import_count INTEGER NOT NULL);
CREATE TABLE types (type_id TEXT PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL, file_path TEXT NOT NULL, module_path TEXT NOT NULL,
  start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, is_exported BOOLEAN NOT NULL, field_count INTEGER NOT NULL,
  method_count INTEGER NOT NULL, FOREIGN KEY (file_path) REFERENCES files(file_path) ON DELETE CASCADE);
CREATE TABLE functions (function_id TEXT PRIMARY KEY, name TEXT NOT NULL, file_path TEXT NOT NULL, module_path TEXT NOT NULL,
  start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, is_exported BOOLEAN NOT NULL, is_method BOOLEAN NOT NULL,
  receiver_type TEXT, param_count INTEGER NOT NULL, return_count INTEGER NOT NULL, lines INTEGER NOT NULL, complexity INTEGER,
  FOREIGN KEY (file_path) REFERENCES files(file_path) ON DELETE CASCADE);
CREATE TABLE imports (import_id TEXT PRIMARY KEY, file_path TEXT NOT NULL, imported_module TEXT NOT NULL,
  is_standard_lib BOOLEAN NOT NULL, is_external BOOLEAN NOT NULL, is_relative BOOLEAN NOT NULL, symbol_count INTEGER,
  FOREIGN KEY (file_path) REFERENCES files(file_path) ON DELETE CASCADE);
CREATE TABLE modules (module_path TEXT PRIMARY KEY, file_count INTEGER NOT NULL, total_lines INTEGER NOT NULL,
  code_lines INTEGER NOT NULL, test_file_count INTEGER NOT NULL, type_count INTEGER NOT NULL, function_count INTEGER NOT NULL,
  exported_type_count INTEGER NOT NULL, exported_function_count INTEGER NOT NULL, import_count INTEGER NOT NULL,
  external_import_count INTEGER NOT NULL, depth INTEGER NOT NULL);
`;

/** The statistics of an export, loaded into an in-memory database that answers the same queries. */
export class MemoryStats {
  private readonly db: Database;
  readonly dialect: SqlDialect = SQLITE_DIALECT;
  readonly files: number;

  constructor(lines: StatsLine[]) {
    this.db = new Database(":memory:", { strict: true });
    this.db.exec(STATS_DDL);
    this.db.exec(
      // the index keeps its rows in file_rows, type_rows, function_rows, import_rows (the views files,
      // types, functions, imports name their ids and paths); here the tables are the statistics tables
      // themselves, and a row names its file by path
      BUILD_INDEXES.split(";")
        .map((s) =>
          s
            .replace(/ON (type|function|import)_rows\(/, "ON $1s(")
            .replace("ON file_rows(", "ON files(")
            .replace("(file_id)", "(file_path)")
            // an import's module is its text here, not the id of it (import_modules)
            .replace("ON imports(module_id)", "ON imports(imported_module)"),
        )
        .filter((s) => /ON (files|types|functions|imports|modules)\(/.test(s))
        .join(";"),
    );
    const insFile = this.db.prepare("INSERT INTO files VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)");
    const insType = this.db.prepare("INSERT OR IGNORE INTO types VALUES (?,?,?,?,?,?,?,?,?,?)");
    const insFn = this.db.prepare("INSERT OR IGNORE INTO functions VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)");
    const insImp = this.db.prepare("INSERT OR IGNORE INTO imports VALUES (?,?,?,?,?,?,?)");
    this.db.transaction(() => {
      for (const f of lines) {
        insFile.run(
          f.file_path,
          f.language,
          f.is_test ? 1 : 0,
          f.module_path,
          f.lines_total,
          f.lines_code,
          f.lines_comment,
          f.lines_blank,
          f.size_bytes,
          f.last_modified,
          f.type_count,
          f.function_count,
          f.import_count,
        );
        for (const t of f.types)
          insType.run(
            `${f.file_path}:${t.start_line}:${t.name}`,
            t.name,
            t.kind,
            f.file_path,
            f.module_path,
            t.start_line,
            t.end_line,
            t.is_exported ? 1 : 0,
            t.field_count,
            t.method_count,
          );
        for (const x of f.functions)
          insFn.run(
            `${f.file_path}:${x.start_line}:${x.name}`,
            x.name,
            f.file_path,
            f.module_path,
            x.start_line,
            x.end_line,
            x.is_exported ? 1 : 0,
            x.is_method ? 1 : 0,
            x.receiver_type ?? null,
            x.param_count,
            x.return_count,
            x.lines,
            x.complexity ?? null,
          );
        for (const i of f.imports)
          insImp.run(
            `${f.file_path}:${i.imported_module}`,
            f.file_path,
            i.imported_module,
            i.is_standard_lib ? 1 : 0,
            i.is_external ? 1 : 0,
            i.is_relative ? 1 : 0,
            i.symbol_count ?? null,
          );
      }
      this.db.exec(`INSERT INTO modules SELECT module_path, COUNT(*), SUM(lines_total), SUM(lines_code), SUM(is_test), SUM(type_count), SUM(function_count),
        (SELECT COUNT(*) FROM types t WHERE t.module_path = f.module_path AND t.is_exported),
        (SELECT COUNT(*) FROM functions x WHERE x.module_path = f.module_path AND x.is_exported),
        (SELECT COUNT(DISTINCT i.imported_module) FROM imports i JOIN files g ON g.file_path = i.file_path WHERE g.module_path = f.module_path),
        (SELECT COUNT(DISTINCT i.imported_module) FROM imports i JOIN files g ON g.file_path = i.file_path WHERE g.module_path = f.module_path AND i.is_external),
        CASE WHEN module_path = '.' THEN 0 ELSE LENGTH(module_path) - LENGTH(REPLACE(module_path, '/', '')) + 1 END
        FROM files f GROUP BY module_path`);
    })();
    this.files = lines.length;
  }

  static fromFile(path: string, label = path): MemoryStats {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      throw new CortexError("NOT_FOUND", `cannot read ${label}: ${(e as Error).message}`);
    }
    return new MemoryStats(parseStats(text, label));
  }

  /** The reader contract's statistics question (contract.ts StatsReader), answered from memory. */
  async runStatsQuery(sql: string, params: Array<string | number | boolean | null>): Promise<{ columns: string[]; rows: unknown[][] }> {
    return runOnce(this.db, sql, params);
  }

  close(): void {
    this.db.close();
  }
}

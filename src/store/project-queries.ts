/** Whole-project facts from the index: language shares, import usage, totals, per-file imports and calls. */
import type { IndexStore } from "./index-store.ts";
import { sqliteOf } from "./sqlite-access.ts";

export interface LanguageShare {
  language: string;
  files: number;
  code_lines: number;
  comment_lines: number;
  test_files: number;
}

export function languageShares(store: IndexStore): LanguageShare[] {
  return sqliteOf(store)
    .query(`SELECT language, COUNT(*) AS files, SUM(lines_code) AS code_lines, SUM(lines_comment) AS comment_lines, SUM(is_test) AS test_files
      FROM files GROUP BY language ORDER BY code_lines DESC, files DESC`)
    .all() as LanguageShare[];
}

/** How many files import each module (external and standard-library imports, and project ones). */
export function importUsage(store: IndexStore): Array<{ module: string; files: number; external: boolean; std: boolean }> {
  return (
    sqliteOf(store)
      .query(
        "SELECT imported_module AS module, COUNT(DISTINCT file_path) AS files, MAX(is_external) AS external, MAX(is_standard_lib) AS std FROM imports GROUP BY imported_module ORDER BY files DESC",
      )
      .all() as Array<{ module: string; files: number; external: number; std: number }>
  ).map((r) => ({ module: r.module, files: r.files, external: r.external === 1, std: r.std === 1 }));
}

export interface ProjectTotals {
  files: number;
  code_lines: number;
  comment_lines: number;
  blank_lines: number;
  test_files: number;
  types: number;
  functions: number;
  exported_functions: number;
  modules: number;
  average_complexity: number;
  size_bytes: number;
}

export function projectTotals(store: IndexStore): ProjectTotals {
  const f = sqliteOf(store)
    .query(
      "SELECT COUNT(*) AS files, COALESCE(SUM(lines_code),0) AS code_lines, COALESCE(SUM(lines_comment),0) AS comment_lines, COALESCE(SUM(lines_blank),0) AS blank_lines, COALESCE(SUM(is_test),0) AS test_files, COALESCE(SUM(size_bytes),0) AS size_bytes FROM files",
    )
    .get() as Record<string, number>;
  // counted on the tables: the views join each row's file, which counts need not read
  const t = sqliteOf(store).query("SELECT COUNT(*) AS n FROM type_rows").get() as { n: number };
  const fn = sqliteOf(store)
    .query("SELECT COUNT(*) AS n, COALESCE(SUM(is_exported),0) AS exported, COALESCE(AVG(complexity),0) AS avg FROM function_rows")
    .get() as { n: number; exported: number; avg: number };
  const m = sqliteOf(store).query("SELECT COUNT(*) AS n FROM modules").get() as { n: number };
  return {
    files: f.files!,
    code_lines: f.code_lines!,
    comment_lines: f.comment_lines!,
    blank_lines: f.blank_lines!,
    test_files: f.test_files!,
    types: t.n,
    functions: fn.n,
    exported_functions: fn.exported,
    modules: m.n,
    average_complexity: Math.round(fn.avg * 100) / 100,
    size_bytes: f.size_bytes!,
  };
}

/** Imported modules per file. */
export function importsByFile(store: IndexStore): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const r of sqliteOf(store).query("SELECT file_path, imported_module FROM imports").all() as Array<{ file_path: string; imported_module: string }>) {
    const list = m.get(r.file_path) ?? [];
    list.push(r.imported_module);
    m.set(r.file_path, list);
  }
  return m;
}

/** Call sites per file, as `name` and `qualifier.name`. */
export function callsByFile(store: IndexStore): Map<string, Set<string>> {
  const m = new Map<string, Set<string>>();
  for (const r of sqliteOf(store).query("SELECT file_path, name, qualifier FROM refs WHERE kind = 'call'").all() as Array<{
    file_path: string;
    name: string;
    qualifier: string | null;
  }>) {
    let set = m.get(r.file_path);
    if (!set) m.set(r.file_path, (set = new Set()));
    set.add(r.name);
    if (r.qualifier) set.add(`${r.qualifier}.${r.name}`);
  }
  return m;
}

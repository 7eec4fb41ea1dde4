/**
 * Small graph facts read per search result (search_codebase's evidence and preflight): who imports a
 * file, who uses its definitions, which files are tests, which lie in import cycles. One indexed query
 * each, so enriching a result costs milliseconds.
 */
import type { Statement } from "bun:sqlite";
import type { IndexStore } from "./index-store.ts";
import { sqliteOf } from "./sqlite-access.ts";

export interface CountedFile {
  file: string;
  /** Import statements or references from that file. */
  count: number;
}

type Stmt = Statement<any, any[]>;

export class GraphFacts {
  private readonly s: Map<string, Stmt> = new Map();

  constructor(private readonly store: IndexStore) {}

  private q(sql: string): Stmt {
    let st = this.s.get(sql);
    if (!st) this.s.set(sql, (st = sqliteOf(this.store).prepare(sql)));
    return st;
  }

  /** Files importing `file` (other than itself), most import statements first. */
  importers(file: string): CountedFile[] {
    return this.q(
      "SELECT file_path AS file, COUNT(*) AS count FROM import_edge_files WHERE target_file = ? AND file_path <> ? GROUP BY file_path ORDER BY count DESC, file_path",
    ).all(file, file) as CountedFile[];
  }

  /** Ids of the definitions named `name` that start within lines [startLine, endLine] of `file`. */
  symbolIdsNamedWithin(file: string, name: string, startLine: number, endLine: number): number[] {
    return (
      this.q("SELECT symbol_id AS id FROM symbols WHERE file_path = ? AND name = ? AND start_line BETWEEN ? AND ?").all(
        file,
        name,
        startLine,
        endLine,
      ) as Array<{ id: number }>
    ).map((r) => r.id);
  }

  /** Ids of every definition of `file`. */
  symbolIdsOf(file: string): number[] {
    return (this.q("SELECT symbol_id AS id FROM symbols WHERE file_path = ?").all(file) as Array<{ id: number }>).map((r) => r.id);
  }

  /** Files whose code uses (calls, types, inherits from, reads) the given definitions, outside `except`. */
  users(ids: number[], except: string): CountedFile[] {
    if (ids.length === 0) return [];
    return this.q(
      `SELECT file_path AS file, COUNT(*) AS count FROM refs
       WHERE target_symbol_id IN (SELECT value FROM json_each(?)) AND kind <> 'import' AND file_path <> ?
       GROUP BY file_path ORDER BY count DESC, file_path`,
    ).all(JSON.stringify(ids), except) as CountedFile[];
  }

  /** Files calling `name` where resolution bound the call to no definition (at most 500, by path). */
  unresolvedCallers(name: string, except: string): string[] {
    return (
      this.q(
        "SELECT DISTINCT file_path AS f FROM refs WHERE name = ? AND kind = 'call' AND target_symbol_id IS NULL AND file_path <> ? ORDER BY file_path LIMIT 500",
      ).all(name, except) as Array<{ f: string }>
    ).map((r) => r.f);
  }

  /** Every import statement's file and module. */
  importedModules(): Array<{ file: string; module: string }> {
    return this.q("SELECT file_path AS file, imported_module AS module FROM imports").all() as Array<{ file: string; module: string }>;
  }

  /** Names `file` defines at its top level, exported first, then by position (at most `limit`). */
  topLevelNames(file: string, limit: number): string[] {
    return (
      this.q("SELECT name FROM symbols WHERE file_path = ? AND container IS NULL ORDER BY is_exported DESC, start_line LIMIT ?").all(file, limit) as Array<{
        name: string;
      }>
    ).map((r) => r.name);
  }

  /** Which of `files` lie in an import cycle. */
  inImportCycles(files: string[]): string[] {
    if (files.length === 0) return [];
    return (
      this.q("SELECT file_path AS p FROM import_components WHERE file_path IN (SELECT value FROM json_each(?))").all(JSON.stringify(files)) as Array<{
        p: string;
      }>
    ).map((r) => r.p);
  }
}

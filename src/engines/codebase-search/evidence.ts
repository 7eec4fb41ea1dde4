/**
 * The graph facts search_codebase attaches to a result: who imports a file, who calls what it defines,
 * which tests cover it. Read straight from the resolved references and import edges (reference
 * resolution, src/engines/symbols/), one small query per result, so enrichment costs milliseconds.
 */
import type { IndexStore } from "../../store/index-store.ts";
import { testSubject } from "../../lang/registry.ts";

export interface Counted {
  file: string;
  /** Import statements or references from that file. */
  count: number;
}

/** The definitions of one file a chunk covers (its lines), by name; all of the file's when name is absent. */
export interface DefinitionTarget {
  file: string;
  name?: string;
  startLine?: number;
  endLine?: number;
}

export class Evidence {
  private testNames: Map<string, string[]> | undefined;

  constructor(private readonly store: IndexStore) {}

  /** Files importing `file` (other than itself), most import statements first. */
  importers(file: string): Counted[] {
    return this.store.db
      .query("SELECT file_path AS file, COUNT(*) AS count FROM import_edge_files WHERE target_file = ? AND file_path <> ? GROUP BY file_path ORDER BY count DESC, file_path")
      .all(file, file) as Counted[];
  }

  /** The symbol ids a target names: the definition named within the chunk's lines, or every definition of the file. */
  symbolIds(t: DefinitionTarget): number[] {
    const rows = (
      t.name !== undefined && t.startLine !== undefined && t.endLine !== undefined
        ? this.store.db.query("SELECT symbol_id AS id FROM symbols WHERE file_path = ? AND name = ? AND start_line BETWEEN ? AND ?").all(t.file, t.name, t.startLine, t.endLine)
        : this.store.db.query("SELECT symbol_id AS id FROM symbols WHERE file_path = ?").all(t.file)
    ) as Array<{ id: number }>;
    return rows.map((r) => r.id);
  }

  /** Files whose code uses (calls, types, inherits from, reads) the given definitions, outside `except`. */
  users(ids: number[], except: string): Counted[] {
    if (ids.length === 0) return [];
    return this.store.db
      .query(
        `SELECT file_path AS file, COUNT(*) AS count FROM refs
         WHERE target_symbol_id IN (SELECT value FROM json_each(?)) AND kind <> 'import' AND file_path <> ?
         GROUP BY file_path ORDER BY count DESC, file_path`,
      )
      .all(JSON.stringify(ids), except) as Counted[];
  }

  /** Files calling a name that resolution could not bind to any definition (dynamic dispatch, missing types). */
  unresolvedCallers(name: string, except: string): string[] {
    return (
      this.store.db
        .query("SELECT DISTINCT file_path AS f FROM refs WHERE name = ? AND kind = 'call' AND target_symbol_id IS NULL AND file_path <> ? ORDER BY file_path LIMIT 500")
        .all(name, except) as Array<{ f: string }>
    ).map((r) => r.f);
  }

  isTest(file: string): boolean {
    const r = this.store.db.query("SELECT is_test AS t FROM files WHERE file_path = ?").get(file) as { t: number } | null;
    return r?.t === 1;
  }

  /**
   * Test files for `file`: tests that import it or use its definitions, and tests named after it
   * (user.go → user_test.go, service.py → test_service.py, Cart.java → CartTest.java, a.ts → a.test.ts).
   */
  tests(file: string, importers: Counted[], users: Counted[]): Counted[] {
    const out = new Map<string, number>();
    for (const c of [...importers, ...users]) if (this.isTest(c.file)) out.set(c.file, (out.get(c.file) ?? 0) + c.count);
    for (const t of this.testsNamedAfter(file)) if (!out.has(t) && t !== file) out.set(t, 1);
    out.delete(file);
    return [...out.entries()].map(([f, count]) => ({ file: f, count })).sort((a, b) => b.count - a.count || a.file.localeCompare(b.file));
  }

  private testsNamedAfter(file: string): string[] {
    if (!this.testNames) {
      this.testNames = new Map();
      for (const { p } of this.store.db.query("SELECT file_path AS p FROM files WHERE is_test = 1").all() as Array<{ p: string }>) {
        const key = testSubject(p);
        if (!key) continue;
        const list = this.testNames.get(key) ?? [];
        list.push(p);
        this.testNames.set(key, list);
      }
    }
    return this.testNames.get(stem(file)) ?? [];
  }
}

function stem(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.indexOf(".");
  return (dot > 0 ? base.slice(0, dot) : base).toLowerCase().replace(/[-_]/g, "");
}

/** The name of what a test file tests, by its language's naming conventions (src/lang: ResolutionRules.testNames). */
export { testSubject };

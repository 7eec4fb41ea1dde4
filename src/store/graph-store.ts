/**
 * Typed access to the tables of symbols, references and imports, for reference resolution (which writes
 * refs.target_symbol_id / resolution and import_edges) and for the symbol and graph engines (which only
 * read). Statements are prepared once per store; lists of ids go through json_each so one statement
 * serves any count.
 */
import type { Database, Statement } from "bun:sqlite";
import { sqliteOf } from "./sqlite-access.ts";
import { decodeQualifiedName, qualifierTypeOfRare, REF_KINDS, RESOLUTIONS, signatureText, SYMBOL_KINDS, resolutionCode } from "./schema.ts";
import { withIndexBuilds } from "./db.ts";
import { FORGET_RESOLUTION_SQL, MANY_EDGES_SQL, MANY_TARGETS_SQL, ROWS_PER_STATEMENT } from "./full-text-load.ts";
import type { IndexStore } from "./index-store.ts";
import { contentText } from "./content-codec.ts";
import type { RefIntoFile } from "./contract.ts";

type Stmt = Statement<any, any[]>;

export interface SymbolRow {
  id: number;
  file: string;
  name: string;
  qname: string;
  kind: string;
  container: string | null;
  language: string;
  line: number;
  column: number;
  endLine: number;
  exported: number;
  signature: string | null;
}

export interface RefRow {
  id: number;
  file: string;
  name: string;
  qualifier: string | null;
  qualifierType: string | null;
  kind: string;
  line: number;
  column: number;
  enclosing: string | null;
  enclosingId: number | null;
  targetId: number | null;
  resolution: string | null;
}

/**
 * A reference's site, as find_symbol_occurrences shows it: RefRow without the definition it is written in.
 * The refs view finds that definition per row (a join into the definitions and their scopes' names), which
 * was half of a common name's look-up: 16,069 references of go-src's `Errorf` in 31-58 ms with it, 14-25
 * without (docs/benchmarks.md, "A common name's occurrences").
 */
export type RefSite = Omit<RefRow, "enclosing" | "enclosingId" | "qualifierType">;

/** A reference as resolution reads it: all of RefRow but the enclosing definition's name, which it never uses. */
export type RefToResolve = Omit<RefRow, "enclosing">;

export interface FileRow {
  path: string;
  language: string;
  packageName: string | null;
}

export interface ImportSiteRow {
  siteId: number;
  file: string;
  module: string;
  alias: string | null;
  symbols: string | null;
  line: number;
  column: number;
  isStandardLib: number;
  isExternal: number;
  isRelative: number;
}

/** A definition deleted since the last resolution (see dead_symbols). */
export interface DeadSymbol {
  id: number;
  file: string;
  name: string;
  qname: string;
  kind: string;
  language: string;
}

export interface ImportNameRow {
  file: string;
  name: string;
  line: number;
}

export interface EdgeRow {
  siteId: number;
  file: string;
  target: string;
  line: number;
  column: number;
  module: string;
}

const SYMBOL_COLUMNS = `symbol_id AS id, file_path AS file, name, qualified_name AS qname, kind, container, language,
  start_line AS line, start_column AS "column", end_line AS endLine, is_exported AS exported, signature`;
/**
 * Definitions in source order, not in id order: ids follow the order parse workers happened to finish
 * files in, and where several definitions fit a reference equally (a function per build-tag variant,
 * os.Symlink in file_unix.go and file_plan9.go) the first one wins. Files are listed in path order too.
 */
const SYMBOL_ORDER = `ORDER BY file_path, start_line, start_column, symbol_id`;
const REF_COLUMNS = `ref_id AS id, file_path AS file, name, qualifier, qualifier_type AS qualifierType, kind, line, "column",
  enclosing, enclosing_symbol_id AS enclosingId, target_symbol_id AS targetId, resolution`;
const REF_SITE_COLUMNS = `ref_id AS id, file_path AS file, name, qualifier, kind, line, "column", target_symbol_id AS targetId, resolution`;
const SITE_COLUMNS = `s.site_id AS siteId, sf.file_path AS file, sm.name AS module, s.alias, s.symbols, s.line, s."column",
  COALESCE(i.is_standard_lib, 0) AS isStandardLib, COALESCE(i.is_external, 0) AS isExternal, COALESCE(i.is_relative, 0) AS isRelative`;
/**
 * Joined through the index on the importing file: the unary + keeps the planner off the index on
 * modules (module_id), which, with sampled statistics, it chose, walking every importer of a popular module
 * (linux/kernel.h) for each site: 10.7 s against 0.03 s for a fifth of the kernel. The stored rows, not
 * the views import_sites and imports: SQLite materializes a view that is a join on the right of a LEFT
 * JOIN, whole, for every statement.
 */
export const SITE_FROM = `import_site_rows s JOIN file_rows sf ON sf.file_id = s.file_id JOIN import_modules sm ON sm.module_id = s.module_id
  LEFT JOIN import_rows i ON i.file_id = s.file_id AND +i.module_id = s.module_id`;

const json = (values: Iterable<unknown>): string => JSON.stringify([...values]);

/** A ref_rows row as forEachRefToResolve reads it (refRowsAfter's columns, in order). */
type RefRowValues = [
  id: number,
  fileId: number,
  nameId: number,
  qualifierId: number | null,
  rare: string | null,
  kind: number,
  line: number,
  column: number,
  enclosingOffset: number | null,
  targetId: number | null,
  resolution: number | null,
];

/** symbol_rows' own columns, as ResolutionReads decodes them (SymbolRowValues). */
const SYMBOL_ROW_COLUMNS = `symbol_id, file_id, name, qualified_name, scope, kind, container, start_line, start_column, end_line, is_exported, signature`;
type SymbolRowValues = [
  id: number,
  fileId: number,
  name: string,
  qualified: string | null,
  scope: number | null,
  kind: number,
  container: number | null,
  line: number,
  column: number,
  endLine: number,
  exported: number,
  signature: string | null,
];

/** References forEachRefToResolve reads at once. */
const REF_CHUNK = 8192;

/**
 * What import_digests keeps of a file's import targets: a 64-bit hash of the distinct targets in order,
 * enough to see whether a run changed them (the targets themselves, joined, took 13.6 MiB on go-src).
 */
export function importTargetsDigest(targets: Iterable<string>): string {
  return Bun.hash([...new Set(targets)].sort().join("\n")).toString(36);
}

/** The prepared statements of a graph store, typed by name. */
function graphStatements(db: Database) {
  const q = (sql: string): Stmt => db.prepare(sql);
  return {
    files: q(`SELECT f.file_path AS path, f.language, s.package_name AS packageName FROM files f
      LEFT JOIN file_state s ON s.file_path = f.file_path ORDER BY f.file_path`),
    symbolsNamed: q(`SELECT ${SYMBOL_COLUMNS} FROM symbols WHERE name IN (SELECT value FROM json_each(?)) ${SYMBOL_ORDER}`),
    symbolsOfFiles: q(`SELECT ${SYMBOL_COLUMNS} FROM symbols WHERE file_path IN (SELECT value FROM json_each(?)) ${SYMBOL_ORDER}`),
    allSymbols: q(`SELECT ${SYMBOL_COLUMNS} FROM symbols ${SYMBOL_ORDER}`),
    symbolsById: q(`SELECT ${SYMBOL_COLUMNS} FROM symbols WHERE symbol_id IN (SELECT value FROM json_each(?))`),
    refsOfFiles: q(`SELECT ${REF_COLUMNS} FROM refs WHERE file_path IN (SELECT value FROM json_each(?))`),
    refsByTargets: q(`SELECT ${REF_COLUMNS} FROM refs WHERE target_symbol_id IN (SELECT value FROM json_each(?))`),
    refSitesByTargets: q(`SELECT ${REF_SITE_COLUMNS} FROM refs WHERE target_symbol_id IN (SELECT value FROM json_each(?))`),
    // references inside definitions are found through the definitions' files (a reference's enclosing
    // definition is in its own file): an index on enclosing_symbol_id took 8.7 MiB of go-src's index
    basesInFileOf: q(`SELECT ${REF_COLUMNS} FROM refs WHERE file_id = (SELECT file_id FROM symbol_rows WHERE symbol_id = ?1)
      AND kind IN ('inherit', 'implement')`),
    setTarget: q("UPDATE ref_rows SET target_symbol_id = ?, resolution = ? WHERE ref_id = ?"),
    // the stored rows, decoded by ResolutionReads as the view refs reads them (without its names)
    refRowsAfter: q(`SELECT ref_id, file_id, name_id, qualifier_id, rare, kind, line, "column", enclosing_offset, target_symbol_id, resolution
      FROM ref_rows WHERE ref_id > ? ORDER BY ref_id LIMIT ?`),
    refNamesOf: q("SELECT name_id, name FROM ref_names WHERE name_id IN (SELECT value FROM json_each(?))"),
    // every file's state in path order (the order of the view symbols' ORDER BY), for ResolutionReads
    fileStates: q("SELECT file_id, file_path, language, package_name, symbol_first, symbol_last FROM file_state ORDER BY file_path"),
    scopeNames: q("SELECT scope_id, name FROM symbol_scopes"),
    symbolRowsNamed: q(`SELECT ${SYMBOL_ROW_COLUMNS} FROM symbol_rows WHERE name IN (SELECT value FROM json_each(?))`),
    symbolRowsInRange: q(`SELECT ${SYMBOL_ROW_COLUMNS} FROM symbol_rows WHERE symbol_id BETWEEN ? AND ?`),
    sitesOfFiles: q(`SELECT ${SITE_COLUMNS} FROM ${SITE_FROM} WHERE sf.file_path IN (SELECT value FROM json_each(?))`),
    allSites: q(`SELECT ${SITE_COLUMNS} FROM ${SITE_FROM}`),
    sitesWithoutEdges: q(`SELECT ${SITE_COLUMNS} FROM ${SITE_FROM}
      WHERE NOT EXISTS (SELECT 1 FROM import_edge_rows e WHERE e.site_id = s.site_id)
        AND COALESCE(i.is_standard_lib, 0) = 0 AND COALESCE(i.is_external, 0) = 0`),
    sitesIntoRange: q("SELECT DISTINCT site_id AS siteId FROM import_edges WHERE target_file >= ? AND target_file < ?"),
    sitesById: q(`SELECT ${SITE_COLUMNS} FROM ${SITE_FROM} WHERE s.site_id IN (SELECT value FROM json_each(?))`),
    edgesOfSite: q("SELECT target_file AS target FROM import_edges WHERE site_id = ?"),
    deleteEdgesOfSite: q("DELETE FROM import_edge_rows WHERE site_id = ?"),
    insertEdge: q("INSERT OR IGNORE INTO import_edge_rows (site_id, target_id) VALUES (?, ?)"),
    targetId: q("SELECT target_id AS id FROM import_targets WHERE path = ?"),
    insertTarget: q("INSERT INTO import_targets (path) VALUES (?)"),
    deleteEdgesInto: q("DELETE FROM import_edge_rows WHERE target_id IN (SELECT target_id FROM import_targets WHERE path IN (SELECT value FROM json_each(?)))"),
    edgesOfFiles: q(`SELECT e.site_id AS siteId, s.file_path AS file, e.target_file AS target, s.line, s."column", s.imported_module AS module
      FROM import_edges e JOIN import_sites s ON s.site_id = e.site_id WHERE s.file_path IN (SELECT value FROM json_each(?))`),
    edgesIntoFiles: q(`SELECT e.site_id AS siteId, s.file_path AS file, e.target_file AS target, s.line, s."column", s.imported_module AS module
      FROM import_edges e JOIN import_sites s ON s.site_id = e.site_id WHERE e.target_file IN (SELECT value FROM json_each(?))`),
    allEdges: q(`SELECT e.site_id AS siteId, s.file_path AS file, e.target_file AS target, s.line, s."column", s.imported_module AS module
      FROM import_edges e JOIN import_sites s ON s.site_id = e.site_id`),
    importRefsOfFiles: q(`SELECT file_path AS file, name, line FROM refs WHERE kind = 'import' AND file_path IN (SELECT value FROM json_each(?))`),
    content: q("SELECT c.z AS z FROM contents c JOIN file_state s ON s.file_id = c.file_id WHERE s.file_path = ?"),
    refsOfEnclosingIds:
      q(`SELECT ${REF_COLUMNS} FROM refs WHERE file_id IN (SELECT file_id FROM symbol_rows WHERE symbol_id IN (SELECT value FROM json_each(?1)))
      AND enclosing_symbol_id IN (SELECT value FROM json_each(?1))`),
    unresolvedNamed: q(`SELECT ${REF_COLUMNS} FROM refs WHERE name = ? AND target_symbol_id IS NULL`),
    unresolvedSitesNamed: q(`SELECT ${REF_SITE_COLUMNS} FROM refs WHERE name = ? AND target_symbol_id IS NULL`),
    enclosingOf: q("SELECT ref_id AS id, enclosing FROM refs WHERE ref_id IN (SELECT value FROM json_each(?))"),
    refsIntoFiles: q(`SELECT r.ref_id AS id, r.file_path AS file, r.name, r.kind, r.line, r."column", r.target_symbol_id AS targetId,
      t.file_path AS targetFile FROM refs r JOIN symbols t ON t.symbol_id = r.target_symbol_id
      WHERE t.file_path IN (SELECT value FROM json_each(?)) AND r.file_path <> t.file_path`),
    filesUnder: q(`SELECT file_path AS path FROM files WHERE file_path LIKE ? ESCAPE '\\' ORDER BY file_path`),
    namesNocase: q("SELECT DISTINCT name FROM symbols WHERE name = ? COLLATE NOCASE LIMIT 20"),
    namesLike: q("SELECT DISTINCT name FROM symbols WHERE name LIKE ? ESCAPE '\\' LIMIT 50"),
    namesByLength: q("SELECT DISTINCT name FROM symbols WHERE length(name) BETWEEN ? AND ?"),
    methodOwners: q(`SELECT DISTINCT container, name, file_path AS file FROM symbols
      WHERE language = ? AND kind = 'method' AND container IS NOT NULL AND name IN (SELECT value FROM json_each(?))`),
    deadSymbols: q("SELECT symbol_id AS id, file_path AS file, name, qualified_name AS qname, kind, language FROM dead_symbols ORDER BY symbol_id"),
    retarget: q("UPDATE ref_rows SET target_symbol_id = ? WHERE target_symbol_id = ?"),
    clearDead: q("DELETE FROM dead_symbols"),
  };
}

export class GraphStore {
  private readonly db: Database;
  private readonly s: ReturnType<typeof graphStatements>;
  /**
   * Import target ids by path (import_targets), read or written in the current transaction: another
   * writer may have dropped and renumbered them between two transactions.
   */
  private readonly targetIds = new Map<string, number>();

  constructor(store: IndexStore) {
    this.db = sqliteOf(store);
    this.s = graphStatements(this.db);
  }

  /** Every indexed file with its language and declared package. */
  files(): FileRow[] {
    return this.s.files.all() as FileRow[];
  }

  symbolsNamed(names: Iterable<string>): SymbolRow[] {
    return this.s.symbolsNamed.all(json(names)) as SymbolRow[];
  }

  symbolsOfFiles(paths: Iterable<string>): SymbolRow[] {
    return this.s.symbolsOfFiles.all(json(paths)) as SymbolRow[];
  }

  symbolsById(ids: Iterable<number>): SymbolRow[] {
    return this.s.symbolsById.all(json(ids)) as SymbolRow[];
  }

  /** Every definition, in source order (for tests and tools that compare whole indexes). */
  allSymbols(): SymbolRow[] {
    return this.s.allSymbols.all() as SymbolRow[];
  }

  /**
   * Runs `fn` over every reference in rowid order (a file's references are written together, so they
   * come together) without holding them all at once; rowid order also keeps updates sequential.
   */
  forEachRef(fn: (r: RefRow) => void): void {
    const stmt = this.db.prepare(`SELECT ${REF_COLUMNS} FROM refs ORDER BY ref_id`);
    try {
      for (const r of stmt.iterate() as IterableIterator<RefRow>) fn(r);
    } finally {
      stmt.finalize();
    }
  }

  /**
   * Reads for a resolution that decode the stored rows in JavaScript, from the files' states and the
   * scopes' names read once here (see ResolutionReads). Symbols and files must not change while it is used.
   */
  resolutionReads(): ResolutionReads {
    return new ResolutionReads(this.s);
  }

  /** How many references the index holds. */
  refCount(): number {
    return (this.db.query("SELECT count(*) AS n FROM ref_rows").get() as { n: number }).n;
  }

  refsOfFiles(paths: Iterable<string>): RefRow[] {
    return this.s.refsOfFiles.all(json(paths)) as RefRow[];
  }

  refsByTargets(ids: Iterable<number>): RefRow[] {
    return this.s.refsByTargets.all(json(ids)) as RefRow[];
  }

  refSitesByTargets(ids: Iterable<number>): RefSite[] {
    return this.s.refSitesByTargets.all(json(ids)) as RefSite[];
  }

  /** References with one of these names written in one of these files. */
  refsNamedIn(names: Iterable<string>, files: Iterable<string>): RefRow[] {
    return this.db
      .query(`SELECT ${REF_COLUMNS} FROM refs WHERE name IN (SELECT value FROM json_each(?1)) AND file_path IN (SELECT value FROM json_each(?2))`)
      .all(json(names), json(files)) as RefRow[];
  }

  /** References with one of these names that are unresolved or resolved by name alone. */
  refsNamedLoose(names: Iterable<string>): RefRow[] {
    return this.db
      .query(`SELECT ${REF_COLUMNS} FROM refs WHERE name IN (SELECT value FROM json_each(?)) AND (target_symbol_id IS NULL OR resolution = 'name-only')`)
      .all(json(names)) as RefRow[];
  }

  /**
   * The inherit / implement references of every type in the file that defines `typeId`, by their type
   * (each type's in the file's order): one scan of the file's references for all its types.
   */
  basesInFileOf(typeId: number): Map<number, RefRow[]> {
    const out = new Map<number, RefRow[]>();
    for (const r of this.s.basesInFileOf.all(typeId) as RefRow[]) {
      if (r.enclosingId === null) continue;
      const list = out.get(r.enclosingId);
      if (list) list.push(r);
      else out.set(r.enclosingId, [r]);
    }
    return out;
  }

  /** Points every reference to symbol `from` at symbol `to` instead (a definition re-created as it was). */
  retarget(from: number, to: number): void {
    this.s.retarget.run(to, from);
  }

  setTarget(refId: number, targetId: number | null, resolution: string | null): void {
    this.s.setTarget.run(targetId, resolutionCode(resolution), refId);
  }

  /**
   * Sets many references' targets: `next(i)` gives the i-th of `count` (ids ascending make the writes
   * sequential). ROWS_PER_STATEMENT rows go in one statement: one run() per row, a full resolution
   * of the kernel's 5.2 million targets took 6 s.
   */
  setTargets(count: number, next: (i: number) => { id: number; targetId: number | null; resolution: string | null }): void {
    this.setTargetsMany ??= this.db.prepare(MANY_TARGETS_SQL);
    const params: Array<number | null> = new Array(ROWS_PER_STATEMENT * 3);
    let i = 0;
    for (; i + ROWS_PER_STATEMENT <= count; i += ROWS_PER_STATEMENT) {
      for (let k = 0; k < ROWS_PER_STATEMENT; k++) {
        const t = next(i + k);
        params[k * 3] = t.id;
        params[k * 3 + 1] = t.targetId;
        params[k * 3 + 2] = resolutionCode(t.resolution);
      }
      this.setTargetsMany.run(...params);
    }
    for (; i < count; i++) {
      const t = next(i);
      this.setTarget(t.id, t.targetId, t.resolution);
    }
  }

  private setTargetsMany: Stmt | undefined;

  sitesOfFiles(paths: Iterable<string>): ImportSiteRow[] {
    return this.s.sitesOfFiles.all(json(paths)) as ImportSiteRow[];
  }

  allSites(): ImportSiteRow[] {
    return this.s.allSites.all() as ImportSiteRow[];
  }

  /** Project-internal import sites that resolve to no file (yet). */
  sitesWithoutEdges(): ImportSiteRow[] {
    return this.s.sitesWithoutEdges.all() as ImportSiteRow[];
  }

  /** Import sites with an edge into any of these folders (each given with a trailing slash, or "" for the root). */
  sitesIntoDirs(dirs: Iterable<string>): ImportSiteRow[] {
    const ids = new Set<number>();
    for (const d of dirs) {
      // a range over the sorted paths: every path that starts with `d` ("/" + 1 is "0")
      const end = d === "" ? "\u{10FFFF}" : d.slice(0, -1) + "0";
      for (const r of this.s.sitesIntoRange.all(d, end) as Array<{ siteId: number }>) ids.add(r.siteId);
    }
    return ids.size ? (this.s.sitesById.all(json(ids)) as ImportSiteRow[]) : [];
  }

  edgeTargetsOfSite(siteId: number): string[] {
    return (this.s.edgesOfSite.all(siteId) as Array<{ target: string }>).map((r) => r.target);
  }

  replaceEdges(siteId: number, targets: string[]): void {
    this.s.deleteEdgesOfSite.run(siteId);
    for (const t of targets) this.s.insertEdge.run(siteId, this.targetId(t));
  }

  /**
   * Adds the edges of many sites that have none (a full resolution's), ROWS_PER_STATEMENT rows a statement:
   * one run() per edge was most of a full resolution's edge writes (go-src: 524,175 edges, each Go import
   * reaching every file of its package). `forEach` gives each site's targets; `afterSite` runs once per site.
   */
  insertManyEdges(forEach: (fn: (targets: string[], siteId: number) => void) => void, afterSite: () => void = () => {}): void {
    this.insertEdgesMany ??= this.db.prepare(MANY_EDGES_SQL);
    const many = this.insertEdgesMany;
    const params: number[] = new Array(ROWS_PER_STATEMENT * 2);
    let n = 0;
    forEach((targets, siteId) => {
      for (const t of targets) {
        params[n * 2] = siteId;
        params[n * 2 + 1] = this.targetId(t);
        if (++n === ROWS_PER_STATEMENT) {
          many.run(...params);
          n = 0;
        }
      }
      afterSite();
    });
    for (let k = 0; k < n; k++) this.s.insertEdge.run(params[k * 2]!, params[k * 2 + 1]!);
  }

  private insertEdgesMany: Stmt | undefined;

  /** The id of an import target's path, added on first use (ids live until forgetResolution). */
  private targetId(path: string): number {
    let id = this.targetIds.get(path);
    if (id === undefined) {
      const row = this.s.targetId.get(path) as { id: number } | null;
      id = row ? row.id : Number(this.s.insertTarget.run(path).lastInsertRowid);
      this.targetIds.set(path, id);
    }
    return id;
  }

  deleteEdgesInto(paths: Iterable<string>): void {
    this.s.deleteEdgesInto.run(json(paths));
  }

  /** Import edges out of these files, with the import statement's position. */
  edgesOf(paths: Iterable<string>): EdgeRow[] {
    return this.s.edgesOfFiles.all(json(paths)) as EdgeRow[];
  }

  /** Import edges into these files. */
  edgesInto(paths: Iterable<string>): EdgeRow[] {
    return this.s.edgesIntoFiles.all(json(paths)) as EdgeRow[];
  }

  allEdges(): EdgeRow[] {
    return this.s.allEdges.all() as EdgeRow[];
  }

  /** The local names import statements bind, with their lines (import references). */
  importNamesOf(paths: Iterable<string>): ImportNameRow[] {
    return this.s.importRefsOfFiles.all(json(paths)) as ImportNameRow[];
  }

  /** The indexed text of a file. */
  content(path: string): string | undefined {
    const row = this.s.content.get(path) as { z: Uint8Array } | null;
    return row ? contentText(row.z) : undefined;
  }

  /** References written inside these definitions (what they call, use, inherit). */
  refsInside(ids: Iterable<number>): RefRow[] {
    return this.s.refsOfEnclosingIds.all(json(ids)) as RefRow[];
  }

  unresolvedNamed(name: string): RefRow[] {
    return this.s.unresolvedNamed.all(name) as RefRow[];
  }

  unresolvedSitesNamed(name: string): RefSite[] {
    return this.s.unresolvedSitesNamed.all(name) as RefSite[];
  }

  /** The definition each of these references is written in (RefRow.enclosing), by reference id. */
  enclosingOf(ids: Iterable<number>): Map<number, string | null> {
    return new Map((this.s.enclosingOf.all(json(ids)) as Array<{ id: number; enclosing: string | null }>).map((r) => [r.id, r.enclosing]));
  }

  /** References from other files into definitions of these files. */
  refsIntoFiles(paths: Iterable<string>): RefIntoFile[] {
    return this.s.refsIntoFiles.all(json(paths)) as RefIntoFile[];
  }

  /** Indexed files under a folder ("" for all). */
  filesUnder(dir: string): string[] {
    const prefix = dir === "" ? "" : dir.replace(/[\\%_]/g, (c) => "\\" + c) + "/";
    return (this.s.filesUnder.all(prefix + "%") as Array<{ path: string }>).map((r) => r.path);
  }

  /** Distinct definition names equal to `name` ignoring case. */
  namesIgnoringCase(name: string): string[] {
    return (this.s.namesNocase.all(name) as Array<{ name: string }>).map((r) => r.name);
  }

  /** Distinct definition names matching a LIKE pattern (already escaped with backslashes). */
  namesLike(pattern: string): string[] {
    return (this.s.namesLike.all(pattern) as Array<{ name: string }>).map((r) => r.name);
  }

  namesOfLength(min: number, max: number): string[] {
    return (this.s.namesByLength.all(min, max) as Array<{ name: string }>).map((r) => r.name);
  }

  /** Go methods named any of these names: their owner type (container), name and file. */
  /** Methods of `language` with one of these names, with the type that declares them (its qualified name). */
  methodOwners(language: string, names: string[]): Array<{ container: string; name: string; file: string }> {
    return this.s.methodOwners.all(language, json(names)) as Array<{ container: string; name: string; file: string }>;
  }

  /** Each file's import targets as a digest (importTargetsDigest), for files that have any. */
  edgeDigests(paths: Iterable<string>): Map<string, string> {
    const rows = this.db
      .query(
        "SELECT DISTINCT file_path AS file, target_file AS target FROM import_edge_files WHERE file_path IN (SELECT value FROM json_each(?)) ORDER BY file_path, target_file",
      )
      .all(json(paths)) as Array<{ file: string; target: string }>;
    const targets = new Map<string, string[]>();
    for (const r of rows) {
      const list = targets.get(r.file);
      if (list) list.push(r.target);
      else targets.set(r.file, [r.target]);
    }
    return new Map([...targets].map(([file, list]) => [file, importTargetsDigest(list)]));
  }

  storedDigests(paths: Iterable<string>): Map<string, string> {
    const rows = this.db
      .query("SELECT file_path AS file, digest FROM import_digests WHERE file_path IN (SELECT value FROM json_each(?))")
      .all(json(paths)) as Array<{ file: string; digest: string }>;
    return new Map(rows.map((r) => [r.file, r.digest]));
  }

  /** Records digests (undefined: the file imports no project file any more). */
  saveDigests(digests: Map<string, string | undefined>): void {
    const del = this.db.prepare("DELETE FROM import_digests WHERE file_path = ?");
    const put = this.db.prepare("INSERT OR REPLACE INTO import_digests (file_path, digest) VALUES (?, ?)");
    for (const [file, d] of digests) d === undefined ? del.run(file) : put.run(file, d);
  }

  /** Distinct file-to-file import pairs (no self imports). */
  filePairs(): Array<{ file: string; target: string }> {
    return this.db.query("SELECT DISTINCT file_path AS file, target_file AS target FROM import_edge_files WHERE file_path <> target_file").all() as Array<{
      file: string;
      target: string;
    }>;
  }

  replaceComponents(components: string[][]): void {
    this.db.exec("DELETE FROM import_components");
    const put = this.db.prepare("INSERT INTO import_components (file_path, component) VALUES (?, ?)");
    components.forEach((c, i) => c.forEach((f) => put.run(f, i + 1)));
  }

  /** Files of import cycles (component number → files), optionally only those under a folder. */
  componentFiles(dir: string | undefined): Map<number, string[]> {
    const rows = (
      dir === undefined || dir === ""
        ? this.db.query("SELECT file_path AS file, component FROM import_components ORDER BY file_path").all()
        : this.db
            .query("SELECT file_path AS file, component FROM import_components WHERE file_path >= ? AND file_path < ? ORDER BY file_path")
            .all(dir + "/", dir + "0")
    ) as Array<{ file: string; component: number }>;
    const out = new Map<number, string[]>();
    for (const r of rows) {
      const list = out.get(r.component);
      if (list) list.push(r.file);
      else out.set(r.component, [r.file]);
    }
    return out;
  }

  /** Import edges whose both ends are among these files: one per pair of files, its first import statement. */
  edgesAmong(files: string[]): EdgeRow[] {
    return this.db
      .query(`SELECT MIN(e.site_id) AS siteId, s.file_path AS file, e.target_file AS target, MIN(s.line) AS line, 1 AS "column", '' AS module
        FROM import_edges e JOIN import_sites s ON s.site_id = e.site_id
        WHERE s.file_path IN (SELECT value FROM json_each(?1)) AND e.target_file IN (SELECT value FROM json_each(?1))
        GROUP BY s.file_path, e.target_file`)
      .all(json(files)) as EdgeRow[];
  }

  /** The first import statement of `file` that reaches `target`. */
  firstImport(file: string, target: string): { line: number; column: number; module: string } | undefined {
    return (
      (this.db
        .query(`SELECT s.line, s."column", s.imported_module AS module FROM import_edges e JOIN import_sites s ON s.site_id = e.site_id
        WHERE s.file_path = ? AND e.target_file = ? ORDER BY s.line, s."column" LIMIT 1`)
        .get(file, target) as { line: number; column: number; module: string } | null) ?? undefined
    );
  }

  /** Files with import edges and distinct file-to-file edges, under a folder ("" for all). */
  importGraphSize(dir: string): { files: number; edges: number } {
    const r = (
      dir === ""
        ? this.db
            .query("SELECT COUNT(DISTINCT file_path) AS files, COUNT(*) AS edges FROM (SELECT DISTINCT file_path, target_file FROM import_edge_files)")
            .get()
        : this.db
            .query(
              "SELECT COUNT(DISTINCT file_path) AS files, COUNT(*) AS edges FROM (SELECT DISTINCT file_path, target_file FROM import_edge_files WHERE file_path >= ?1 AND file_path < ?2 AND target_file >= ?1 AND target_file < ?2)",
            )
            .get(dir + "/", dir + "0")
    ) as { files: number; edges: number };
    return r;
  }

  /** Drops every import edge, digest and cycle, and every deleted-symbol record, before a whole resolution. */
  forgetResolution(): void {
    this.db.exec(FORGET_RESOLUTION_SQL);
    this.targetIds.clear();
  }

  /** Symbols deleted since the last resolution, and forgets them. */
  takeDeadSymbols(): DeadSymbol[] {
    const rows = this.s.deadSymbols.all() as DeadSymbol[];
    if (rows.length) this.s.clearDead.run();
    return rows;
  }

  /**
   * Runs `fn` with these secondary indexes dropped and builds them again after: for writing most rows of
   * a table at once (a full resolution), where one sorted index build beats maintaining it row by row.
   */
  withoutIndexes<T>(names: string[], fn: () => T): T {
    const sql = names
      .map((n) => this.db.query("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?").get(n) as { sql: string } | null)
      .filter((r): r is { sql: string } => r !== null)
      .map((r) => r.sql);
    for (const n of names) this.db.exec(`DROP INDEX IF EXISTS ${n}`);
    try {
      return fn();
    } finally {
      withIndexBuilds(this.db, () => {
        for (const s of sql) this.db.exec(s);
      });
    }
  }

  transaction<T>(fn: () => T): T {
    this.targetIds.clear();
    try {
      return this.db.transaction(fn)();
    } finally {
      this.targetIds.clear();
    }
  }
}

/** A file's state as ResolutionReads decodes rows with it. */
interface FileState {
  path: string;
  language: string;
  pkg: string | null;
  /** Its definitions' ids, first to last (null: none). */
  symbolFirst: number | null;
  symbolLast: number | null;
  /** Its position in path order. */
  rank: number;
}

/**
 * A reference resolution's reads of references and definitions, from the tables themselves: the views
 * refs and symbols join file_state (and, for a definition's container and scope, symbol_scopes) per row
 * and sort by path in SQL. Here every file's state and every scope's name are read once, and each row's
 * integers are decoded as the views decode them (schema.ts: decodeQualifiedName, qualifierTypeOfRare). On the
 * kernel a resolution reads 9.1 million references and loads 3.2 million definitions by name.
 * test/store/graph-store-refs.test.ts checks these rows against the views'.
 */
export class ResolutionReads {
  private readonly s: ReturnType<typeof graphStatements>;
  private readonly files = new Map<number, FileState>();
  private readonly byPath = new Map<string, number>();
  private readonly scopes = new Map<number, string>();

  constructor(statements: ReturnType<typeof graphStatements>) {
    this.s = statements;
    let rank = 0;
    for (const [id, path, language, pkg, first, last] of this.s.fileStates.values() as Array<
      [number, string, string, string | null, number | null, number | null]
    >) {
      this.files.set(id, { path, language, pkg, symbolFirst: first, symbolLast: last, rank: rank++ });
      this.byPath.set(path, id);
    }
    for (const [id, name] of this.s.scopeNames.values() as Array<[number, string]>) this.scopes.set(id, name);
  }

  /** Definitions with one of these names, as GraphStore.symbolsNamed gives them (in source order). */
  symbolsNamed(names: Iterable<string>): SymbolRow[] {
    return this.decode(this.s.symbolRowsNamed.values(json(names)) as SymbolRowValues[]);
  }

  /** The definitions of these files, as GraphStore.symbolsOfFiles gives them (in source order). */
  symbolsOfFiles(paths: Iterable<string>): SymbolRow[] {
    const rows: SymbolRowValues[] = [];
    for (const p of new Set(paths)) {
      const id = this.byPath.get(p);
      const f = id === undefined ? undefined : this.files.get(id);
      if (!f || f.symbolFirst === null || f.symbolLast === null) continue;
      for (const r of this.s.symbolRowsInRange.values(f.symbolFirst, f.symbolLast) as SymbolRowValues[]) rows.push(r);
    }
    return this.decode(rows);
  }

  /** Rows of the view symbols from symbol_rows' values, in its order (file path, line, column, id). */
  private decode(rows: SymbolRowValues[]): SymbolRow[] {
    const out: SymbolRow[] = [];
    const ranks: number[] = [];
    for (const [id, fileId, name, qualified, scope, kind, container, line, column, endLine, exported, signature] of rows) {
      const f = this.files.get(fileId);
      // the view's join: a definition lies in its file's id range
      if (!f || f.symbolFirst === null || f.symbolLast === null || id < f.symbolFirst || id > f.symbolLast) continue;
      const containerName = container === null ? null : (this.scopes.get(container) ?? null);
      out.push({
        id,
        file: f.path,
        name,
        qname: decodeQualifiedName(name, qualified, scope, container, f.pkg, this.scopeName) as string,
        kind: (SYMBOL_KINDS[kind] ?? null) as string,
        container: containerName,
        language: f.language,
        line,
        column,
        endLine,
        exported,
        signature: signatureText(signature, name),
      });
      ranks.push(f.rank);
    }
    const order = out.map((_, i) => i);
    order.sort((i, j) => ranks[i]! - ranks[j]! || out[i]!.line - out[j]!.line || out[i]!.column - out[j]!.column || out[i]!.id - out[j]!.id);
    return order.map((i) => out[i]!);
  }

  /** A scope's or container's text by its symbol_scopes id (decodeQualifiedName's look-up). */
  private readonly scopeName = (id: number): string | null => this.scopes.get(id) ?? null;

  /**
   * Runs `fn` over every reference in rowid order, as resolution reads them: from ref_rows itself, a chunk
   * at a time, with the chunk's names read once. Each path and, within a chunk, each name is one string
   * shared by its references. A reference's file is the one its file_id names (every row lies in that
   * file's id range: the view's join).
   */
  forEachRefToResolve(fn: (r: RefToResolve) => void, chunk = REF_CHUNK): void {
    let after = -1;
    for (;;) {
      const rows = this.s.refRowsAfter.values(after, chunk) as RefRowValues[];
      if (rows.length === 0) break;
      const ids = new Set<number>();
      for (const r of rows) {
        ids.add(r[2]);
        if (r[3] !== null) ids.add(r[3]);
      }
      const names = new Map(this.s.refNamesOf.values(json(ids)) as Array<[number, string]>);
      for (const r of rows) {
        const f = this.files.get(r[1]);
        const name = names.get(r[2]);
        if (f === undefined || name === undefined) continue; // not in the view either (its inner joins)
        fn({
          id: r[0],
          file: f.path,
          name,
          qualifier: r[3] === null ? null : (names.get(r[3]) ?? null),
          qualifierType: qualifierTypeOfRare(r[4]),
          kind: REF_KINDS[r[5]] as string,
          line: r[6],
          column: r[7],
          enclosingId: r[8] === null || f.symbolFirst === null ? null : f.symbolFirst + r[8],
          targetId: r[9],
          resolution: r[10] === null ? null : (RESOLUTIONS[r[10] - 1] ?? null),
        });
      }
      after = rows[rows.length - 1]![0];
    }
  }
}

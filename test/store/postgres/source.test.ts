/**
 * IndexSource reads a finished index's rows from its tables and decodes them itself: every file's rows
 * must be what the views (symbols, refs, import_sites, import_edge_files, files, types, functions,
 * imports) give, with the same keys in the same order, and its digest the one computed from the views'
 * rows (a different digest would publish every file of every repository again).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { tmpProject, type TmpProject } from "../../helpers/tmp-project.ts";
import { Session } from "../../../src/tools/session.ts";
import { IndexStore } from "../../../src/store/index-store.ts";
import { indexLocation } from "../../../src/store/location.ts";
import { sqliteOf } from "../../../src/store/sqlite-access.ts";
import { bodyWords, IndexSource, type WordPieces } from "../../../src/store/postgres/source.ts";
import { wordsText } from "../../../src/core/words.ts";
import { ProvidedKeys, requestedKeys } from "../../../src/store/postgres/package-keys.ts";
import { emptyProjectInfo, type ProjectInfo } from "../../../src/lang/project.ts";
import { dirOf } from "../../../src/core/rel-path.ts";

const FIXTURES = join(import.meta.dir, "..", "..", "fixtures", "graph");
let p: TmpProject;
let store: IndexStore;

beforeAll(async () => {
  p = tmpProject();
  // every language of the graph fixtures: qualifiers, receiver types, resolutions of every kind,
  // references outside definitions, every stored form of a qualified name, imports with and without edges
  for (const lang of ["go", "python", "typescript", "javascript", "java", "kotlin", "cpp", "c", "rust", "csharp", "php", "ruby"])
    cpSync(join(FIXTURES, lang), join(p.root, lang), { recursive: true });
  const session = new Session(p.root);
  await session.index();
  session.close();
  store = IndexStore.open(indexLocation(p.root).current()!, { readonly: true });
});
afterAll(() => {
  store.close();
  p.cleanup();
});

type Row = Record<string, unknown>;

/** The rows as the views give them: what the publisher read before it read the tables. */
function viewRows(path: string, language: string, contentHash: string) {
  const db = sqliteOf(store);
  const all = (sql: string) => db.query(sql).all(path) as Row[];
  const symbols = all(`SELECT symbol_id, name, qualified_name, kind, container, start_line, start_column, end_line, is_exported, signature
    FROM symbols WHERE file_path = ? ORDER BY symbol_id`);
  const refs = all(`SELECT ref_id, name, qualifier, qualifier_type, kind, line, "column", enclosing, enclosing_symbol_id, target_symbol_id,
    resolution FROM refs WHERE file_path = ? ORDER BY ref_id`);
  const sites = all(`SELECT site_id, imported_module, alias, symbols, line, "column" FROM import_sites WHERE file_path = ? ORDER BY site_id`);
  const edges = all("SELECT site_id, target_file FROM import_edge_files WHERE file_path = ? ORDER BY site_id, target_file");
  const open = all(`SELECT s.site_id, s.imported_module, s.symbols FROM import_sites s WHERE s.file_path = ?1
    AND NOT EXISTS (SELECT 1 FROM import_edge_rows e WHERE e.site_id = s.site_id)
    AND NOT EXISTS (SELECT 1 FROM imports i WHERE i.file_path = s.file_path AND i.imported_module = s.imported_module AND (i.is_standard_lib OR i.is_relative))
    ORDER BY s.site_id`);
  const pkg = (db.query("SELECT package_name FROM file_state WHERE file_path = ?").get(path) as { package_name: string | null }).package_name;
  const row = db.query("SELECT value FROM meta WHERE key = 'project_info'").get() as { value: string } | null;
  const project: ProjectInfo = row ? (JSON.parse(row.value) as ProjectInfo) : emptyProjectInfo();
  const paths = (db.query("SELECT file_path FROM file_state").all() as Array<{ file_path: string }>).map((r) => r.file_path);
  const inDir = (d: string) => paths.filter((x) => dirOf(x) === d).sort();
  const packageKeys = new ProvidedKeys(project, { project, has: (x) => paths.includes(x), inDir }).of(path, language, pkg);
  const importKeys: Row[] = [];
  for (const s of open) {
    const names = s.symbols ? (JSON.parse(String(s.symbols)) as string[]) : [];
    for (const key of requestedKeys(language, { module: String(s.imported_module), symbols: names })) importKeys.push({ site_id: s.site_id, key });
  }
  const cross = { packageKeys, importKeys };
  return {
    digest: Bun.hash(JSON.stringify([contentHash, symbols, refs, sites, edges, cross])).toString(36),
    symbols,
    refs,
    sites,
    edges,
    cross,
    statFile: db
      .query(`SELECT is_test, module_path, lines_total, lines_code, lines_comment, lines_blank, last_modified, type_count, function_count, import_count
        FROM files WHERE file_path = ?`)
      .get(path) as Row | null,
    types: all("SELECT type_id, name, kind, module_path, start_line, end_line, is_exported, field_count, method_count FROM types WHERE file_path = ?"),
    functions: all(`SELECT function_id, name, module_path, start_line, end_line, is_exported, is_method, receiver_type, param_count, return_count,
      lines, complexity FROM functions WHERE file_path = ?`),
    imports: all("SELECT import_id, imported_module, is_standard_lib, is_external, is_relative, symbol_count FROM imports WHERE file_path = ?"),
  };
}

/** SQLite's 0/1 as booleans, as the publisher sends them. */
function booleans(rows: Row[], columns: string[]): Row[] {
  return rows.map((r) => {
    const out = { ...r };
    for (const c of columns) out[c] = r[c] === null ? null : Boolean(r[c]);
    return out;
  });
}

test("every file's rows and digest are the views'", () => {
  const source = new IndexSource(store);
  const files = source.files();
  expect(files.length).toBeGreaterThan(40);
  const rows = source.rowsOfBatch(files);
  const seen = { rare: false, container: false, enclosing: false, edges: false, importKeys: false, types: false, functions: false, pieces: false };
  files.forEach((f, i) => {
    const got = rows[i]!;
    const want = viewRows(f.path, f.language, f.contentHash);
    // keys in the same order: the digest is JSON of these objects
    expect(JSON.stringify(booleans(want.symbols, ["is_exported"]))).toBe(JSON.stringify(got.symbols));
    expect(JSON.stringify(want.refs)).toBe(JSON.stringify(got.refs));
    expect(JSON.stringify(want.sites)).toBe(JSON.stringify(got.sites));
    expect(JSON.stringify(want.edges)).toBe(JSON.stringify(got.edges));
    expect(JSON.stringify(want.cross)).toBe(JSON.stringify({ packageKeys: got.packageKeys, importKeys: got.importKeys }));
    expect(got.digest).toBe(want.digest);
    expect(source.digest(f)).toBe(want.digest);
    expect(got.statFile).toEqual(want.statFile === null ? undefined : booleans([want.statFile], ["is_test"])[0]);
    expect(JSON.stringify(got.types)).toBe(JSON.stringify(booleans(want.types, ["is_exported"])));
    expect(JSON.stringify(got.functions)).toBe(JSON.stringify(booleans(want.functions, ["is_exported", "is_method"])));
    expect(JSON.stringify(got.imports)).toBe(JSON.stringify(booleans(want.imports, ["is_standard_lib", "is_external", "is_relative"])));
    // the keyword words: the file's, and each chunk's (pieces of the file's) as wordsText of its text
    expect(got.fileWords).toBe(wordsText(got.content));
    expect(got.words.code).toBe(wordsText(got.content).slice(0, 256 * 1024));
    for (const c of got.chunks) {
      expect(bodyWords(c.w_body as string | WordPieces, got.fileWords)).toBe(wordsText(String(c.text)).slice(0, 256 * 1024));
      if (typeof c.w_body !== "string") seen.pieces = true;
    }
    if (want.refs.some((r) => r.qualifier_type !== null)) seen.rare = true;
    if (want.symbols.some((s) => s.container !== null)) seen.container = true;
    if (want.refs.some((r) => r.enclosing !== null)) seen.enclosing = true;
    if (want.edges.length > 0) seen.edges = true;
    if (want.cross.importKeys.length > 0) seen.importKeys = true;
    if (want.types.length > 0) seen.types = true;
    if (want.functions.length > 0) seen.functions = true;
  });
  // the fixtures hold every kind of row compared
  expect(seen).toEqual({ rare: true, container: true, enclosing: true, edges: true, importKeys: true, types: true, functions: true, pieces: true });
});

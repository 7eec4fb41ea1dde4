/**
 * What the store leaves NULL or keeps as ids is named again by its views (src/store/schema.ts): every
 * chunk, reference and definition reads back exactly as it was written, and a deleted file takes its
 * references with it although ref_rows has no index on file ids.
 */
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compressText } from "../../src/store/content-codec.ts";
import { IndexStore } from "../../src/store/index-store.ts";
import { sqliteOf } from "../../src/store/sqlite-access.ts";
import { signatureText, storedSignature } from "../../src/store/schema.ts";
import { encodeSpans, prefixText } from "../../src/store/chunk-text.ts";
import type { ChunkRecord, ParsedFile } from "../../src/store/types.ts";
import type { FileFacts } from "../../src/lang/types.ts";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const PATH = "src/geo/shape.hpp";

/** A definition's chunk as the chunker makes it (src/indexer/chunker.ts). */
function definition(kind: string, symbolPath: string, a: number, b: number, part = 1, parts = 1, repeat = "", signature = ""): ChunkRecord {
  const header = `${kind} ${symbolPath} (${PATH}:${a}-${b})`;
  return {
    id: `definitions:${PATH}#${parts > 1 ? `${symbolPath}@${part}` : symbolPath}${repeat}`,
    chunkType: "definitions",
    title: `${symbolPath} (${kind})`,
    symbolPath,
    language: "cpp",
    startLine: a,
    endLine: b,
    tags: ["src", "geo", "definitions"],
    prefix: signature ? `${header}\n${signature} …\n` : `${header}\n`,
    spans: encodeSpans([{ from: a, to: b }]),
    textHash: "ab".repeat(16),
    metadata: { kind, name: symbolPath.slice(symbolPath.lastIndexOf(".") + 1), part, parts },
  };
}

const CHUNKS: ChunkRecord[] = [
  definition("method", "geo.Shape.area", 10, 20),
  definition("method", "geo.Shape.area", 22, 30, 1, 1, "~2"),
  definition("function", "geo.~Shape", 32, 35),
  definition("class", "geo.Shape", 5, 84, 1, 2),
  definition("class", "geo.Shape", 75, 90, 2, 2, "", "class Shape"),
  definition("class", "geo.Shape", 75, 90, 2, 2, "~3"),
  // no '.' in the path; a kind the store has no code for; a name that is not the path's last segment
  definition("namespace", "geo", 1, 100),
  { ...definition("macro", "GEO_MAX", 3, 3), metadata: { kind: "macro", name: "GEO_MAX", part: 1, parts: 1 } },
  { ...definition("function", "geo.operator.()", 40, 41), metadata: { kind: "function", name: "operator.()", part: 1, parts: 1 } },
  // a key that reads as a repeat, a title of its own, metadata of another shape
  { ...definition("function", "geo.f", 50, 51), id: `definitions:${PATH}#~7` },
  { ...definition("function", "geo.g", 52, 53), title: "g, the other one" },
  { ...definition("function", "geo.h", 54, 55), metadata: { kind: "function", name: "h", part: 1, parts: 1, extra: true } },
  {
    id: `symbols:${PATH}#file`,
    chunkType: "symbols",
    title: `${PATH} symbols`,
    language: "cpp",
    startLine: 1,
    endLine: 100,
    tags: ["src", "geo", "symbols"],
    prefix: `File: ${PATH}\nLanguage: cpp`,
    spans: "",
    textHash: "cd".repeat(16),
    metadata: { package: null, imports_count: 0, types_count: 1, functions_count: 2 },
  },
  {
    id: `data:${PATH}#values@1`,
    chunkType: "data",
    title: `${PATH} values: MAX`,
    language: "cpp",
    startLine: 3,
    endLine: 3,
    tags: ["src", "geo", "data"],
    prefix: `values in ${PATH}:3-3\n`,
    spans: "3",
    textHash: "ef".repeat(16),
    metadata: { names: ["MAX"] },
  },
  // more than six names, one needing JSON escapes: the view names the first six and an ellipsis
  {
    id: `data:${PATH}#values@2`,
    chunkType: "data",
    title: `${PATH} values: A, B\\"q, C, D, E, F, …`,
    language: "cpp",
    startLine: 20,
    endLine: 27,
    tags: ["src", "geo", "data"],
    prefix: `values in ${PATH}:20-27\n`,
    spans: "20+7",
    textHash: "ab".repeat(16),
    metadata: { names: ["A", 'B\\"q', "C", "D", "E", "F", "G", "H"] },
  },
  // a title and header of its own are kept
  {
    id: `data:${PATH}#config@1`,
    chunkType: "data",
    title: `${PATH} (configuration)`,
    language: "cpp",
    startLine: 30,
    endLine: 31,
    tags: ["src", "geo", "data"],
    prefix: `configuration ${PATH}:30-31\n`,
    spans: "30+1",
    textHash: "ba".repeat(16),
    metadata: { names: ["X"] },
  },
  // a language other than its file's
  { ...definition("function", "other", 60, 61), id: "elsewhere:other", language: "c" },
];

const FACTS: FileFacts = {
  packageName: undefined,
  types: [],
  functions: [],
  variables: [],
  imports: [],
  references: [
    { name: "area", qualifier: "shape", kind: "call", line: 11, column: 3 },
    { name: "Shape", kind: "type", line: 12, column: 5 },
    { name: "area", kind: "call", line: 13, column: 7 },
  ],
  lines: { total: 100, code: 90, comment: 5, blank: 5 },
  syntaxErrors: 0,
} as unknown as FileFacts;

function parsed(fileId: number, path: string, chunks: ChunkRecord[], facts: FileFacts): ParsedFile {
  return {
    fileId,
    path,
    language: "cpp",
    isTest: false,
    modulePath: "src/geo",
    sizeBytes: 10,
    mtimeMs: 1,
    lines: { total: 100, code: 90, comment: 5, blank: 5 },
    facts,
    chunks,
  };
}

test("chunks, references and definitions read back through the views as they were written", () => {
  dir = mkdtempSync(join(tmpdir(), "cortex-compact-rows-"));
  const store = IndexStore.createForBuild(join(dir, "index.db"));
  try {
    const text = compressText("x\n".repeat(100));
    store.transaction(() => {
      for (const [i, path] of [PATH, "src/geo/other.hpp"].entries()) {
        const fileId = store.insertText({ path, language: "cpp", sizeBytes: 200, mtimeMs: 1, contentHash: `h${i}`, content: text });
        const facts = {
          ...FACTS,
          functions: [],
          variables: [
            {
              name: "width",
              qualifiedName: "geo.Shape.width",
              kind: "field",
              container: "geo.Shape",
              startLine: 6,
              startColumn: 3,
              endLine: 6,
              exported: true,
            },
            { name: "MAX", qualifiedName: "MAX", kind: "constant", startLine: 3, startColumn: 1, endLine: 3, exported: true },
            { name: "y", qualifiedName: "geo.inner.y", kind: "variable", container: "geo.Shape", startLine: 7, startColumn: 1, endLine: 7, exported: false },
          ],
        } as unknown as FileFacts;
        store.insertParsed(parsed(fileId, path, i === 0 ? CHUNKS : [], facts));
      }
    });
    const db = sqliteOf(store);
    const rows = db.query("SELECT * FROM chunks ORDER BY rowid").all() as Array<Record<string, unknown>>;
    expect(rows.map((r) => r.chunk_id)).toEqual(CHUNKS.map((c) => c.id));
    rows.forEach((r, i) => {
      const c = CHUNKS[i]!;
      expect(r.title).toBe(c.title);
      expect(r.symbol_path).toBe(c.symbolPath ?? null);
      expect(r.language).toBe(c.language);
      expect(prefixText(r.prefix as string | Uint8Array, PATH)).toBe(c.prefix);
      expect(r.metadata).toBe(JSON.stringify(c.metadata));
      expect([r.chunk_type, r.start_line, r.end_line, r.spans]).toEqual([c.chunkType, c.startLine, c.endLine, c.spans]);
    });
    // the usual parts are not stored: most definition rows hold no prefix, key or metadata of their own
    const stored = db.query("SELECT count(*) AS n FROM chunk_rows WHERE prefix IS NULL AND metadata IS NULL AND title IS NULL").get() as { n: number };
    expect(stored.n).toBeGreaterThanOrEqual(4);
    // a definition's symbol path is its last segment and the id of its scope, which the view joins back
    const split = db.query(
      "SELECT c.symbol_path AS segment, s.name AS scope FROM chunk_rows c LEFT JOIN symbol_scopes s ON s.scope_id = c.symbol_scope ORDER BY c.chunk_rowid",
    );
    expect(split.all()).toEqual([
      { segment: "area", scope: "geo.Shape" },
      { segment: "area", scope: "geo.Shape" },
      { segment: "~Shape", scope: "geo" },
      { segment: "Shape", scope: "geo" },
      { segment: "Shape", scope: "geo" },
      { segment: "Shape", scope: "geo" },
      { segment: "geo", scope: null },
      { segment: "GEO_MAX", scope: null },
      // metadata of its own (a name other than the last segment's): the path stays whole, as any other chunk's
      { segment: "geo.operator.()", scope: null },
      { segment: "f", scope: "geo" },
      { segment: "g", scope: "geo" },
      { segment: "geo.h", scope: null },
      { segment: null, scope: null },
      { segment: null, scope: null },
      { segment: null, scope: null },
      { segment: null, scope: null },
      { segment: "other", scope: null },
    ]);
    // nor a chunk's language where it is its file's
    expect(db.query("SELECT language FROM chunk_rows WHERE language IS NOT NULL").all()).toEqual([{ language: "c" }]);
    // a data chunk's usual title and header are not stored either
    const data = db.query("SELECT title, prefix FROM chunk_rows WHERE chunk_type = 2 ORDER BY chunk_rowid").all();
    expect(data).toEqual([
      { title: null, prefix: null },
      { title: null, prefix: null },
      { title: `${PATH} (configuration)`, prefix: "configuration \u0001:30-31\n" },
    ]);

    const refs = db.query('SELECT file_path, name, qualifier, kind, line, "column" FROM refs ORDER BY ref_id').all();
    const expected = (path: string) =>
      FACTS.references.map((r) => ({ file_path: path, name: r.name, qualifier: r.qualifier ?? null, kind: r.kind, line: r.line, column: r.column }));
    expect(refs).toEqual([...expected(PATH), ...expected("src/geo/other.hpp")]);
    expect((db.query("SELECT count(*) AS n FROM ref_names").get() as { n: number }).n).toBe(3);
    expect(db.query("SELECT name, line FROM refs WHERE name = 'area' AND file_path = ? ORDER BY line").all(PATH)).toEqual([
      { name: "area", line: 11 },
      { name: "area", line: 13 },
    ]);

    const symbols = db.query("SELECT name, qualified_name AS q FROM symbols WHERE file_path = ? ORDER BY start_line").all(PATH);
    expect(symbols).toEqual([
      { name: "MAX", q: "MAX" },
      { name: "width", q: "geo.Shape.width" },
      { name: "y", q: "geo.inner.y" },
    ]);
    // a member's name in its container is stored as '' (the view names it again)
    expect(db.query("SELECT qualified_name AS q FROM symbol_rows WHERE name = 'width'").all()).toEqual([{ q: "" }, { q: "" }]);
    // a name in its scope keeps the scope as an id, and a container is an id too (one row each in symbol_scopes)
    expect(db.query("SELECT name, container FROM symbols WHERE file_path = ? ORDER BY start_line").all(PATH)).toEqual([
      { name: "MAX", container: null },
      { name: "width", container: "geo.Shape" },
      { name: "y", container: "geo.Shape" },
    ]);
    expect(db.query("SELECT s.qualified_name AS q, c.name AS scope FROM symbol_rows s JOIN symbol_scopes c ON c.scope_id = s.scope").all()).toEqual([
      { q: null, scope: "geo.inner" },
      { q: null, scope: "geo.inner" },
    ]);
    // (and a definition chunk's symbol path keeps its scope there: 'geo' of 'geo.f')
    expect(db.query("SELECT name FROM symbol_scopes ORDER BY name").all()).toEqual([{ name: "geo" }, { name: "geo.Shape" }, { name: "geo.inner" }]);

    // a deleted file takes its references, and nothing else's, with it
    store.transaction(() => store.deleteFile(PATH));
    // and its definitions go to dead_symbols with their qualified names
    expect(db.query("SELECT name, qualified_name AS q FROM dead_symbols ORDER BY name").all()).toEqual([
      { name: "MAX", q: "MAX" },
      { name: "width", q: "geo.Shape.width" },
      { name: "y", q: "geo.inner.y" },
    ]);
    expect(db.query("SELECT DISTINCT file_path FROM refs").all()).toEqual([{ file_path: "src/geo/other.hpp" }]);
    expect((db.query("SELECT count(*) AS n FROM ref_rows").get() as { n: number }).n).toBe(3);
    expect((db.query("SELECT count(*) AS n FROM chunk_rows").get() as { n: number }).n).toBe(0);
  } finally {
    store.close();
  }
});

test("types and functions name their file by id: the views give its path and module, a query by path reads them by index", () => {
  dir = mkdtempSync(join(tmpdir(), "cortex-compact-rows-"));
  const store = IndexStore.createForBuild(join(dir, "index.db"));
  try {
    const text = compressText("x\n".repeat(100));
    const facts = (n: number) =>
      ({
        ...FACTS,
        types: [
          {
            name: `Shape${n}`,
            qualifiedName: `geo.Shape${n}`,
            kind: "class",
            startLine: 5,
            startColumn: 1,
            endLine: 84,
            exported: true,
            fieldCount: 2,
            methodCount: 1,
          },
        ],
        functions: [
          {
            name: "area",
            qualifiedName: `geo.Shape${n}.area`,
            startLine: 10,
            startColumn: 3,
            endLine: 20,
            exported: true,
            isMethod: true,
            receiverType: `Shape${n}`,
            paramCount: 0,
            returnCount: 1,
            bodyLines: 11,
            complexity: n,
            signature: "double area()",
          },
        ],
        references: [],
      }) as unknown as FileFacts;
    const paths = [PATH, "src/geo/other.hpp", "src/io/reader.hpp"];
    store.transaction(() => {
      for (const [i, path] of paths.entries()) {
        const fileId = store.insertText({ path, language: "cpp", sizeBytes: 200, mtimeMs: 1, contentHash: `h${i}`, content: text });
        store.insertParsed({ ...parsed(fileId, path, [], facts(i)), modulePath: path.slice(0, path.lastIndexOf("/")) });
      }
    });
    store.createBuildIndexes();
    const db = sqliteOf(store);
    // the bulk build writes file_rows again in file id order (IndexStore.packFileRows), keys on after it
    expect(db.query("PRAGMA foreign_keys").get()).toEqual({ foreign_keys: 1 });
    expect(db.query("SELECT file_id FROM file_rows").all()).toEqual(db.query("SELECT file_id FROM file_state ORDER BY file_id").all());
    expect(db.query("SELECT * FROM types ORDER BY type_id").all()).toEqual(
      paths
        .map((path, i) => ({
          type_id: `${path}:5:Shape${i}`,
          name: `Shape${i}`,
          kind: "class",
          file_path: path,
          module_path: path.slice(0, path.lastIndexOf("/")),
          start_line: 5,
          end_line: 84,
          is_exported: 1,
          field_count: 2,
          method_count: 1,
        }))
        .sort((a, b) => (a.type_id < b.type_id ? -1 : 1)),
    );
    expect(
      db.query("SELECT function_id, file_path, module_path, receiver_type, complexity FROM functions WHERE module_path = 'src/geo' ORDER BY file_path").all(),
    ).toEqual([
      { function_id: "src/geo/other.hpp:10:area", file_path: "src/geo/other.hpp", module_path: "src/geo", receiver_type: "Shape1", complexity: 1 },
      { function_id: `${PATH}:10:area`, file_path: PATH, module_path: "src/geo", receiver_type: "Shape0", complexity: 0 },
    ]);
    // the path is not stored with the rows; a query by path finds the file, then its rows by file id
    expect(db.query("SELECT count(*) AS n FROM pragma_table_info('type_rows') WHERE name IN ('file_path', 'module_path')").get()).toEqual({ n: 0 });
    const plan = (sql: string) => (db.query(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((r) => r.detail).join("; ");
    expect(plan("SELECT name FROM types WHERE file_path = 'src/io/reader.hpp'")).toContain("idx_types_file (file_id=?)");
    expect(plan("SELECT name FROM functions WHERE file_path = 'src/io/reader.hpp'")).toContain("idx_functions_file (file_id=?)");
    // the module statistics count a module's exported types and functions through its files
    store.recomputeModules(["src/geo"]);
    expect(db.query("SELECT type_count, function_count, exported_type_count, exported_function_count FROM modules").all()).toEqual([
      { type_count: 2, function_count: 2, exported_type_count: 2, exported_function_count: 2 },
    ]);
    // a deleted file takes its types and functions, and nothing else's, with it
    store.transaction(() => store.deleteFile(PATH));
    expect(db.query("SELECT file_path FROM types ORDER BY file_path").all()).toEqual([{ file_path: "src/geo/other.hpp" }, { file_path: "src/io/reader.hpp" }]);
    expect(db.query("SELECT count(*) AS n FROM function_rows").get()).toEqual({ n: 2 });
    expect(db.query("SELECT file_path FROM files ORDER BY file_path").all()).toEqual([{ file_path: "src/geo/other.hpp" }, { file_path: "src/io/reader.hpp" }]);
  } finally {
    store.close();
  }
});

test("a file's chunks and definitions are found and deleted through the range of their ids, without an index on file ids", () => {
  dir = mkdtempSync(join(tmpdir(), "cortex-compact-rows-"));
  const store = IndexStore.createForBuild(join(dir, "index.db"));
  try {
    const text = compressText("x\n".repeat(100));
    const paths = [PATH, "src/geo/other.hpp", "src/io/reader.hpp"];
    store.transaction(() => {
      for (const [i, path] of paths.entries()) {
        const fileId = store.insertText({ path, language: "cpp", sizeBytes: 200, mtimeMs: 1, contentHash: `h${i}`, content: text });
        // the chunk ids name their file: each file's are its own
        const chunks = CHUNKS.slice(0, 4 + i).map((c) => ({ ...c, id: c.id.replace(PATH, path) }));
        // (enough of them that the planner's statistics see a table, not a handful of rows)
        const variables = [
          { name: "MAX", qualifiedName: "MAX", kind: "constant", startLine: 3, startColumn: 1, endLine: 3, exported: true },
          { name: `v${i}`, qualifiedName: `geo.v${i}`, kind: "variable", startLine: 7, startColumn: 1, endLine: 7, exported: false },
          ...Array.from({ length: 40 }, (_, n) => ({
            name: `w${n}`,
            qualifiedName: `w${n}`,
            kind: "variable",
            startLine: 10 + n,
            startColumn: 1,
            endLine: 10 + n,
            exported: true,
          })),
        ];
        store.insertParsed(parsed(fileId, path, chunks, { ...FACTS, references: [], variables } as unknown as FileFacts));
      }
    });
    store.createBuildIndexes();
    const db = sqliteOf(store);
    const idsOf = (path: string) =>
      (db.query("SELECT chunk_id FROM chunks WHERE file_path = ? ORDER BY rowid").all(path) as Array<{ chunk_id: string }>).map((r) => r.chunk_id);
    expect(paths.map((p) => idsOf(p).length)).toEqual([4, 5, 6]);
    expect(idsOf("src/io/reader.hpp")).toEqual(CHUNKS.slice(0, 6).map((c) => c.id.replace(PATH, "src/io/reader.hpp")));
    // no index on chunk_rows at all: not on file ids, nor on text hashes (chunk-vectors.ts reads the table for those)
    expect(db.query("SELECT count(*) AS n FROM pragma_index_list('chunk_rows')").get()).toEqual({ n: 0 });
    const plan = (db.query("EXPLAIN QUERY PLAN SELECT chunk_id FROM chunks WHERE file_path = ?").all("x") as Array<{ detail: string }>)
      .map((r) => r.detail)
      .join("; ");
    expect(plan).toContain("SEARCH c USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)");
    const symbolsOf = (path: string) =>
      db.query("SELECT name, qualified_name AS q FROM symbols WHERE file_path = ? AND name NOT GLOB 'w*' ORDER BY name").all(path);
    expect(symbolsOf("src/geo/other.hpp")).toEqual([
      { name: "MAX", q: "MAX" },
      { name: "v1", q: "geo.v1" },
    ]);
    expect(db.query("SELECT count(*) AS n FROM pragma_index_list('symbol_rows')").get()).toEqual({ n: 1 });
    const symbolPlan = (db.query("EXPLAIN QUERY PLAN SELECT name FROM symbols WHERE file_path = ?").all("x") as Array<{ detail: string }>).map((r) => r.detail);
    expect(symbolPlan.join("; ")).toContain("SEARCH s USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)");
    // the middle file's chunks and definitions leave with it, and no other file's; its definitions are dead
    store.transaction(() => store.deleteFile("src/geo/other.hpp"));
    expect(paths.map((p) => idsOf(p).length)).toEqual([4, 0, 6]);
    expect(db.query("SELECT count(*) AS n FROM chunk_rows").get()).toEqual({ n: 10 });
    expect(paths.map((p) => symbolsOf(p).length)).toEqual([2, 0, 2]);
    expect(db.query("SELECT file_path, qualified_name AS q FROM dead_symbols WHERE name NOT GLOB 'w*' ORDER BY q").all()).toEqual([
      { file_path: "src/geo/other.hpp", q: "MAX" },
      { file_path: "src/geo/other.hpp", q: "geo.v1" },
    ]);
    expect(db.query("SELECT count(*) AS n FROM dead_symbols").get()).toEqual({ n: 42 });
    expect(db.query("SELECT count(*) AS n FROM symbol_rows").get()).toEqual({ n: 84 });
  } finally {
    store.close();
  }
});

test("a reference's enclosing definition is stored by its place in its file, its qualifier type and enclosing text in one column", () => {
  dir = mkdtempSync(join(tmpdir(), "cortex-compact-rows-"));
  const store = IndexStore.createForBuild(join(dir, "index.db"));
  try {
    const text = compressText("x\n".repeat(100));
    const variable = (name: string, line: number) => ({
      name,
      qualifiedName: `geo.${name}`,
      kind: "variable",
      startLine: line,
      startColumn: 1,
      endLine: line,
      exported: true,
    });
    const references = [
      { name: "a", kind: "call", line: 11, column: 3, enclosing: "geo.first" },
      { name: "b", kind: "read", line: 12, column: 3, enclosing: "geo.third" },
      { name: "c", qualifier: "s", qualifierType: "Shape", kind: "call", line: 13, column: 3 },
      { name: "d", kind: "call", line: 14, column: 3, enclosing: "geo.nowhere" },
      { name: "e", qualifier: "s", qualifierType: "Shape", kind: "call", line: 15, column: 3, enclosing: "geo.nowhere" },
      { name: "f", qualifier: "s", qualifierType: "Shape", kind: "call", line: 16, column: 3, enclosing: "geo.second" },
      { name: "g", kind: "type", line: 17, column: 3 },
    ];
    const ids: number[][] = [];
    store.transaction(() => {
      // two files, so the second's definitions do not start at the first id
      for (const [i, path] of ["src/a.hpp", "src/b.hpp"].entries()) {
        const fileId = store.insertText({ path, language: "cpp", sizeBytes: 200, mtimeMs: 1, contentHash: `h${i}`, content: text });
        const facts = { ...FACTS, variables: [variable("first", 1), variable("second", 2), variable("third", 3)], references } as unknown as FileFacts;
        store.insertParsed(parsed(fileId, path, [], facts));
      }
    });
    const db = sqliteOf(store);
    for (const path of ["src/a.hpp", "src/b.hpp"]) {
      ids.push((db.query("SELECT symbol_id AS id FROM symbols WHERE file_path = ? ORDER BY start_line").all(path) as Array<{ id: number }>).map((r) => r.id));
    }
    expect(ids[1]![0]).toBeGreaterThan(ids[0]![2]!);
    for (const [i, path] of ["src/a.hpp", "src/b.hpp"].entries()) {
      const [first, second, third] = ids[i]!;
      const read = db.query("SELECT name, qualifier_type AS qt, enclosing, enclosing_symbol_id AS eid FROM refs WHERE file_path = ? ORDER BY ref_id").all(path);
      expect(read).toEqual([
        { name: "a", qt: null, enclosing: "geo.first", eid: first },
        { name: "b", qt: null, enclosing: "geo.third", eid: third },
        { name: "c", qt: "Shape", enclosing: null, eid: null },
        { name: "d", qt: null, enclosing: "geo.nowhere", eid: null },
        { name: "e", qt: "Shape", enclosing: "geo.nowhere", eid: null },
        { name: "f", qt: "Shape", enclosing: "geo.second", eid: second },
        { name: "g", qt: null, enclosing: null, eid: null },
      ]);
      // a query by enclosing definition (GraphStore.refsInside) finds them by the computed id
      expect(db.query("SELECT name FROM refs WHERE file_path = ? AND enclosing_symbol_id = ?").all(path, third!)).toEqual([{ name: "b" }]);
    }
    // stored: the offset in the file's definitions, and the two texts in one column where set
    expect(db.query("SELECT enclosing_offset AS o, rare FROM ref_rows ORDER BY ref_id LIMIT 7").all()).toEqual([
      { o: 0, rare: null },
      { o: 2, rare: null },
      { o: null, rare: "Shape" },
      { o: null, rare: "\u0001geo.nowhere" },
      { o: null, rare: "Shape\u0001geo.nowhere" },
      { o: 1, rare: "Shape" },
      { o: null, rare: null },
    ]);
  } finally {
    store.close();
  }
});

test("a signature keeps its definition's name as one character; the view and the published rows give it whole", () => {
  dir = mkdtempSync(join(tmpdir(), "cortex-compact-rows-"));
  const store = IndexStore.createForBuild(join(dir, "index.db"));
  const fn = (name: string, line: number, signature: string) => ({
    name,
    qualifiedName: `geo.${name}`,
    startLine: line,
    endLine: line + 1,
    startColumn: 1,
    exported: true,
    isMethod: false,
    paramCount: 1,
    returnCount: 1,
    bodyLines: 1,
    complexity: 1,
    signature,
  });
  const functions = [
    fn("area", 10, "template <class T> T area(T const& area_of) // area"),
    fn("f", 20, "int f(int fx)"),
    fn("mark", 30, "void mark(char c = '\u0001')"),
    fn("raw", 40, 'void raw(const char* s = "\u0002")'),
    fn("none", 50, "void other()"),
    fn("empty", 60, ""),
  ];
  try {
    store.transaction(() => {
      const fileId = store.insertText({ path: PATH, language: "cpp", sizeBytes: 200, mtimeMs: 1, contentHash: "h", content: compressText("x\n".repeat(100)) });
      store.insertParsed(parsed(fileId, PATH, [], { ...FACTS, functions, variables: [] } as unknown as FileFacts));
    });
    const db = sqliteOf(store);
    expect(db.query("SELECT name, signature FROM symbols ORDER BY start_line").all()).toEqual(functions.map((f) => ({ name: f.name, signature: f.signature })));
    // stored: every occurrence of a longer name as one character; a name of one character, and a
    // signature holding a mark, as they are
    expect((db.query("SELECT signature FROM symbol_rows ORDER BY start_line").values() as string[][]).map((r) => r[0])).toEqual([
      "template <class T> T \u0001(T const& \u0001_of) // \u0001",
      "int f(int fx)",
      "\u0002void mark(char c = '\u0001')",
      '\u0002void raw(const char* s = "\u0002")',
      "void other()",
      "",
    ]);
    for (const f of functions) expect(signatureText(storedSignature(f.signature, f.name), f.name)).toBe(f.signature);
    expect(storedSignature(null, "x")).toBeNull();
  } finally {
    store.close();
  }
});

/**
 * The index database schema, in two tiers. The text tier (file_state, contents, the trigram tables) is
 * written first and answers exact and regex search on its own; the parse tier (every table that
 * references `files`) follows, file by file: file_state.parsed says which files it holds. Deleting a
 * file's file_state row deletes everything of both tiers (cascades and triggers).
 *
 * The five statistics tables or views (files, types, functions, imports, modules) have exactly the columns of the
 * cortex_files specification; every other table holds what the other engines need.
 *
 * Versioned with PRAGMA user_version: MIGRATIONS[i] takes a database from version i to i + 1. An index
 * older than the first migration we still carry, or newer than SCHEMA_VERSION, is rebuilt.
 */

import type { TypeKind, VariableKind } from "../lang/types.ts";
import type { ChunkRecord } from "./types.ts";

/** The statistics tables and their columns, in order: the files-query compiler validates against this. */
export const STATS_TABLES = {
  files: [
    "file_path",
    "language",
    "is_test",
    "module_path",
    "lines_total",
    "lines_code",
    "lines_comment",
    "lines_blank",
    "size_bytes",
    "last_modified",
    "type_count",
    "function_count",
    "import_count",
  ],
  types: ["type_id", "name", "kind", "file_path", "module_path", "start_line", "end_line", "is_exported", "field_count", "method_count"],
  functions: [
    "function_id",
    "name",
    "file_path",
    "module_path",
    "start_line",
    "end_line",
    "is_exported",
    "is_method",
    "receiver_type",
    "param_count",
    "return_count",
    "lines",
    "complexity",
  ],
  imports: ["import_id", "file_path", "imported_module", "is_standard_lib", "is_external", "is_relative", "symbol_count"],
  modules: [
    "module_path",
    "file_count",
    "total_lines",
    "code_lines",
    "test_file_count",
    "type_count",
    "function_count",
    "exported_type_count",
    "exported_function_count",
    "import_count",
    "external_import_count",
    "depth",
  ],
} as const;

export type StatsTable = keyof typeof STATS_TABLES;

/**
 * How the index stores the statistics tables whose rows name their file by id (type_rows and
 * function_rows; the views types and functions join the file's path and module back from file_rows). The
 * cortex_files compiler reads them through this rather than through the views (SQLITE_INDEX_DIALECT): it
 * joins a row's file only where the query reads the file's columns (SQLite joins every row of a view
 * that is a join, even for `GROUP BY kind`), and a join of such a table on a file's path or module
 * becomes a look-up by file id (a view that is a join, on the right of a LEFT JOIN, is materialized whole
 * each query: boost's `files LEFT JOIN types` took seconds).
 */
export interface StatsFileLayout {
  /** The stored table of the statistics of a file: its key is `fileId`, its other columns the view's. */
  readonly fileTable: string;
  readonly fileId: string;
  /** The file table's column that names one file (its path: unique). */
  readonly filePath: string;
  /** A row's id from its file's path and its row (`statsRowId`). */
  readonly rowId: (path: string, row: string) => string;
  /** Each statistics table stored with a file id instead of its file's columns. */
  readonly tables: Partial<Record<StatsTable, StatsRowsLayout>>;
}

export interface StatsRowsLayout {
  /** The stored table of the rows (with the file id column `StatsFileLayout.fileId`). */
  readonly rows: string;
  /** The columns that are the file's (read from the file table). */
  readonly fileColumns: readonly string[];
  /** The id column the view writes from the file's path and the row (`rowId`). */
  readonly idColumn: string;
  /** The id from its file's path and its row, where it is not the layout's `rowId`. */
  readonly rowId?: (path: string, row: string) => string;
  /**
   * Columns stored as codes: code i names `names[i]`. The names are in ascending order, so the codes
   * order, group and compare for equality as the names do.
   */
  readonly codedColumns?: Readonly<Record<string, readonly string[]>>;
  /**
   * Columns stored as the id of their text in a table of names (`idColumn` holds it; `table` has each
   * distinct text once, `id` and `name` its columns).
   */
  readonly internedColumns?: Readonly<Record<string, InternedColumn>>;
}

export interface InternedColumn {
  readonly idColumn: string;
  readonly table: string;
  readonly id: string;
  readonly name: string;
}

/** An import's id ('<path>:<module>') from its file's path and its module's name, in SQL. */
function importRowId(path: string, module: string): string {
  return `${path} || ':' || ${module}`;
}

/** The name of the module of an import_rows row `r` (import_modules), in SQL. */
function importModuleName(r: string): string {
  return `(SELECT "import_modules"."name" FROM "import_modules" WHERE "import_modules"."module_id" = ${r}."module_id")`;
}

/** A type's or function's id ('<path>:<line>:<name>') from its file's path and its row `r`. */
export function statsRowId(path: string, r: string): string {
  return `${path} || ':' || ${r}.start_line || ':' || ${r}.name`;
}

/**
 * A type's kind (type_rows.kind) is stored as its position here, and named by the view "types" and by
 * cortex_files (STATS_FILE_LAYOUT): as text, the kind and its index took 3.4 MiB of boost's index (230,000
 * types). In ascending order, so that the codes sort as the names do.
 */
export const TYPE_KINDS = [
  "class",
  "enum",
  "interface",
  "module",
  "namespace",
  "object",
  "record",
  "struct",
  "trait",
  "type_alias",
  "union",
] as const satisfies ReadonlyArray<TypeKind>;
// every kind a language module can report has a code (a compile error names the one left out)
const everyTypeKindCoded: Exclude<TypeKind, (typeof TYPE_KINDS)[number]> extends never ? true : never = true;
void everyTypeKindCoded;

export const STATS_FILE_LAYOUT: StatsFileLayout = {
  fileTable: "file_rows",
  fileId: "file_id",
  filePath: "file_path",
  rowId: statsRowId,
  tables: {
    types: { rows: "type_rows", fileColumns: ["file_path", "module_path"], idColumn: "type_id", codedColumns: { kind: TYPE_KINDS } },
    functions: { rows: "function_rows", fileColumns: ["file_path", "module_path"], idColumn: "function_id" },
    imports: {
      rows: "import_rows",
      fileColumns: ["file_path"],
      idColumn: "import_id",
      rowId: (path, r) => importRowId(path, importModuleName(r)),
      internedColumns: { imported_module: { idColumn: "module_id", table: "import_modules", id: "module_id", name: "name" } },
    },
  },
};

/**
 * A reference's kind and resolution are stored as small integers (their position here; a resolution's
 * from 1, NULL for none) and named by the view "refs": as text in each of the kernel's 9 million rows they
 * took about 11 bytes a row.
 */
export const REF_KINDS = ["call", "type", "inherit", "implement", "import", "read"] as const;
/** A definition's kind, stored the same way (the view "symbols" names it): the kinds lang/types.ts defines. */
export const SYMBOL_KINDS = [
  "function",
  "method",
  "constant",
  "variable",
  "enum_member",
  "field",
  "property",
  "struct",
  "interface",
  "class",
  "enum",
  "type_alias",
  "trait",
  "union",
  "record",
  "object",
  "module",
  "namespace",
] as const satisfies ReadonlyArray<TypeKind | VariableKind | "function" | "method">;
export const RESOLUTIONS = ["exact", "import", "name-only"] as const;

/** A search chunk's type, stored the same way (the view "chunks" names it). */
export const CHUNK_TYPES = ["definitions", "symbols", "data", "documentation"] as const satisfies ReadonlyArray<ChunkRecord["chunkType"]>;

const REF_KIND_CODES = new Map<string, number>(REF_KINDS.map((k, i) => [k, i]));
const SYMBOL_KIND_CODES = new Map<string, number>(SYMBOL_KINDS.map((k, i) => [k, i]));
const RESOLUTION_CODES = new Map<string, number>(RESOLUTIONS.map((r, i) => [r, i + 1]));
const TYPE_KIND_CODES = new Map<string, number>(TYPE_KINDS.map((k, i) => [k, i]));

/** The stored code of a type's kind; a kind the schema does not name is a bug in a language module. */
export function typeKindCode(kind: string): number {
  const code = TYPE_KIND_CODES.get(kind);
  if (code === undefined) throw new Error(`type kind '${kind}' is not one the index stores (${TYPE_KINDS.join(", ")})`);
  return code;
}

/** The stored code of a reference kind; a kind the schema does not name is a bug in a language module. */
export function refKindCode(kind: string): number {
  const code = REF_KIND_CODES.get(kind);
  if (code === undefined) throw new Error(`reference kind '${kind}' is not one the index stores (${REF_KINDS.join(", ")})`);
  return code;
}

/** The stored code of a definition's kind; a kind the schema does not name is a bug in a language module. */
export function symbolKindCode(kind: string): number {
  const code = SYMBOL_KIND_CODES.get(kind);
  if (code === undefined) throw new Error(`definition kind '${kind}' is not one the index stores (${SYMBOL_KINDS.join(", ")})`);
  return code;
}

/** The stored code of a chunk type. */
export function chunkTypeCode(type: ChunkRecord["chunkType"]): number {
  return CHUNK_TYPES.indexOf(type);
}

/** The stored code of a resolution (NULL for none). */
export function resolutionCode(resolution: string | null): number | null {
  if (resolution === null) return null;
  const code = RESOLUTION_CODES.get(resolution);
  if (code === undefined) throw new Error(`resolution '${resolution}' is not one the index stores (${RESOLUTIONS.join(", ")})`);
  return code;
}

/** A CASE expression naming the codes of `column` (`names[i]` is code i + `first`). */
function namedCodes(column: string, names: readonly string[], first: number): string {
  return `CASE ${column} ${names.map((n, i) => `WHEN ${i + first} THEN '${n}'`).join(" ")} END`;
}

/** What follows the last '.' of `text` (all of it without one), in SQL. */
function lastSegment(text: string): string {
  return `substr(${text}, length(rtrim(${text}, replace(${text}, '.', ''))) + 1)`;
}

/**
 * A chunk row's id key (after '<type>:<path>#'), from its row `c`: a definition's usual key
 * ('<symbol path>' or '<symbol path>@<part>') where id_key is NULL, followed by id_key where that is a
 * repeat ('~2'); see chunk_rows.
 */
function chunkKey(c: string, symbolPath: string): string {
  const usual = `${symbolPath} || CASE WHEN ${c}.parts > 1 THEN '@' || ${c}.part ELSE '' END`;
  return `CASE WHEN ${c}.def_kind IS NULL THEN ${c}.id_key WHEN ${c}.id_key IS NULL THEN ${usual} WHEN ${c}.id_key GLOB '~[0-9]*' THEN ${usual} || ${c}.id_key ELSE ${c}.id_key END`;
}

/**
 * A chunk row's symbol path, from its row `c` and its scope's row `sp` (symbol_scopes, joined on
 * c.symbol_scope): a definition's path keeps what comes before its last '.' as the id of a scope.
 */
function chunkSymbolPath(c: string, sp: string): string {
  return `(CASE WHEN ${c}.symbol_scope IS NULL THEN ${c}.symbol_path ELSE ${sp}.name || '.' || ${c}.symbol_path END)`;
}

/** The name of scope id `id` (symbol_scopes), read only where an expression needs it. */
function scopeName(id: string): string {
  return `(SELECT name FROM symbol_scopes WHERE scope_id = ${id})`;
}

/**
 * How a reference stores its two rarely set texts in one column (ref_rows.rare): the qualifier's type,
 * then, where the enclosing definition is kept as text, char(1) and that text; NULL when neither is set.
 */
export function storedRefRare(qualifierType: string | null, enclosing: string | null): string | null {
  if (enclosing === null) return qualifierType;
  return `${qualifierType ?? ""}\u0001${enclosing}`;
}

/**
 * How a chunk stores its encoded spans (chunk_rows.spans): NULL for the usual one span over its lines,
 * only the cut's '@<column>' for one span over its lines cut on the last; any other form as it is (an
 * encoding starts with a digit or is empty, never with '@').
 */
export function storedSpans(spans: string, startLine: number, endLine: number): string | null {
  const whole = `${startLine}${endLine > startLine ? `+${endLine - startLine}` : ""}`;
  if (spans === whole) return null;
  if (spans.startsWith(`${whole}@`) && !spans.includes(",") && !spans.includes("~")) return spans.slice(whole.length);
  return spans;
}

/** The encoded spans (store/chunk-text.ts encodeSpans) of one span over a chunk's lines whole, in SQL. */
function wholeSpans(c: string): string {
  return `(${c}.start_line || CASE WHEN ${c}.end_line > ${c}.start_line THEN '+' || (${c}.end_line - ${c}.start_line) ELSE '' END)`;
}

/** The qualifier's type of a reference's `rare` column (storedRefRare), as rareQualifierType reads it in SQL. */
export function qualifierTypeOfRare(rare: string | null): string | null {
  if (rare === null) return null;
  const cut = rare.indexOf("\u0001");
  return cut < 0 ? rare : cut > 0 ? rare.slice(0, cut) : null;
}

/** The enclosing definition's text of a reference's `rare` column (storedRefRare), as rareEnclosing reads it in SQL. */
export function enclosingOfRare(rare: string | null): string | null {
  if (rare === null) return null;
  const cut = rare.indexOf("\u0001");
  return cut < 0 ? null : rare.slice(cut + 1);
}

/** The qualifier's type of a reference's `rare` column (storedRefRare), in SQL. */
export function rareQualifierType(rare: string): string {
  return `CASE WHEN instr(${rare}, char(1)) = 0 THEN ${rare} WHEN instr(${rare}, char(1)) > 1 THEN substr(${rare}, 1, instr(${rare}, char(1)) - 1) END`;
}

/** The enclosing definition's text of a reference's `rare` column (storedRefRare), in SQL. */
function rareEnclosing(rare: string): string {
  return `CASE WHEN instr(${rare}, char(1)) > 0 THEN substr(${rare}, instr(${rare}, char(1)) + 1) END`;
}

/**
 * A definition's qualified name from its row `s` and its file's state `f` (see symbol_rows); NULL when `s`
 * is (a reference outside any definition). IndexStore.insertParsed stores the name as the same rule reads it.
 */
function qualifiedName(s: string, f: string): string {
  return `CASE WHEN ${s}.qualified_name = '' THEN ${scopeName(`${s}.container`)} || '.' || ${s}.name WHEN ${s}.qualified_name IS NOT NULL THEN ${s}.qualified_name WHEN ${s}.name IS NULL THEN NULL WHEN ${s}.scope IS NOT NULL THEN ${scopeName(`${s}.scope`)} || '.' || ${s}.name WHEN ${f}.package_name IS NULL THEN ${s}.name ELSE ${f}.package_name || '.' || ${s}.name END`;
}

/**
 * qualifiedName's rule in JavaScript, for the readers that decode symbol_rows themselves instead of reading
 * the view (ResolutionReads in graph-store.ts, the shared store's IndexSource); `scopeName` gives a
 * symbol_scopes id's text (a container's or a scope's), null when there is none.
 */
export function decodeQualifiedName(
  name: string | null,
  qualified: string | null,
  scope: number | null,
  container: number | null,
  pkg: string | null,
  scopeName: (id: number) => string | null,
): string | null {
  if (qualified === "") {
    const c = container === null ? null : scopeName(container);
    return c === null ? null : `${c}.${name}`;
  }
  if (qualified !== null) return qualified;
  if (name === null) return null;
  if (scope !== null) {
    const prefix = scopeName(scope);
    return prefix === null ? null : `${prefix}.${name}`;
  }
  return pkg === null ? name : `${pkg}.${name}`;
}

/**
 * How a definition of `name` in a file of package `pkg` stores its qualified name (see symbol_rows):
 * `qualified` NULL and no `scope` for the usual one (`pkg.name`, or the name), '' for the name in its
 * container (`container.name`: a Java member's), NULL and the `scope` for `<scope>.name` (a C++ name in
 * its namespaces), the text otherwise.
 */
export function storedQualifiedName(
  qualified: string,
  name: string,
  pkg: string | null | undefined,
  container?: string | null,
): { qualified: string | null; scope: string | null } {
  if (qualified === (pkg == null ? name : `${pkg}.${name}`)) return { qualified: null, scope: null };
  if (container != null && qualified === `${container}.${name}`) return { qualified: "", scope: null };
  const scope = qualified.length > name.length + 1 && qualified.endsWith(`.${name}`) ? qualified.slice(0, -name.length - 1) : "";
  return scope ? { qualified: null, scope } : { qualified, scope: null };
}

/** Stands for the definition's name in a stored signature (storedSignature). */
const NAME_MARK = "\u0001";
/** Starts a signature stored as it is (one that holds either mark). */
const RAW_SIGNATURE = "\u0002";

/**
 * How a definition stores its signature (symbol_rows.signature): its name, wherever it occurs, as one
 * character (a name of one character stays); a signature that holds either mark is kept as it is after
 * RAW_SIGNATURE. boost's 131,000 signatures: 13.9 -> 12.2 MB.
 */
export function storedSignature(signature: string | null, name: string): string | null {
  if (signature === null) return null;
  if (signature.includes(NAME_MARK) || signature.includes(RAW_SIGNATURE)) return RAW_SIGNATURE + signature;
  return name.length > 1 ? signature.replaceAll(name, NAME_MARK) : signature;
}

/** The signature `stored` (storedSignature) of the definition named `name`. */
export function signatureText(stored: string | null, name: string): string | null {
  if (stored === null) return null;
  if (stored.startsWith(RAW_SIGNATURE)) return stored.slice(1);
  return stored.replaceAll(NAME_MARK, name);
}

/** The same in SQL, of the stored signature and name columns `sig` and `name`. */
function signatureSql(sig: string, name: string): string {
  return `CASE WHEN substr(${sig}, 1, 1) = char(2) THEN substr(${sig}, 2) ELSE replace(${sig}, char(1), ${name}) END`;
}

/** The text tier: file state, content and the trigram index (everything exact search needs). */
const TEXT_TIER_TABLES = `
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- Files the text tier found binary (a NUL byte in the first 8 KB), with the mtime and size the walk saw:
-- a run counts them without reading them while both stay the same (go-src has 323; every run read them all).
CREATE TABLE binary_files (
    file_path TEXT PRIMARY KEY,
    mtime_ms INTEGER NOT NULL,
    size_bytes INTEGER NOT NULL
) WITHOUT ROWID;

-- What the incremental indexer compares against the disk, one row per indexed file (the text tier's root).
-- parsed: 0 until the parse tier has written the file's rows (files and everything that references it).
CREATE TABLE file_state (
    file_id INTEGER PRIMARY KEY,
    file_path TEXT NOT NULL UNIQUE,
    language TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    mtime_ms INTEGER NOT NULL,
    size_bytes INTEGER NOT NULL,
    parsed INTEGER NOT NULL DEFAULT 0,
    package_name TEXT,
    syntax_errors INTEGER NOT NULL DEFAULT 0,
    -- the first and last ref_rows.ref_id of the file's references (written together, so their ids are
    -- consecutive), NULL when it has none: refs are found by file through this range, not an index
    ref_first INTEGER,
    ref_last INTEGER,
    -- the same for its chunk_rows.chunk_rowid and symbol_rows.symbol_id (no index on either table's
    -- file_id: 4 and 3.9 MiB on boost)
    chunk_first INTEGER,
    chunk_last INTEGER,
    symbol_first INTEGER,
    symbol_last INTEGER
);
-- the files the parse tier has still to do (few, and none once it is complete)
CREATE INDEX idx_file_state_unparsed ON file_state(file_id) WHERE parsed = 0;

-- The indexed text of every file, its UTF-8 bytes compressed with zstd (store/content-codec.ts): exact
-- search, context snippets and staleness read it.
CREATE TABLE contents (
    file_id INTEGER PRIMARY KEY REFERENCES file_state(file_id) ON DELETE CASCADE,
    z BLOB NOT NULL
);

-- Exact search (src/store/content-index.ts): the files holding each trigram of the folded UTF-8 content.
-- One row per trigram and segment, id = trigram * 256 + segment; postings are ascending file ids as delta
-- varints. Segments 0-63 hold the last rebuild (one per group of about 16 million postings, so a rebuild's
-- memory is bounded); incremental runs add small segments from 64 up, merged into 64 when there are many.
CREATE TABLE trigram_postings (
    id INTEGER PRIMARY KEY,
    postings BLOB NOT NULL
);

-- The content each file's trigrams were taken from, and their segment. A file without a row here, or with
-- another hash, is not covered by the postings: searches scan it directly, the next index run adds it.
CREATE TABLE trigram_coverage (
    file_id INTEGER PRIMARY KEY REFERENCES file_state(file_id) ON DELETE CASCADE,
    content_hash TEXT NOT NULL,
    segment INTEGER NOT NULL
);
`;

/** The symbol path of a row of the view chunks (`c` over chunk_rows, `sp` its scope). */
const CHUNK_PATH = chunkSymbolPath("c", "sp");

/** The parse tier: statistics, symbols, references, imports, chunks and the keyword indexes. */
const PARSE_TIER_TABLES = `
-- The statistics of each parsed file, by its file id (type_rows and function_rows name their file by it); the
-- view "files" gives the statistics columns alone.
CREATE TABLE file_rows (
    file_id INTEGER PRIMARY KEY REFERENCES file_state(file_id) ON DELETE CASCADE,
    file_path TEXT NOT NULL UNIQUE,
    language TEXT NOT NULL,
    is_test BOOLEAN NOT NULL,
    module_path TEXT NOT NULL,
    lines_total INTEGER NOT NULL,
    lines_code INTEGER NOT NULL,
    lines_comment INTEGER NOT NULL,
    lines_blank INTEGER NOT NULL,
    size_bytes INTEGER NOT NULL,
    last_modified TEXT NOT NULL,
    type_count INTEGER NOT NULL,
    function_count INTEGER NOT NULL,
    import_count INTEGER NOT NULL
);
CREATE VIEW files AS
    SELECT file_path, language, is_test, module_path, lines_total, lines_code, lines_comment, lines_blank, size_bytes, last_modified,
        type_count, function_count, import_count
    FROM file_rows;

-- types, functions and imports are views over type_rows, function_rows and import_rows, which keep
-- everything but the ids: type_id and function_id ('<path>:<line>:<name>') and import_id ('<path>:<module>')
-- are unique by construction (IndexStore.insertParsed keeps a file's first type or function of a name on
-- a line, and groups a file's imports by module) and named by the views (jdk17's 191,000 function ids
-- took 12.9 MiB). A type or function names its file by id, and the view joins the file's path and module
-- path back (as text in every row, with an index on each, they took 33 of boost's 47 MiB of types and 36
-- of jdk17's 52 MiB of functions): a query by path or module finds the file first, then its rows by the
-- index on file ids. cortex_files reads type_rows and function_rows itself (STATS_FILE_LAYOUT): through
-- the views a whole-table aggregate read each row's file, and "files LEFT JOIN types" materialized the view.
CREATE TABLE type_rows (
    name TEXT NOT NULL,
    -- a code (TYPE_KINDS)
    kind INTEGER NOT NULL,
    file_id INTEGER NOT NULL REFERENCES file_rows(file_id) ON DELETE CASCADE,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    is_exported BOOLEAN NOT NULL,
    field_count INTEGER NOT NULL,
    method_count INTEGER NOT NULL
);
CREATE VIEW types AS
    SELECT ${statsRowId("f.file_path", "t")} AS type_id, t.name AS name, ${namedCodes("t.kind", TYPE_KINDS, 0)} AS kind, f.file_path AS file_path,
        f.module_path AS module_path, t.start_line AS start_line, t.end_line AS end_line, t.is_exported AS is_exported,
        t.field_count AS field_count, t.method_count AS method_count
    FROM type_rows t JOIN file_rows f ON f.file_id = t.file_id;

CREATE TABLE function_rows (
    name TEXT NOT NULL,
    file_id INTEGER NOT NULL REFERENCES file_rows(file_id) ON DELETE CASCADE,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    is_exported BOOLEAN NOT NULL,
    is_method BOOLEAN NOT NULL,
    receiver_type TEXT,
    param_count INTEGER NOT NULL,
    return_count INTEGER NOT NULL,
    lines INTEGER NOT NULL,
    complexity INTEGER
);
CREATE VIEW functions AS
    SELECT ${statsRowId("f.file_path", "x")} AS function_id, x.name AS name, f.file_path AS file_path,
        f.module_path AS module_path, x.start_line AS start_line, x.end_line AS end_line, x.is_exported AS is_exported,
        x.is_method AS is_method, x.receiver_type AS receiver_type, x.param_count AS param_count, x.return_count AS return_count,
        x.lines AS lines, x.complexity AS complexity
    FROM function_rows x JOIN file_rows f ON f.file_id = x.file_id;

-- Imports name their file by id too (as text in every row, with an index on it, the paths took 5.5 of
-- boost's 11.9 MiB of imports and 18 of jdk17's 30.6 MiB of imports and import sites).
-- The modules imports name, each distinct text once: import_rows and import_site_rows name theirs by id
-- (boost's 75,000 imports name 12,000 modules; as text in both tables and the index on modules they
-- took 9.5 MiB, 4.6 this way). A name outlives its last import until the next full build.
CREATE TABLE import_modules (
    module_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
CREATE TABLE import_rows (
    file_id INTEGER NOT NULL REFERENCES file_rows(file_id) ON DELETE CASCADE,
    -- the imported module (import_modules)
    module_id INTEGER NOT NULL,
    is_standard_lib BOOLEAN NOT NULL,
    is_external BOOLEAN NOT NULL,
    is_relative BOOLEAN NOT NULL,
    symbol_count INTEGER
);
CREATE VIEW imports AS
    SELECT ${importRowId("f.file_path", "m.name")} AS import_id, f.file_path AS file_path, m.name AS imported_module,
        i.is_standard_lib AS is_standard_lib, i.is_external AS is_external, i.is_relative AS is_relative, i.symbol_count AS symbol_count
    FROM import_rows i JOIN file_rows f ON f.file_id = i.file_id JOIN import_modules m ON m.module_id = i.module_id;

CREATE TABLE modules (
    module_path TEXT PRIMARY KEY,
    file_count INTEGER NOT NULL,
    total_lines INTEGER NOT NULL,
    code_lines INTEGER NOT NULL,
    test_file_count INTEGER NOT NULL,
    type_count INTEGER NOT NULL,
    function_count INTEGER NOT NULL,
    exported_type_count INTEGER NOT NULL,
    exported_function_count INTEGER NOT NULL,
    import_count INTEGER NOT NULL,
    external_import_count INTEGER NOT NULL,
    depth INTEGER NOT NULL
);

-- Definitions of every kind (functions, methods, types, constants, variables, enum members), by file id:
-- the view "symbols" adds the file's path and language. (Millions of rows on a large tree: the path and
-- language in every row cost the kernel's index 110 MiB, their index 150 MiB.)
-- AUTOINCREMENT: an id is never handed out twice, so a reference resolved to a symbol that was since
-- deleted can never silently point at another one (see dead_symbols).
-- qualified_name is NULL where it is the usual one, the file's package name and the name ('unix.SYS_SHMDT')
-- or the name alone in a file without a package (242,000 of go-src's 264,000), '' where it is the
-- container and the name (every one of jdk17's other 300,000), and NULL with a scope where it is that
-- scope and the name (boost's 'boost.asio.detail' and 'is_any_ofF': 318,000 of its 369,000); kind is a code
-- (SYMBOL_KINDS). The container and the scope are ids of symbol_scopes: as text in every row they took
-- 11.9 MiB of jdk17's index (23,000 distinct containers) and 10.7 of boost's.
CREATE TABLE symbol_scopes (
    scope_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
CREATE TABLE symbol_rows (
    symbol_id INTEGER PRIMARY KEY AUTOINCREMENT,
    -- a file's definitions have consecutive ids (file_state.symbol_first, symbol_last): found by file
    -- through that range, deleted by IndexStore.deleteFile (or with the file, by symbols_of_file)
    file_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    qualified_name TEXT,
    scope INTEGER,
    kind INTEGER NOT NULL,
    container INTEGER,
    start_line INTEGER NOT NULL,
    start_column INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    is_exported BOOLEAN NOT NULL,
    -- the name in it as one character (storedSignature)
    signature TEXT
);
CREATE VIEW symbols AS
    SELECT s.symbol_id AS symbol_id, f.file_path AS file_path, s.name AS name, ${qualifiedName("s", "f")} AS qualified_name, ${namedCodes("s.kind", SYMBOL_KINDS, 0)} AS kind,
        ${scopeName("s.container")} AS container, f.language AS language, s.start_line AS start_line, s.start_column AS start_column,
        s.end_line AS end_line, s.is_exported AS is_exported, ${signatureSql("s.signature", "s.name")} AS signature
    FROM symbol_rows s JOIN file_state f ON f.file_id = s.file_id AND s.symbol_id BETWEEN f.symbol_first AND f.symbol_last;
CREATE TRIGGER symbols_of_file AFTER DELETE ON file_state BEGIN
    DELETE FROM symbol_rows WHERE symbol_id BETWEEN old.symbol_first AND old.symbol_last;
END;

-- Uses of names: calls, type uses, inheritance, imports, reads, by file id (the view "refs" adds the path,
-- the names, and the enclosing definition's name from its id: the text is kept only where no definition has it).
-- Reference resolution (an index hook, src/engines/symbols/) fills target_symbol_id and says how in
-- resolution: 'exact' (same file, same package, the receiver's type), 'import' (through the file's
-- imports) or 'name-only' (the one definition of that name); both stay NULL when nothing fits.
-- qualifier_type is the qualifier's type where the syntax shows it (a Go receiver or typed parameter); a
-- qualifier type '' with an enclosing text reads as NULL (storedRefRare: no language gives an empty one).
-- A name and a qualifier are ids of ref_names: boost's 1.87 million references use 63,000 names, and the
-- text in every row and in the index on names took 51 MiB (20 MiB as ids). A file's references have
-- consecutive ids (file_state.ref_first, ref_last), so no index on file_id is kept (20 MiB on boost)
-- and no foreign key either (a cascade would scan the table without it): the trigger refs_of_file
-- deletes a file's range with its file_state row.
CREATE TABLE ref_names (
    name_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
CREATE TABLE ref_rows (
    ref_id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL,
    name_id INTEGER NOT NULL,
    qualifier_id INTEGER,
    kind INTEGER NOT NULL,
    line INTEGER NOT NULL,
    "column" INTEGER NOT NULL,
    -- the enclosing definition's id less the file's first (file_state.symbol_first): a definition of
    -- the reference's own file, a byte or none where the id took three (boost: 3.3 MiB)
    enclosing_offset INTEGER,
    -- qualifier_type and the enclosing definition's text (storedRefRare): NULL in all but 12 of boost's
    -- 1.87 million rows, one column costs one header byte a row instead of two
    rare TEXT,
    target_symbol_id INTEGER,
    resolution INTEGER
);
-- The range condition lets a query by file read its references as one rowid range (the file's row first);
-- it holds for every reference, so the view's rows are the table's.
CREATE VIEW refs AS
    SELECT r.ref_id AS ref_id, f.file_path AS file_path, n.name AS name, q.name AS qualifier, ${rareQualifierType("r.rare")} AS qualifier_type,
        ${namedCodes("r.kind", REF_KINDS, 0)} AS kind, r.line AS line, r."column" AS "column", COALESCE(${rareEnclosing("r.rare")}, ${qualifiedName("e", "f")}) AS enclosing,
        f.symbol_first + r.enclosing_offset AS enclosing_symbol_id, r.target_symbol_id AS target_symbol_id, ${namedCodes("r.resolution", RESOLUTIONS, 1)} AS resolution,
        f.file_id AS file_id
    FROM ref_rows r JOIN file_state f ON f.file_id = r.file_id AND r.ref_id BETWEEN f.ref_first AND f.ref_last
    JOIN ref_names n ON n.name_id = r.name_id LEFT JOIN ref_names q ON q.name_id = r.qualifier_id
    LEFT JOIN symbol_rows e ON e.symbol_id = f.symbol_first + r.enclosing_offset;
CREATE TRIGGER refs_of_file AFTER DELETE ON file_state BEGIN
    DELETE FROM ref_rows WHERE ref_id BETWEEN old.ref_first AND old.ref_last;
END;

-- Every import statement with its position (for graphs and cycles), by file id (the view "import_sites"
-- adds the path); the files it resolves to are in import_edges (a package import reaches every file of
-- the package).
CREATE TABLE import_site_rows (
    site_id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES file_rows(file_id) ON DELETE CASCADE,
    -- the imported module (import_modules)
    module_id INTEGER NOT NULL,
    alias TEXT,
    symbols TEXT,
    line INTEGER NOT NULL,
    "column" INTEGER NOT NULL
);
CREATE VIEW import_sites AS
    SELECT s.site_id AS site_id, f.file_path AS file_path, m.name AS imported_module, s.alias AS alias, s.symbols AS symbols,
        s.line AS line, s."column" AS "column", s.file_id AS file_id
    FROM import_site_rows s JOIN file_rows f ON f.file_id = s.file_id JOIN import_modules m ON m.module_id = s.module_id;

-- The project files each import site resolves to (LanguageModule.resolveImport), written by reference
-- resolution. A Go import reaches every file of its package, so edges are many (524,175 on go-src): each
-- is two integers, the target's path kept once in import_targets (38.6 MiB with the path in every edge
-- and both its indexes, 10 MiB this way). Targets are paths, not file ids: a rewritten file keeps its
-- path and its importers' edges; edges into a deleted file are removed by the resolution step, and a
-- target row outlives its edges until the next whole resolution (a few bytes per path ever imported).
CREATE TABLE import_targets (
    target_id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE
);
CREATE TABLE import_edge_rows (
    site_id INTEGER NOT NULL REFERENCES import_site_rows(site_id) ON DELETE CASCADE,
    target_id INTEGER NOT NULL,
    PRIMARY KEY (site_id, target_id)
) WITHOUT ROWID;
CREATE VIEW import_edges AS
    SELECT e.site_id AS site_id, t.path AS target_file FROM import_edge_rows e JOIN import_targets t ON t.target_id = e.target_id;
-- The edges with their importing file (kept once, in import_sites).
CREATE VIEW import_edge_files AS
    SELECT e.site_id AS site_id, f.file_path AS file_path, t.path AS target_file
    FROM import_edge_rows e JOIN import_site_rows s ON s.site_id = e.site_id JOIN file_rows f ON f.file_id = s.file_id
    JOIN import_targets t ON t.target_id = e.target_id;

-- The import graph's strongly connected components of more than one file (import cycles), kept by
-- reference resolution whenever an edge changes, so cycle queries read them instead of the whole graph.
-- import_digests records each file's import targets, to see whether a run changed any.
CREATE TABLE import_components (
    file_path TEXT PRIMARY KEY,
    component INTEGER NOT NULL
);
CREATE TABLE import_digests (
    file_path TEXT PRIMARY KEY,
    digest TEXT NOT NULL
);

-- Symbols deleted since the last reference resolution (a file rewritten or removed): the references
-- that pointed at them, and those that might now resolve differently by name, are resolved again.
CREATE TABLE dead_symbols (
    symbol_id INTEGER PRIMARY KEY,
    file_path TEXT NOT NULL,
    name TEXT NOT NULL,
    qualified_name TEXT NOT NULL,
    kind TEXT NOT NULL,
    language TEXT NOT NULL
);
-- (IndexStore.deleteFile deletes a file's definitions before its file_state row, which gives their path)
CREATE TRIGGER symbols_dead AFTER DELETE ON symbol_rows BEGIN
    INSERT OR IGNORE INTO dead_symbols (symbol_id, file_path, name, qualified_name, kind, language)
    SELECT old.symbol_id, f.file_path, old.name, ${qualifiedName("old", "f")}, ${namedCodes("old.kind", SYMBOL_KINDS, 0)}, f.language FROM file_state f WHERE f.file_id = old.file_id;
END;

-- Search chunks (symbols, definitions, data, documentation) of the hybrid search, by file id: the view
-- "chunks" adds the path, the chunk id and the tags. chunk_rowid is the key of the keyword index
-- chunks_fts (below); rows leave with their file. On go-src's 121,612 chunks, the path, the whole id
-- ('<type>:<path>#<key>'), the tags' JSON (2,690 distinct lists) and the path again in every header took
-- 150 bytes a row, 17 MiB.
-- A definition's chunk (IndexStore.insertParsed) keeps its kind, part and parts as codes instead of its
-- metadata ({"kind", "name", "part", "parts"}, the name the symbol path's last segment), and NULL for the
-- prefix, key and title its chunker makes of them: '<kind> <symbol path> (<path>:<start>-<end>)' and a
-- newline, '<symbol path>' or '<symbol path>@<part>' (key_repeat: '~2', '~3'... after it, for repeats),
-- '<symbol path> (<kind>)'. boost's 445,000 definition chunks: 123 -> 65 MiB. A data chunk's title
-- '<path> values: <its first six names>[, …]' (from its metadata's names) and header 'values in <path>:<start>-<end>'
-- are NULL too (jdk17's 46,000: 6 MiB).
CREATE TABLE chunk_rows (
    chunk_rowid INTEGER PRIMARY KEY,
    -- a file's chunks have consecutive rowids (file_state.chunk_first, chunk_last): found by file through
    -- that range, deleted with the file by the trigger chunks_of_file (as references are)
    file_id INTEGER NOT NULL,
    -- a code (CHUNK_TYPES)
    chunk_type INTEGER NOT NULL,
    -- the id after '<type>:<path>#' (the chunker's form); id_full holds an id of any other form
    id_key TEXT,
    id_full TEXT,
    -- NULL where it is the usual '<symbol path> (<kind>)' (a definition's title) or '<path> symbols'
    title TEXT,
    -- a definition's symbol path is its last segment, and the id of what comes before its last '.' (a
    -- scope of symbol_scopes, as a definition's: 'boost.asio.detail') is symbol_scope (boost: 320,000 of
    -- 386,000 chunks, 7 MiB as text)
    symbol_path TEXT,
    symbol_scope INTEGER,
    -- NULL where it is the file's (file_state.language): every chunk of boost's and jdk17's
    language TEXT,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    tag_set INTEGER NOT NULL,
    -- the text is the prefix followed by these lines of the file's content (store/chunk-text.ts), the
    -- last cut at a column where another definition starts on its line; the prefix holds its file's path
    -- as a placeholder
    prefix TEXT,
    -- NULL where the spans are the chunk's lines whole ('<start_line>+<lines after it>'), '@<column>' where
    -- they are those lines with the last cut at that column (storedSpans: boost 2.1 MiB)
    spans TEXT,
    -- the text's key: the first 8 bytes of its sha256 (core/hash.ts textKey; the embedding cache's key
    -- is its hex)
    text_hash BLOB NOT NULL,
    metadata TEXT,
    -- a definition's kind (a code of SYMBOL_KINDS), part and parts, where its metadata is NULL
    def_kind INTEGER,
    part INTEGER,
    parts INTEGER
);
-- Each distinct list of tags (a JSON array) once.
CREATE TABLE chunk_tag_sets (
    tag_set INTEGER PRIMARY KEY,
    tags TEXT NOT NULL UNIQUE
);
CREATE VIEW chunks AS
    SELECT c.chunk_rowid AS rowid, COALESCE(c.id_full, ${namedCodes("c.chunk_type", CHUNK_TYPES, 0)} || ':' || f.file_path || '#' || ${chunkKey("c", CHUNK_PATH)}) AS chunk_id,
        f.file_path AS file_path, ${namedCodes("c.chunk_type", CHUNK_TYPES, 0)} AS chunk_type,
        COALESCE(c.title, CASE WHEN c.chunk_type = ${CHUNK_TYPES.indexOf("symbols")} THEN f.file_path || ' symbols'
            WHEN c.chunk_type = ${CHUNK_TYPES.indexOf("data")} THEN f.file_path || ' values: ' || (SELECT group_concat(n.value, ', ' ORDER BY n.key) FROM json_each(c.metadata, '$.names') n WHERE n.key < 6)
                || CASE WHEN json_array_length(c.metadata, '$.names') > 6 THEN ', …' ELSE '' END
            ELSE ${CHUNK_PATH} || ' (' || COALESCE(${namedCodes("c.def_kind", SYMBOL_KINDS, 0)}, c.metadata ->> '$.kind') || ')' END) AS title,
        ${CHUNK_PATH} AS symbol_path, COALESCE(c.language, f.language) AS language, c.start_line AS start_line,
        c.end_line AS end_line, t.tags AS tags,
        COALESCE(c.prefix, CASE WHEN c.chunk_type = ${CHUNK_TYPES.indexOf("data")} THEN 'values in ' || char(1) || ':' || c.start_line || '-' || c.end_line || char(10)
            ELSE ${namedCodes("c.def_kind", SYMBOL_KINDS, 0)} || ' ' || ${CHUNK_PATH} || ' (' || char(1) || ':' || c.start_line || '-' || c.end_line || ')' || char(10) END) AS prefix,
        CASE WHEN c.spans IS NULL THEN ${wholeSpans("c")} WHEN substr(c.spans, 1, 1) = '@' THEN ${wholeSpans("c")} || c.spans
            ELSE c.spans END AS spans, c.text_hash AS text_hash,
        COALESCE(c.metadata, CASE WHEN c.def_kind IS NOT NULL THEN json_object('kind', ${namedCodes("c.def_kind", SYMBOL_KINDS, 0)}, 'name', ${lastSegment("c.symbol_path")}, 'part', c.part, 'parts', c.parts) END) AS metadata
    FROM chunk_rows c JOIN file_state f ON f.file_id = c.file_id AND c.chunk_rowid BETWEEN f.chunk_first AND f.chunk_last
    JOIN chunk_tag_sets t ON t.tag_set = c.tag_set
    LEFT JOIN symbol_scopes sp ON sp.scope_id = c.symbol_scope;

-- Keyword search over chunks (BM25): identifier words whole and split, porter-stemmed, each word's
-- occurrences in a field compacted to 1 + log2 of their count (store/keyword-words.ts). Contentless: the
-- words are computed at index time and not stored twice; rows leave with their chunk (trigger).
-- The big column comes first (here and in files_fts): FTS5 marks every other column's entries with its
-- number, two bytes for each word of each row (go-src: chunks_fts 46 -> 35 MiB, files_fts 19 -> 17 MiB).
-- bm25() takes its weights in this order. The title column leaves out the symbol path its title repeats
-- (the symbols column holds it; chunk-search.ts weighs that column with the title's weight added).
CREATE TRIGGER chunks_of_file AFTER DELETE ON file_state BEGIN
    DELETE FROM chunk_rows WHERE chunk_rowid BETWEEN old.chunk_first AND old.chunk_last;
END;

CREATE VIRTUAL TABLE chunks_fts USING fts5(body, symbols, title, path, tokenize = 'porter unicode61 remove_diacritics 2', content = '', contentless_delete = 1);
CREATE TRIGGER chunks_fts_delete AFTER DELETE ON chunk_rows BEGIN
    DELETE FROM chunks_fts WHERE rowid = old.rowid;
END;

-- Keyword search over whole files (file-level ranking): path, defined names, comments, code. Rowid is the
-- file's file_state.file_id; rows leave with the file.
CREATE VIRTUAL TABLE files_fts USING fts5(code, path, defs, doc, tokenize = 'porter unicode61 remove_diacritics 2', content = '', contentless_delete = 1);
CREATE TRIGGER files_fts_delete AFTER DELETE ON file_state BEGIN
    DELETE FROM files_fts WHERE rowid = old.file_id;
END;

`;

/** Tables of schema version 1 (no secondary indexes: a full build adds those after the bulk load). */
const V1_TABLES = TEXT_TIER_TABLES + PARSE_TIER_TABLES;

/**
 * The parse tier's tables and what hangs on them, to drop and create again when a first build's parse
 * tier was interrupted (deleting its rows one file at a time, without the secondary indexes that the
 * bulk load adds at its end, would scan the child tables for every file).
 */
export const PARSE_TIER_RESET = `
DROP TRIGGER IF EXISTS files_fts_delete; DROP TRIGGER IF EXISTS refs_of_file; DROP TRIGGER IF EXISTS chunks_of_file; DROP TRIGGER IF EXISTS symbols_of_file;
DROP VIEW IF EXISTS import_edge_files; DROP VIEW IF EXISTS import_edges; DROP VIEW IF EXISTS refs; DROP VIEW IF EXISTS symbols;
DROP VIEW IF EXISTS chunks;
DROP TABLE IF EXISTS chunks_fts; DROP TABLE IF EXISTS files_fts; DROP TABLE IF EXISTS chunk_rows; DROP TABLE IF EXISTS chunk_tag_sets;
DROP TABLE IF EXISTS dead_symbols; DROP TABLE IF EXISTS import_digests; DROP TABLE IF EXISTS import_components;
DROP TABLE IF EXISTS import_edge_rows; DROP TABLE IF EXISTS import_targets; DROP VIEW IF EXISTS import_sites; DROP TABLE IF EXISTS import_site_rows; DROP TABLE IF EXISTS ref_rows; DROP TABLE IF EXISTS ref_names; DROP TABLE IF EXISTS symbol_rows; DROP TABLE IF EXISTS symbol_scopes;
DROP VIEW IF EXISTS imports; DROP VIEW IF EXISTS functions; DROP VIEW IF EXISTS types;
DROP TABLE IF EXISTS modules; DROP TABLE IF EXISTS import_rows; DROP TABLE IF EXISTS import_modules; DROP TABLE IF EXISTS function_rows; DROP TABLE IF EXISTS type_rows;
DROP VIEW IF EXISTS files; DROP TABLE IF EXISTS file_rows;
UPDATE file_state SET parsed = 0, package_name = NULL, syntax_errors = 0, ref_first = NULL, ref_last = NULL, chunk_first = NULL, chunk_last = NULL, symbol_first = NULL, symbol_last = NULL;
${PARSE_TIER_TABLES}`;

/** Secondary indexes of schema version 1. */
export const V1_INDEXES = `
CREATE INDEX idx_files_language ON file_rows(language);
CREATE INDEX idx_files_is_test ON file_rows(is_test);
CREATE INDEX idx_files_module_path ON file_rows(module_path);
-- types by kind: a whole-table GROUP BY kind reads the index alone (boost, 230,000 types: 23 instead of
-- 145 ms, 3.9 MiB). None on either table's exported flag (2.9 MiB), which a query narrows little.
-- (No semicolon in these comments: MemoryStats splits the statements at semicolons.)
CREATE INDEX idx_types_kind ON type_rows(kind);
CREATE INDEX idx_types_file ON type_rows(file_id);
CREATE INDEX idx_functions_file ON function_rows(file_id);
CREATE INDEX idx_functions_param_count ON function_rows(param_count);
CREATE INDEX idx_functions_lines ON function_rows(lines);
CREATE INDEX idx_functions_complexity ON function_rows(complexity);
CREATE INDEX idx_imports_file ON import_rows(file_id);
CREATE INDEX idx_imports_module ON import_rows(module_id);
CREATE INDEX idx_imports_is_external ON import_rows(is_external);
CREATE INDEX idx_modules_depth ON modules(depth);
CREATE INDEX idx_modules_file_count ON modules(file_count);
CREATE INDEX idx_modules_total_lines ON modules(total_lines);
CREATE INDEX idx_symbols_name ON symbol_rows(name);
CREATE INDEX idx_refs_name ON ref_rows(name_id);
-- most references resolve to nothing (1.38 of boost's 1.87 million); every query by target names one
CREATE INDEX idx_refs_target ON ref_rows(target_symbol_id) WHERE target_symbol_id IS NOT NULL;
CREATE INDEX idx_import_sites_file ON import_site_rows(file_id);
CREATE INDEX idx_import_edges_target ON import_edge_rows(target_id);
-- No index on text hashes (even on their first 8 bytes it took 6.3 MiB of boost's index): the one
-- question by hash, the texts the vector cache lacks (chunk-vectors.ts), reads the table once per batch
-- of thousands of hashes, before embedding them, which costs far more.
`;

/** MIGRATIONS[i] upgrades user_version i to i + 1. */
export const MIGRATIONS: string[] = [V1_TABLES + V1_INDEXES];

/** For a full build: the schema without secondary indexes, then the indexes once the rows are in. */
export const BUILD_TABLES = V1_TABLES;
export const BUILD_INDEXES = V1_INDEXES.replace(/CREATE INDEX /g, "CREATE INDEX IF NOT EXISTS ");

/**
 * The secondary indexes a large full build leaves to its keyword index load's thread (full-text-load.ts),
 * built there after the load while the indexer's thread resolves references: neither reference
 * resolution's reads of a full run nor the modules' aggregation use them (tools' filters and a full
 * resolution's later writes do). The kernel's idx_refs_name alone is a sort of 9 million rows.
 */
const LATER_BUILD_INDEXES = new Set([
  "idx_files_language",
  "idx_files_is_test",
  "idx_types_kind",
  "idx_functions_param_count",
  "idx_functions_lines",
  "idx_functions_complexity",
  "idx_imports_is_external",
  "idx_modules_depth",
  "idx_modules_file_count",
  "idx_modules_total_lines",
  "idx_refs_name",
  "idx_refs_target",
]);

/** The build's secondary indexes, each with its name and table (one statement a line in V1_INDEXES). */
const BUILD_INDEX_LIST = [...BUILD_INDEXES.matchAll(/^CREATE INDEX IF NOT EXISTS (\w+) ON (\w+)\(.*$/gm)].map((m) => ({
  sql: m[0],
  name: m[1]!,
  table: m[2]!,
}));

/** A build's secondary indexes: all, those built first (the indexer's thread), or the later ones. */
function buildIndexes(part: "all" | "first" | "later"): typeof BUILD_INDEX_LIST {
  return part === "all" ? BUILD_INDEX_LIST : BUILD_INDEX_LIST.filter((i) => LATER_BUILD_INDEXES.has(i.name) === (part === "later"));
}

/** The build's statement for the secondary index of this name. */
export function buildIndexStatement(name: string): string | undefined {
  return BUILD_INDEX_LIST.find((i) => i.name === name)?.sql;
}

/**
 * A build's secondary index statements: all, those built first (the indexer's thread), or the later ones;
 * without those named in `leave`.
 */
export function buildIndexStatements(part: "all" | "first" | "later", leave: readonly string[] = []): string[] {
  return buildIndexes(part)
    .filter((i) => !leave.includes(i.name))
    .map((i) => i.sql);
}

/** The tables the later build indexes are on (their planner statistics are taken again once they exist). */
export function laterBuildIndexTables(): string[] {
  return [...new Set(buildIndexes("later").map((i) => i.table))];
}
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * A fingerprint of the whole schema, recorded in meta at build time. An index whose fingerprint differs
 * (built by another cortex version) is rebuilt rather than read with the wrong shape.
 */
export const SCHEMA_FINGERPRINT = String(Bun.hash(MIGRATIONS.join("\n")));

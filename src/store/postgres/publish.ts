/**
 * Publishing a finished SQLite index into the shared store as a repository's next generation.
 *
 * Under the repository's advisory lock (a second publisher of the same repository waits; other
 * repositories go on), the publisher removes what a killed predecessor left of an unswitched generation,
 * compares the index's files with the live generation by a digest of each file's content and rows (resolution of its references included), writes the changed files' rows
 * aside in batches (one transaction each, invisible to readers: their gen_from is the next generation),
 * then the generation's trigram posting lists (the local index's, with the versions' ids) and keyword
 * lists (the lexemes of the vectors written, and the unchanged files' from the live lists), and then in
 * one transaction closes the replaced and deleted files' versions, writes the modules and switches
 * repos.generation. Readers see the old generation until that commit and the new one after it;
 * a publisher killed before it leaves the old generation whole. Replaced versions are deleted after the
 * switch (a statement already running keeps its snapshot).
 */
import { CortexError, errorMessage } from "../../core/errors.ts";
import type { IndexStore } from "../index-store.ts";
import { type PgClient, type PgQueryable, type PgReserved, type PgValue, sqlState } from "./client.ts";
import { ensureSchema, FILE_ROW_TABLES, KEYWORD_LISTS, preferLz4, schemaIdent } from "./schema.ts";
import { BinaryCopy, type CopyType } from "./copy-binary.ts";
import { KeywordVectors, type Weight, type Words } from "./keyword-vectors.ts";
import { carryOverKeywordPostings, KeywordPostings } from "./keyword-postings.ts";
import { IndexSource, type SourceFile, type WordPieces } from "./source.ts";
import { encodePostings } from "../trigrams.ts";
import { listRepos } from "./repos.ts";
import { forgetOldGenerations, publishVectors, type PublishedVectors, type PublishVectors } from "./vectors.ts";

/** Text bytes written per transaction (a few MB keeps each COPY's data small and the batches many). */
const BATCH_BYTES = 4 << 20;
const BATCH_FILES = 500;

export interface PublishOptions {
  schema?: string;
  commit?: string;
  /** Told when the repository is locked by another publisher and this one waits. */
  onWait?: () => void;
  /** Files per transaction at most (500; tests take fewer to have several batches). */
  batchFiles?: number;
  /** Called after each batch written aside (tests stop a publisher here). */
  onBatch?: (written: number, total: number) => Promise<void> | void;
  /** The chunks' vectors (the local vector cache of one model), stored where the server has pgvector (vectors.ts). */
  vectors?: PublishVectors;
}

export interface PublishResult {
  repo: string;
  generation: number;
  changed: number;
  deleted: number;
  unchanged: number;
  /** What became of the vectors, when some were handed over. */
  vectors?: PublishedVectors;
}

/**
 * A table's columns and their PostgreSQL types, exactly as schema.ts declares them (binary COPY writes
 * each type's own bytes; json_to_recordset reads the per-generation sets by them).
 */
type Columns = ReadonlyArray<readonly [string, Exclude<CopyType, "tsvector">]>;

const STAT_FILE: Columns = [
  ["is_test", "boolean"],
  ["module_path", "text"],
  ["lines_total", "integer"],
  ["lines_code", "integer"],
  ["lines_comment", "integer"],
  ["lines_blank", "integer"],
  ["last_modified", "text"],
  ["type_count", "integer"],
  ["function_count", "integer"],
  ["import_count", "integer"],
];
const TYPES: Columns = [
  ["type_id", "text"],
  ["name", "text"],
  ["kind", "text"],
  ["module_path", "text"],
  ["start_line", "integer"],
  ["end_line", "integer"],
  ["is_exported", "boolean"],
  ["field_count", "integer"],
  ["method_count", "integer"],
];
const FUNCTIONS: Columns = [
  ["function_id", "text"],
  ["name", "text"],
  ["module_path", "text"],
  ["start_line", "integer"],
  ["end_line", "integer"],
  ["is_exported", "boolean"],
  ["is_method", "boolean"],
  ["receiver_type", "text"],
  ["param_count", "integer"],
  ["return_count", "integer"],
  ["lines", "integer"],
  ["complexity", "integer"],
];
const IMPORTS: Columns = [
  ["import_id", "text"],
  ["imported_module", "text"],
  ["is_standard_lib", "boolean"],
  ["is_external", "boolean"],
  ["is_relative", "boolean"],
  ["symbol_count", "integer"],
];
const SYMBOLS: Columns = [
  ["symbol_id", "bigint"],
  ["name", "text"],
  ["qualified_name", "text"],
  ["kind", "text"],
  ["container", "text"],
  ["start_line", "integer"],
  ["start_column", "integer"],
  ["end_line", "integer"],
  ["is_exported", "boolean"],
  ["signature", "text"],
];
const REFS: Columns = [
  ["ref_id", "bigint"],
  ["name", "text"],
  ["qualifier", "text"],
  ["qualifier_type", "text"],
  ["kind", "text"],
  ["line", "integer"],
  ["column", "integer"],
  ["enclosing", "text"],
  ["enclosing_symbol_id", "bigint"],
  ["target_symbol_id", "bigint"],
  ["resolution", "text"],
];
const SITES: Columns = [
  ["site_id", "bigint"],
  ["imported_module", "text"],
  ["alias", "text"],
  ["symbols", "text"],
  ["line", "integer"],
  ["column", "integer"],
];
const EDGES: Columns = [
  ["site_id", "bigint"],
  ["target_file", "text"],
];
const PACKAGE_KEYS: Columns = [
  ["key", "text"],
  ["binds", "text"],
];
const IMPORT_KEYS: Columns = [
  ["site_id", "bigint"],
  ["key", "text"],
];
const CHUNKS: Columns = [
  ["chunk_id", "text"],
  ["chunk_type", "text"],
  ["title", "text"],
  ["symbol_path", "text"],
  ["language", "text"],
  ["start_line", "integer"],
  ["end_line", "integer"],
  ["tags", "text"],
  ["is_test", "boolean"],
  ["text_hash", "text"],
  ["text", "text"],
];
const MODULES: Columns = [
  ["module_path", "text"],
  ["file_count", "integer"],
  ["total_lines", "integer"],
  ["code_lines", "integer"],
  ["test_file_count", "integer"],
  ["type_count", "integer"],
  ["function_count", "integer"],
  ["exported_type_count", "integer"],
  ["exported_function_count", "integer"],
  ["import_count", "integer"],
  ["external_import_count", "integer"],
  ["depth", "integer"],
];

/** The columns of a file version as the publisher writes them (file_id taken from the sequence first). */
const VERSION_COLUMNS = [
  "file_id",
  "repo_id",
  "path",
  "language",
  "content_hash",
  "size_bytes",
  "mtime_ms",
  "rows_digest",
  "words",
  "gen_from",
  "content",
] as const;

/** The tables of a file's rows other than its version and chunks: table, the rows' key in FileRows, columns. */
const FILE_TABLES: ReadonlyArray<
  readonly [string, "statFile" | "types" | "functions" | "imports" | "symbols" | "refs" | "sites" | "edges" | "packageKeys" | "importKeys", Columns]
> = [
  ["stat_files", "statFile", STAT_FILE],
  ["stat_types", "types", TYPES],
  ["stat_functions", "functions", FUNCTIONS],
  ["stat_imports", "imports", IMPORTS],
  ["symbols", "symbols", SYMBOLS],
  ["refs", "refs", REFS],
  ["import_sites", "sites", SITES],
  ["import_edges", "edges", EDGES],
  ["package_keys", "packageKeys", PACKAGE_KEYS],
  ["import_keys", "importKeys", IMPORT_KEYS],
];

const names = (cols: Columns): string => cols.map(([c]) => `"${c}"`).join(", ");
const recordType = (cols: Columns): string => cols.map(([c, t]) => `"${c}" ${t}`).join(", ");

/** Writes `rows` (objects with the columns) as COPY rows of `out`, each under its file's id. */
function copyRows(out: BinaryCopy, cols: Columns, id: number, rows: readonly Record<string, unknown>[]): void {
  for (const row of rows) {
    out.row(cols.length + 1);
    out.value("bigint", id);
    for (const [c, type] of cols) out.value(type, row[c]);
  }
}

/** The advisory lock key of a repository (two int4: a constant for cortex, the hash of schema and name). */
const LOCK_CLASS = 0x636f72; // "cor"

async function lockRepository(conn: PgReserved, schema: string, name: string, onWait: (() => void) | undefined): Promise<void> {
  const key = `${schema}/${name}`;
  const [got] = await conn.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1::int, hashtext($2)) AS ok", [LOCK_CLASS, key]);
  if (got?.ok) return;
  onWait?.();
  await conn.query("SELECT pg_advisory_lock($1::int, hashtext($2))", [LOCK_CLASS, key]);
}

/** Batches of files bounded by count and text size. */
function batches(files: SourceFile[], maxFiles: number): SourceFile[][] {
  const out: SourceFile[][] = [];
  let cur: SourceFile[] = [];
  let bytes = 0;
  for (const f of files) {
    if (cur.length > 0 && (cur.length >= maxFiles || bytes + f.sizeBytes > BATCH_BYTES)) {
      out.push(cur);
      cur = [];
      bytes = 0;
    }
    cur.push(f);
    bytes += f.sizeBytes;
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

/**
 * Writes one batch of files as versions of generation `gen`, with every row that hangs off them; returns
 * the versions' ids, in the order of `files`.
 */
async function writeBatch(
  tx: PgQueryable,
  s: string,
  repoId: number,
  gen: number,
  files: SourceFile[],
  source: IndexSource,
  keywords: KeywordVectors,
  postings: KeywordPostings,
): Promise<number[]> {
  const rows = source.rowsOfBatch(files);
  // keyword vectors are built here (keyword-vectors.ts) from each words text's tokens, read once; the
  // server is asked only about tokens it was not asked about before
  const tokens = rows.map((r) => {
    const path = keywords.tokenize(r.words.path);
    // the file's words are tokenized once: its chunks' whole lines take their tokens from there
    const file = keywords.tokenizeWithStarts(r.fileWords);
    return {
      path,
      defs: keywords.tokenize(r.words.defs),
      code: r.words.code.length === r.fileWords.length ? file.ids : keywords.tokenize(r.words.code),
      // a chunk's path words are its file's
      chunks: r.chunks.map((c) => ({
        symbols: keywords.tokenize(String(c.w_symbols)),
        title: keywords.tokenize(String(c.w_title)),
        path,
        body: bodyTokens(keywords, c.w_body as string | WordPieces, file),
      })),
    };
  });
  await keywords.learn(tx);
  // file ids are taken first, so that every table's rows go in by COPY (which returns nothing) and the
  // keyword lists can name them and their chunks (chunkRowId)
  const ids = (
    await tx.query<{ id: string }>("SELECT nextval(pg_get_serial_sequence($1, 'file_id'))::text AS id FROM generate_series(1, $2::int)", [
      `${s}.file_versions`,
      files.length,
    ])
  ).map((r) => Number(r.id));
  const versions = new BinaryCopy();
  const children = FILE_TABLES.map(() => new BinaryCopy());
  const chunks = new BinaryCopy();
  files.forEach((f, i) => {
    const r = rows[i]!;
    const words = tokens[i]!;
    const id = ids[i]!;
    versions.row(VERSION_COLUMNS.length);
    versions.value("bigint", id);
    versions.value("integer", repoId);
    versions.value("text", f.path);
    versions.value("text", f.language);
    versions.value("text", f.contentHash);
    versions.value("bigint", f.sizeBytes);
    versions.value("bigint", f.mtimeMs);
    versions.value("text", r.digest);
    // keyword words of the whole file: path A, defined names B, text D
    const fileLexemes = keywords.writeVector(versions, [
      [words.path, "A"],
      [words.defs, "B"],
      [words.code, "D"],
    ]);
    postings.add(KEYWORD_LISTS.fileWords, fileLexemes, id);
    versions.value("integer", gen);
    versions.value("text", r.content);
    FILE_TABLES.forEach(([, key, cols], t) => {
      const value = r[key];
      copyRows(children[t]!, cols, id, value === undefined ? [] : Array.isArray(value) ? value : [value as Record<string, unknown>]);
    });
    if (r.chunks.length > CHUNKS_PER_VERSION) throw new Error(`publish: ${f.path} has ${r.chunks.length} chunks, more than a version can name`);
    r.chunks.forEach((c, k) => {
      // keyword words in four weight classes, as the local index's four columns: symbols A, title B,
      // path C, body D; the first three alone are the chunk's heads
      const w = words.chunks[k]!;
      const heads: Array<[Words, Weight]> = [
        [w.symbols, "A"],
        [w.title, "B"],
        [w.path, "C"],
      ];
      const rowId = chunkRowId(id, k);
      chunks.row(CHUNKS.length + 4);
      chunks.value("bigint", rowId);
      chunks.value("bigint", id);
      for (const [col, type] of CHUNKS) chunks.value(type, c[col]);
      // the heads' vector, then the words' continuing it (the heads are read once)
      const written = keywords.writeHeadsAndWords(chunks, heads, [w.body, "D"]);
      postings.add(KEYWORD_LISTS.chunkHeads, written.lexemes, rowId, written.heads);
      postings.add(KEYWORD_LISTS.chunkWords, written.lexemes, rowId);
    });
  });
  await tx.copyIn(`${s}.file_versions`, VERSION_COLUMNS, versions.data());
  for (const [t, [table, , cols]] of FILE_TABLES.entries()) {
    const out = children[t]!;
    if (out.rows > 0) await tx.copyIn(`${s}.${table}`, ["file_id", ...cols.map(([c]) => c)], out.data());
  }
  if (chunks.rows > 0) await tx.copyIn(`${s}.chunks`, ["row_id", "file_id", ...CHUNKS.map(([c]) => c), "heads", "words"], chunks.data());
  return ids;
}

/** The tokens of a chunk's words (source.ts, WordPieces), its whole lines' from its file's (`file`). */
function bodyTokens(keywords: KeywordVectors, body: string | WordPieces, file: { ids: Int32Array; starts: Int32Array }): Int32Array {
  if (typeof body === "string") return keywords.tokenize(body);
  const parts: Int32Array[] = [];
  let n = 0;
  for (const p of body) {
    const part = typeof p === "string" ? keywords.tokenize(p) : file.ids.subarray(firstAtOrAfter(file.starts, p[0]), firstAtOrAfter(file.starts, p[1]));
    parts.push(part);
    n += part.length;
  }
  if (parts.length === 1) return parts[0]!;
  const out = new Int32Array(n);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The first index of ascending `starts` whose value is `at` or more (its length when none). */
function firstAtOrAfter(starts: Int32Array, at: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid]! < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many chunks a file version's ids can name (chunkRowId). */
const CHUNKS_PER_VERSION = 2 ** 20;

/**
 * A chunk's row id: its version's file id times 2^20 plus its place in the file, so that the keyword
 * lists can name the chunks before they are written without taking an id from chunks' sequence for each
 * (a statement of nextval for go-src's 240,000 chunks cost the server about a second). Ids ascend in the
 * order the chunks are written, as the sequence's did, and stay below 2^53 up to 2^33 file versions. A
 * store from before has smaller row ids from the sequence: at most its chunks ever written, which is
 * below 2^20 times its versions ever written, the smallest id a new version's chunk can take.
 */
function chunkRowId(fileId: number, place: number): number {
  return fileId * CHUNKS_PER_VERSION + place;
}

/** Posting-list rows per COPY (about a MB of lists each on go-src). */
const POSTINGS_PER_COPY = 20_000;

/**
 * Writes generation `gen`'s trigram posting lists: the local index's lists (source.ts) with each file's id
 * in the index replaced by the id of its version in generation `gen` (`versionOf`, by the index's file
 * id; ids of files the index deleted have none and are dropped).
 */
async function writePostings(tx: PgQueryable, s: string, repoId: number, gen: number, source: IndexSource, versionOf: Map<number, number>): Promise<void> {
  let byLocal = new Float64Array(0);
  for (const [local, version] of versionOf) {
    if (local >= byLocal.length) {
      const grown = new Float64Array(Math.max(local + 1, byLocal.length * 2));
      grown.set(byLocal);
      byLocal = grown;
    }
    byLocal[local] = version;
  }
  let ids = new Float64Array(1024);
  let bytes = new Uint8Array(4096);
  let out = new BinaryCopy();
  for (const [trigram, files] of source.trigramPostings()) {
    if (files.length > ids.length) ids = new Float64Array(files.length * 2);
    let n = 0;
    for (const local of files) {
      const version = local < byLocal.length ? byLocal[local]! : 0;
      if (version > 0) ids[n++] = version;
    }
    if (n === 0) continue;
    const sorted = Uint32Array.from(ids.subarray(0, n)).sort();
    if (bytes.length < n * 5) bytes = new Uint8Array(n * 10);
    const size = encodePostings(sorted, 0, n, bytes, 0);
    out.row(4);
    out.value("integer", repoId);
    out.value("integer", gen);
    out.value("integer", trigram);
    out.value("bytea", bytes.subarray(0, size));
    if (out.rows >= POSTINGS_PER_COPY) {
      await tx.copyIn(`${s}.trigram_postings`, ["repo_id", "generation", "trigram", "postings"], out.data());
      out = new BinaryCopy();
    }
  }
  if (out.rows > 0) await tx.copyIn(`${s}.trigram_postings`, ["repo_id", "generation", "trigram", "postings"], out.data());
}

/**
 * Deletes a repository's file versions matching `condition` (over its parameters $2…, $1 being the
 * repository) with every row that hangs off them: those tables have no foreign key to cascade (schema.ts).
 * The versions' ids are taken first, so each table is reached through its file_id index.
 */
async function deleteVersions(tx: PgQueryable, s: string, repoId: number, condition: string, params: PgValue[]): Promise<void> {
  const [gone] = await tx.query<{ ids: string | null }>(
    `SELECT array_agg(file_id)::text AS ids FROM ${s}.file_versions WHERE repo_id = $1::int AND ${condition}`,
    [repoId, ...params],
  );
  if (gone?.ids == null) return;
  for (const table of FILE_ROW_TABLES) await tx.query(`DELETE FROM ${s}.${table} WHERE file_id = ANY($1::bigint[])`, [gone.ids]);
  await tx.query(`DELETE FROM ${s}.file_versions WHERE file_id = ANY($1::bigint[])`, [gone.ids]);
}

/**
 * A repository's name is what readers write in `--repo a,b` and the MCP `repo` argument and put before
 * its paths (`<repo>/<path>`): `org/service` is fine, a comma, a space or the word `all` would be read
 * as something else.
 */
function requireRepoName(repo: string): void {
  if (repo === "") throw new CortexError("INVALID_INPUT", "repo: a repository needs a name");
  if (repo === "all") throw new CortexError("INVALID_INPUT", "repo: 'all' means every repository to a reader; choose another name");
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]*(?:\/[A-Za-z0-9_][A-Za-z0-9_.-]*)*$/.test(repo)) {
    throw new CortexError(
      "INVALID_INPUT",
      `repo: '${repo}' is not a repository name: letters, digits, '_', '.', '-', and '/' between parts (org/service), nothing else`,
    );
  }
}

/**
 * Enters `repo` in the store's repositories, or refuses it (nothing written) when it would share paths
 * with another: over several repositories a path is `<repo>/<path>`, so with `org` and `org/small` both
 * held, `org/small/src/auth.py` would name a file of each (org's `small/src/auth.py` and org/small's
 * `src/auth.py`) and a path filter `org/small/src` would match both. Refusing a name that is a `/`-prefix
 * of a held one, or has one as its prefix, keeps every path's repository unique without changing how paths
 * read (another separator would have changed every path readers and agents already use). Two new names
 * published at once are checked one after the other, under a lock of the store's names.
 */
async function claimName(conn: PgReserved, schema: string, s: string, repo: string): Promise<void> {
  await conn.transaction(async (tx) => {
    // a space cannot be in a repository's name: this key is no repository's lock
    await tx.query("SELECT pg_advisory_xact_lock($1::int, hashtext($2))", [LOCK_CLASS, `${schema} names`]);
    const clash = await tx.query<{ name: string }>(
      `SELECT name FROM ${s}.repos WHERE name <> $1 AND (starts_with(name, $1 || '/') OR starts_with($1, name || '/')) ORDER BY name`,
      [repo],
    );
    if (clash.length > 0) {
      const other = clash[0]!.name;
      const [short, long] = other.length < repo.length ? [other, repo] : [repo, other];
      throw new CortexError(
        "INVALID_INPUT",
        `repo: '${repo}' would share paths with repository '${other}' of the store: over several repositories a path is <repo>/<path>, and '${long}/…' would name files of both '${short}' and '${long}'. Choose a name that is no folder of another (e.g. '${repo.replaceAll("/", "-")}'), or remove '${other}' first (cortex repos remove ${other})`,
        { data: { conflicts: clash.map((c) => c.name) } },
      );
    }
    await tx.query(`INSERT INTO ${s}.repos (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, [repo]);
  });
}

/**
 * Publishes the finished index in `store` as repository `repo`'s next generation (see the module
 * comment). Throws INVALID_INPUT when the index's parse tier is not complete.
 */
export async function publishIndex(client: PgClient, repo: string, store: IndexStore, options: PublishOptions = {}): Promise<PublishResult> {
  requireRepoName(repo);
  const schema = options.schema ?? "cortex";
  try {
    return await publishChecked(client, repo, store, options, schema);
  } catch (e) {
    throw cannotWrite(e, schema);
  }
}

/**
 * A server's "permission denied" (SQLSTATE 42501) while writing, said as what it means: the role is a
 * reader's (the README's cortex_reader) and cannot write; the server's own words alone named a table and
 * no way out. Any other error is returned as it is.
 */
function cannotWrite(e: unknown, schema: string): unknown {
  if (sqlState(e) !== "42501") return e;
  return new CortexError(
    "IO",
    `${errorMessage(e)}: this role cannot write to the shared store; writing needs INSERT, UPDATE and DELETE on the tables of schema ${schema} and CREATE on the schema (connect as the writer role, e.g. the README's cortex_writer)`,
    { cause: e },
  );
}

async function publishChecked(client: PgClient, repo: string, store: IndexStore, options: PublishOptions, schema: string): Promise<PublishResult> {
  const s = schemaIdent(schema);
  const source = new IndexSource(store);
  const unparsed = source.unparsedCount();
  if (unparsed > 0) throw new CortexError("INVALID_INPUT", `the index is not complete (${unparsed} files not parsed yet): run cortex index first`);
  await ensureSchema(client, schema);
  const conn = await client.reserve();
  try {
    await lockRepository(conn, schema, repo, options.onWait);
    try {
      await claimName(conn, schema, s, repo);
      await preferLz4(conn);
      return await publishLocked(conn, s, repo, source, options);
    } finally {
      await conn.query("SELECT pg_advisory_unlock($1::int, hashtext($2))", [LOCK_CLASS, `${schema}/${repo}`]);
    }
  } finally {
    await conn.release();
  }
}

async function publishLocked(conn: PgReserved, s: string, repo: string, source: IndexSource, options: PublishOptions): Promise<PublishResult> {
  await conn.query(`INSERT INTO ${s}.repos (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, [repo]);
  const [row] = await conn.query<{ repo_id: number; generation: number }>(`SELECT repo_id, generation FROM ${s}.repos WHERE name = $1`, [repo]);
  const repoId = row!.repo_id;
  const live = row!.generation;
  const next = live + 1;
  // what a killed publisher left of a generation it never switched to
  await conn.transaction(async (tx) => {
    await deleteVersions(tx, s, repoId, "gen_from > $2::int", [live]);
    await tx.query(`UPDATE ${s}.file_versions SET gen_to = NULL WHERE repo_id = $1::int AND gen_to > $2::int`, [repoId, live]);
    await tx.query(`DELETE FROM ${s}.stat_modules WHERE repo_id = $1::int AND generation > $2::int`, [repoId, live]);
    await tx.query(`DELETE FROM ${s}.import_components WHERE repo_id = $1::int AND generation > $2::int`, [repoId, live]);
    await tx.query(`DELETE FROM ${s}.trigram_postings WHERE repo_id = $1::int AND generation > $2::int`, [repoId, live]);
    await tx.query(`DELETE FROM ${s}.keyword_postings WHERE repo_id = $1::int AND generation > $2::int`, [repoId, live]);
  });
  const liveRows = await conn.query<{ id: string; path: string; rows_digest: string }>(
    `SELECT file_id::text AS id, path, rows_digest FROM ${s}.file_versions WHERE repo_id = $1::int AND gen_to IS NULL`,
    [repoId],
  );
  const liveFiles = new Map(liveRows.map((r) => [r.path, r.rows_digest]));
  const files = source.files();
  const present = new Set(files.map((f) => f.path));
  // a repository's first publication writes every file (each file's digest is taken from the rows read
  // for it); a later one compares every file's digest with the live generation's first
  const changed = liveFiles.size === 0 ? files : files.filter((f) => liveFiles.get(f.path) !== source.digest(f));
  const deleted = [...liveFiles.keys()].filter((p) => !present.has(p));
  let written = 0;
  const keywords = new KeywordVectors();
  const postings = new KeywordPostings();
  // each file's version in the next generation, by the local index's file id: the new versions' ids as
  // written, the unchanged files' live ones
  const versionOf = new Map<number, number>();
  for (const batch of batches(changed, options.batchFiles ?? BATCH_FILES)) {
    const ids = await conn.transaction((tx) => writeBatch(tx, s, repoId, next, batch, source, keywords, postings));
    batch.forEach((f, i) => versionOf.set(f.fileId, ids[i]!));
    written += batch.length;
    await options.onBatch?.(written, changed.length);
  }
  const liveIds = new Map(liveRows.map((r) => [r.path, Number(r.id)]));
  const kept: number[] = [];
  for (const f of files)
    if (!versionOf.has(f.fileId)) {
      const id = liveIds.get(f.path)!;
      versionOf.set(f.fileId, id);
      kept.push(id);
    }
  const replaced = [...changed.map((f) => f.path).filter((p) => liveFiles.has(p)), ...deleted];
  await conn.transaction(async (tx) => {
    await writePostings(tx, s, repoId, next, source, versionOf);
    await postings.write(tx, s, repoId, next, (l) => keywords.lexeme(l));
    await carryOverKeywordPostings(tx, s, repoId, live, next, kept, replaced.length === 0);
  });
  const vectors = options.vectors === undefined ? undefined : await publishVectors(conn, s, repoId, next, options.vectors);
  await conn.transaction(async (tx) => {
    await vectors?.record(tx);
    await tx.query(
      `UPDATE ${s}.file_versions SET gen_to = $2::int
       WHERE repo_id = $1::int AND gen_to IS NULL AND gen_from <= $3::int AND path IN (SELECT json_array_elements_text($4::text::json))`,
      [repoId, next, live, JSON.stringify(replaced)],
    );
    const modules = source.modules().map((m) => ({ ...m, repo_id: repoId, generation: next }));
    if (modules.length > 0) {
      const all: Columns = [["repo_id", "integer"], ["generation", "integer"], ...MODULES];
      await tx.query(`INSERT INTO ${s}.stat_modules (${names(all)}) SELECT ${names(all)} FROM json_to_recordset($1::text::json) AS x(${recordType(all)})`, [
        JSON.stringify(modules),
      ]);
    }
    const components = source.components().map((c) => ({ ...c, repo_id: repoId, generation: next }));
    if (components.length > 0) {
      await tx.query(
        `INSERT INTO ${s}.import_components (repo_id, generation, file_path, component)
         SELECT repo_id, generation, file_path, component FROM json_to_recordset($1::text::json) AS x(repo_id integer, generation integer, file_path text, component integer)`,
        [JSON.stringify(components)],
      );
    }
    await tx.query(
      `UPDATE ${s}.repos SET generation = $2::int, "commit" = $3, indexed_at = now(), file_count = $4::int, postings = true WHERE repo_id = $1::int`,
      [repoId, next, options.commit ?? null, files.length],
    );
  });
  // versions no generation shows any more
  await conn.transaction(async (tx) => {
    await deleteVersions(tx, s, repoId, "gen_to IS NOT NULL AND gen_to <= $2::int", [next]);
    await tx.query(`DELETE FROM ${s}.stat_modules WHERE repo_id = $1::int AND generation < $2::int`, [repoId, next]);
    await tx.query(`DELETE FROM ${s}.import_components WHERE repo_id = $1::int AND generation < $2::int`, [repoId, next]);
    await tx.query(`DELETE FROM ${s}.trigram_postings WHERE repo_id = $1::int AND generation < $2::int`, [repoId, next]);
    await tx.query(`DELETE FROM ${s}.keyword_postings WHERE repo_id = $1::int AND generation < $2::int`, [repoId, next]);
    await forgetOldGenerations(tx, s, repoId, next);
  });
  const result: PublishResult = { repo, generation: next, changed: changed.length, deleted: deleted.length, unchanged: files.length - changed.length };
  return vectors === undefined ? result : { ...result, vectors: vectors.result };
}

export interface RemovedRepo {
  repo: string;
  /** The generation it had when removed (0: a first publication that never finished). */
  generation: number;
  files: number;
}

/**
 * Removes repository `repo` and everything the store holds of it, in one transaction: readers see it
 * whole until the commit and not at all after (a statement already running keeps its snapshot), so a
 * server serving the store goes on answering, without it. Under the repository's lock, so a publisher of
 * it finishes first (`onWait` is told). An unknown name is an error listing the names the store holds.
 */
export async function removeRepository(
  client: PgClient,
  repo: string,
  options: { schema?: string; url?: string; onWait?: () => void } = {},
): Promise<RemovedRepo> {
  const schema = options.schema ?? "cortex";
  const s = schemaIdent(schema);
  try {
    // the names for an unknown one's message; also refuses a store of another schema version
    const held = (await listRepos(client, schema)).map((r) => r.name);
    const conn = await client.reserve();
    try {
      await lockRepository(conn, schema, repo, options.onWait);
      try {
        return await conn.transaction(async (tx) => {
          const [row] = await tx.query<{ repo_id: number; generation: number; files: number }>(
            `SELECT repo_id, generation, file_count AS files FROM ${s}.repos WHERE name = $1 FOR UPDATE`,
            [repo],
          );
          if (row === undefined) {
            const where = options.url ?? "the shared store";
            throw new CortexError(
              "NOT_FOUND",
              held.length === 0
                ? `unknown repository '${repo}': ${where} holds no repositories`
                : `unknown repository '${repo}'; ${where} holds: ${held.join(", ")}`,
              { data: { repos: held } },
            );
          }
          const repoId = Number(row.repo_id);
          // the rows hanging off its file versions have no foreign key (schema.ts): deleted with them first
          await deleteVersions(tx, s, repoId, "TRUE", []);
          await tx.query(`DELETE FROM ${s}.trigram_postings WHERE repo_id = $1::int`, [repoId]);
          await tx.query(`DELETE FROM ${s}.keyword_postings WHERE repo_id = $1::int`, [repoId]);
          // modules, import components and the vectors' bookkeeping go with the row (ON DELETE CASCADE)
          await tx.query(`DELETE FROM ${s}.repos WHERE repo_id = $1::int`, [repoId]);
          return { repo, generation: Number(row.generation), files: Number(row.files) };
        });
      } finally {
        await conn.query("SELECT pg_advisory_unlock($1::int, hashtext($2))", [LOCK_CLASS, `${schema}/${repo}`]);
      }
    } finally {
      await conn.release();
    }
  } catch (e) {
    throw cannotWrite(e, schema);
  }
}

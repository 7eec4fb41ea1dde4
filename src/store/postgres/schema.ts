/**
 * The shared store's tables in PostgreSQL. One database holds many repositories; each has a live
 * generation (repos.generation). A file's rows hang off one row of file_versions, which is visible in the
 * generations [gen_from, gen_to): a publisher writes the next generation's versions aside (gen_from =
 * next), closes the replaced ones (gen_to = next) and switches repos.generation in one transaction, so a
 * reader, whose statement joins repos, sees one whole generation or the other. Rows of a killed
 * publisher's unfinished generation are invisible and removed by the next publisher. Literal and regex
 * search read each generation's trigram posting lists (trigram_postings), which the publisher carries over
 * from the local index: no index of the server's extracts trigrams from the text.
 *
 * Tables live in a schema of their own ("cortex" unless told otherwise: the tests use one per case).
 */
import { CortexError } from "../../core/errors.ts";
import type { PgClient, PgQueryable } from "./client.ts";
import { vectorBookkeeping } from "./vectors.ts";

/** Bumped when the tables change shape: a database of another version is refused, not misread. */
export const PG_SCHEMA_VERSION = 8;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** A schema name as SQL (validated: it is spliced into statements, never bound). */
export function schemaIdent(name: string): string {
  if (!SCHEMA_NAME.test(name)) throw new CortexError("INVALID_INPUT", `store schema '${name}' must be lower-case letters, digits and _`);
  return `"${name}"`;
}

/**
 * The columns of keyword_postings, one per kind of vector listed: files' words (file ids), chunks' heads
 * and chunks' words (chunk row ids).
 */
export const KEYWORD_LISTS = { fileWords: "files", chunkHeads: "heads", chunkWords: "chunks" } as const;

function keywordPostingsTable(s: string): string {
  return `
-- Keyword search: per generation of a repository, each lexeme's lists of the files whose words
-- (file_versions.words) and of the chunks whose heads and words (chunks.heads, chunks.words) hold it,
-- ascending ids (NULL for none). A search takes its candidates from the lists of its query's lexemes and
-- matches and ranks them by their vectors (reader.ts). The publisher writes the lists from the vectors it
-- builds (publish.ts; the unchanged files' entries carried over from the live generation's lists): GIN
-- indexes on the three vectors took a third of the server's CPU of a publication (the chunks' words
-- alone 8-10 s of 33 over twenty repositories: inserting every chunk's every lexeme, then merging the
-- pending lists). One row per lexeme, its three lists together, and the rows written in the key's order:
-- a row per lexeme and list, in the order the publisher met them, cost the key's B-tree four times as
-- much. No foreign key: the publisher deletes a generation's lists once no reader can be on it.
CREATE TABLE IF NOT EXISTS ${s}.keyword_postings (
    repo_id integer NOT NULL,
    generation integer NOT NULL,
    lexeme text COLLATE "C" NOT NULL,
    files bigint[],
    heads bigint[],
    chunks bigint[],
    PRIMARY KEY (repo_id, generation, lexeme)
);`;
}

/**
 * Columns kept out of ANALYZE's statistics since schema 8, besides the texts: the keyword vectors and
 * the posting lists. Keyword search takes its candidates from the lists by lexeme and then matches their
 * vectors (reader.ts), so no plan turns on what the vectors or lists hold, and analysing them cost each
 * of autovacuum's passes over the growing tables a hash of every lexeme of 30,000 sampled vectors and
 * list elements: ANALYZE of twenty repositories' file versions took 1.3 s with the words' statistics,
 * 0.11 without; of their chunks 1.5 and 0.7 (the answers and their times the same; docs/benchmarks.md).
 */
const NO_STATISTICS = [
  ["file_versions", "words"],
  ["chunks", "words"],
  ["chunks", "heads"],
  ["keyword_postings", KEYWORD_LISTS.fileWords],
  ["keyword_postings", KEYWORD_LISTS.chunkHeads],
  ["keyword_postings", KEYWORD_LISTS.chunkWords],
  ["trigram_postings", "postings"],
] as const;

function tables(s: string): string {
  return `
CREATE TABLE IF NOT EXISTS ${s}.meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE IF NOT EXISTS ${s}.repos (
    repo_id serial PRIMARY KEY,
    name text NOT NULL UNIQUE,
    "commit" text,
    indexed_at timestamptz,
    generation integer NOT NULL DEFAULT 0,
    file_count integer NOT NULL DEFAULT 0,
    -- the live generation has trigram posting lists (schema 5; a repository published before has none
    -- until it is published again, and its files are then every search's candidates)
    postings boolean NOT NULL DEFAULT false
);
-- One version of a file: its state and text. Visible in generation g of its repository when
-- gen_from <= g and (gen_to IS NULL or gen_to > g).
CREATE TABLE IF NOT EXISTS ${s}.file_versions (
    file_id bigserial PRIMARY KEY,
    repo_id integer NOT NULL REFERENCES ${s}.repos(repo_id) ON DELETE CASCADE,
    path text NOT NULL,
    language text NOT NULL,
    content_hash text NOT NULL,
    size_bytes bigint NOT NULL,
    mtime_ms bigint NOT NULL,
    -- a digest of the content and of every row published for the file (its references' resolution
    -- included, which changes when other files do): what the next publication compares
    rows_digest text NOT NULL,
    -- keyword words of the whole file: path A, defined names B, text D (file-level ranking)
    words tsvector NOT NULL,
    gen_from integer NOT NULL,
    gen_to integer,
    -- collation C: a literal's case-blind check (literal-condition.ts) lowers ASCII letters only, as the
    -- engine's case-blind matching of an ASCII literal does, and without the locale's rules
    content text COLLATE "C" NOT NULL
);
CREATE INDEX IF NOT EXISTS file_versions_open ON ${s}.file_versions (repo_id, path) WHERE gen_to IS NULL;
CREATE INDEX IF NOT EXISTS file_versions_gen ON ${s}.file_versions (repo_id, gen_from);

-- Literal and regex search: per generation of a repository, each trigram's posting list (the ids of the
-- file versions holding it, ascending, as delta varints: store/trigrams.ts), which the publisher carries
-- over from the local index's own (store/content-index.ts), so that a search admits exactly the files the
-- local index admits. A pg_trgm GIN index over the text took a third of the server's CPU of a publication
-- (extracting and sorting every text's trigrams, then merging them into the index), about 13 s of go-src's
-- 36; these lists are a generation's few MB of rows under one B-tree. No foreign key, as below: the
-- publisher deletes a generation's lists once no reader can be on it.
CREATE TABLE IF NOT EXISTS ${s}.trigram_postings (
    repo_id integer NOT NULL,
    generation integer NOT NULL,
    trigram integer NOT NULL,
    postings bytea NOT NULL,
    PRIMARY KEY (repo_id, generation, trigram)
);

${keywordPostingsTable(s)}

-- The tables below hang off a file version by file_id without a foreign key: the publisher deletes a
-- version's rows with it (publish.ts, deleteVersions), and checking the key of every row written cost
-- the server a tenth of a publication (schema 4).

-- The statistics of cortex_files, by file version (the path and repository come from file_versions).
CREATE TABLE IF NOT EXISTS ${s}.stat_files (
    file_id bigint PRIMARY KEY,
    is_test boolean NOT NULL, module_path text NOT NULL, lines_total integer NOT NULL, lines_code integer NOT NULL,
    lines_comment integer NOT NULL, lines_blank integer NOT NULL, last_modified text NOT NULL,
    type_count integer NOT NULL, function_count integer NOT NULL, import_count integer NOT NULL
);
CREATE TABLE IF NOT EXISTS ${s}.stat_types (
    file_id bigint NOT NULL,
    type_id text NOT NULL, name text NOT NULL, kind text NOT NULL, module_path text NOT NULL, start_line integer NOT NULL,
    end_line integer NOT NULL, is_exported boolean NOT NULL, field_count integer NOT NULL, method_count integer NOT NULL
);
CREATE INDEX IF NOT EXISTS stat_types_file ON ${s}.stat_types (file_id);
CREATE TABLE IF NOT EXISTS ${s}.stat_functions (
    file_id bigint NOT NULL,
    function_id text NOT NULL, name text NOT NULL, module_path text NOT NULL, start_line integer NOT NULL, end_line integer NOT NULL,
    is_exported boolean NOT NULL, is_method boolean NOT NULL, receiver_type text, param_count integer NOT NULL,
    return_count integer NOT NULL, lines integer NOT NULL, complexity integer
);
CREATE INDEX IF NOT EXISTS stat_functions_file ON ${s}.stat_functions (file_id);
CREATE TABLE IF NOT EXISTS ${s}.stat_imports (
    file_id bigint NOT NULL,
    import_id text NOT NULL, imported_module text NOT NULL, is_standard_lib boolean NOT NULL, is_external boolean NOT NULL,
    is_relative boolean NOT NULL, symbol_count integer
);
CREATE INDEX IF NOT EXISTS stat_imports_file ON ${s}.stat_imports (file_id);
-- Modules aggregate many files: a whole set per generation.
CREATE TABLE IF NOT EXISTS ${s}.stat_modules (
    repo_id integer NOT NULL REFERENCES ${s}.repos(repo_id) ON DELETE CASCADE,
    generation integer NOT NULL,
    module_path text NOT NULL, file_count integer NOT NULL, total_lines integer NOT NULL, code_lines integer NOT NULL,
    test_file_count integer NOT NULL, type_count integer NOT NULL, function_count integer NOT NULL,
    exported_type_count integer NOT NULL, exported_function_count integer NOT NULL, import_count integer NOT NULL,
    external_import_count integer NOT NULL, depth integer NOT NULL
);
CREATE INDEX IF NOT EXISTS stat_modules_gen ON ${s}.stat_modules (repo_id, generation);

-- Definitions (symbol_id is the building index's id, unique within a file version's repository generation).
CREATE TABLE IF NOT EXISTS ${s}.symbols (
    file_id bigint NOT NULL,
    symbol_id bigint NOT NULL, name text NOT NULL, qualified_name text NOT NULL, kind text NOT NULL, container text,
    start_line integer NOT NULL, start_column integer NOT NULL, end_line integer NOT NULL, is_exported boolean NOT NULL, signature text
);
CREATE INDEX IF NOT EXISTS symbols_file ON ${s}.symbols (file_id);
CREATE INDEX IF NOT EXISTS symbols_name ON ${s}.symbols (name);
-- definitions by id (callers and callees load the definitions their references name)
CREATE INDEX IF NOT EXISTS symbols_id ON ${s}.symbols (symbol_id);

-- Uses of names, as reference resolution left them in the building index (ids are that index's, unique
-- within the repository's generation; kind and resolution as text).
CREATE TABLE IF NOT EXISTS ${s}.refs (
    file_id bigint NOT NULL,
    ref_id bigint NOT NULL, name text NOT NULL, qualifier text, qualifier_type text, kind text NOT NULL, line integer NOT NULL,
    "column" integer NOT NULL, enclosing text, enclosing_symbol_id bigint, target_symbol_id bigint, resolution text
);
-- References are the most numerous rows (1.1 million over twenty repositories) and each index entry
-- costs a publication its insert, so each index covers only the rows its one question reads (schema 6;
-- the three full indexes were 4.8 s of 32.6 s of the server's CPU over those twenty): by name, the
-- unresolved references only (unresolvedNamed; cross-repository resolution reaches references through
-- their files); by target, the resolved ones (callers). None by enclosing definition: a definition's
-- references are in its own file, which callees reach through the definition (refsInside, as the
-- local index does).
CREATE INDEX IF NOT EXISTS refs_file ON ${s}.refs (file_id);
CREATE INDEX IF NOT EXISTS refs_unresolved_name ON ${s}.refs (name) WHERE target_symbol_id IS NULL;
CREATE INDEX IF NOT EXISTS refs_target ON ${s}.refs (target_symbol_id) WHERE target_symbol_id IS NOT NULL;
-- Import statements of a file and the files of the same repository each reaches.
CREATE TABLE IF NOT EXISTS ${s}.import_sites (
    file_id bigint NOT NULL,
    site_id bigint NOT NULL, imported_module text NOT NULL, alias text, symbols text, line integer NOT NULL, "column" integer NOT NULL
);
CREATE INDEX IF NOT EXISTS import_sites_file ON ${s}.import_sites (file_id);
CREATE TABLE IF NOT EXISTS ${s}.import_edges (
    file_id bigint NOT NULL,
    site_id bigint NOT NULL, target_file text NOT NULL
);
CREATE INDEX IF NOT EXISTS import_edges_file ON ${s}.import_edges (file_id);
CREATE INDEX IF NOT EXISTS import_edges_target ON ${s}.import_edges (target_file);
-- Import cycles: a whole set per generation, like modules.
CREATE TABLE IF NOT EXISTS ${s}.import_components (
    repo_id integer NOT NULL REFERENCES ${s}.repos(repo_id) ON DELETE CASCADE,
    generation integer NOT NULL, file_path text NOT NULL, component integer NOT NULL
);
CREATE INDEX IF NOT EXISTS import_components_gen ON ${s}.import_components (repo_id, generation);

-- Search chunks with their text, and its words for keyword ranking in SQL.
CREATE TABLE IF NOT EXISTS ${s}.chunks (
    -- the publisher's since schema 7 (publish.ts, chunkRowId: the version's file id × 2^20 + the chunk's
    -- place in it); the sequence numbered the chunks of stores before
    row_id bigserial PRIMARY KEY,
    file_id bigint NOT NULL,
    chunk_id text NOT NULL, chunk_type text NOT NULL, title text NOT NULL, symbol_path text, language text NOT NULL,
    start_line integer NOT NULL, end_line integer NOT NULL, tags text NOT NULL, is_test boolean NOT NULL, text_hash text NOT NULL, text text NOT NULL, words tsvector NOT NULL,
    -- the words of the symbols (A), title (B) and path (C) alone, as in words: keyword search ranks the
    -- chunks matching here first, the rest only when these cannot fill its answer (reader.ts)
    heads tsvector NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_file ON ${s}.chunks (file_id);
CREATE INDEX IF NOT EXISTS chunks_text_hash ON ${s}.chunks (text_hash);
-- search fetches its hits' chunks by id (without it, a scan of every chunk: 78 ms over twenty repositories)
CREATE INDEX IF NOT EXISTS chunks_id ON ${s}.chunks (chunk_id);

-- Cross-repository resolution (package-keys.ts, cross-repo.ts): the package keys a file provides to
-- importers in other repositories (with the name an import binds when it gives none), and the keys each
-- import site that reached no file of its own repository asks for. Readers join them at query time.
CREATE TABLE IF NOT EXISTS ${s}.package_keys (
    file_id bigint NOT NULL,
    key text NOT NULL, binds text
);
CREATE INDEX IF NOT EXISTS package_keys_key ON ${s}.package_keys (key);
CREATE INDEX IF NOT EXISTS package_keys_file ON ${s}.package_keys (file_id);
CREATE TABLE IF NOT EXISTS ${s}.import_keys (
    file_id bigint NOT NULL,
    site_id bigint NOT NULL, key text NOT NULL
);
CREATE INDEX IF NOT EXISTS import_keys_key ON ${s}.import_keys (key);
CREATE INDEX IF NOT EXISTS import_keys_file ON ${s}.import_keys (file_id);

-- No statistics of the texts: no statement filters on their values, and analysing them read and
-- sorted a sample of whole files and chunks (twenty repositories' chunks: 0.76 s of the server's CPU,
-- 0.57-0.62 without their texts), again each time autovacuum analyses the growing tables (schema 6).
ALTER TABLE ${s}.file_versions ALTER COLUMN content SET STATISTICS 0;
ALTER TABLE ${s}.chunks ALTER COLUMN text SET STATISTICS 0;
${NO_STATISTICS.map(([table, column]) => `ALTER TABLE ${s}.${table} ALTER COLUMN ${column} SET STATISTICS 0;`).join("\n")}

-- What readers see: every repository's live generation.
CREATE OR REPLACE VIEW ${s}.live_files AS
    SELECT f.*, r.name AS repo FROM ${s}.file_versions f JOIN ${s}.repos r ON r.repo_id = f.repo_id
    WHERE f.gen_from <= r.generation AND (f.gen_to IS NULL OR f.gen_to > r.generation);
`;
}

/**
 * Creates the store's tables when they are missing (idempotent; concurrent callers wait on one
 * transaction-level advisory lock) and checks the version of a store that exists.
 */
export async function ensureSchema(client: PgClient, schema: string): Promise<void> {
  const s = schemaIdent(schema);
  // A store of this version has every table and index (the version is written in the transaction that
  // made them): nothing to do. Running the DDL anyway took a SHARE lock on every table (CREATE INDEX IF
  // NOT EXISTS takes it before it finds the index there), which waited for another publisher's open
  // batch to commit and cancelled autovacuum's work on the tables.
  const [exists] = await client.query<{ present: boolean }>("SELECT to_regclass($1) IS NOT NULL AS present", [`${s}.meta`]);
  if (exists?.present) {
    const [current] = await client.query<{ value: string }>(`SELECT value FROM ${s}.meta WHERE key = 'schema_version'`);
    if (current?.value === String(PG_SCHEMA_VERSION)) return;
  }
  await client.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`cortex schema ${schema}`]);
    // Created only when missing: a writer role that owns a schema an administrator made for it (README)
    // has no right to create schemas, and PostgreSQL checks that right even for IF NOT EXISTS. No
    // extension is needed (text search reads the store's own posting lists since schema 5, not pg_trgm).
    const [have] = await tx.query<{ schema: boolean }>("SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS schema", [schema]);
    if (!have?.schema) await tx.exec(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    const [meta] = await tx.query<{ present: boolean }>("SELECT to_regclass($1) IS NOT NULL AS present", [`${s}.meta`]);
    const before = meta?.present ? await tx.query<{ value: string }>(`SELECT value FROM ${s}.meta WHERE key = 'schema_version'`) : [];
    if (before[0]?.value === "2") await upgradeFrom2(tx, s);
    if (before[0]?.value === "2" || before[0]?.value === "3") await upgradeFrom3(tx, s);
    if (before[0]?.value === "2" || before[0]?.value === "3" || before[0]?.value === "4") await upgradeFrom4(tx, s);
    if (["2", "3", "4", "5"].includes(before[0]?.value ?? "")) await upgradeFrom5(tx, s);
    if (["2", "3", "4", "5", "6"].includes(before[0]?.value ?? "")) await upgradeFrom6(tx, s);
    // 7 → 8: no statistics of the vectors and lists (NO_STATISTICS), which the tables' statements set
    if (["2", "3", "4", "5", "6", "7"].includes(before[0]?.value ?? "")) await tx.exec(`UPDATE ${s}.meta SET value = '8' WHERE key = 'schema_version'`);
    await tx.exec(tables(s));
    await tx.exec(vectorBookkeeping(s));
    const now = await tx.query<{ value: string }>(`SELECT value FROM ${s}.meta WHERE key = 'schema_version'`);
    if (now.length === 0) {
      await tx.query(`INSERT INTO ${s}.meta (key, value) VALUES ('schema_version', $1)`, [String(PG_SCHEMA_VERSION)]);
    } else if (now[0]!.value !== String(PG_SCHEMA_VERSION)) {
      throw new CortexError("INDEX_CORRUPT", `the shared store has schema ${now[0]!.value}, this cortex knows ${PG_SCHEMA_VERSION}`);
    }
  });
}

/**
 * Version 2 → 3: chunks gain `heads`, the symbols', title's and path's words of `words` (the A, B and C
 * weights), filled from the words already stored; the index on it is created with the tables.
 */
async function upgradeFrom2(tx: PgQueryable, s: string): Promise<void> {
  await tx.exec(`ALTER TABLE ${s}.chunks ADD COLUMN IF NOT EXISTS heads tsvector;
    UPDATE ${s}.chunks SET heads = ts_filter(words, '{a,b,c}') WHERE heads IS NULL;
    ALTER TABLE ${s}.chunks ALTER COLUMN heads SET NOT NULL;
    UPDATE ${s}.meta SET value = '3' WHERE key = 'schema_version';`);
}

/**
 * Version 6 → 7: keyword search reads lexeme lists (keyword_postings) instead of GIN indexes on the
 * files' and chunks' vectors, which are dropped; the lists of every repository's live generation are
 * made here from the vectors stored (any there are made again).
 */
async function upgradeFrom6(tx: PgQueryable, s: string): Promise<void> {
  const live = `JOIN ${s}.repos r ON r.repo_id = f.repo_id AND f.gen_from <= r.generation AND (f.gen_to IS NULL OR f.gen_to > r.generation)`;
  const lists = (column: string, id: string, from: string, vector: string) =>
    `INSERT INTO ${s}.keyword_postings AS k (repo_id, generation, lexeme, ${column})
     SELECT f.repo_id, r.generation, l, array_agg(${id} ORDER BY ${id}) FROM ${from}, unnest(tsvector_to_array(${vector})) l GROUP BY 1, 2, 3
     ON CONFLICT (repo_id, generation, lexeme) DO UPDATE SET ${column} = excluded.${column};`;
  const chunks = `${s}.file_versions f ${live} JOIN ${s}.chunks c ON c.file_id = f.file_id`;
  await tx.exec(`DROP INDEX IF EXISTS ${s}.file_versions_words;
    DROP INDEX IF EXISTS ${s}.chunks_words;
    DROP INDEX IF EXISTS ${s}.chunks_heads;
    ${keywordPostingsTable(s)}
    DELETE FROM ${s}.keyword_postings;
    ${lists(KEYWORD_LISTS.fileWords, "f.file_id", `${s}.file_versions f ${live}`, "f.words")}
    ${lists(KEYWORD_LISTS.chunkHeads, "c.row_id", chunks, "c.heads")}
    ${lists(KEYWORD_LISTS.chunkWords, "c.row_id", chunks, "c.words")}
    UPDATE ${s}.meta SET value = '7' WHERE key = 'schema_version';`);
}

/** The tables whose rows hang off a file version (file_id), without a foreign key since schema 4. */
export const FILE_ROW_TABLES = [
  "stat_files",
  "stat_types",
  "stat_functions",
  "stat_imports",
  "symbols",
  "refs",
  "import_sites",
  "import_edges",
  "chunks",
  "package_keys",
  "import_keys",
] as const;

/**
 * Version 3 → 4: the file rows' foreign keys to file_versions are dropped (the publisher deletes a
 * version's rows itself). Their names are PostgreSQL's defaults, <table>_file_id_fkey.
 */
async function upgradeFrom3(tx: PgQueryable, s: string): Promise<void> {
  await tx.exec(`${FILE_ROW_TABLES.map((t) => `ALTER TABLE ${s}.${t} DROP CONSTRAINT IF EXISTS ${t}_file_id_fkey;`).join("\n")}
    UPDATE ${s}.meta SET value = '4' WHERE key = 'schema_version';`);
}

/**
 * Version 4 → 5: literal and regex search read trigram posting lists (the table is created with the
 * others) instead of pg_trgm's index over the text, which is dropped. Repositories published before have
 * no lists (repos.postings false) until their next publication.
 */
async function upgradeFrom4(tx: PgQueryable, s: string): Promise<void> {
  await tx.exec(`DROP INDEX IF EXISTS ${s}.file_versions_trgm;
    ALTER TABLE ${s}.repos ADD COLUMN IF NOT EXISTS postings boolean NOT NULL DEFAULT false;
    UPDATE ${s}.meta SET value = '5' WHERE key = 'schema_version';`);
}

/**
 * Version 5 → 6: the references' indexes by name and by target cover the rows their questions read (the
 * unresolved, the resolved), and the one by enclosing definition is gone; the new ones are created with
 * the tables.
 */
async function upgradeFrom5(tx: PgQueryable, s: string): Promise<void> {
  await tx.exec(`DROP INDEX IF EXISTS ${s}.refs_name;
    DROP INDEX IF EXISTS ${s}.refs_target;
    DROP INDEX IF EXISTS ${s}.refs_enclosing;
    UPDATE ${s}.meta SET value = '6' WHERE key = 'schema_version';`);
}

/**
 * Has this session compress the text it writes with lz4 where the server has it: it compresses several
 * times faster than PostgreSQL's own pglz and decompresses faster too (every candidate's text is
 * decompressed for each trigram condition). A server built without lz4 keeps pglz.
 */
export async function preferLz4(client: PgQueryable): Promise<void> {
  await client.exec("SET default_toast_compression = 'lz4'").catch(() => undefined);
}

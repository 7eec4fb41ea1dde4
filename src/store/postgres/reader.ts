/**
 * Reading the shared store: the live generation of one repository, several, or all, answering the
 * reader contract's questions (src/store/contract.ts) in SQL. Every statement joins the live view, so
 * each answer comes from one whole generation even while a publisher switches.
 *
 * Paths: a reader of exactly one repository answers with the repository's own paths (the local index's
 * answers, line for line); a reader of several names each file `<repo>/<path>`, so every hit names its
 * repository.
 *
 * Implemented here: the index state, files and their text, literal and regex candidates (pg_trgm),
 * keyword search ranked in SQL (tsvector, ts_rank), and cortex_files statistics (the files-query compiler
 * in the PostgreSQL dialect). The symbol, reference and import-graph questions need the reference rows,
 * which publication does not carry yet.
 */
import { CortexError } from "../../core/errors.ts";
import type { ChunkRow, FileInfo, FileReader, FileState, IndexStateReader, StatsReader, TextSearchReader, TrigramQuery } from "../contract.ts";
import type { ChunkFilters, ColumnWeights, KeywordHit } from "../chunk-search.ts";
import type { ContentFileRow } from "../content-index.ts";
import { STATS_TABLES, type StatsTable } from "../schema.ts";
import { POSTGRES_DIALECT, type SqlDialect } from "../sql-dialect.ts";
import { trigramText } from "../trigrams.ts";
import type { PgQueryable, PgValue } from "./client.ts";
import { schemaIdent } from "./schema.ts";

/** Which repositories a reader sees: names, or every repository of the store. */
export type RepoScope = readonly string[] | "all";

type Params = PgValue[];

/** Binds a value and returns its placeholder. */
const bind = (params: Params, v: PgValue): string => {
  params.push(v);
  return `$${params.length}`;
};

/** `LIKE` text matching `s` literally (backslash is PostgreSQL's default LIKE escape). */
const likeLiteral = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Is this trigram three ASCII bytes (pg_trgm and ILIKE fold ASCII case as cortex's index does)? */
const asciiTrigram = (t: number): boolean => (t & 0x808080) === 0;

export class PgIndexReader implements IndexStateReader, FileReader, TextSearchReader, StatsReader {
  readonly dialect: SqlDialect = POSTGRES_DIALECT;
  private readonly s: string;
  private readonly single: boolean;

  constructor(
    private readonly db: PgQueryable,
    readonly scope: RepoScope,
    readonly schema = "cortex",
  ) {
    this.s = schemaIdent(schema);
    if (scope !== "all" && scope.length === 0) throw new CortexError("INVALID_INPUT", "repo: name at least one repository");
    this.single = scope !== "all" && scope.length === 1;
  }

  get source(): string {
    return `postgres:${this.schema}:${this.scope === "all" ? "*" : this.scope.join(",")}`;
  }

  /** The file's path as this reader names it (SQL over the live view aliased `f`). */
  private get pathSql(): string {
    return this.single ? "f.path" : "(f.repo || '/' || f.path)";
  }

  /** The live files of the reader's repositories (a FROM item aliased `f`, its filter bound into `params`). */
  private live(params: Params): string {
    if (this.scope === "all") return `${this.s}.live_files f`;
    return `${this.s}.live_files f JOIN json_array_elements_text(${bind(params, JSON.stringify(this.scope))}::text::json) AS scope(name) ON scope.name = f.repo`;
  }

  /** `expr` is one of `paths` (as this reader names them). */
  private inPaths(params: Params, expr: string, paths: readonly string[]): string {
    return `${expr} IN (SELECT json_array_elements_text(${bind(params, JSON.stringify(paths))}::text::json))`;
  }

  private async rows<R>(sql: string, params: Params): Promise<R[]> {
    return this.db.query<R>(sql, params);
  }

  // --- the index state ---

  /** Meta values a reader of one repository can give: its commit and when it was published. */
  async meta(key: string): Promise<string | undefined> {
    if (!this.single || (key !== "commit" && key !== "last_run")) return undefined;
    const [r] = await this.rows<{ commit: string | null; at: string | null }>(
      `SELECT "commit", to_char(indexed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at FROM ${this.s}.repos WHERE name = $1`,
      [(this.scope as readonly string[])[0]!],
    );
    const v = key === "commit" ? r?.commit : r?.at;
    return v ?? undefined;
  }

  /** A published generation is always complete. */
  async parseTierState(): Promise<undefined> {
    return undefined;
  }

  async languageCounts(): Promise<Record<string, number>> {
    const params: Params = [];
    const rows = await this.rows<{ language: string; n: number }>(
      `SELECT f.language, count(*)::int AS n FROM ${this.live(params)} GROUP BY f.language ORDER BY n DESC, f.language`,
      params,
    );
    return Object.fromEntries(rows.map((r) => [r.language, r.n]));
  }

  async fileStates(paths?: readonly string[]): Promise<Map<string, FileState>> {
    const params: Params = [];
    const from = this.live(params);
    const where = paths === undefined ? "" : ` WHERE ${this.inPaths(params, this.pathSql, paths)}`;
    const rows = await this.rows<{ id: string; path: string; hash: string; mtime: string; size: string }>(
      `SELECT f.file_id AS id, ${this.pathSql} AS path, f.content_hash AS hash, f.mtime_ms AS mtime, f.size_bytes AS size FROM ${from}${where}`,
      params,
    );
    return new Map(rows.map((r) => [r.path, { fileId: Number(r.id), path: r.path, contentHash: r.hash, mtimeMs: Number(r.mtime), sizeBytes: Number(r.size) }]));
  }

  async close(): Promise<void> {}

  // --- files and their text ---

  private async fileInfos(where: (params: Params) => string): Promise<FileInfo[]> {
    const params: Params = [];
    const from = this.live(params);
    const cond = where(params);
    const rows = await this.rows<{ path: string; language: string; module: string; is_test: boolean }>(
      `SELECT ${this.pathSql} AS path, f.language, ${this.single ? "s.module_path" : "(f.repo || '/' || s.module_path)"} AS module, s.is_test
       FROM ${from} JOIN ${this.s}.stat_files s ON s.file_id = f.file_id${cond ? ` WHERE ${cond}` : ""} ORDER BY path`,
      params,
    );
    return rows.map((r) => ({ path: r.path, language: r.language, modulePath: r.module, isTest: r.is_test }));
  }

  async filesInfo(paths: readonly string[]): Promise<Map<string, FileInfo>> {
    const infos = await this.fileInfos((p) => this.inPaths(p, this.pathSql, paths));
    return new Map(infos.map((i) => [i.path, i]));
  }

  allFiles(): Promise<FileInfo[]> {
    return this.fileInfos(() => "");
  }

  async fileCount(): Promise<number> {
    return (await this.allFiles()).length;
  }

  async filesUnder(dir: string): Promise<string[]> {
    const prefix = dir.replace(/\/+$/, "");
    const infos = await this.fileInfos((p) =>
      prefix === "" ? "" : `(${this.pathSql} = ${bind(p, prefix)} OR ${this.pathSql} LIKE ${bind(p, `${likeLiteral(prefix)}/%`)})`,
    );
    return infos.map((i) => i.path);
  }

  async filesOfModules(modules: readonly string[]): Promise<string[]> {
    const set = new Set(modules);
    return (await this.allFiles()).filter((i) => set.has(i.modulePath)).map((i) => i.path);
  }

  async codeFiles(): Promise<FileInfo[]> {
    return this.fileInfos(
      () =>
        `(EXISTS (SELECT 1 FROM ${this.s}.symbols y WHERE y.file_id = f.file_id) OR EXISTS (SELECT 1 FROM ${this.s}.stat_imports i WHERE i.file_id = f.file_id))`,
    );
  }

  async contents(paths: readonly string[]): Promise<Map<string, string>> {
    const params: Params = [];
    const from = this.live(params);
    const rows = await this.rows<{ path: string; content: string }>(
      `SELECT ${this.pathSql} AS path, f.content FROM ${from} WHERE ${this.inPaths(params, this.pathSql, paths)}`,
      params,
    );
    return new Map(rows.map((r) => [r.path, r.content]));
  }

  // --- literal and regex search ---

  /**
   * The trigram query as a condition on the text: each ASCII trigram is `content ILIKE '%tri%'`, which
   * pg_trgm's GIN index answers (and rechecks exactly). A trigram with a non-ASCII byte may be part of one
   * character, which LIKE cannot express: it admits every file, so candidates stay a superset.
   */
  private condition(q: TrigramQuery, params: Params): string {
    switch (q.op) {
      case "all":
        return "TRUE";
      case "tri":
        return asciiTrigram(q.t) ? `f.content ILIKE ${bind(params, `%${likeLiteral(trigramText(q.t))}%`)}` : "TRUE";
      case "and":
        return q.args.length === 0 ? "TRUE" : `(${q.args.map((a) => this.condition(a, params)).join(" AND ")})`;
      case "or":
        return q.args.length === 0 ? "FALSE" : `(${q.args.map((a) => this.condition(a, params)).join(" OR ")})`;
    }
  }

  async textCandidates(query: TrigramQuery): Promise<Uint32Array | null> {
    if (query.op === "all") return null;
    const params: Params = [];
    const from = this.live(params);
    const rows = await this.rows<{ id: string }>(`SELECT f.file_id AS id FROM ${from} WHERE ${this.condition(query, params)} ORDER BY f.file_id`, params);
    return Uint32Array.from(rows, (r) => Number(r.id));
  }

  async textCandidateCounts(queries: readonly TrigramQuery[]): Promise<number[]> {
    const out: number[] = [];
    for (const q of queries) {
      const params: Params = [];
      const from = this.live(params);
      const [r] = await this.rows<{ n: number }>(`SELECT count(*)::int AS n FROM ${from} WHERE ${this.condition(q, params)}`, params);
      out.push(r!.n);
    }
    return out;
  }

  async textFileCount(): Promise<number> {
    const params: Params = [];
    const [r] = await this.rows<{ n: number }>(`SELECT count(*)::int AS n FROM ${this.live(params)}`, params);
    return r!.n;
  }

  async textFiles(ids: ArrayLike<number> | null, withLanguage: boolean): Promise<ContentFileRow[]> {
    const params: Params = [];
    const from = this.live(params);
    const where =
      ids === null ? "" : ` WHERE f.file_id IN (SELECT json_array_elements_text(${bind(params, JSON.stringify(Array.from(ids)))}::text::json)::bigint)`;
    const rows = await this.rows<{ id: string; path: string; language: string; mtime: string; size: string }>(
      `SELECT f.file_id AS id, ${this.pathSql} AS path, f.language, f.mtime_ms AS mtime, f.size_bytes AS size FROM ${from}${where} ORDER BY f.file_id`,
      params,
    );
    return rows.map((r) => ({
      fileId: Number(r.id),
      path: r.path,
      ...(withLanguage ? { language: r.language } : {}),
      mtimeMs: Number(r.mtime),
      sizeBytes: Number(r.size),
    }));
  }

  texts(ids: ArrayLike<number>, as: "string"): Promise<Array<string | undefined>>;
  texts(ids: ArrayLike<number>, as: "bytes"): Promise<Array<Uint8Array | undefined>>;
  async texts(ids: ArrayLike<number>, as: "string" | "bytes"): Promise<Array<string | Uint8Array | undefined>> {
    const params: Params = [];
    const from = this.live(params);
    const list = Array.from(ids);
    const rows = await this.rows<{ id: string; content: string }>(
      `SELECT f.file_id AS id, f.content FROM ${from} WHERE f.file_id IN (SELECT json_array_elements_text(${bind(params, JSON.stringify(list))}::text::json)::bigint)`,
      params,
    );
    const byId = new Map(rows.map((r) => [Number(r.id), r.content]));
    const encoder = new TextEncoder();
    return list.map((id) => {
      const t = byId.get(id);
      return t === undefined ? undefined : as === "bytes" ? encoder.encode(t) : t;
    });
  }

  // --- keyword search ---

  /** Conditions of chunk filters over chunks `c` of live files `f`. */
  private chunkFilter(filters: ChunkFilters, params: Params): string {
    const out: string[] = [];
    const list = (v: readonly string[]) => `(SELECT json_array_elements_text(${bind(params, JSON.stringify(v))}::text::json))`;
    if (filters.chunkTypes?.length) out.push(`c.chunk_type IN ${list(filters.chunkTypes)}`);
    if (filters.languages?.length) out.push(`c.language IN ${list(filters.languages)}`);
    if (filters.tags?.length) out.push(`c.tags::jsonb @> ${bind(params, JSON.stringify(filters.tags))}::text::jsonb`);
    if (filters.files?.length) out.push(`${this.pathSql} IN ${list(filters.files)}`);
    if (filters.pathPrefixes?.length) {
      const ors = filters.pathPrefixes.map((p) => {
        const prefix = p.replace(/\/+$/, "");
        return `(${this.pathSql} = ${bind(params, prefix)} OR ${this.pathSql} LIKE ${bind(params, `${likeLiteral(prefix)}/%`)})`;
      });
      out.push(`(${ors.join(" OR ")})`);
    }
    if (filters.excludeTests) out.push("NOT c.is_test");
    return out.length === 0 ? "" : ` AND ${out.join(" AND ")}`;
  }

  /**
   * Chunks matching any of the terms, ranked in SQL by ts_rank over four weight classes (symbols A,
   * title B, path C, body D, weighted relative to the largest column weight).
   */
  async keywordSearch(terms: readonly string[], weights: ColumnWeights, filters: ChunkFilters, limit: number): Promise<KeywordHit[]> {
    const words = terms.filter((t) => /^[\p{L}\p{N}_]+$/u.test(t));
    if (words.length === 0) return [];
    const params: Params = [];
    const from = this.live(params);
    const top = Math.max(weights.symbols, weights.title, weights.path, weights.body, 1e-9);
    const w = [weights.body, weights.path, weights.title, weights.symbols].map((x) => String(x / top));
    const tsq = bind(params, words.map((t) => `'${t}'`).join(" | "));
    const ws = bind(params, `{${w.join(",")}}`);
    const sql = `SELECT c.row_id AS rowid, c.chunk_id AS id, ${this.pathSql} AS path, ts_rank(${ws}::float4[], c.words, q) AS score
      FROM ${from} JOIN ${this.s}.chunks c ON c.file_id = f.file_id, to_tsquery('english', ${tsq}) q
      WHERE c.words @@ q${this.chunkFilter(filters, params)}
      ORDER BY score DESC, c.row_id LIMIT ${bind(params, limit)}::int`;
    const rows = await this.rows<{ rowid: string; id: string; path: string; score: number }>(sql, params);
    return rows.map((r) => ({ rowid: Number(r.rowid), id: r.id, filePath: r.path, score: Number(r.score) }));
  }

  async chunkCount(): Promise<number> {
    const params: Params = [];
    const [r] = await this.rows<{ n: number }>(`SELECT count(*)::int AS n FROM ${this.live(params)} JOIN ${this.s}.chunks c ON c.file_id = f.file_id`, params);
    return r!.n;
  }

  async chunksById(ids: readonly string[]): Promise<Map<string, ChunkRow>> {
    const params: Params = [];
    const from = this.live(params);
    const rows = await this.rows<Omit<ChunkRow, "is_test"> & { is_test: boolean }>(
      `SELECT c.chunk_id, ${this.pathSql} AS file_path, c.chunk_type, c.title, c.symbol_path, c.language, c.start_line, c.end_line, c.tags,
         NULL AS metadata, encode(sha256(convert_to(c.text, 'UTF8')), 'hex') AS text_hash, c.is_test, c.text
       FROM ${from} JOIN ${this.s}.chunks c ON c.file_id = f.file_id WHERE c.chunk_id IN (SELECT json_array_elements_text(${bind(params, JSON.stringify(ids))}::text::json))`,
      params,
    );
    return new Map(rows.map((r) => [r.chunk_id, { ...r, is_test: r.is_test ? 1 : 0 }]));
  }

  // --- cortex_files ---

  /** The statistics tables of the live generation, named and shaped as the compiler expects. */
  private statsTables(params: Params): string {
    const from = this.live(params);
    const path = this.pathSql;
    const mod = (col: string) => (this.single ? col : `(f.repo || '/' || ${col})`);
    const defs: Record<StatsTable, string> = {
      files: `SELECT ${path} AS file_path, f.language, s.is_test, ${mod("s.module_path")} AS module_path, s.lines_total, s.lines_code, s.lines_comment,
          s.lines_blank, f.size_bytes::int AS size_bytes, s.last_modified, s.type_count, s.function_count, s.import_count
        FROM ${from} JOIN ${this.s}.stat_files s ON s.file_id = f.file_id`,
      types: `SELECT t.type_id, t.name, t.kind, ${path} AS file_path, ${mod("t.module_path")} AS module_path, t.start_line, t.end_line, t.is_exported,
          t.field_count, t.method_count
        FROM ${from} JOIN ${this.s}.stat_types t ON t.file_id = f.file_id`,
      functions: `SELECT t.function_id, t.name, ${path} AS file_path, ${mod("t.module_path")} AS module_path, t.start_line, t.end_line, t.is_exported,
          t.is_method, t.receiver_type, t.param_count, t.return_count, t.lines, t.complexity
        FROM ${from} JOIN ${this.s}.stat_functions t ON t.file_id = f.file_id`,
      imports: `SELECT t.import_id, ${path} AS file_path, t.imported_module, t.is_standard_lib, t.is_external, t.is_relative, t.symbol_count
        FROM ${from} JOIN ${this.s}.stat_imports t ON t.file_id = f.file_id`,
      modules: `SELECT ${this.single ? "m.module_path" : "(r.name || '/' || m.module_path)"} AS module_path, m.file_count, m.total_lines, m.code_lines,
          m.test_file_count, m.type_count, m.function_count, m.exported_type_count, m.exported_function_count, m.import_count,
          m.external_import_count, m.depth
        FROM ${this.s}.stat_modules m JOIN ${this.s}.repos r ON r.repo_id = m.repo_id AND m.generation = r.generation
        ${this.scope === "all" ? "" : `WHERE r.name IN (SELECT json_array_elements_text(${bind(params, JSON.stringify(this.scope))}::text::json))`}`,
    };
    return (Object.keys(STATS_TABLES) as StatsTable[]).map((t) => `${POSTGRES_DIALECT.quote(t)} AS (${defs[t]})`).join(",\n");
  }

  /**
   * Runs a compiled statistics query (placeholders $1…$n, identifiers validated by the compiler) over the
   * live generation: the five tables are common table expressions of the same names, whose own values
   * are bound after the query's.
   */
  async runStatsQuery(sql: string, params: Array<string | number | boolean | null>): Promise<{ columns: string[]; rows: unknown[][] }> {
    const all: Params = [...params];
    const ctes = this.statsTables(all);
    return this.db.queryArrays(`WITH ${ctes}\n${sql}`, all);
  }
}

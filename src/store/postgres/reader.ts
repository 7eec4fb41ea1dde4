/**
 * Reading the shared store: the live generation of one repository, several, or all, answering the
 * reader contract's questions (src/store/contract.ts) in SQL. Every statement joins the live view, so
 * each answer comes from one whole generation even while a publisher switches.
 *
 * Paths: a reader of exactly one repository answers with the repository's own paths (the local index's
 * answers, line for line); a reader of several names each file `<repo>/<path>`, so every hit names its
 * repository.
 *
 * The whole reader contract: the index state, files and their text, literal and regex candidates
 * (each generation's trigram posting lists, the local index's own), keyword search and scores ranked in SQL (tsvector, ts_rank), cortex_files statistics (the
 * files-query compiler in the PostgreSQL dialect), definitions, references and the import graph as
 * reference resolution left them, graph and project facts, and the chunk texts vectors are computed
 * from. Symbol and reference ids are the building index's, unique within one repository: a reader of
 * several repositories names them `repo_id * 2^32 + id` instead, and adds what resolves across its
 * repositories (imports of another repository's package and the references through them,
 * cross-repo.ts). Keyword scores are ts_rank's, not BM25's: they rank alike within
 * one store, not across the two.
 */
import { CortexError } from "../../core/errors.ts";
import type {
  ChunkHash,
  ChunkRow,
  EdgeRow,
  FileInfo,
  FileState,
  IndexReader,
  LanguageShare,
  LiteralHint,
  OverviewChunk,
  ProjectTotals,
  CountedFile,
  RefIntoFile,
  RefRow,
  RefSite,
  SymbolRow,
  TrigramQuery,
  VectorModel,
} from "../contract.ts";
import type { ChunkFilters, ColumnWeights, FileColumnWeights, KeywordHit } from "../chunk-search.ts";
import type { ContentFileRow } from "../content-index.ts";
import { STATS_TABLES, type StatsTable } from "../schema.ts";
import { POSTGRES_DIALECT, type SqlDialect } from "../sql-dialect.ts";
import type { PgConnection, PgValue } from "./client.ts";
import { KEYWORD_LISTS, schemaIdent } from "./schema.ts";
import { CrossRepoSql, crossIdSql, pairIn } from "./cross-repo.ts";
import { nearestChunks, storedModel } from "./vectors.ts";
import { CandidateFinder } from "../trigram-candidates.ts";
import { decodePostings, unionSorted } from "../trigrams.ts";
import { literalCondition } from "./literal-condition.ts";
import { POSTGRES_SOURCE_PREFIX } from "./source-prefix.ts";

/** Candidates of a literal search checked for the literal by the server, at most (textCandidates). */
const LITERAL_CHECK_FILES = 4096;
/** A literal check answers its files' texts too when it finds at most this many (per statement). */
const CHECKED_TEXTS = 8;
/** A file a literal's check found: its row, and its text when the check found few (else null). */
interface CheckedFile {
  row: ContentFileRow & { language: string };
  content: string | null;
}
/** From this many candidates, the check runs as LITERAL_CHECK_PARTS statements at once. */
const LITERAL_CHECK_SPLIT = 16;
const LITERAL_CHECK_PARTS = 2;

/** Which repositories a reader sees: names, or every repository of the store. */
export type RepoScope = readonly string[] | "all";

type Params = PgValue[];
type Cond = (params: Params) => string;

/** Binds a value and returns its placeholder. */
const bind = (params: Params, v: PgValue): string => {
  params.push(v);
  return `$${params.length}`;
};

/** `LIKE` text matching `s` literally (backslash is PostgreSQL's default LIKE escape). */
const likeLiteral = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export class PgIndexReader implements IndexReader {
  readonly dialect: SqlDialect = POSTGRES_DIALECT;
  private readonly s: string;
  private readonly single: boolean;
  /** Cross-repository edges and references (readers of several repositories only). */
  private readonly cross: CrossRepoSql;

  constructor(
    private readonly db: PgConnection,
    readonly scope: RepoScope,
    readonly schema = "cortex",
    /** What closing the reader releases (a connection it owns); nothing when the caller owns the client. */
    private readonly owned: { close(): Promise<void> } | undefined = undefined,
  ) {
    this.s = schemaIdent(schema);
    if (scope !== "all" && scope.length === 0) throw new CortexError("INVALID_INPUT", "repo: name at least one repository");
    this.single = scope !== "all" && scope.length === 1;
    this.cross = new CrossRepoSql(this.s, (params, alias) => this.inScope(params, alias));
  }

  // --- ids and scope across repositories (see cross-repo.ts) ---

  /** A live file `alias` is in the reader's repositories. */
  private inScope(params: Params, alias: string): string {
    return this.scope === "all" ? "TRUE" : `${alias}.repo IN (SELECT json_array_elements_text(${bind(params, JSON.stringify(this.scope))}::text::json))`;
  }

  /** A definition's or reference's id as this reader names it (`col` of a row of live file `f`). */
  private idSql(col: string): string {
    return this.single ? col : crossIdSql("f.repo_id", col);
  }

  /** `col` (an id column of a row of live file `f`) is one of `ids` as this reader names them. */
  private idIn(params: Params, col: string, ids: readonly number[]): string {
    return this.single ? `${col} IN ${this.idList(params, ids)}` : pairIn(params, "f.repo_id", col, ids);
  }

  /** Where a worker opens the same reader (postgres/open.ts): schema and repositories, never the server's URL. */
  get source(): string {
    return `${POSTGRES_SOURCE_PREFIX}${this.schema}:${this.scope === "all" ? "*" : JSON.stringify(this.scope)}`;
  }

  /** The file's path as this reader names it (SQL over the live view aliased `f`). */
  private get pathSql(): string {
    return this.single ? "f.path" : "(f.repo || '/' || f.path)";
  }

  /**
   * A chunk's id as this reader names it (chunks `c` of live files `f`): `<type>:<path>#<key>`, with the
   * path as pathSql names it, so that equal paths in two repositories are two chunks.
   */
  private get chunkIdSql(): string {
    return this.single ? "c.chunk_id" : "(split_part(c.chunk_id, ':', 1) || ':' || f.repo || '/' || substr(c.chunk_id, strpos(c.chunk_id, ':') + 1))";
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

  async close(): Promise<void> {
    await this.owned?.close();
  }

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
   * The candidates of each query from the live generations' trigram posting lists (schema.ts): the lists
   * of every trigram the queries name, for every repository of the reader, in one statement (one
   * snapshot, so one generation of each), evaluated as the local index evaluates its own. A repository
   * published before the lists existed has none: all its files are candidates until it is published again.
   */
  private async candidates(queries: readonly TrigramQuery[]): Promise<Array<Uint32Array | null>> {
    const trigrams = new Set<number>();
    const collect = (q: TrigramQuery): void => {
      if (q.op === "tri") trigrams.add(q.t);
      else if (q.op === "and" || q.op === "or") for (const a of q.args) collect(a);
    };
    for (const q of queries) collect(q);
    const params: Params = [];
    const scope = this.scope === "all" ? "" : ` WHERE r.name IN (SELECT json_array_elements_text(${bind(params, JSON.stringify(this.scope))}::text::json))`;
    // One statement, one round trip: for each repository, a primary-key lookup of its trigrams. The
    // lateral subquery stays a nested loop over the repositories (OFFSET 0 keeps the planner from pulling
    // it up into a join it could hash): repos is small and seldom analysed, and with its default estimate
    // (720 rows) the planner scanned every list in parallel (100 ms over twenty repositories) when it
    // could join them. JIT, which such an estimate also reached (250 ms of compiling for a 2 ms
    // statement), is off for the store's connections (client.ts).
    const rows = await this.rows<{ repo_id: number; generation: number; indexed: boolean; trigram: number | null; postings: Uint8Array | null }>(
      `SELECT r.repo_id, r.generation, r.postings AS indexed, p.trigram, p.postings
       FROM ${this.s}.repos r LEFT JOIN LATERAL (
         SELECT l.trigram, l.postings FROM ${this.s}.trigram_postings l
         WHERE r.postings AND l.repo_id = r.repo_id AND l.generation = r.generation AND l.trigram = ANY(${bind(params, `{${[...trigrams].join(",")}}`)}::int[])
         OFFSET 0) p ON true${scope}`,
      params,
    );
    const lists = new Map<number, Uint32Array>();
    const unlisted = new Set<number>();
    for (const r of rows) {
      if (!r.indexed) {
        if (r.generation > 0) unlisted.add(r.repo_id);
        continue;
      }
      if (r.trigram === null || r.postings === null) continue;
      const files = decodePostings(r.postings);
      const have = lists.get(r.trigram);
      lists.set(r.trigram, have === undefined ? files : unionSorted(have, files));
    }
    let always: Uint32Array = new Uint32Array(0);
    if (unlisted.size > 0) {
      const p: Params = [];
      const ids = await this.rows<{ id: string }>(
        `SELECT f.file_id AS id FROM ${this.s}.live_files f WHERE f.repo_id IN (SELECT json_array_elements_text(${bind(p, JSON.stringify([...unlisted]))}::text::json)::int) ORDER BY f.file_id`,
        p,
      );
      always = Uint32Array.from(ids, (r) => Number(r.id));
    }
    const none = new Uint32Array(0);
    const finder = new CandidateFinder({ postings: (t) => lists.get(t) ?? none });
    return queries.map((q) => {
      const found = finder.evaluate(q);
      return found === null ? null : unionSorted(found, always);
    });
  }

  /**
   * The files the posting lists admit; for a literal, those of them whose text holds it (strpos, checked by
   * the server on at most LITERAL_CHECK_FILES candidates: beyond, the engine's own reading, which stops
   * at its result limit, costs less than checking them all here).
   */
  async textCandidates(query: TrigramQuery, literal?: LiteralHint): Promise<Uint32Array | null> {
    if (query.op === "all") return null;
    const ids = (await this.candidates([query]))[0]!;
    if (literal === undefined || ids === null || ids.length === 0 || ids.length > LITERAL_CHECK_FILES) return ids;
    // Checking is reading every candidate's whole text (74 files, 6.9 MB, for "ErrNoDeadline" over twenty
    // repositories): in parts, one statement each at once, on connections of the pool, so that a server
    // with two cores reads them in about half the time (40-46 → 27 ms at load 9-11; the work is the same).
    const parts = ids.length >= LITERAL_CHECK_SPLIT ? LITERAL_CHECK_PARTS : 1;
    const checked = await Promise.all(
      Array.from({ length: parts }, (_, k) => this.holding(literal, parts === 1 ? Array.from(ids) : Array.from(ids).filter((_, i) => i % parts === k))),
    );
    this.checked = new Map();
    if (checked.some((c) => c === undefined)) return ids;
    const found = (checked as CheckedFile[][]).flat().sort((a, b) => a.row.fileId - b.row.fileId);
    for (const f of found) this.checked.set(f.row.fileId, f);
    return Uint32Array.from(found, (f) => f.row.fileId);
  }

  /**
   * Which of the files `ids` hold `literal` (undefined when the server cannot tell: literal-condition.ts),
   * as live files with their rows, and their texts when they are few. The engine asks for exactly these
   * next (textFiles, then texts): answered from here, a selective grep takes two round trips less.
   */
  private async holding(literal: LiteralHint, ids: readonly number[]): Promise<CheckedFile[] | undefined> {
    const params: Params = [];
    const holds = literalCondition(literal, "c.content", (v) => bind(params, v));
    if (holds === undefined) return undefined;
    // materialised first, so that the text is read for these files only, whatever the planner thinks of the condition
    const list = bind(params, `{${ids.join(",")}}`);
    const rows = await this.rows<{ id: string; path: string; language: string; mtime: string; size: string; content: string | null }>(
      `WITH c AS MATERIALIZED (SELECT file_id, content FROM ${this.s}.file_versions WHERE file_id = ANY(${list}::bigint[])),
         m AS MATERIALIZED (SELECT c.file_id, c.content FROM c WHERE ${holds})
       SELECT f.file_id AS id, ${this.pathSql} AS path, f.language, f.mtime_ms AS mtime, f.size_bytes AS size,
         CASE WHEN (SELECT count(*) FROM m) <= ${CHECKED_TEXTS} THEN m.content END AS content
       FROM m JOIN ${this.live(params)} ON f.file_id = m.file_id`,
      params,
    );
    return rows.map((r) => ({
      row: { fileId: Number(r.id), path: r.path, language: r.language, mtimeMs: Number(r.mtime), sizeBytes: Number(r.size) },
      content: r.content,
    }));
  }

  /** The files the last literal check found (holding): file versions never change, so any answer from here is exact. */
  private checked = new Map<number, CheckedFile>();

  async textCandidateCounts(queries: readonly TrigramQuery[]): Promise<number[]> {
    const found = await this.candidates(queries);
    const all = found.some((f) => f === null) ? await this.textFileCount() : 0;
    return found.map((f) => (f === null ? all : f.length));
  }

  async textFileCount(): Promise<number> {
    const params: Params = [];
    const [r] = await this.rows<{ n: number }>(`SELECT count(*)::int AS n FROM ${this.live(params)}`, params);
    return r!.n;
  }

  async textFiles(ids: ArrayLike<number> | null, withLanguage: boolean): Promise<ContentFileRow[]> {
    const known = ids === null ? undefined : this.fromCheck(ids, (f) => f);
    if (known !== undefined) {
      return known
        .filter((f) => f !== null)
        .map(({ row: { language, ...rest } }) => (withLanguage ? { ...rest, language } : rest))
        .sort((a, b) => a.fileId - b.fileId);
    }
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
    const known = this.fromCheck(ids, (f) => f.content);
    if (known !== undefined) {
      const encoder = new TextEncoder();
      return known.map((t) => (t === null ? undefined : as === "bytes" ? encoder.encode(t) : t));
    }
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

  /**
   * `pick` of each of `ids` as the last literal check found it; undefined unless every id is there (with
   * its text, when `pick` reads it). Ids below 0 (the engine's files read from disk) have no text.
   */
  private fromCheck<T>(ids: ArrayLike<number>, pick: (f: CheckedFile) => T): Array<T | null> | undefined {
    if (this.checked.size === 0 || ids.length === 0) return undefined;
    const out: Array<T | null> = [];
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (id < 0) {
        out.push(null);
        continue;
      }
      const f = this.checked.get(id);
      const v = f === undefined ? undefined : pick(f);
      if (v === undefined || v === null) return undefined;
      out.push(v);
    }
    return out;
  }

  // --- keyword search ---

  /**
   * SQL of the ids (file versions for the list fileWords, chunk rows otherwise) that the live generations'
   * keyword lists `list` (schema.ts) give for the lexemes of `words` (words text, bound), over the reader's
   * repositories: those in `atLeast` of the lists (1: any). Each list holds exactly the files or chunks
   * whose vector has its lexeme, so these are every row that a query of those words can match; the
   * statement matches them by their vectors. One lateral primary-key lookup per repository (as the
   * trigram lists' candidates are read). An array, for `= ANY(…)`: the rows are then read by one scan of
   * the ids in order, each page once (7,334 chunks whose heads hold "parse", "http" or "header": 46 ms,
   * where `IN (SELECT …)` fetched them one nested-loop probe at a time in 135).
   */
  private keywordIds(params: Params, list: (typeof KEYWORD_LISTS)[keyof typeof KEYWORD_LISTS], words: string, atLeast = 1): string {
    const lexemes = `tsvector_to_array(to_tsvector('english', ${bind(params, words)}))`;
    const scope = this.scope === "all" ? "" : ` WHERE r.name IN (SELECT json_array_elements_text(${bind(params, JSON.stringify(this.scope))}::text::json))`;
    const ids = `SELECT unnest(p.ids) AS id FROM ${this.s}.repos r CROSS JOIN LATERAL (
        SELECT k.${list} AS ids FROM ${this.s}.keyword_postings k
        WHERE k.repo_id = r.repo_id AND k.generation = r.generation AND k.lexeme = ANY(${lexemes}) OFFSET 0) p${scope}`;
    return `ARRAY(${atLeast > 1 ? `SELECT id FROM (${ids}) x GROUP BY id HAVING count(*) >= ${atLeast}` : ids})`;
  }

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
   *
   * Ranking every chunk that holds a common word costs a ts_rank each (18,457 chunks for "parse | http |
   * header" over twenty repositories: 190-770 ms), so fewer chunks are ranked first, each set with the
   * most any chunk outside it can score (`headlessBound`): when its ranking fills the answer with chunks
   * scoring above that, no other chunk can enter it and that is the answer, the same rows in the same
   * order as ranking all. First the chunks whose symbols, title or path hold a term (their `heads`; a
   * chunk without scores at most the body's weight); then, merged with those, the chunks whose words
   * hold two of the terms (one term in the body alone scores at most the body's weight over the number
   * of terms); else every matching chunk.
   */
  async keywordSearch(terms: readonly string[], weights: ColumnWeights, filters: ChunkFilters, limit: number): Promise<KeywordHit[]> {
    const words = [...new Set(terms.filter((t) => /^[\p{L}\p{N}_]+$/u.test(t)))];
    if (words.length === 0 || limit <= 0) return [];
    const top = Math.max(weights.symbols, weights.title, weights.path, weights.body, 1e-9);
    const w = { body: weights.body / top, path: weights.path / top, title: weights.title / top, symbols: weights.symbols / top };
    const any = words.map((t) => `'${t}'`).join(" | ");
    const fills = (hits: KeywordHit[], bound: number) => hits.length === limit && hits[limit - 1]!.score > bound * (1 + 1e-5);
    // the bounds hold for ts_rank of a disjunction of single words: a term with _ is a phrase of its parts
    const plain = words.every((t) => !t.includes("_"));
    const text = words.join(" ");
    if (plain) {
      const byHeads = await this.rankChunks(`c.heads @@ q`, any, w, filters, limit, { kind: KEYWORD_LISTS.chunkHeads, words: text });
      if (fills(byHeads, headlessBound(w))) return byHeads;
      if (words.length >= 2 && words.length <= MAX_PAIRED_TERMS) {
        const pairs = words.flatMap((a, i) => words.slice(i + 1).map((b) => `('${a}' & '${b}')`)).join(" | ");
        const [n] = await this.rows<{ n: number; single: boolean }>(
          `SELECT (SELECT count(DISTINCT l)::int FROM unnest(tsvector_to_array(to_tsvector('english', $1))) l) AS n,
             (SELECT bool_and(cardinality(tsvector_to_array(to_tsvector('english', t))) = 1) FROM json_array_elements_text($2::text::json) t) AS single`,
          [text, JSON.stringify(words)],
        );
        // a chunk holding two of the terms is in two of their lexemes' lists when each term is one lexeme
        // of its own (a stop word drops out of its pairs, and two terms of one stem pair with any chunk
        // holding it: then any list will do)
        const atLeast = n?.single && n.n === words.length ? 2 : 1;
        // the chunks holding two terms but none in their heads, ranked and merged with the heads' best
        const byPairs = await this.rankChunks(`c.words @@ to_tsquery('english', $PAIRS) AND NOT c.heads @@ q`, any, w, filters, limit, {
          kind: KEYWORD_LISTS.chunkWords,
          words: text,
          atLeast,
          pairs,
        });
        const merged = [...byHeads, ...byPairs].sort((a, b) => b.score - a.score || a.rowid - b.rowid).slice(0, limit);
        if (fills(merged, headlessBound(w) / Math.max(1, n?.n ?? 1))) return merged;
      }
    }
    return this.rankChunks("c.words @@ q", any, w, filters, limit, { kind: KEYWORD_LISTS.chunkWords, words: text });
  }

  /**
   * The best `limit` live chunks meeting `match` (over chunks `c` and the query `q` of `tsq`; `$PAIRS`
   * stands for `lists.pairs`, bound), ranked by ts_rank over their words. The chunks considered are those
   * that the keyword lists of `lists.kind` give for the lexemes of `lists.words` (keywordIds): `match`
   * must hold of none but those.
   */
  private async rankChunks(
    match: string,
    tsq: string,
    w: ColumnWeights,
    filters: ChunkFilters,
    limit: number,
    lists: { kind: (typeof KEYWORD_LISTS)[keyof typeof KEYWORD_LISTS]; words: string; atLeast?: number; pairs?: string },
  ): Promise<KeywordHit[]> {
    const params: Params = [];
    const from = this.live(params);
    const q = bind(params, tsq);
    const ws = bind(params, `{${[w.body, w.path, w.title, w.symbols].join(",")}}`);
    const cond = lists.pairs === undefined ? match : match.replace("$PAIRS", bind(params, lists.pairs));
    const ids = this.keywordIds(params, lists.kind, lists.words, lists.atLeast);
    const rank = `ts_rank(${ws}::float4[], c.words, q)`;
    // Every chunk the lists give is in a live file of the reader's repositories (the lists of the live
    // generations, read in the same statement): without a filter on paths, the best `limit` are chosen
    // from the chunks alone and their files joined for their names only (7,334 chunks for "parse http
    // header": 42 → 26 ms).
    const byChunks = !filters.files?.length && !filters.pathPrefixes?.length;
    const sql = byChunks
      ? `WITH top AS MATERIALIZED (
          SELECT c.row_id, c.file_id, c.chunk_id, ${rank} AS score FROM ${this.s}.chunks c, to_tsquery('english', ${q}) q
          WHERE ${cond} AND c.row_id = ANY(${ids})${this.chunkFilter(filters, params)}
          ORDER BY score DESC, c.row_id LIMIT ${bind(params, limit)}::int)
        SELECT c.row_id AS rowid, ${this.chunkIdSql} AS id, ${this.pathSql} AS path, c.score FROM top c JOIN ${from} ON f.file_id = c.file_id
        ORDER BY c.score DESC, c.row_id`
      : `SELECT c.row_id AS rowid, ${this.chunkIdSql} AS id, ${this.pathSql} AS path, ${rank} AS score
        FROM ${from} JOIN ${this.s}.chunks c ON c.file_id = f.file_id, to_tsquery('english', ${q}) q
        WHERE ${cond} AND c.row_id = ANY(${ids})${this.chunkFilter(filters, params)}
        ORDER BY score DESC, c.row_id LIMIT ${bind(params, limit)}::int`;
    const rows = await this.rows<{ rowid: string; id: string; path: string; score: number }>(sql, params);
    return rows.map((r) => ({ rowid: Number(r.rowid), id: r.id, filePath: r.path, score: Number(r.score) }));
  }

  async chunkTags(tags: readonly string[] | undefined, limit: number): Promise<string[]> {
    const params: Params = [];
    const from = this.live(params);
    // counted over distinct tag sets, as SQLite's interned sets count them: the same order in both stores
    const only = tags === undefined ? "" : ` WHERE j.tag IN (SELECT json_array_elements_text(${bind(params, JSON.stringify(tags))}::text::json))`;
    const rows = await this.rows<{ tag: string }>(
      `SELECT j.tag FROM (SELECT DISTINCT c.tags FROM ${from} JOIN ${this.s}.chunks c ON c.file_id = f.file_id) d,
         jsonb_array_elements_text(d.tags::jsonb) AS j(tag)${only}
       GROUP BY j.tag ORDER BY count(*) DESC, j.tag COLLATE "C" LIMIT ${bind(params, limit)}::int`,
      params,
    );
    return rows.map((r) => r.tag);
  }

  async chunkCount(): Promise<number> {
    const params: Params = [];
    const [r] = await this.rows<{ n: number }>(`SELECT count(*)::int AS n FROM ${this.live(params)} JOIN ${this.s}.chunks c ON c.file_id = f.file_id`, params);
    return r!.n;
  }

  async chunksById(ids: readonly string[]): Promise<Map<string, ChunkRow>> {
    const params: Params = [];
    const from = this.live(params);
    // the stored ids are the repository's own: over several, an id's repository (whose name may hold '/')
    // ends at one of the '/' after its type, so each split is looked up and the full id must match
    const stored = this.single ? ids : [...new Set(ids.flatMap(storedChunkIds))];
    const exact = this.single ? "" : ` AND ${this.chunkIdSql} IN (SELECT json_array_elements_text(${bind(params, JSON.stringify(ids))}::text::json))`;
    const rows = await this.rows<Omit<ChunkRow, "is_test"> & { is_test: boolean }>(
      `SELECT ${this.chunkIdSql} AS chunk_id, ${this.pathSql} AS file_path, c.chunk_type, c.title, c.symbol_path, c.language, c.start_line, c.end_line, c.tags,
         NULL AS metadata, c.text_hash, c.is_test, c.text
       FROM ${from} JOIN ${this.s}.chunks c ON c.file_id = f.file_id
       WHERE c.chunk_id IN (SELECT json_array_elements_text(${bind(params, JSON.stringify(stored))}::text::json))${exact}`,
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

  // --- definitions and references ---

  private async symbols(where: (params: Params) => string): Promise<SymbolRow[]> {
    const params: Params = [];
    const from = this.live(params);
    const cond = where(params);
    const rows = await this.rows<Record<string, unknown>>(
      `SELECT ${this.idSql("y.symbol_id")} AS id, ${this.pathSql} AS file, y.name, y.qualified_name AS qname, y.kind, y.container, f.language,
         y.start_line AS line, y.start_column AS "column", y.end_line AS "endLine", y.is_exported AS exported, y.signature
       FROM ${from} JOIN ${this.s}.symbols y ON y.file_id = f.file_id WHERE ${cond}
       ORDER BY file, y.start_line, y.start_column, y.symbol_id`,
      params,
    );
    return rows.map((r) => ({ ...(r as unknown as SymbolRow), id: Number(r.id), exported: r.exported ? 1 : 0 }));
  }

  symbolsNamed(names: readonly string[]): Promise<SymbolRow[]> {
    return this.symbols((p) => this.inPaths(p, "y.name", names));
  }

  symbolsOfFiles(paths: readonly string[]): Promise<SymbolRow[]> {
    return this.symbols((p) => this.inPaths(p, this.pathSql, paths));
  }

  symbolsById(ids: readonly number[]): Promise<SymbolRow[]> {
    return this.symbols((p) => this.idIn(p, "y.symbol_id", ids));
  }

  private async refs(where: (params: Params) => string): Promise<RefRow[]> {
    const params: Params = [];
    const from = this.live(params);
    const cond = where(params);
    const rows = await this.rows<Record<string, unknown>>(
      `SELECT ${this.refColumns()} FROM ${from} JOIN ${this.s}.refs r ON r.file_id = f.file_id WHERE ${cond} ORDER BY f.repo_id, r.ref_id`,
      params,
    );
    return this.refRows(rows);
  }

  /** A reference's columns (`r` of live file `f`) as RefRow names them; its target and resolution as stored unless given. */
  private refColumns(target = `${this.idSql("r.target_symbol_id")} AS "targetId", r.resolution`): string {
    return `${this.idSql("r.ref_id")} AS id, ${this.pathSql} AS file, r.name, r.qualifier, r.qualifier_type AS "qualifierType", r.kind, r.line, r."column",
         r.enclosing, ${this.idSql("r.enclosing_symbol_id")} AS "enclosingId", ${target}`;
  }

  /**
   * References of other repositories resolved across repositories (cross-repo.ts): `ref` filters the
   * references, `def` the definitions, `importer` and `target` the files the edges join. Resolution
   * `cross-repo`, the target's id as this reader names it.
   */
  private async crossRefs(ref?: Cond, def?: Cond, importer?: Cond, target?: Cond): Promise<RefRow[]> {
    if (this.single) return [];
    const params: Params = [];
    const columns = this.refColumns(`${crossIdSql("tf.repo_id", "y.symbol_id")} AS "targetId", 'cross-repo' AS resolution`);
    const sql = this.cross.refs(params, columns, ref, def, importer, target);
    return this.refRows(await this.rows<Record<string, unknown>>(sql, params));
  }

  private refRows(rows: Record<string, unknown>[]): RefRow[] {
    const num = (v: unknown) => (v === null ? null : Number(v));
    return rows.map((r) => ({ ...(r as unknown as RefRow), id: Number(r.id), enclosingId: num(r.enclosingId), targetId: num(r.targetId) }));
  }

  private idList(params: Params, ids: readonly number[]): string {
    return `(SELECT json_array_elements_text(${bind(params, JSON.stringify(ids))}::text::json)::bigint)`;
  }

  /** References resolved to these definitions, those of other repositories through their imports included. */
  async refsByTargets(ids: readonly number[]): Promise<RefRow[]> {
    const local = await this.refs((p) => this.idIn(p, "r.target_symbol_id", ids));
    const into = (p: Params) => pairIn(p, "tf.repo_id", "y.symbol_id", ids);
    const hasTarget = (p: Params) =>
      `EXISTS (SELECT 1 FROM ${this.s}.symbols y2 WHERE y2.file_id = tf.file_id AND ${pairIn(p, "tf.repo_id", "y2.symbol_id", ids)})`;
    return [...local, ...(await this.crossRefs(undefined, into, undefined, hasTarget))];
  }

  /** References inside these definitions; in a reader of several repositories, with what resolves across them. */
  async refsInside(ids: readonly number[]): Promise<RefRow[]> {
    // A definition's references are in its own file (the local index's enclosing id is an offset into
    // the file's definitions): the files are found through the definitions' ids, their references
    // through refs_file, with no index on the enclosing id (schema.ts).
    return this.withCrossTargets(
      await this.refs((p) => {
        const files = this.single
          ? `SELECT y.file_id FROM ${this.s}.symbols y WHERE y.symbol_id = ANY(${bind(p, `{${ids.join(",")}}`)}::text::bigint[])`
          : `SELECT y.file_id FROM ${this.s}.symbols y JOIN ${this.s}.file_versions v ON v.file_id = y.file_id WHERE ${pairIn(p, "v.repo_id", "y.symbol_id", ids)}`;
        return `r.file_id IN (${files}) AND ${this.idIn(p, "r.enclosing_symbol_id", ids)}`;
      }),
    );
  }

  /** The whole rows: the shared store's reference query is not SQLite's view, and a narrower one was not measured. */
  async refSitesByTargets(ids: readonly number[]): Promise<RefSite[]> {
    return this.refsByTargets(ids);
  }

  async unresolvedSitesNamed(name: string): Promise<RefSite[]> {
    return this.unresolvedNamed(name);
  }

  async enclosingOf(refIds: readonly number[]): Promise<Map<number, string | null>> {
    if (refIds.length === 0) return new Map();
    return new Map((await this.refs((p) => this.idIn(p, "r.ref_id", refIds))).map((r) => [r.id, r.enclosing]));
  }

  /** Unresolved references of this name; those a reader of several repositories resolves across them are not. */
  async unresolvedNamed(name: string): Promise<RefRow[]> {
    const open = await this.refs((p) => `r.name = ${bind(p, name)} AND r.target_symbol_id IS NULL`);
    if (this.single || open.length === 0) return open;
    const resolved = new Set((await this.crossTargets(open)).keys());
    return open.filter((r) => !resolved.has(r.id));
  }

  /** The cross-repository targets of these references that their own index left unresolved, by reference id. */
  private async crossTargets(refs: RefRow[]): Promise<Map<number, RefRow>> {
    const open = refs.filter((r) => r.targetId === null).map((r) => r.id);
    if (this.single || open.length === 0) return new Map();
    const rows = await this.crossRefs(
      (p) => pairIn(p, "f.repo_id", "r.ref_id", open),
      undefined,
      (p) => `EXISTS (SELECT 1 FROM ${this.s}.refs r2 WHERE r2.file_id = f.file_id AND ${pairIn(p, "f.repo_id", "r2.ref_id", open)})`,
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** These references with the targets a reader of several repositories finds across them. */
  private async withCrossTargets(refs: RefRow[]): Promise<RefRow[]> {
    const cross = await this.crossTargets(refs);
    return cross.size === 0 ? refs : refs.map((r) => cross.get(r.id) ?? r);
  }

  async refsIntoFiles(paths: readonly string[]): Promise<RefIntoFile[]> {
    const params: Params = [];
    const from = this.live(params);
    const targetPath = this.single ? "tf.path" : "(tf.repo || '/' || tf.path)";
    const rows = await this.rows<Record<string, unknown>>(
      `SELECT ${this.idSql("r.ref_id")} AS id, ${this.pathSql} AS file, r.name, r.kind, r.line, r."column", ${this.idSql("r.target_symbol_id")} AS "targetId",
         ${targetPath} AS "targetFile"
       FROM ${from} JOIN ${this.s}.refs r ON r.file_id = f.file_id
         JOIN ${this.s}.symbols t ON t.symbol_id = r.target_symbol_id
         JOIN ${this.s}.live_files tf ON tf.file_id = t.file_id AND tf.repo_id = f.repo_id
       WHERE ${this.inPaths(params, targetPath, paths)} AND f.path <> tf.path ORDER BY f.repo_id, r.ref_id`,
      params,
    );
    const local = rows.map((r) => ({ ...(r as unknown as RefIntoFile), id: Number(r.id), targetId: Number(r.targetId) }));
    if (this.single) return local;
    // and the references of other repositories through their imports
    const into = (p: Params) => this.inPaths(p, targetPath, paths);
    const cross = await this.crossRefs(undefined, into, undefined, into);
    const files = await this.symbolsById([...new Set(cross.map((r) => r.targetId!))]);
    const fileOf = new Map(files.map((y) => [y.id, y.file]));
    return [
      ...local,
      ...cross.map((r) => ({
        id: r.id,
        file: r.file,
        name: r.name,
        kind: r.kind,
        line: r.line,
        column: r.column,
        targetId: r.targetId!,
        targetFile: fileOf.get(r.targetId!)!,
      })),
    ];
  }

  async methodOwners(language: string, names: readonly string[]): Promise<Array<{ container: string; name: string; file: string }>> {
    const params: Params = [];
    const from = this.live(params);
    return this.rows(
      `SELECT DISTINCT y.container, y.name, ${this.pathSql} AS file FROM ${from} JOIN ${this.s}.symbols y ON y.file_id = f.file_id
       WHERE f.language = ${bind(params, language)} AND y.kind = 'method' AND y.container IS NOT NULL AND ${this.inPaths(params, "y.name", names)}
       ORDER BY file, y.container, y.name`,
      params,
    );
  }

  private async names(cond: (params: Params) => string, limit: number | undefined): Promise<string[]> {
    const params: Params = [];
    const from = this.live(params);
    const where = cond(params);
    const rows = await this.rows<{ name: string }>(
      `SELECT DISTINCT y.name FROM ${from} JOIN ${this.s}.symbols y ON y.file_id = f.file_id WHERE ${where} ORDER BY y.name${limit === undefined ? "" : ` LIMIT ${limit}`}`,
      params,
    );
    return rows.map((r) => r.name);
  }

  /** Names equal ignoring ASCII case (SQLite's NOCASE). */
  namesIgnoringCase(name: string): Promise<string[]> {
    return this.names(
      (p) =>
        `translate(y.name, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') = ${bind(
          p,
          name.replace(/[A-Z]/g, (c) => c.toLowerCase()),
        )}`,
      20,
    );
  }

  namesContaining(fragment: string): Promise<string[]> {
    return this.names((p) => `y.name ILIKE ${bind(p, `%${likeLiteral(fragment)}%`)}`, 50);
  }

  namesOfLength(min: number, max: number): Promise<string[]> {
    return this.names((p) => `length(y.name) BETWEEN ${bind(p, min)}::int AND ${bind(p, max)}::int`, undefined);
  }

  // --- the import graph ---

  /** Edges (one row per import statement and target) of the live files, with a condition on them. */
  private async edges(where: (params: Params, file: string, target: string) => string): Promise<EdgeRow[]> {
    const params: Params = [];
    const from = this.live(params);
    const target = this.single ? "e.target_file" : "(f.repo || '/' || e.target_file)";
    const local = `SELECT e.site_id AS "siteId", ${this.pathSql} AS file, ${target} AS target, s.line, s."column", s.imported_module AS module
       FROM ${from} JOIN ${this.s}.import_edges e ON e.file_id = f.file_id
         JOIN ${this.s}.import_sites s ON s.file_id = e.file_id AND s.site_id = e.site_id`;
    // a reader of several repositories adds the imports of another repository's package (cross-repo.ts)
    const cross = this.single
      ? ""
      : ` UNION ALL SELECT e.site_id, (e.repo || '/' || e.path), (e.t_repo || '/' || e.t_path), s.line, s."column", s.imported_module
       FROM ${this.cross.edges(params)} JOIN ${this.s}.import_sites s ON s.file_id = e.file_id AND s.site_id = e.site_id`;
    const rows = await this.rows<Record<string, unknown>>(
      `SELECT * FROM (${local}${cross}) x WHERE ${where(params, "x.file", "x.target")} ORDER BY x.file, x.line, x."column", x.target`,
      params,
    );
    return rows.map((r) => ({ ...(r as unknown as EdgeRow), siteId: Number(r.siteId) }));
  }

  edgesOf(paths: readonly string[]): Promise<EdgeRow[]> {
    return this.edges((p, file) => this.inPaths(p, file, paths));
  }

  edgesInto(paths: readonly string[]): Promise<EdgeRow[]> {
    return this.edges((p, _file, target) => this.inPaths(p, target, paths));
  }

  /** One edge per pair of files among `files`: its first import statement (as the local index answers). */
  async edgesAmong(files: readonly string[]): Promise<EdgeRow[]> {
    const all = await this.edges((p, file, target) => `${this.inPaths(p, file, files)} AND ${this.inPaths(p, target, files)}`);
    const pairs = new Map<string, EdgeRow>();
    for (const e of all) {
      const key = `${e.file}\0${e.target}`;
      const seen = pairs.get(key);
      if (!seen) pairs.set(key, { ...e, column: 1, module: "" });
      else {
        seen.siteId = Math.min(seen.siteId, e.siteId);
        seen.line = Math.min(seen.line, e.line);
      }
    }
    return [...pairs.values()];
  }

  async firstImports(pairs: ReadonlyArray<readonly [string, string]>): Promise<Map<string, { line: number; column: number; module: string }>> {
    const files = [...new Set(pairs.map(([f]) => f))];
    const wanted = new Set(pairs.map(([f, t]) => `${f}\0${t}`));
    const out = new Map<string, { line: number; column: number; module: string }>();
    // edges come in (file, line, column) order: the first one seen for a pair is its first import statement
    for (const e of await this.edgesOf(files)) {
      const key = `${e.file}\0${e.target}`;
      if (wanted.has(key) && !out.has(key)) out.set(key, { line: e.line, column: e.column, module: e.module });
    }
    return out;
  }

  async componentFiles(dir: string | undefined): Promise<Map<number, string[]>> {
    const params: Params = [];
    const scope = this.scope === "all" ? "" : ` AND r.name IN (SELECT json_array_elements_text(${bind(params, JSON.stringify(this.scope))}::text::json))`;
    const path = this.single ? "c.file_path" : "(r.name || '/' || c.file_path)";
    const under = dir === undefined || dir === "" ? "" : ` AND ${path} LIKE ${bind(params, `${likeLiteral(dir.replace(/\/+$/, ""))}/%`)}`;
    const rows = await this.rows<{ file: string; component: number; repo_id: number }>(
      `SELECT ${path} AS file, c.component, r.repo_id FROM ${this.s}.import_components c
         JOIN ${this.s}.repos r ON r.repo_id = c.repo_id AND c.generation = r.generation
       WHERE TRUE${scope}${under} ORDER BY file`,
      params,
    );
    // components are numbered per repository: several repositories' numbers are kept apart
    const out = new Map<number, string[]>();
    for (const r of rows) {
      const key = this.single ? r.component : r.repo_id * 1_000_000 + r.component;
      const list = out.get(key);
      if (list) list.push(r.file);
      else out.set(key, [r.file]);
    }
    return out;
  }

  async importGraphSize(dir: string): Promise<{ files: number; edges: number }> {
    const prefix = dir.replace(/\/+$/, "");
    const pairs = new Set<string>();
    const files = new Set<string>();
    const under = (p: string) => prefix === "" || p.startsWith(`${prefix}/`);
    for (const e of await this.edges(() => "TRUE")) {
      if (!under(e.file) || !under(e.target)) continue;
      pairs.add(`${e.file}\0${e.target}`);
      files.add(e.file);
    }
    return { files: files.size, edges: pairs.size };
  }

  // --- chunk texts for vectors ---

  async chunkHashes(filters?: ChunkFilters): Promise<ChunkHash[]> {
    const params: Params = [];
    const from = this.live(params);
    const where = filters === undefined ? "" : this.chunkFilter(filters, params);
    const rows = await this.rows<{ id: string; hash: string }>(
      `SELECT ${this.chunkIdSql} AS id, c.text_hash AS hash
       FROM ${from} JOIN ${this.s}.chunks c ON c.file_id = f.file_id WHERE TRUE${where} ORDER BY c.row_id`,
      params,
    );
    return rows.map((r) => ({ id: r.id, hash: r.hash }));
  }

  async chunkTextsByHash(hashes: readonly string[]): Promise<Map<string, string>> {
    const params: Params = [];
    const from = this.live(params);
    const rows = await this.rows<{ hash: string; text: string }>(
      `SELECT DISTINCT ON (c.text_hash) c.text_hash AS hash, c.text
       FROM ${from} JOIN ${this.s}.chunks c ON c.file_id = f.file_id
       WHERE c.text_hash IN (SELECT json_array_elements_text(${bind(params, JSON.stringify(hashes))}::text::json))`,
      params,
    );
    return new Map(rows.map((r) => [r.hash, r.text]));
  }

  // --- vectors held in the store (pgvector; postgres/vectors.ts) ---

  /** The dimension of `model`'s vectors when the store holds them for every repository of this reader. */
  async storedVectorDimensions(model: VectorModel): Promise<number | undefined> {
    return (await this.vectorModel(model))?.dimensions;
  }

  /** The `k` chunks nearest to `vector` among those passing `filters`, in SQL; [] when the store lacks `model`'s vectors. */
  async nearestChunks(model: VectorModel, vector: Float32Array, k: number, filters: ChunkFilters): Promise<Array<{ id: string; score: number }>> {
    const stored = await this.vectorModel(model);
    if (stored === undefined) return [];
    const params: Params = [];
    const from = this.live(params);
    const where = this.chunkFilter(filters, params);
    return nearestChunks(this.db, this.s, stored, { from, where, params, idSql: this.chunkIdSql }, vector, k);
  }

  private vectorModel(model: VectorModel) {
    const params: Params = [];
    const scope = this.scope === "all" ? "TRUE" : `r.name IN (SELECT json_array_elements_text(${bind(params, JSON.stringify(this.scope))}::text::json))`;
    return storedModel(this.db, this.s, this.schema, model, scope, params);
  }

  // --- graph facts per search result ---

  async importers(file: string): Promise<CountedFile[]> {
    const edges = await this.edgesInto([file]);
    return counted(edges.filter((e) => e.file !== file).map((e) => e.file));
  }

  async symbolIdsNamedWithin(file: string, name: string, startLine: number, endLine: number): Promise<number[]> {
    return (await this.symbolsOfFiles([file])).filter((y) => y.name === name && y.line >= startLine && y.line <= endLine).map((y) => y.id);
  }

  async symbolIdsOf(file: string): Promise<number[]> {
    return (await this.symbolsOfFiles([file])).map((y) => y.id);
  }

  async users(ids: readonly number[], except: string): Promise<CountedFile[]> {
    if (ids.length === 0) return [];
    return counted((await this.refsByTargets(ids)).filter((r) => r.kind !== "import" && r.file !== except).map((r) => r.file));
  }

  async unresolvedCallers(name: string, except: string): Promise<string[]> {
    const refs = await this.unresolvedNamed(name);
    return [...new Set(refs.filter((r) => r.kind === "call" && r.file !== except).map((r) => r.file))].sort().slice(0, 500);
  }

  async importedModules(): Promise<Array<{ file: string; module: string }>> {
    const params: Params = [];
    const from = this.live(params);
    return this.rows(
      `SELECT ${this.pathSql} AS file, i.imported_module AS module FROM ${from} JOIN ${this.s}.stat_imports i ON i.file_id = f.file_id ORDER BY file, module`,
      params,
    );
  }

  async topLevelNames(file: string, limit: number): Promise<string[]> {
    const defs = (await this.symbolsOfFiles([file])).filter((y) => y.container === null);
    // exported first, then by position (a stable sort keeps source order within each group)
    return defs
      .sort((a, b) => b.exported - a.exported)
      .slice(0, limit)
      .map((y) => y.name);
  }

  async inImportCycles(files: readonly string[]): Promise<string[]> {
    if (files.length === 0) return [];
    const wanted = new Set(files);
    return [...(await this.componentFiles(undefined)).values()].flat().filter((f) => wanted.has(f));
  }

  // --- whole-project facts ---

  async languageShares(): Promise<LanguageShare[]> {
    const params: Params = [];
    const from = this.live(params);
    return this.rows(
      `SELECT f.language, count(*)::int AS files, sum(s.lines_code)::int AS code_lines, sum(s.lines_comment)::int AS comment_lines,
         sum(s.is_test::int)::int AS test_files
       FROM ${from} JOIN ${this.s}.stat_files s ON s.file_id = f.file_id GROUP BY f.language ORDER BY code_lines DESC, files DESC, f.language`,
      params,
    );
  }

  async importUsage(): Promise<Array<{ module: string; files: number; external: boolean; std: boolean }>> {
    const params: Params = [];
    const from = this.live(params);
    return this.rows(
      `SELECT i.imported_module AS module, count(DISTINCT ${this.pathSql})::int AS files, bool_or(i.is_external) AS external, bool_or(i.is_standard_lib) AS std
       FROM ${from} JOIN ${this.s}.stat_imports i ON i.file_id = f.file_id GROUP BY i.imported_module ORDER BY files DESC, module`,
      params,
    );
  }

  async projectTotals(): Promise<ProjectTotals> {
    const params: Params = [];
    const from = this.live(params);
    const [r] = await this.rows<Record<string, number>>(
      `WITH lf AS (SELECT f.file_id, f.size_bytes FROM ${from})
       SELECT (SELECT count(*)::int FROM lf JOIN ${this.s}.stat_files s USING (file_id)) AS files,
         (SELECT coalesce(sum(s.lines_code), 0)::int FROM lf JOIN ${this.s}.stat_files s USING (file_id)) AS code_lines,
         (SELECT coalesce(sum(s.lines_comment), 0)::int FROM lf JOIN ${this.s}.stat_files s USING (file_id)) AS comment_lines,
         (SELECT coalesce(sum(s.lines_blank), 0)::int FROM lf JOIN ${this.s}.stat_files s USING (file_id)) AS blank_lines,
         (SELECT coalesce(sum(s.is_test::int), 0)::int FROM lf JOIN ${this.s}.stat_files s USING (file_id)) AS test_files,
         (SELECT coalesce(sum(lf.size_bytes), 0)::float8 FROM lf JOIN ${this.s}.stat_files s USING (file_id)) AS size_bytes,
         (SELECT count(*)::int FROM lf JOIN ${this.s}.stat_types t USING (file_id)) AS types,
         (SELECT count(*)::int FROM lf JOIN ${this.s}.stat_functions t USING (file_id)) AS functions,
         (SELECT coalesce(sum(t.is_exported::int), 0)::int FROM lf JOIN ${this.s}.stat_functions t USING (file_id)) AS exported_functions,
         (SELECT coalesce(avg(t.complexity), 0)::float8 FROM lf JOIN ${this.s}.stat_functions t USING (file_id)) AS avg_complexity`,
      params,
    );
    const modules = (await this.runStatsQuery('SELECT count(*) AS n FROM "modules"', [])).rows[0]![0] as number;
    return {
      files: r!.files!,
      code_lines: r!.code_lines!,
      comment_lines: r!.comment_lines!,
      blank_lines: r!.blank_lines!,
      test_files: r!.test_files!,
      types: r!.types!,
      functions: r!.functions!,
      exported_functions: r!.exported_functions!,
      modules,
      average_complexity: Math.round(Number(r!.avg_complexity) * 100) / 100,
      size_bytes: Number(r!.size_bytes),
    };
  }

  async importsByFile(): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    for (const r of await this.importedModules()) {
      const list = out.get(r.file);
      if (list) list.push(r.module);
      else out.set(r.file, [r.module]);
    }
    return out;
  }

  async callsByFile(): Promise<Map<string, Set<string>>> {
    const params: Params = [];
    const from = this.live(params);
    const rows = await this.rows<{ file: string; name: string; qualifier: string | null }>(
      `SELECT ${this.pathSql} AS file, r.name, r.qualifier FROM ${from} JOIN ${this.s}.refs r ON r.file_id = f.file_id WHERE r.kind = 'call'`,
      params,
    );
    const out = new Map<string, Set<string>>();
    for (const r of rows) {
      let set = out.get(r.file);
      if (!set) out.set(r.file, (set = new Set()));
      set.add(r.name);
      if (r.qualifier) set.add(`${r.qualifier}.${r.name}`);
    }
    return out;
  }

  // --- keyword scores for ranking ---

  /** Definition chunks of symbols named exactly one of `names` (the chunk spans the definition's first line). */
  async definitionsNamed(names: readonly string[], filters: ChunkFilters, limit: number): Promise<Array<{ id: string; filePath: string; name: string }>> {
    if (names.length === 0) return [];
    const params: Params = [];
    const from = this.live(params);
    return this.rows(
      `SELECT ${this.chunkIdSql} AS id, ${this.pathSql} AS "filePath", y.name FROM ${from}
         JOIN ${this.s}.symbols y ON y.file_id = f.file_id
         JOIN ${this.s}.chunks c ON c.file_id = f.file_id AND c.chunk_type = 'definitions' AND c.start_line <= y.start_line AND c.end_line >= y.start_line
           AND (c.symbol_path = y.name OR c.symbol_path LIKE '%.' || y.name)
       WHERE ${this.inPaths(params, "y.name", names)}${this.chunkFilter(filters, params)} LIMIT ${bind(params, limit)}::int`,
      params,
    );
  }

  /** Each weighted term asked alone (its best `perTermLimit` chunks), its rank times its weight summed per chunk. */
  async weightedChunkScores(
    terms: ReadonlyMap<string, number>,
    weights: ColumnWeights,
    filters: ChunkFilters,
    perTermLimit = 1000,
  ): Promise<Map<string, { filePath: string; score: number }>> {
    const out = new Map<string, { filePath: string; score: number }>();
    for (const [term, w] of terms) {
      if (w === 0) continue;
      for (const h of await this.keywordSearch([term], weights, filters, perTermLimit)) {
        const seen = out.get(h.id);
        if (seen) seen.score += w * h.score;
        else out.set(h.id, { filePath: h.filePath, score: w * h.score });
      }
    }
    return out;
  }

  /**
   * The same over whole files: path (A), defined names (B) and text (D) weighed by ts_rank. Comments are
   * not told apart from code here (the building index keeps no comment ranges), so `doc` weighs nothing.
   */
  async weightedFileScores(
    terms: ReadonlyMap<string, number>,
    weights: FileColumnWeights,
    filters: ChunkFilters,
    perTermLimit = 2000,
  ): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const top = Math.max(weights.path, weights.defs, weights.code, 1e-9);
    const w = `{${[weights.code / top, 0, weights.defs / top, weights.path / top].join(",")}}`;
    for (const [term, tw] of terms) {
      if (tw === 0 || !/^[\p{L}\p{N}_]+$/u.test(term)) continue;
      const params: Params = [];
      const from = this.live(params);
      const conds: string[] = [];
      if (filters.languages?.length) conds.push(this.inPaths(params, "f.language", filters.languages));
      if (filters.files?.length) conds.push(this.inPaths(params, this.pathSql, filters.files));
      if (filters.pathPrefixes?.length) {
        conds.push(`(${filters.pathPrefixes.map((p) => `${this.pathSql} LIKE ${bind(params, `${likeLiteral(p.replace(/\/+$/, ""))}/%`)}`).join(" OR ")})`);
      }
      if (filters.excludeTests) conds.push(`NOT EXISTS (SELECT 1 FROM ${this.s}.stat_files t WHERE t.file_id = f.file_id AND t.is_test)`);
      const q = bind(params, `'${term}'`);
      const ids = this.keywordIds(params, KEYWORD_LISTS.fileWords, term);
      const rows = await this.rows<{ path: string; score: number }>(
        `SELECT ${this.pathSql} AS path, ts_rank(${bind(params, w)}::float4[], f.words, q) AS score
         FROM ${from}, to_tsquery('english', ${q}) q WHERE f.words @@ q AND f.file_id = ANY(${ids})${conds.map((c) => ` AND ${c}`).join("")}
         ORDER BY score DESC LIMIT ${bind(params, perTermLimit)}::int`,
        params,
      );
      for (const r of rows) out.set(r.path, (out.get(r.path) ?? 0) + tw * Number(r.score));
    }
    return out;
  }

  async definingFiles(names: readonly string[]): Promise<Map<string, Set<string>>> {
    const out = new Map<string, Set<string>>();
    for (const y of await this.symbolsNamed(names)) {
      const set = out.get(y.name);
      if (set) set.add(y.file);
      else out.set(y.name, new Set([y.file]));
    }
    return out;
  }

  /** Each file's overview chunk (type "symbols"), else its first chunk. */
  async fileOverviewChunks(paths: readonly string[]): Promise<Map<string, OverviewChunk>> {
    const params: Params = [];
    const from = this.live(params);
    const rows = await this.rows<{ id: string; path: string; type: string; symbol_path: string | null; is_test: boolean }>(
      `SELECT DISTINCT ON (path) ${this.chunkIdSql} AS id, ${this.pathSql} AS path, c.chunk_type AS type, c.symbol_path, c.is_test
       FROM ${from} JOIN ${this.s}.chunks c ON c.file_id = f.file_id WHERE ${this.inPaths(params, this.pathSql, paths)}
       ORDER BY path, (c.chunk_type = 'symbols') DESC, c.start_line`,
      params,
    );
    return new Map(rows.map((r) => [r.path, { id: r.id, filePath: r.path, chunkType: r.type, symbolPath: r.symbol_path, isTest: r.is_test, score: 0 }]));
  }

  async filesPassing(paths: readonly string[], filters: ChunkFilters): Promise<Set<string>> {
    const params: Params = [];
    const from = this.live(params);
    const rows = await this.rows<{ path: string }>(
      `SELECT DISTINCT ${this.pathSql} AS path FROM ${from} JOIN ${this.s}.chunks c ON c.file_id = f.file_id
       WHERE ${this.inPaths(params, this.pathSql, paths)}${this.chunkFilter(filters, params)}`,
      params,
    );
    return new Set(rows.map((r) => r.path));
  }
}

/** Keyword search tries chunks holding two of the terms only for this many terms at most (28 pairs). */
const MAX_PAIRED_TERMS = 8;

/**
 * The most a chunk can score (ts_rank, weights relative to the largest) when no term is among its
 * symbols', title's or path's words, every position of a term a body (D) one. ts_rank gives a term
 * (w_jm + Σ_j w_j/(j+1)² − w_jm/(jm+1)²) / (π²/6) over its positions j in order, jm the first of the
 * heaviest: with one weight throughout that is below the weight (Σ 1/(j+1)² < π²/6); a query's score is
 * the mean over its distinct words.
 */
export function headlessBound(w: ColumnWeights): number {
  return w.body;
}

/** Files counted by how often they occur, most first, then by path. */
function counted(files: string[]): CountedFile[] {
  const n = new Map<string, number>();
  for (const f of files) n.set(f, (n.get(f) ?? 0) + 1);
  return [...n].map(([file, count]) => ({ file, count })).sort((a, b) => b.count - a.count || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** The ids a repository may have stored for `<type>:<repo>/<path>#<key>`: one per '/' the repository's name may end at. */
function storedChunkIds(id: string): string[] {
  const colon = id.indexOf(":");
  if (colon < 0) return [];
  const out: string[] = [];
  for (let i = id.indexOf("/", colon + 1); i >= 0; i = id.indexOf("/", i + 1)) out.push(id.slice(0, colon + 1) + id.slice(i + 1));
  return out;
}

/**
 * Keyword (BM25) retrieval over search chunks, through the chunks_fts index. Filters apply inside the
 * query, so a filtered search still returns `limit` hits when they exist.
 */
import { chunkTexts } from "./chunk-text.ts";
import { sqliteOf } from "./sqlite-access.ts";
import type { IndexStore } from "./index-store.ts";
import { boundedTopK, type TopK } from "./keyword-topk.ts";

export interface ChunkFilters {
  chunkTypes?: string[];
  /** Every tag must be on the chunk. */
  tags?: string[];
  languages?: string[];
  /** Root-relative folder or file prefixes; a hit must be under one of them. */
  pathPrefixes?: string[];
  /** Exact root-relative file paths; a hit must be in one of them (a filter computed per file, e.g. by layer). */
  files?: string[];
  excludeTests?: boolean;
}

export interface KeywordHit {
  rowid: number;
  id: string;
  filePath: string;
  /** BM25 score, higher is better (SQLite's bm25() negated). */
  score: number;
}

export interface ColumnWeights {
  symbols: number;
  title: number;
  path: number;
  body: number;
}

/**
 * bm25() over chunks_fts with the fields' weights. The title column leaves out the symbol path's words
 * (indexer/chunker.ts: every chunk with a symbol path has it in its title), which the symbols column holds
 * once; so the symbols column carries the title's weight too, and a word's weighted count stays what it was
 * with the path in both columns (4 + 2 for a definition's name).
 */
function chunkRank(weights: ColumnWeights): string {
  return `bm25(chunks_fts, ${weights.body}, ${weights.symbols + weights.title}, ${weights.title}, ${weights.path})`;
}

/** Quotes each term for an FTS5 MATCH expression (terms are already lower-cased words). */
export function matchExpression(terms: string[]): string {
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(" OR ");
}

export function filterClause(f: ChunkFilters, params: Array<string | number>): string {
  const parts: string[] = [];
  if (f.chunkTypes?.length) {
    parts.push(`c.chunk_type IN (${f.chunkTypes.map(() => "?").join(",")})`);
    params.push(...f.chunkTypes);
  }
  if (f.languages?.length) {
    parts.push(`c.language IN (${f.languages.map(() => "?").join(",")})`);
    params.push(...f.languages);
  }
  for (const t of f.tags ?? []) {
    parts.push("EXISTS (SELECT 1 FROM json_each(c.tags) WHERE json_each.value = ?)");
    params.push(t);
  }
  if (f.pathPrefixes?.length) {
    const ors = f.pathPrefixes.map((p) => {
      if (p === "" || p === ".") return "1";
      params.push(p, p.replace(/\/$/, "") + "/%");
      return "(c.file_path = ? OR c.file_path LIKE ?)";
    });
    parts.push(`(${ors.join(" OR ")})`);
  }
  if (f.files) {
    parts.push("c.file_path IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(f.files));
  }
  if (f.excludeTests) parts.push("NOT EXISTS (SELECT 1 FROM files x WHERE x.file_path = c.file_path AND x.is_test)");
  return parts.length ? " AND " + parts.join(" AND ") : "";
}

/**
 * The best `limit` chunks for the terms OR-ed, by weighted BM25 (FTS5's bm25 over body, symbols, title,
 * path), ties by rowid. Ranked by groups of rows with a bound (store/keyword-topk.ts): the same rows in the
 * same order as ranking every chunk that holds a term, without a bm25 for each of them.
 */
export function keywordSearch(
  store: IndexStore,
  terms: string[],
  weights: ColumnWeights,
  filters: ChunkFilters,
  limit: number,
  minRows?: number,
): KeywordHit[] {
  return keywordTopK(store, terms, weights, filters, limit, minRows).rows;
}

/** keywordSearch with the plan it took (for the tests and the benchmarks). */
export function keywordTopK(
  store: IndexStore,
  terms: string[],
  weights: ColumnWeights,
  filters: ChunkFilters,
  limit: number,
  minRows?: number,
): TopK<KeywordHit> {
  if (terms.length === 0) return { rows: [], plan: "all", expressions: [] };
  const db = sqliteOf(store);
  const params: Array<string | number> = [];
  const where = filterClause(filters, params);
  const rank = chunkRank(weights);
  // without filters the best rows are chosen from the keyword index alone and only they are joined: the
  // chunks view joins three tables, and joining every match before the sort doubled a common word's cost
  const ranked = where
    ? db.query(`SELECT c.rowid AS rowid, c.chunk_id AS id, c.file_path AS filePath, -${rank} AS score
        FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid
        WHERE chunks_fts MATCH ?${where} ORDER BY score DESC, c.rowid LIMIT ?`)
    : db.query(`SELECT rowid, -${rank} AS score FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY score DESC, rowid LIMIT ?`);
  const counted = db.query("SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ?");
  // bm25's weights are what make each phrase's part below idf·(k1+1): a negative one would not
  const bounded = Object.values(weights).every((w) => w >= 0);
  // one read transaction: the counts, the bounds and every group's ranking from one snapshot of the index,
  // which another connection may change between two statements
  return db.transaction(() => {
    const top = boundedTopK(
      terms,
      limit,
      {
        rank: (expression, n) => ranked.all(expression, ...params, n) as KeywordHit[],
        rowsHolding: (phrase) => (counted.get(phrase) as { n: number }).n,
        rowCount: () => (bounded ? ftsRowCount(store, "chunks_fts") : undefined),
      },
      minRows,
    );
    if (where || top.rows.length === 0) return top;
    const rows = db
      .query("SELECT rowid, chunk_id AS id, file_path AS filePath FROM chunks WHERE rowid IN (SELECT value FROM json_each(?))")
      .all(JSON.stringify(top.rows.map((r) => r.rowid))) as Array<{ rowid: number; id: string; filePath: string }>;
    const byRow = new Map(rows.map((r) => [r.rowid, r]));
    const hits: KeywordHit[] = [];
    for (const r of top.rows) {
      const c = byRow.get(r.rowid);
      if (c) hits.push({ rowid: r.rowid, id: c.id, filePath: c.filePath, score: r.score });
    }
    return { ...top, rows: hits };
  })();
}

/**
 * The number of rows an FTS5 table counts for its idf: the first varint of its averages record (rowid 1 of
 * its `_data` table, sqlite/ext/fts5/fts5_index.c), one read instead of a count of every row.
 */
export function ftsRowCount(store: IndexStore, table: "chunks_fts" | "files_fts"): number | undefined {
  const r = sqliteOf(store).query(`SELECT block FROM ${table}_data WHERE id = 1`).get() as { block: Uint8Array } | null;
  if (!r || !(r.block instanceof Uint8Array)) return undefined;
  // SQLite's varint: seven bits a byte, high bit set on all but the last, at most nine bytes (the ninth whole)
  let v = 0;
  for (let i = 0; i < Math.min(r.block.length, 9); i++) {
    const b = r.block[i]!;
    if (i === 8) return v * 256 + b;
    v = v * 128 + (b & 0x7f);
    if (b < 0x80) return v;
  }
  return undefined;
}

/** Definitions whose symbol name is one of `names` (exact, case-sensitive), for definition-first ranking. */
export function definitionsNamed(store: IndexStore, names: string[], filters: ChunkFilters, limit = 50): Array<{ id: string; filePath: string; name: string }> {
  if (names.length === 0) return [];
  const params: Array<string | number> = [...names];
  const where = filterClause(filters, params);
  params.push(limit);
  return sqliteOf(store)
    .query(`SELECT c.chunk_id AS id, c.file_path AS filePath, s.name AS name FROM symbols s
      JOIN chunks c ON c.file_path = s.file_path AND c.chunk_type = 'definitions' AND c.start_line <= s.start_line AND c.end_line >= s.start_line
        AND (c.symbol_path = s.name OR c.symbol_path LIKE '%.' || s.name)
      WHERE s.name IN (${names.map(() => "?").join(",")})${where} LIMIT ?`)
    .all(...params) as Array<{ id: string; filePath: string; name: string }>;
}

/**
 * The files a chunk id can belong to. An id is `<type>:<path>#<key>` (indexer/chunker.ts): the type has no
 * colon, and the path ends at one of the '#' after it (a key may hold '#' too, Ruby's `Class#method`).
 */
export function chunkIdPaths(id: string): string[] {
  const colon = id.indexOf(":");
  if (colon < 0) return [];
  const out: string[] = [];
  for (let i = id.indexOf("#", colon + 1); i >= 0; i = id.indexOf("#", i + 1)) out.push(id.slice(colon + 1, i));
  return out;
}

/**
 * Full rows of chunks by id, each with its `text` read back from the content (store/chunk-text.ts). Ids
 * are not indexed (unique per file by construction, an index on them took 9 MiB of go-src's index): the
 * rows are found through their files' index, then by id.
 */
export function chunksById(store: IndexStore, ids: string[], withText = true): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  if (ids.length === 0) return out;
  const paths = [...new Set(ids.flatMap(chunkIdPaths))];
  const rows = sqliteOf(store)
    .query(`SELECT c.*, lower(hex(c.text_hash)) AS text_hash, c.file_path AS filePath, f.is_test AS is_test FROM chunks c JOIN files f ON f.file_path = c.file_path
      WHERE c.file_path IN (SELECT value FROM json_each(?)) AND c.chunk_id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(paths), JSON.stringify(ids)) as Array<Record<string, unknown> & { filePath: string; prefix: string | Uint8Array; spans: string }>;
  if (!withText) {
    for (const r of rows) out.set(r.chunk_id as string, { ...r, text: "" });
    return out;
  }
  for (const [r, text] of chunkTexts(rows, (p) => store.contentOf(p))) out.set(r.chunk_id as string, { ...r, text });
  return out;
}

/**
 * Weighted BM25: each distinct term is asked separately (bm25 is a sum over terms, so a term's weight can
 * multiply its own part) and the parts are added per row. A term's long tail past `perTermLimit` rows is
 * dropped: it would add little to rows that other terms do not already rank.
 */
function weightedRows(store: IndexStore, sql: string, terms: Map<string, number>, extra: Array<string | number>): Map<number, number> {
  const scores = new Map<number, number>();
  const stmt = sqliteOf(store).prepare(sql);
  try {
    for (const [term, w] of terms) {
      if (w === 0) continue;
      for (const r of stmt.all(matchExpression([term]), ...extra) as Array<{ rowid: number; s: number }>) {
        scores.set(r.rowid, (scores.get(r.rowid) ?? 0) + w * r.s);
      }
    }
  } finally {
    stmt.finalize();
  }
  return scores;
}

/** Chunk scores (by chunk id, with its file) for weighted query terms. */
export function weightedChunkScores(
  store: IndexStore,
  terms: Map<string, number>,
  weights: ColumnWeights,
  filters: ChunkFilters,
  perTermLimit = 1000,
): Map<string, { filePath: string; score: number }> {
  const params: Array<string | number> = [];
  const where = filterClause(filters, params);
  const rank = chunkRank(weights);
  // the chunks view (three tables) is joined only when a filter needs its columns (see keywordSearch)
  const from = where ? "chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid" : "chunks_fts";
  const sql = `SELECT chunks_fts.rowid AS rowid, -${rank} AS s FROM ${from} WHERE chunks_fts MATCH ?${where} ORDER BY ${rank} LIMIT ${Math.trunc(perTermLimit)}`;
  const byRow = weightedRows(store, sql, terms, params);
  const out = new Map<string, { filePath: string; score: number }>();
  if (byRow.size === 0) return out;
  // one statement for every row (thousands for a few common terms): a look-up per row cost 10 µs each
  const rows = sqliteOf(store)
    .query("SELECT rowid, chunk_id AS id, file_path AS filePath FROM chunks WHERE rowid IN (SELECT value FROM json_each(?))")
    .all(JSON.stringify([...byRow.keys()])) as Array<{ rowid: number; id: string; filePath: string }>;
  for (const r of rows) out.set(r.id, { filePath: r.filePath, score: byRow.get(r.rowid)! });
  return out;
}

export interface FileColumnWeights {
  path: number;
  defs: number;
  doc: number;
  code: number;
}

/** File scores (by path) for weighted query terms over whole files. */
export function weightedFileScores(
  store: IndexStore,
  terms: Map<string, number>,
  weights: FileColumnWeights,
  filters: ChunkFilters,
  perTermLimit = 2000,
): Map<string, number> {
  const params: Array<string | number> = [];
  // the chunk filters that make sense for a whole file: languages, paths, tests
  const where = filterClause(
    {
      ...(filters.languages ? { languages: filters.languages } : {}),
      ...(filters.pathPrefixes ? { pathPrefixes: filters.pathPrefixes } : {}),
      ...(filters.files ? { files: filters.files } : {}),
      ...(filters.excludeTests ? { excludeTests: true } : {}),
    },
    params,
  ).replace(/c\.language/g, "c.language");
  const rank = `bm25(files_fts, ${weights.code}, ${weights.path}, ${weights.defs}, ${weights.doc})`;
  const sql = `SELECT s.file_id AS rowid, -${rank} AS s FROM files_fts JOIN file_state s ON s.file_id = files_fts.rowid JOIN files c ON c.file_path = s.file_path WHERE files_fts MATCH ?${where} ORDER BY ${rank} LIMIT ${Math.trunc(perTermLimit)}`;
  const byId = weightedRows(store, sql, terms, params);
  const out = new Map<string, number>();
  if (byId.size === 0) return out;
  const stmt = sqliteOf(store).prepare("SELECT file_path AS p FROM file_state WHERE file_id = ?");
  try {
    for (const [id, score] of byId) {
      const r = stmt.get(id) as { p: string } | null;
      if (r) out.set(r.p, score);
    }
  } finally {
    stmt.finalize();
  }
  return out;
}

/** For each name, the files defining it (exact names, any kind of definition). */
export function definingFiles(store: IndexStore, names: string[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  if (names.length === 0) return out;
  const rows = sqliteOf(store)
    .query(`SELECT DISTINCT name, file_path FROM symbols WHERE name IN (${names.map(() => "?").join(",")})`)
    .all(...names) as Array<{ name: string; file_path: string }>;
  for (const r of rows) {
    const set = out.get(r.name) ?? new Set<string>();
    set.add(r.file_path);
    out.set(r.name, set);
  }
  return out;
}

/** Number of indexed files (for idf). */
export function fileCount(store: IndexStore): number {
  return (sqliteOf(store).query("SELECT COUNT(*) AS n FROM files").get() as { n: number }).n;
}

/** A representative chunk per file (its overview, else its first chunk), for files ranked as a whole. */
export function fileOverviewChunks(
  store: IndexStore,
  paths: string[],
): Map<string, { id: string; filePath: string; chunkType: string; symbolPath: string | null; isTest: boolean; score: number }> {
  const out = new Map<string, { id: string; filePath: string; chunkType: string; symbolPath: string | null; isTest: boolean; score: number }>();
  const stmt = sqliteOf(store).prepare(`SELECT c.chunk_id AS id, c.chunk_type AS chunkType, c.symbol_path AS symbolPath, f.is_test AS isTest FROM chunks c
    JOIN files f ON f.file_path = c.file_path WHERE c.file_path = ? ORDER BY (c.chunk_type = 'symbols') DESC, c.start_line LIMIT 1`);
  try {
    for (const p of paths) {
      const r = stmt.get(p) as { id: string; chunkType: string; symbolPath: string | null; isTest: number } | null;
      if (r) out.set(p, { id: r.id, filePath: p, chunkType: r.chunkType, symbolPath: r.symbolPath, isTest: r.isTest === 1, score: 0 });
    }
  } finally {
    stmt.finalize();
  }
  return out;
}

/** The given files that have at least one chunk passing the filters (for file scores gathered outside them). */
export function filesPassing(store: IndexStore, paths: string[], filters: ChunkFilters): Set<string> {
  const params: Array<string | number> = [JSON.stringify(paths)];
  const where = filterClause(filters, params);
  const rows = sqliteOf(store)
    .query(`SELECT DISTINCT c.file_path AS p FROM chunks c WHERE c.file_path IN (SELECT value FROM json_each(?))${where}`)
    .all(...params) as Array<{ p: string }>;
  return new Set(rows.map((r) => r.p));
}

/** Number of search chunks in the index. */
export function chunkCount(store: IndexStore): number {
  return (sqliteOf(store).query("SELECT COUNT(*) AS n FROM chunks").get() as { n: number }).n;
}

/** Tags some chunk carries (of `tags`, or any), most common first: the tag sets are interned, so few rows. */
export function chunkTags(store: IndexStore, tags: readonly string[] | undefined, limit: number): string[] {
  const only = tags === undefined ? "" : "WHERE j.value IN (SELECT value FROM json_each(?))";
  const rows = sqliteOf(store)
    .query(`SELECT j.value AS tag FROM chunk_tag_sets t, json_each(t.tags) j ${only} GROUP BY j.value ORDER BY COUNT(*) DESC, j.value LIMIT ?`)
    .values(...(tags === undefined ? [limit] : [JSON.stringify(tags), limit])) as Array<[string]>;
  return rows.map((r) => r[0]);
}

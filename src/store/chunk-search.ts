/**
 * Keyword (BM25) retrieval over search chunks, through the chunks_fts index. Filters apply inside the
 * query, so a filtered search still returns `limit` hits when they exist.
 */
import type { IndexStore } from "./index-store.ts";

export interface ChunkFilters {
  chunkTypes?: string[];
  /** Every tag must be on the chunk. */
  tags?: string[];
  languages?: string[];
  /** Root-relative folder or file prefixes; a hit must be under one of them. */
  pathPrefixes?: string[];
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
  if (f.excludeTests) parts.push("NOT EXISTS (SELECT 1 FROM files x WHERE x.file_path = c.file_path AND x.is_test)");
  return parts.length ? " AND " + parts.join(" AND ") : "";
}

export function keywordSearch(store: IndexStore, terms: string[], weights: ColumnWeights, filters: ChunkFilters, limit: number): KeywordHit[] {
  if (terms.length === 0) return [];
  const params: Array<string | number> = [matchExpression(terms)];
  const where = filterClause(filters, params);
  params.push(limit);
  const sql = `SELECT c.rowid AS rowid, c.chunk_id AS id, c.file_path AS filePath,
      -bm25(chunks_fts, ${weights.symbols}, ${weights.title}, ${weights.path}, ${weights.body}) AS score
    FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid
    WHERE chunks_fts MATCH ?${where}
    ORDER BY bm25(chunks_fts, ${weights.symbols}, ${weights.title}, ${weights.path}, ${weights.body}) LIMIT ?`;
  return store.db.query(sql).all(...params) as KeywordHit[];
}

/** Definitions whose symbol name is one of `names` (exact, case-sensitive), for definition-first ranking. */
export function definitionsNamed(store: IndexStore, names: string[], filters: ChunkFilters, limit = 50): Array<{ id: string; filePath: string; name: string }> {
  if (names.length === 0) return [];
  const params: Array<string | number> = [...names];
  const where = filterClause(filters, params);
  params.push(limit);
  return store.db
    .query(`SELECT c.chunk_id AS id, c.file_path AS filePath, s.name AS name FROM symbols s
      JOIN chunks c ON c.file_path = s.file_path AND c.chunk_type = 'definitions' AND c.start_line <= s.start_line AND c.end_line >= s.start_line
        AND (c.symbol_path = s.name OR c.symbol_path LIKE '%.' || s.name)
      WHERE s.name IN (${names.map(() => "?").join(",")})${where} LIMIT ?`)
    .all(...params) as Array<{ id: string; filePath: string; name: string }>;
}

/** Full rows of chunks by id, in the order given. */
export function chunksById(store: IndexStore, ids: string[]): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  if (ids.length === 0) return out;
  const rows = store.db
    .query(`SELECT c.*, f.is_test AS is_test FROM chunks c JOIN files f ON f.file_path = c.file_path WHERE c.chunk_id IN (${ids.map(() => "?").join(",")})`)
    .all(...ids) as Array<Record<string, unknown>>;
  for (const r of rows) out.set(r.chunk_id as string, r);
  return out;
}

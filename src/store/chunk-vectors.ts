/**
 * What the vector side of search reads from the index: every chunk's id and text hash (which text has
 * which vector), the texts of given hashes (to embed what the vector cache lacks) and the chunks a
 * search's filters allow (the same filter clause as keyword search, so both sides agree).
 */
import type { IndexStore } from "./index-store.ts";
import { sqliteOf } from "./sqlite-access.ts";
import { filterClause, type ChunkFilters } from "./chunk-search.ts";
import { chunkTexts } from "./chunk-text.ts";

export interface ChunkHash {
  id: string;
  hash: string;
}

/** Every chunk's id and text hash. */
export function chunkHashes(store: IndexStore): ChunkHash[] {
  return sqliteOf(store).query("SELECT chunk_id AS id, lower(hex(text_hash)) AS hash FROM chunks").all() as ChunkHash[];
}

/** The chunks that pass `filters`. */
export function chunkHashesMatching(store: IndexStore, filters: ChunkFilters): ChunkHash[] {
  const params: Array<string | number> = [];
  const where = filterClause(filters, params);
  return sqliteOf(store)
    .query(`SELECT c.chunk_id AS id, lower(hex(c.text_hash)) AS hash FROM chunks c WHERE 1 = 1${where}`)
    .all(...params) as ChunkHash[];
}

/** How many hashes one pass over the chunks looks for (their texts are read for embedding: a batch at most). */
const HASHES_PER_PASS = 20_000;

/** The text of each hash (one chunk's text per hash: equal hashes are equal texts). */
export function chunkTextsByHash(store: IndexStore, hashes: string[]): Map<string, string> {
  const out = new Map<string, string>();
  // no index on hashes (schema.ts): one pass over the chunks per batch, the batch's hashes in a temporary index
  const stmt = sqliteOf(store).prepare(`SELECT lower(hex(text_hash)) AS hash, file_path AS filePath, prefix, spans FROM chunks
    WHERE text_hash IN (SELECT unhex(value) FROM json_each(?1)) ORDER BY file_path`);
  try {
    for (let i = 0; i < hashes.length; i += HASHES_PER_PASS) {
      const rows = stmt.all(JSON.stringify(hashes.slice(i, i + HASHES_PER_PASS))) as Array<{
        hash: string;
        filePath: string;
        prefix: string | Uint8Array;
        spans: string;
      }>;
      for (const [r, text] of chunkTexts(rows, (p) => store.contentOf(p))) out.set(r.hash, text);
    }
  } finally {
    stmt.finalize();
  }
  return out;
}

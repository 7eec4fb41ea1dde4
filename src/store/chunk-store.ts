/**
 * Reading search chunks from the index: all of them (to build the search state at start-up), those of
 * some files (to apply an incremental update), and file facts the ranker uses (test flag, definitions).
 */
import type { IndexStore } from "./index-store.ts";

export interface StoredChunk {
  id: string;
  filePath: string;
  chunkType: "symbols" | "definitions" | "data" | "documentation";
  title: string;
  symbolPath: string | null;
  language: string;
  startLine: number;
  endLine: number;
  tags: string[];
  text: string;
  textHash: string;
  metadata: Record<string, unknown> | null;
  isTest: boolean;
}

const SELECT = `SELECT c.chunk_id AS id, c.file_path AS filePath, c.chunk_type AS chunkType, c.title, c.symbol_path AS symbolPath,
  c.language, c.start_line AS startLine, c.end_line AS endLine, c.tags, c.text, c.text_hash AS textHash, c.metadata,
  f.is_test AS isTest FROM chunks c JOIN files f ON f.file_path = c.file_path`;

function decode(r: Record<string, unknown>): StoredChunk {
  return {
    ...(r as unknown as StoredChunk),
    tags: JSON.parse(r.tags as string) as string[],
    metadata: r.metadata ? (JSON.parse(r.metadata as string) as Record<string, unknown>) : null,
    isTest: r.isTest === 1 || r.isTest === true,
  };
}

export function allChunks(store: IndexStore): StoredChunk[] {
  return (store.db.query(SELECT).all() as Array<Record<string, unknown>>).map(decode);
}

export function chunksOfFiles(store: IndexStore, paths: string[]): StoredChunk[] {
  const out: StoredChunk[] = [];
  const stmt = store.db.prepare(`${SELECT} WHERE c.file_path = ?`);
  try {
    for (const p of paths) for (const r of stmt.all(p) as Array<Record<string, unknown>>) out.push(decode(r));
  } finally {
    stmt.finalize();
  }
  return out;
}

export function chunkCount(store: IndexStore): number {
  return (store.db.query("SELECT COUNT(*) AS n FROM chunks").get() as { n: number }).n;
}

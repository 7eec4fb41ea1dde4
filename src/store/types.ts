/** Row shapes the store reads and writes. */
import type { FileFacts, LineCounts } from "../lang/types.ts";

/** One file as the indexer hands it to the store: its stats, content and (for code) its facts. */
export interface IndexedFile {
  path: string;
  language: string;
  isTest: boolean;
  modulePath: string;
  sizeBytes: number;
  mtimeMs: number;
  contentHash: string;
  /** The indexed text (parsing, chunks and words are made from it; the store does not keep it as such). */
  text: string;
  /** The text's UTF-8 bytes, zstd-compressed (store/content-codec.ts): what the store keeps. */
  content: Uint8Array;
  lines: LineCounts;
  facts?: FileFacts;
  chunks?: ChunkRecord[];
  /** Keyword-search words of the whole file, by field (file-level ranking). */
  words?: FileWords;
}

/** A file's words for file-level keyword search: its path, the names it defines, its comments, the rest. */
export interface FileWords {
  path: string;
  defs: string;
  doc: string;
  code: string;
}

export interface ChunkRecord {
  id: string;
  chunkType: "symbols" | "definitions" | "data" | "documentation";
  title: string;
  symbolPath?: string;
  language: string;
  startLine: number;
  endLine: number;
  tags: string[];
  /** The text is `prefix` followed by the lines of `spans` (store/chunk-text.ts, encoded). */
  prefix: string;
  spans: string;
  /** sha256 of the whole text (the embedding cache's key). */
  textHash: string;
  metadata?: Record<string, unknown>;
  /** Keyword-search words (identifiers whole and split), computed where the chunk is built. */
  words?: { symbols: string; title: string; path: string; body: string };
}

export interface FileState {
  fileId: number;
  path: string;
  contentHash: string;
  mtimeMs: number;
  sizeBytes: number;
}

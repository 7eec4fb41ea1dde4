/** Row shapes the store reads and writes. */
import type { FileFacts, LineCounts } from "../lang/types.ts";

/** A file's text tier: its state on disk and its content, all that exact and regex search need. */
export interface TextFile {
  path: string;
  language: string;
  sizeBytes: number;
  mtimeMs: number;
  contentHash: string;
  /** The indexed text's UTF-8 bytes, zstd-compressed (store/content-codec.ts). */
  content: Uint8Array;
  /** Its distinct trigrams (store/trigrams.ts), when the job asked for them (FileJob.trigrams). */
  trigrams?: Uint32Array;
}

/** A file's parse tier, for a file whose text tier is stored: statistics, facts, chunks and keyword words. */
export interface ParsedFile {
  fileId: number;
  path: string;
  language: string;
  isTest: boolean;
  modulePath: string;
  sizeBytes: number;
  mtimeMs: number;
  lines: LineCounts;
  facts?: FileFacts;
  chunks?: ChunkRecord[];
  /** Keyword-search words of the whole file, by field (file-level ranking). */
  words?: FileWords;
}

/** A stored file the parse tier has still to do. */
export interface UnparsedFile {
  fileId: number;
  path: string;
  language: string;
  sizeBytes: number;
  mtimeMs: number;
}

/**
 * A file's words for file-level keyword search: its path, the names it defines, its comments, the rest;
 * each as the keyword index stores it (store/keyword-words.ts keywordText).
 */
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
  /** Keyword-search words (store/keyword-words.ts keywordText), computed where the chunk is built. */
  words?: { symbols: string; title: string; path: string; body: string };
}

export interface FileState {
  fileId: number;
  path: string;
  contentHash: string;
  mtimeMs: number;
  sizeBytes: number;
}

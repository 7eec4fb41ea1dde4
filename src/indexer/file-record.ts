/**
 * The two tiers of one file. The text tier reads it from disk, refuses binary content, hashes the bytes,
 * decodes and compresses the text (the indexer's thread: a few hundred MB/s). The parse tier turns a
 * stored text into what the other engines need: statistics, facts, chunks and keyword words (parse
 * workers, or the calling thread for a handful of files). Text that is not valid UTF-8 is decoded with
 * U+FFFD for each bad byte sequence.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import type { FactsParser } from "../lang/parser.ts";
import type { ProjectInfo } from "../lang/project.ts";
import type { ParsedFile, TextFile } from "../store/types.ts";
import { sha256 } from "../core/hash.ts";
import { BINARY_CHECK_BYTES, looksBinary, utf16Encoding } from "./walk.ts";
import { modulePathOf } from "./project-info.ts";
import { languageFor, moduleFor } from "../lang/registry.ts";
import { buildChunks } from "./chunker.ts";
import { fileWords } from "./file-words.ts";
import { textWords } from "../store/keyword-words.ts";
import { compressContent, contentText } from "../store/content-codec.ts";
import { TrigramExtractor } from "../store/trigrams.ts";
import { threadCpuMicros } from "../core/thread-cpu.ts";

export interface FileJob {
  path: string;
  abs: string;
  mtimeMs: number;
  /** Hash stored by the previous run, when the file was indexed before. */
  prevHash?: string;
  /** Extract the text's distinct trigrams too: a first build writes its trigram index with the text tier. */
  trigrams?: boolean;
}

export type TextOutcome =
  | { kind: "text"; file: TextFile }
  | { kind: "same-content"; path: string; mtimeMs: number }
  | { kind: "binary"; path: string; size: number }
  | { kind: "unreadable"; path: string; error: string };

/** A stored file for the parse tier: its row and its compressed content. */
export interface ParseJob {
  fileId: number;
  path: string;
  sizeBytes: number;
  mtimeMs: number;
  content: Uint8Array;
}

const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false });
const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
const encoder = new TextEncoder();

/**
 * The text to index and its UTF-8 bytes, which the store keeps compressed: the file's own bytes when
 * they are valid UTF-8 (without a byte order mark, which decoding drops), else the text's encoding, so
 * the stored bytes are always those of the indexed text.
 */
function decode(bytes: Uint8Array): { text: string; utf8: Uint8Array } {
  // UTF-16 with its byte-order mark: stored and searched as the UTF-8 of its text
  const utf16 = utf16Encoding(bytes);
  if (utf16) {
    const text = new TextDecoder(utf16).decode(bytes);
    return { text, utf8: encoder.encode(text) };
  }
  try {
    const text = strict.decode(bytes);
    const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    return { text, utf8: bom ? bytes.subarray(3) : bytes };
  } catch {
    const text = decoder.decode(bytes);
    return { text, utf8: encoder.encode(text) };
  }
}

/**
 * A file's bytes, or its size when its first 8 KB say it is binary: those are read first, so a large
 * binary file (an image, an archive under the size limit) costs one small read, not the whole file.
 */
function readUnlessBinary(abs: string): { bytes: Uint8Array } | { binarySize: number } {
  const fd = openSync(abs, "r");
  try {
    const size = fstatSync(fd).size;
    const buf = new Uint8Array(size + 1); // a byte more than fstat said: tells a file that grew meanwhile
    let n = readSync(fd, buf, 0, Math.min(buf.length, BINARY_CHECK_BYTES), 0);
    if (looksBinary(buf.subarray(0, n)) && !utf16Encoding(buf)) return { binarySize: size };
    while (n < buf.length) {
      const got = readSync(fd, buf, n, buf.length - n, n);
      if (got === 0) break;
      n += got;
    }
    if (n <= size) return { bytes: buf.subarray(0, n) };
  } finally {
    closeSync(fd);
  }
  return { bytes: readFileSync(abs) }; // it grew while read: whole, as it is now
}

/** The text tier of one file on disk. */
export function readTextFile(job: FileJob): TextOutcome {
  let bytes: Uint8Array;
  try {
    const read = readUnlessBinary(job.abs);
    if ("binarySize" in read) return { kind: "binary", path: job.path, size: read.binarySize };
    bytes = read.bytes;
  } catch (e) {
    return { kind: "unreadable", path: job.path, error: (e as Error).message };
  }
  // a file that was text in its first 8 KB and became binary as it was read whole
  if (looksBinary(bytes) && !utf16Encoding(bytes)) return { kind: "binary", path: job.path, size: bytes.length };
  const contentHash = sha256(bytes);
  if (job.prevHash === contentHash) return { kind: "same-content", path: job.path, mtimeMs: job.mtimeMs };
  const { text, utf8 } = decode(bytes);
  const file: TextFile = {
    path: job.path,
    language: languageFor(job.path, text).language,
    sizeBytes: bytes.length,
    mtimeMs: job.mtimeMs,
    contentHash,
    content: compressContent(utf8),
  };
  // from the bytes stored, as a rebuild would read them back (a copy: the extractor's view is reused)
  if (job.trigrams) file.trigrams = (trigramExtractor ??= new TrigramExtractor()).extract(utf8).slice();
  return { kind: "text", file };
}
/** This thread's extractor (a 16 MiB table), made by the first job that asks for trigrams. */
let trigramExtractor: TrigramExtractor | undefined;

/** Lets this thread's trigram extractor go: a long-lived process that read a small first build itself must not keep its table. */
export function releaseTrigramExtractor(): void {
  trigramExtractor = undefined;
}

/** CPU microseconds of parseStoredFile's own steps (the parser's are in its stageClock), for CORTEX_TRACE. */
export interface StoredFileClock {
  decompress: number;
  words: number;
  chunks: number;
}

/** The parse tier of one stored file. */
export async function parseStoredFile(job: ParseJob, parser: FactsParser, project: ProjectInfo, clock?: StoredFileClock): Promise<ParsedFile> {
  let t = clock ? threadCpuMicros() : 0;
  const text = contentText(job.content);
  if (clock) clock.decompress += threadCpuMicros() - t;
  const parsed = await parser.parse(job.path, text, project);
  const module = moduleFor(parsed.language);
  const file: ParsedFile = {
    fileId: job.fileId,
    path: job.path,
    language: parsed.language,
    isTest: module ? module.isTestFile(job.path) : false,
    modulePath: modulePathOf(job.path),
    sizeBytes: job.sizeBytes,
    mtimeMs: job.mtimeMs,
    lines: parsed.lines,
  };
  if (parsed.facts) file.facts = parsed.facts;
  if (clock) t = threadCpuMicros();
  // the text's words scanned once, for the file's keyword words and its chunks'
  const words = textWords(text);
  file.words = fileWords(job.path, text, parsed.facts, parsed.comments, words);
  if (clock) {
    const now = threadCpuMicros();
    clock.words += now - t;
    t = now;
  }
  file.chunks = buildChunks({ path: job.path, language: parsed.language, text, isTest: file.isTest, words, ...(parsed.facts ? { facts: parsed.facts } : {}) });
  if (clock) clock.chunks += threadCpuMicros() - t;
  return file;
}

/**
 * Turns one file on disk into what the store keeps: reads it, refuses binary content, hashes the bytes,
 * parses it and assembles an IndexedFile. Runs in parse workers and, for small jobs, on the main thread.
 * Text that is not valid UTF-8 is decoded with U+FFFD for each bad byte sequence.
 */
import { readFileSync } from "node:fs";
import type { FactsParser } from "../lang/parser.ts";
import type { ProjectInfo } from "../lang/project.ts";
import type { IndexedFile } from "../store/types.ts";
import { sha256 } from "../core/hash.ts";
import { looksBinary } from "./walk.ts";
import { modulePathOf } from "./project-info.ts";
import { moduleFor } from "../lang/registry.ts";
import { buildChunks } from "./chunker.ts";
import { fileWords } from "./file-words.ts";
import { compressContent } from "../store/content-codec.ts";

export interface FileJob {
  path: string;
  abs: string;
  mtimeMs: number;
  /** Hash stored by the previous run, when the file was indexed before. */
  prevHash?: string;
}

export type FileOutcome =
  | { kind: "indexed"; file: IndexedFile }
  | { kind: "same-content"; path: string; mtimeMs: number }
  | { kind: "binary"; path: string; size: number }
  | { kind: "unreadable"; path: string; error: string };

const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false });
const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
const encoder = new TextEncoder();

/**
 * The text to index and its UTF-8 bytes, which the store keeps compressed: the file's own bytes when
 * they are valid UTF-8 (without a byte order mark, which decoding drops), else the text's encoding, so
 * the stored bytes are always those of the indexed text.
 */
function decode(bytes: Uint8Array): { text: string; utf8: Uint8Array } {
  try {
    const text = strict.decode(bytes);
    const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    return { text, utf8: bom ? bytes.subarray(3) : bytes };
  } catch {
    const text = decoder.decode(bytes);
    return { text, utf8: encoder.encode(text) };
  }
}

export async function processFile(job: FileJob, parser: FactsParser, project: ProjectInfo): Promise<FileOutcome> {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(job.abs);
  } catch (e) {
    return { kind: "unreadable", path: job.path, error: (e as Error).message };
  }
  if (looksBinary(bytes)) return { kind: "binary", path: job.path, size: bytes.length };
  const contentHash = sha256(bytes);
  if (job.prevHash === contentHash) return { kind: "same-content", path: job.path, mtimeMs: job.mtimeMs };
  const { text, utf8 } = decode(bytes);
  const parsed = await parser.parse(job.path, text, project);
  const module = moduleFor(parsed.language);
  const file: IndexedFile = {
    path: job.path,
    language: parsed.language,
    isTest: module ? module.isTestFile(job.path) : false,
    modulePath: modulePathOf(job.path),
    sizeBytes: bytes.length,
    mtimeMs: job.mtimeMs,
    contentHash,
    text,
    content: compressContent(utf8),
    lines: parsed.lines,
  };
  if (parsed.facts) file.facts = parsed.facts;
  file.words = fileWords(job.path, text, parsed.facts, parsed.comments);
  file.chunks = buildChunks({ path: job.path, language: parsed.language, text, isTest: file.isTest, ...(parsed.facts ? { facts: parsed.facts } : {}) });
  return { kind: "indexed", file };
}

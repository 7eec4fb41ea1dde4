/**
 * Reading a file from disk the way the indexer stores it (for `fresh` searches): binary files (a NUL byte
 * in the first 8 KB) are skipped, text is decoded as UTF-8 with U+FFFD for bad sequences and the BOM
 * removed, so lines and columns agree with searches over stored content.
 */
import { readFileSync } from "node:fs";

const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false });

/** The text of a file, or undefined when it is missing, unreadable or binary. */
export function readDiskText(abs: string): string | undefined {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(abs);
  } catch {
    return undefined;
  }
  const n = Math.min(bytes.length, 8192);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return undefined;
  return decoder.decode(bytes);
}

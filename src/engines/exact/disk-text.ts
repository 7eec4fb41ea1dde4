/**
 * Reading a file from disk the way the indexer stores it (for `fresh` searches): binary files (a NUL byte
 * in the first 8 KB, unless a UTF-16 byte-order mark starts it) are skipped, text is decoded as UTF-8 with U+FFFD for bad sequences and the BOM
 * removed, so lines and columns agree with searches over stored content.
 */
import { readFileSync } from "node:fs";
import { utf16Encoding } from "../../indexer/walk.ts";

const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false });

/** The text of a file, or undefined when it is missing, unreadable or binary. */
export function readDiskText(abs: string): string | undefined {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(abs);
  } catch {
    return undefined;
  }
  // UTF-16 with its byte-order mark is text, decoded as the index decoded it
  const utf16 = utf16Encoding(bytes);
  if (utf16) return new TextDecoder(utf16).decode(bytes);
  const n = Math.min(bytes.length, 8192);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return undefined;
  return decoder.decode(bytes);
}

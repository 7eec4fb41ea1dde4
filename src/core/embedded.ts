/**
 * Reads a file that `bun build --compile` may have embedded compressed. scripts/build.ts embeds large
 * assets (grammars, the ONNX runtimes) as zstd, which cuts the executable by about 65 MB; their embedded
 * names end in `.zst`. From source the same paths name the plain files, read as they are.
 */
import { readFileSync } from "node:fs";

export function readEmbeddedFile(path: string): Uint8Array {
  const bytes = readFileSync(path);
  return path.endsWith(".zst") ? Bun.zstdDecompressSync(bytes) : bytes;
}

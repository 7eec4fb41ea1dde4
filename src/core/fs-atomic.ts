/**
 * Atomic file writes: write a sibling temporary file, fsync it, rename it over the target.
 * A reader sees the old file or the new one, never half of either.
 */
import { openSync, writeSync, fsyncSync, closeSync, renameSync, rmSync, mkdirSync } from "node:fs";
import { dirname, basename, join } from "node:path";

/**
 * `mode`: the permissions the new file gets from its creation on (a private file is never readable by
 * others, not even between the write and a chmod after the rename); default 0o666 less the umask.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode?: number): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  const fd = openSync(tmp, "w", mode ?? 0o666);
  try {
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

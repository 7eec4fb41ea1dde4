/**
 * Recognises a failed write of the index: the disk is full, a quota or file-size limit was reached, or
 * the device failed. SQLite reports a full disk as SQLITE_FULL and every other failed write (EFBIG from a
 * file-size limit, EDQUOT, EIO) as one of the SQLITE_IOERR codes; Node's own writes (the `current`
 * pointer, staged files) throw with the system's errno name.
 */

const SYSTEM_SPACE_CODES = new Set(["ENOSPC", "EDQUOT", "EFBIG"]);

/** What stopped a write, in words a user can act on, or undefined when the error is not a failed write. */
export function writeFailureReason(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return undefined;
  if (code === "SQLITE_FULL") return "the disk is full (SQLITE_FULL)";
  if (code.startsWith("SQLITE_IOERR")) return `a write failed (${code}: a full disk, a quota or file-size limit, or a failing device)`;
  if (SYSTEM_SPACE_CODES.has(code)) return `no space left to write (${code})`;
  if (code === "EIO") return "the device failed a write (EIO)";
  return undefined;
}

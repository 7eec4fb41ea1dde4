/**
 * Root-relative path arithmetic for import resolution: joining an import's relative path onto the
 * importing file's folder, and refusing results that climb out of the project root.
 */
import { posix } from "node:path";

/** The folder of a root-relative path ("" for a file at the root). */
export function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/**
 * Joins root-relative `dir` and a relative path (`../x`, `./y`, `z/w`), normalised. Undefined when the
 * result would leave the root; "" for the root itself.
 */
export function joinInside(dir: string, rel: string): string | undefined {
  const joined = posix.normalize(posix.join(dir === "" ? "." : dir, rel));
  if (joined === "..") return undefined;
  if (joined.startsWith("../") || joined.startsWith("/")) return undefined;
  if (joined === ".") return "";
  return joined.endsWith("/") ? joined.slice(0, -1) : joined;
}

/**
 * Whether hits are still true on disk: a hit is stale when its file's size or mtime differs from what
 * the index recorded (or the file is gone). One stat per distinct file; shared by every engine that
 * returns stored content.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import type { IndexStore } from "../store/index-store.ts";

export function staleFiles(store: IndexStore, root: string, paths: Iterable<string>): Set<string> {
  const stale = new Set<string>();
  for (const p of new Set(paths)) {
    const st = store.fileState(p);
    try {
      const disk = statSync(join(root, p));
      if (!st || st.sizeBytes !== disk.size || st.mtimeMs !== Math.trunc(disk.mtimeMs)) stale.add(p);
    } catch {
      stale.add(p);
    }
  }
  return stale;
}

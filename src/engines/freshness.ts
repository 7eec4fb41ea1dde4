/**
 * Whether hits are still true on disk: a hit is stale when its file's size or mtime differs from what
 * the index recorded (or the file is gone). One question to the store for all files, one stat per distinct
 * file; shared by every engine that
 * returns stored content.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import type { IndexReader } from "../store/contract.ts";
import { describesLocalTree } from "../store/open-reader.ts";

export async function staleFiles(store: IndexReader, root: string, paths: Iterable<string>): Promise<Set<string>> {
  const stale = new Set<string>();
  if (!describesLocalTree(store.source)) return stale;
  const unique = [...new Set(paths)];
  const states = await store.fileStates(unique);
  for (const p of unique) {
    const st = states.get(p);
    try {
      const disk = statSync(join(root, p));
      if (!st || st.sizeBytes !== disk.size || st.mtimeMs !== Math.trunc(disk.mtimeMs)) stale.add(p);
    } catch {
      stale.add(p);
    }
  }
  return stale;
}

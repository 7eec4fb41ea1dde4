/** Whether chunk filters (contract.ts ChunkFilters) restrict anything: a pure helper for any reader's callers. */
import type { ChunkFilters } from "./contract.ts";

export function hasFilters(f: ChunkFilters): boolean {
  return Boolean(f.chunkTypes?.length || f.tags?.length || f.languages?.length || f.pathPrefixes?.length || f.files || f.excludeTests);
}

/**
 * Steps that run after the indexer has written a batch of changes, inside the same write lock: reference
 * resolution, search-state refresh, embedding scheduling. Each engine that derives data from the stored
 * facts registers one hook here, so the indexer itself knows no engine.
 */
import type { IndexStore } from "../store/index-store.ts";
import type { ProjectInfo } from "../lang/project.ts";
import { resolveReferences } from "../engines/symbols/resolve-hook.ts";
import { log } from "../core/log.ts";

export interface IndexChanges {
  /** Files written in this run (new or changed content). */
  written: string[];
  /** Files removed from the index in this run. */
  deleted: string[];
  /** True for a full rebuild into a fresh database. */
  full: boolean;
}

export interface IndexHook {
  name: string;
  run(store: IndexStore, changes: IndexChanges, project: ProjectInfo): void | Promise<void>;
}

/**
 * In order. A hook that writes waits for `store.whenWritable()` first: during a full build another
 * connection loads the keyword index meanwhile, and reference resolution, which computes before it
 * writes, goes first so its computing overlaps that load.
 */
export const INDEX_HOOKS: IndexHook[] = [
  {
    // Imports to files, references to definitions (src/engines/symbols/resolve-hook.ts).
    name: "reference resolution",
    async run(store, changes, project) {
      const r = await resolveReferences(store, changes, project);
      if (process.env.CORTEX_TRACE) log.warn(`reference resolution: ${r.sites} import sites, ${r.refs} references (${r.updated} changed) in ${r.ms} ms`);
    },
  },
];

/**
 * Steps that run after the indexer has written a batch of changes, inside the same write lock: reference
 * resolution, and whatever else derives data from the stored facts. The indexer knows no engine: each
 * engine that derives data defines a hook, and the composition root hands the list to the run
 * (`IndexOptions.hooks`, filled from src/tools/index-hooks.ts).
 */
import type { IndexStore } from "../store/index-store.ts";
import type { ProjectInfo } from "../lang/project.ts";

export interface IndexChanges {
  /** Files written in this run (new or changed content). */
  written: string[];
  /** Files removed from the index in this run. */
  deleted: string[];
  /** True for a full rebuild into a fresh database. */
  full: boolean;
}

/**
 * One step after the writes. Hooks run in the order given; a hook that writes waits for
 * `store.whenWritable()` first: during a full build another connection loads the keyword index
 * meanwhile, so a hook that computes before it writes (reference resolution) overlaps that load.
 */
export interface IndexHook {
  name: string;
  run(store: IndexStore, changes: IndexChanges, project: ProjectInfo): void | Promise<void>;
}

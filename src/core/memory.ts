/**
 * A soft bound on the indexer's resident memory. JavaScriptCore collects its old generation only when
 * the heap has grown by a multiple of what survived the last full collection; while a long index step
 * turns over rows (reference resolution reads millions), that leaves hundreds of megabytes of garbage
 * resident: resolving a fifth of the kernel held 200 MiB of live objects and peaked at 1.2 GiB. Long
 * steps call `collectIfOver` between batches, and parse workers between files: a full collection of
 * the calling thread's heap, only when the process is over its budget, so small projects never pay for one.
 *
 * CORTEX_MEMORY_MB sets the budget (default 512).
 */

const DEFAULT_BUDGET_MB = 512;

export function memoryBudgetBytes(): number {
  const raw = Number(process.env.CORTEX_MEMORY_MB);
  return (Number.isFinite(raw) && raw >= 64 ? raw : DEFAULT_BUDGET_MB) * 2 ** 20;
}

/**
 * Collections of one thread are at least this far apart: each thread (the indexer's, every parse worker)
 * collects its own heap, and a process whose fixed part sits near the budget must not collect after
 * every file.
 */
const MIN_INTERVAL_MS = 250;
let lastCollect = 0;

/** Runs a full garbage collection of this thread's heap when the process is over the budget; true when it did. */
export function collectIfOver(budget = memoryBudgetBytes()): boolean {
  if (process.memoryUsage.rss() <= budget) return false;
  const now = performance.now();
  if (now - lastCollect < MIN_INTERVAL_MS) return false;
  Bun.gc(true);
  lastCollect = performance.now();
  return true;
}

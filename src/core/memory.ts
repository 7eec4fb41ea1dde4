/**
 * A soft bound on the indexer's resident memory. JavaScriptCore collects its old generation only when
 * the heap has grown by a multiple of what survived the last full collection; while a long index step
 * turns over rows (reference resolution reads millions), that leaves hundreds of megabytes of garbage
 * resident: resolving a fifth of the kernel held 200 MiB of live objects and peaked at 1.2 GiB. Long
 * steps call `collectIfOver` between batches: a full collection, only when the process is over its
 * budget, so small projects never pay for one.
 *
 * CORTEX_MEMORY_MB sets the budget (default 512).
 */

const DEFAULT_BUDGET_MB = 512;

export function memoryBudgetBytes(): number {
  const raw = Number(process.env.CORTEX_MEMORY_MB);
  return (Number.isFinite(raw) && raw >= 64 ? raw : DEFAULT_BUDGET_MB) * 2 ** 20;
}

/** Runs a full garbage collection when resident memory is over the budget; true when it did. */
export function collectIfOver(budget = memoryBudgetBytes()): boolean {
  if (process.memoryUsage.rss() <= budget) return false;
  Bun.gc(true);
  return true;
}

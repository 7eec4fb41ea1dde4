/**
 * A soft bound on the indexer's resident memory. JavaScriptCore collects its old generation only when
 * the heap has grown by a multiple of what survived the last full collection; while a long index step
 * turns over rows (reference resolution reads millions), that leaves hundreds of megabytes of garbage
 * resident: resolving a fifth of the kernel held 200 MiB of live objects and peaked at 1.2 GiB. Long
 * steps call `collectIfOver` between batches, and parse workers between files: a full collection of
 * the calling thread's heap, only when the process is over its budget, so small projects never pay for one.
 *
 * A full reference resolution calls `collectOnGrowth` instead, which also waits for the process to grow:
 * on the kernel what it holds live sits above the budget by itself.
 *
 * CORTEX_MEMORY_MB sets the budget (default 464). It was 512; a bulk parse tier's page cache is 48 MiB
 * smaller since (IndexStore.pageCache), so 464 asks for about as many collections, and go-src's parse
 * tier, which the budget holds at its level, no longer peaks above 550 MiB.
 */
import { edenGC } from "bun:jsc";
import { readFileSync } from "node:fs";

const DEFAULT_BUDGET_MB = 464;

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
/**
 * And at least twice the last collection's own duration apart, so collecting takes at most a third of a
 * thread's time: a full collection of the resolution's heap takes 150-600 ms, and go-src's reference
 * resolution, over the budget throughout (what is live: its caches, SQLite's pages, the keyword load's
 * thread), collected every 250 ms. Measured alone on go-src's index: 13 collections, CPU 10.1 s, peak
 * 682 MiB before; 7 collections, 8.9 s, 616 MiB after (peaks vary by ±100 MiB from run to run; a factor
 * of 4 gave 4 collections, 8.3 s, but 834 MiB).
 */
const INTERVAL_PER_COLLECTION_MS = 2;
let nextAllowed = 0;
// this thread's full collections (each thread has its own copy of this module): what the trace reports
const collections = { count: 0, ms: 0 };

/** The full collections this thread has run (collectIfOver, collectNow) and their wall milliseconds. */
export function collectionStats(): { count: number; ms: number } {
  return { ...collections };
}

/**
 * The process's resident size, as `process.memoryUsage.rss()` gives it. Bun's reads /proc/self/stat on
 * Linux, which also sums the CPU times of all the process's threads: 0.66-0.73 ms of a parse worker's
 * CPU a call while indexing kernel/fs (10 µs in a small process), and a parse worker asked once per
 * file. /proc/self/statm read in the same place: 20 µs. Its second field counts pages; the page size is
 * learned once by comparing with Bun's figure. Where statm cannot be read, Bun's figure.
 */
export function residentBytes(): number {
  if (statm !== false) {
    try {
      const pages = Number(readFileSync("/proc/self/statm", "latin1").split(" ", 2)[1]);
      if (pages > 0) {
        statm ??= 2 ** Math.round(Math.log2(process.memoryUsage.rss() / pages));
        return pages * statm;
      }
    } catch {}
    statm = false;
  }
  return process.memoryUsage.rss();
}
/** The page size /proc/self/statm counts in; false where it cannot be read; undefined until the first read. */
let statm: number | false | undefined;

/** Runs a full garbage collection of this thread's heap when the process is over the budget; true when it did. */
export function collectIfOver(budget = memoryBudgetBytes()): boolean {
  if (residentBytes() <= budget) return false;
  const now = performance.now();
  if (now < nextAllowed) return false;
  collectFrom(now);
  return true;
}

/**
 * Growth the process may take above its size after this thread's last full collection before
 * collectOnGrowth collects again.
 */
const GROWTH_BYTES = 64 * 2 ** 20;
/**
 * The growth the parse tier's threads (its workers, the writer) allow between full collections: a quarter of
 * a long step's, because what they collect is turnover (each file's objects, each batch's rows), not a
 * live cache, and go-src's parse tier hovers at the budget: at 64 MiB its peak rose from 521-578 to 601-625
 * MiB (docs/benchmarks.md, "Full collections on growth").
 */
export const PARSE_TIER_GROWTH_BYTES = 16 * 2 ** 20;
/** The process's resident size just after this thread's last full collection. */
let rssAfterLast = 0;

/**
 * collectIfOver for a long step whose own live data and caches sit near the budget or above it (a full
 * reference resolution: on the kernel, the process stayed at 440 MiB just after each collection, under a
 * budget of 464, beside the keyword load at 690): collects only once the process has also grown by
 * GROWTH_BYTES since this thread's last collection. Over the budget by what is live, collectIfOver
 * collected every 2-3 s and each time freed the 30-50 MiB grown since (the kernel: 79-95 full
 * collections of a heap of 0.9-2 million objects in one resolution, a quarter of its CPU).
 */
export function collectOnGrowth(budget = memoryBudgetBytes(), growth = GROWTH_BYTES): boolean {
  if (residentBytes() <= Math.max(budget, rssAfterLast + growth)) return false;
  return collectIfOver(budget);
}

/** A full collection started at `now`, counted, and the next one's earliest time. */
function collectFrom(now: number): void {
  Bun.gc(true);
  const done = performance.now();
  rssAfterLast = residentBytes();
  collections.count++;
  collections.ms += done - now;
  nextAllowed = done + Math.max(MIN_INTERVAL_MS, INTERVAL_PER_COLLECTION_MS * (done - now));
}

/**
 * A full collection of this thread's heap now, whatever the budget: between two index phases, so the
 * next one does not start on the last one's garbage (the parse tier leaves about 80 MiB of it on go-src,
 * still resident while the keyword load and reference resolution, the build's peak, begin). A few
 * milliseconds on a small project's heap.
 */
export function collectNow(): void {
  collectFrom(performance.now());
}

/**
 * Rows a long write loop hands SQLite between two young-generation collections (collectYoungEvery).
 * Each bun:sqlite `run()` leaves a small result object behind; JavaScriptCore let 960,000 of them (a
 * sixth of the kernel's reference targets) grow the process by 37 MiB, the kernel's 9.1 million by
 * several hundred, the build's peak. A young collection every 131,072 rows keeps it flat, for about a
 * millisecond each (a full one costs 100 ms and more at that heap size).
 */
const ROWS_PER_YOUNG_COLLECTION = 1 << 17;

/**
 * Counts written rows and collects this thread's young generation every ROWS_PER_YOUNG_COLLECTION of
 * them: call the returned function once per row of a long write loop.
 */
export function collectYoungEvery(rows = ROWS_PER_YOUNG_COLLECTION, collect: () => unknown = edenGC): () => void {
  let n = 0;
  return () => {
    if (++n % rows === 0) collect();
  };
}

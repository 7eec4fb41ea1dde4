/**
 * The queries an agent waits for, timed on the index the index suite just built (issue 19, item 5): a
 * selective grep in the engine, cortex_search in keyword mode (the state with no model), the symbol
 * look-up of a common function, in process as the MCP server holds them; then one `cortex search` and one
 * `cortex grep` as separate processes, for the wall time and peak memory a shell user sees.
 *
 * Each corpus with a query set of its own gets these rows; others get none (the questions must be ones a
 * developer of that code base would ask).
 */
import type { BenchRow } from "./run.ts";
import { percentile, runCortex, timedRuns } from "./run.ts";
import { GO_QUESTIONS } from "./search-suite.ts";

interface QuerySet {
  /** A literal a few files contain: the selective grep. */
  selective: string;
  /** A function called everywhere: the symbol look-up. */
  common: string;
  /** Plain-language and identifier questions for cortex_search. */
  questions: string[];
}

export const SETS: Record<string, QuerySet> = {
  kernel: {
    selective: "kmem_cache_alloc_lru",
    common: "kmalloc",
    questions: [
      "where is the page cache written back to disk",
      "allocate memory in interrupt context",
      "tcp retransmission timer",
      "spinlock_t",
      "how does the scheduler pick the next task",
      "ext4 journal commit",
      "copy_from_user",
      "register a character device",
      "rcu read side critical section",
      "usb device enumeration",
      "parse kernel command line parameters",
      "oom killer chooses a victim",
    ],
  },
  go: {
    selective: "ErrUnexpectedEOF",
    common: "Errorf",
    questions: GO_QUESTIONS,
  },
};

const ROUNDS = 3;

function p50Row(metric: string, ms: number[], note = ""): BenchRow {
  return { metric, value: percentile(ms, 50), unit: "ms", note: `p95 ${percentile(ms, 95).toFixed(1)} ms${note ? `; ${note}` : ""}` };
}

export async function warmQueryTimes(corpusName: string, root: string, home: string): Promise<BenchRow[]> {
  const set = SETS[corpusName];
  if (!set) return [];
  process.env.CORTEX_HOME = home;
  const { Session } = await import("../../src/tools/session.ts");
  const { PathFilter } = await import("../../src/engines/exact/index.ts");
  const session = new Session(root);
  const rows: BenchRow[] = [];
  try {
    const exact = await session.exact();
    const grep = await timedRuns(
      () =>
        exact.searchText({
          query: set.selective,
          isRegex: false,
          caseSensitive: true,
          contextLines: 0,
          paths: PathFilter.ALL,
          extensions: [],
          fresh: false,
          maxMatches: 1000,
          maxChars: Number.MAX_SAFE_INTEGER,
          deadline: Date.now() + 120_000,
        }),
      20,
    );
    rows.push(p50Row(`warm: selective grep in the engine (${set.selective})`, grep));

    const search = await session.search();
    const searchMs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const query of set.questions) {
        const t = performance.now();
        await search.search({ query, limit: 15, mode: "keyword" });
        searchMs.push(performance.now() - t);
      }
    }
    rows.push(p50Row("warm: cortex_search, keyword mode", searchMs, `${set.questions.length} questions × ${ROUNDS}`));

    const symbols = await session.symbols();
    const lookup = await timedRuns(() => symbols.occurrences({ name: set.common }, { definitions: true, references: true, limit: 200 }), 10);
    rows.push(p50Row(`warm: find_symbol_occurrences of ${set.common}`, lookup, "definitions + references, ≤ 200"));
  } finally {
    session.close();
  }

  // as a shell user meets them: a new process each, opening the index
  const env = { CORTEX_HOME: home, CORTEX_EMBEDDINGS_PROVIDER: "none" };
  const searchRun = await runCortex(["search", set.questions[0]!, "--root", root, "--json"], env);
  rows.push({ metric: "cortex search, one process: wall time", value: searchRun.ms, unit: "ms", note: `peak ${searchRun.maxRssMb.toFixed(0)} MiB` });
  rows.push({ metric: "cortex search, one process: peak memory", value: searchRun.maxRssMb, unit: "MiB" });
  const grepRun = await runCortex(["grep", "-s", "-C", "0", set.selective, "--root", root], env);
  rows.push({ metric: "cortex grep, one process: wall time", value: grepRun.ms, unit: "ms", note: `peak ${grepRun.maxRssMb.toFixed(0)} MiB` });
  rows.push({ metric: "cortex grep, one process: peak memory", value: grepRun.maxRssMb, unit: "MiB" });
  return rows;
}

/**
 * Graph benchmark: index a corpus (a fresh `cortex index` process), then time in-process, on a warm
 * engine as the MCP server holds it, the queries of cortex_graph / find_symbol_occurrences /
 * detect_circular_dependencies: callers at depth 1 and 3, dependents, cycles, symbol look-up. Targets
 * are sampled deterministically from the index (functions with callers, files with importers). The peer
 * is ripgrep finding the same names as whole words over the same tree (what an agent does without an
 * index), timed in the same run.
 */
import { mkdtempSync, statSync } from "node:fs";
import { sqliteOf } from "../../src/store/sqlite-access.ts";
import { join } from "node:path";
import { tmpdir } from "node:os";
import type { Corpus } from "./corpora.ts";
import { runCortex, runTimed, type BenchRow, percentile, timedRuns } from "./run.ts";

const SAMPLES = 25;
const REPEAT = 5;

/** Every `step`-th item, so the sample spreads over the whole ordered list. */
function spread<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  const step = items.length / n;
  return Array.from({ length: n }, (_, i) => items[Math.floor(i * step)]!);
}

export async function graphSuite(corpus: Corpus): Promise<BenchRow[]> {
  const home = mkdtempSync(join(tmpdir(), "cortex-bench-home-"));
  const cold = await runCortex(["index", corpus.root, "--json"], { CORTEX_HOME: home, CORTEX_TRACE: "1" });
  const report = JSON.parse(cold.stdout);
  const resolution = /reference resolution: (\d+) import sites, (\d+) references \((\d+) changed\) in (\d+) ms/.exec(cold.stderr);

  process.env.CORTEX_HOME = home;
  const { Session } = await import("../../src/tools/session.ts");
  const { GraphStore } = await import("../../src/store/graph-store.ts");
  const session = new Session(corpus.root);
  const store = await session.requireStore();
  const graph = await session.graph();
  const symbols = await session.symbols();
  const g = new GraphStore(store);

  // targets: functions with at least 3 resolved callers, files with at least 3 importers
  const called = sqliteOf(store)
    .query(`SELECT s.qualified_name AS q, COUNT(*) AS n FROM refs r JOIN symbols s ON s.symbol_id = r.target_symbol_id
      WHERE r.kind = 'call' AND s.kind IN ('function', 'method') GROUP BY s.symbol_id HAVING n >= 3 ORDER BY n DESC, q`)
    .all() as Array<{ q: string; n: number }>;
  const imported = sqliteOf(store)
    .query("SELECT target_file AS f, COUNT(DISTINCT file_path) AS n FROM import_edge_files GROUP BY target_file HAVING n >= 3 ORDER BY n DESC, f")
    .all() as Array<{ f: string; n: number }>;
  const functions = spread(called, SAMPLES).map((r) => r.q);
  const files = spread(imported, SAMPLES).map((r) => r.f);
  const names = functions.map((q) => q.slice(q.lastIndexOf(".") + 1));

  const time = (fn: () => Promise<unknown>): Promise<number[]> => timedRuns(fn, REPEAT);
  const measure = async (targets: string[], fn: (t: string) => Promise<unknown>): Promise<number[]> => {
    const out: number[] = [];
    for (const t of targets) out.push(...(await time(() => fn(t))));
    return out;
  };
  const req = { maxResults: 100, level: "file" as const, includeContext: false, contextLines: 2 };
  const callers1 = await measure(functions, (t) => graph.run({ operation: "callers", target: t, depth: 1, ...req }));
  const callers3 = await measure(functions, (t) => graph.run({ operation: "callers", target: t, depth: 3, ...req }));
  const dependents = await measure(files, (t) => graph.run({ operation: "dependents", target: t, depth: 1, ...req }));
  const cycles = await time(() => graph.cycles({ limit: 100 }));
  const lookup = await measure(functions, (t) => symbols.occurrences({ name: t }, { definitions: true, references: true, limit: 200 }));
  const cyclesResult = await graph.cycles({ limit: 100 });
  const edges = g.importGraphSize("");
  session.close();

  // the peer: ripgrep for the same names as whole words, over the same tree
  const rg: number[] = [];
  for (const n of names.slice(0, 10)) {
    const r = await runTimed(["rg", "-w", "--count-matches", "-g", "*.go", "-g", "*.py", n, corpus.root]);
    rg.push(r.ms);
  }

  const row = (metric: string, v: number[], note?: string): BenchRow[] => [
    { metric: `${metric}: p50`, value: percentile(v, 50), unit: "ms", ...(note ? { note } : {}) },
    { metric: `${metric}: p95`, value: percentile(v, 95), unit: "ms" },
  ];
  return [
    { metric: "corpus files indexed", value: report.files, unit: "files" },
    { metric: "cold index: wall time", value: cold.ms / 1000, unit: "s" },
    {
      metric: "reference resolution (inside the cold index)",
      value: resolution ? Number(resolution[4]) / 1000 : NaN,
      unit: "s",
      note: resolution ? `${resolution[2]} references, ${resolution[1]} import sites` : "",
    },
    { metric: "database size", value: statSync(report.database).size / (1 << 20), unit: "MiB" },
    { metric: "import graph", value: edges.edges, unit: "file edges", note: `${edges.files} importing files, ${cyclesResult.count} cycles` },
    ...row("callers depth 1", callers1, `${functions.length} functions × ${REPEAT} runs (callers: ${called.length} candidates)`),
    ...row("callers depth 3", callers3, "max_results 100"),
    ...row("dependents (file)", dependents, `${files.length} files × ${REPEAT}`),
    ...row("cycles (whole project)", cycles),
    ...row("symbol look-up (find_symbol_occurrences)", lookup, "definitions + references, ≤ 200"),
    ...row("peer: rg -w <name> over the tree", rg, "10 of the same names, whole process"),
  ];
}

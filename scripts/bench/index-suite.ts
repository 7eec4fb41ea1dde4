/**
 * Indexing benchmark: cold full index (files/s, MB/s, each tier, the phases from CORTEX_TRACE), no-op
 * re-index, one and many changed files, database size and peak memory. Each run is a fresh `cortex index`
 * process with its own CORTEX_HOME, so start-up and worker costs are counted as a user would see them,
 * and it is the executable a user runs (scripts/build.ts, built from this tree first; CORTEX_BIN names
 * another): from source, bun reads and compiles some 400 modules at each start, 0.2-0.3 s of a no-op of
 * the kernel with them in the file cache and 0.5 s without (docs/benchmarks.md, stop 38). Figures before
 * 2026-11-29 06:40 UTC ran from source.
 * Peers in the same run, where installed: universal-ctags (`ctags -R`) for the parse tier, ripgrep
 * reading the whole tree once (a literal no file contains) for the text tier.
 */
import { appendFileSync, mkdtempSync, readFileSync, statSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { loadavg, tmpdir } from "node:os";
import type { Corpus } from "./corpora.ts";
import { REPO, runCortex, runTimed, shippedCortex, type BenchRow, percentile } from "./run.ts";
import { warmQueryTimes } from "./warm-queries.ts";
import { benchFilesQueries } from "./files-query-cases.ts";

/** The 1-minute load average: the machine is shared, so wall times are read beside it. */
function loadAverage(): string {
  return loadavg()[0]!.toFixed(1);
}

function dirBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) n += statSync(join(e.parentPath, e.name)).size;
  }
  return n;
}

/**
 * cortex_files queries in process, on the warm engine the MCP server holds: the figure an agent waits for
 * (the CLI adds only its start-up). Each query 20 times after a warm-up.
 */
async function filesQueryTimes(root: string, home: string): Promise<BenchRow[]> {
  process.env.CORTEX_HOME = home;
  const { Session } = await import("../../src/tools/session.ts");
  const session = new Session(root);
  const files = await session.files();
  const cases = benchFilesQueries(files).map(([what, run]) => [`files query p50: ${what}`, run] as const);
  const rows: BenchRow[] = [];
  for (const [metric, run] of cases) {
    // each query is awaited: the engines read through the store's asynchronous contract
    await run();
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await run();
      times.push(performance.now() - t);
    }
    rows.push({ metric, value: percentile(times, 50), unit: "ms", note: `p95 ${percentile(times, 95).toFixed(2)} ms` });
  }
  session.close();
  return rows;
}

/** The cold run's phases, from its CORTEX_TRACE lines (src/indexer/pipeline.ts, src/engines/symbols/resolve-hook.ts). */
function coldPhases(stderr: string): BenchRow[] {
  const phases: Array<[string, RegExp]> = [
    ["text tier (read, hash, compress, write; trigram index included)", /text tier: \d+ files read, \d+ removed in (\d+) ms/],
    ["of which the trigram index", /trigram index: (?!none)[^\n]* in (\d+) ms/],
    ["parse tier: parse (workers) and write (main thread)", /parse tier: \d+ files in (\d+) ms/],
    ["of which main-thread writes", /parse tier: .*\(writes (\d+) ms of it\)/],
    ["secondary indexes and ANALYZE", /secondary indexes: (\d+) ms/],
    ["full-text (FTS5) load, from 500 files beside resolution", /full-text load[^:\n]*: (\d+) ms/],
    ["reference resolution (waits for the full-text load before writing)", /reference resolution: .* in (\d+) ms/],
  ];
  const rows: BenchRow[] = [];
  for (const [name, re] of phases) {
    const m = re.exec(stderr);
    if (m) rows.push({ metric: `cold index phase: ${name}`, value: Number(m[1]) / 1000, unit: "s" });
  }
  return [...rows, ...phaseCpu(stderr)];
}

/**
 * CPU seconds of each step, from the trace lines' running totals (`cpu X s, this thread Y s`): all
 * threads, and the indexer's own thread (the rest: parse workers, the keyword load's thread, SQLite's
 * and the runtime's helpers). Steadier than wall time on a shared machine.
 */
function phaseCpu(stderr: string): BenchRow[] {
  const at = (step: RegExp): { all: number; mine: number } | undefined => {
    const m = new RegExp(step.source + "[^\\n]*cpu ([\\d.]+) s, this thread ([\\d.]+) s").exec(stderr);
    return m ? { all: Number(m[1]), mine: Number(m[2]) } : undefined;
  };
  const marks: Array<[string, RegExp]> = [
    ["text tier", /text tier: /],
    ["parse tier (workers parse, this thread writes)", /parse tier: /],
    ["secondary indexes and ANALYZE", /secondary indexes: /],
    ["finish: reference resolution (this thread) beside the full-text load", /index steps done/],
  ];
  const rows: BenchRow[] = [];
  let prev = { all: 0, mine: 0 };
  for (const [name, re] of marks) {
    const now = at(re);
    if (!now) continue;
    rows.push({
      metric: `cold index CPU: ${name}`,
      value: now.all - prev.all,
      unit: "s",
      note: `this thread ${(now.mine - prev.mine).toFixed(1)} s, other threads ${(now.all - prev.all - (now.mine - prev.mine)).toFixed(1)} s`,
    });
    prev = now;
  }
  return rows;
}

/** Appends a comment line to a source file, in its language's comment syntax. */
function touch(root: string, [path, language]: [string, string]): void {
  const abs = join(root, path);
  const marker = HASH_COMMENTS.has(language) ? "#" : "//";
  appendFileSync(abs, `${readFileSync(abs, "utf8").endsWith("\n") ? "" : "\n"}${marker} touched by the benchmark\n`);
}
const HASH_COMMENTS = new Set(["python", "ruby"]);

/** universal-ctags over the tree (tags to a scratch file), when installed: the peer of the parse tier. */
async function ctagsPeer(root: string, files: number, cortexMs: number): Promise<BenchRow[]> {
  if (Bun.which("ctags") === null) return [{ metric: "universal-ctags -R (peer)", value: NaN, unit: "s", note: "not installed" }];
  const out = join(mkdtempSync(join(tmpdir(), "cortex-bench-ctags-")), "tags");
  const r = await runTimed(["ctags", "-R", "-f", out, "."], {}, root);
  return [
    { metric: "universal-ctags -R (peer): wall time", value: r.ms / 1000, unit: "s", note: `${Math.round(files / (r.ms / 1000))} files/s` },
    { metric: "universal-ctags -R (peer): peak memory", value: r.maxRssMb, unit: "MiB" },
    {
      metric: "cortex full index / universal-ctags",
      value: cortexMs / r.ms,
      unit: "×",
      note: "cortex also writes content, trigram and keyword indexes, chunks and resolved references",
    },
  ];
}

/** ripgrep reading the whole tree once (a literal no file holds), when installed: the peer of the text tier. */
async function ripgrepPeer(root: string, searchableMs: number): Promise<BenchRow[]> {
  if (Bun.which("rg") === null) return [{ metric: "ripgrep over the whole tree (peer)", value: NaN, unit: "s", note: "not installed" }];
  const r = await runTimed(["rg", "--no-config", "-c", "-F", "zq_no_file_holds_this_qz", "."], {}, root);
  return [
    {
      metric: "ripgrep over the whole tree (peer): wall time",
      value: r.ms / 1000,
      unit: "s",
      note: "one search that reads every file, cold for ripgrep too after the index run",
    },
    { metric: "text tier / one ripgrep pass", value: searchableMs / r.ms, unit: "×" },
  ];
}

export async function indexSuite(corpus: Corpus): Promise<BenchRow[]> {
  // every run below (runCortex, the one-process queries of warm-queries.ts too) uses the executable;
  // the caller's own CORTEX_BIN (or none) is back once the suite ends
  const callers = process.env.CORTEX_BIN;
  process.env.CORTEX_BIN = await shippedCortex();
  try {
    return await measureIndexing(corpus);
  } finally {
    if (callers === undefined) delete process.env.CORTEX_BIN;
    else process.env.CORTEX_BIN = callers;
  }
}

async function measureIndexing(corpus: Corpus): Promise<BenchRow[]> {
  const home = mkdtempSync(join(tmpdir(), "cortex-bench-home-"));
  const env = { CORTEX_HOME: home };
  // the cold run traces its phases (CORTEX_TRACE), so the table shows where the time goes
  const loadBefore = loadAverage();
  const cold = await runCortex(["index", corpus.root, "--json"], { ...env, CORTEX_TRACE: "1" });
  const loadAfter = loadAverage();
  const report = JSON.parse(cold.stdout);
  // the database as the cold build left it: the changed files below leave it larger (pages freed by their
  // rewrites are reused, not returned; boost 2.58 × cold, 2.74 × after them)
  const coldDbBytes = statSync(report.database as string).size;
  const corpusBytes = dirBytes(corpus.root);
  const searchableMs = report.tiers.searchableAfterMs as number;
  const peers = [...(await ripgrepPeer(corpus.root, searchableMs)), ...(await ctagsPeer(corpus.root, report.files, cold.ms))];
  const noop = await runCortex(["index", corpus.root, "--json"], env);
  // change one file the index parses: append a comment line to the first source file it reported
  const sources: Array<[string, string]> = [];
  // up to 5,000, a page of 1,000 at a time (the files query's limit)
  for (let offset = 0; offset < 5000; offset += 1000) {
    const page = JSON.parse(
      (
        await runCortex(
          [
            "files",
            "--json",
            JSON.stringify({
              from: "files",
              fields: ["file_path", "language"],
              where: { field: "function_count", operator: ">", value: 0 },
              orderBy: [{ field: "file_path", direction: "ASC" }],
              limit: 1000,
              offset,
            }),
            "--root",
            corpus.root,
            // a page of 1,000 paths is more than the default output budget of 8,000 tokens
            "--max-tokens",
            "200000",
          ],
          env,
        )
      ).stdout,
    ).rows as Array<[string, string]>;
    sources.push(...page);
    if (page.length < 1000) break;
  }
  touch(corpus.root, sources[0]!);
  const one = await runCortex(["index", corpus.root, "--json"], env);
  const oneReport = JSON.parse(one.stdout);
  // then many: every tenth of (up to) the first 1,000 source files, a branch switch's worth of changes
  const many = sources.slice(0, 1000).filter((_, i) => i % 10 === 5);
  for (const s of many) touch(corpus.root, s);
  const manyRun = await runCortex(["index", corpus.root, "--json"], env);
  const manyReport = JSON.parse(manyRun.stdout);
  // and where the corpus has them, 500: every tenth of the first 5,000 (the kernel's goal: ≤ 15 s)
  const lots = sources.length >= 5000 ? sources.filter((_, i) => i % 10 === 7) : [];
  for (const s of lots) touch(corpus.root, s);
  const lotsRun = lots.length ? await runCortex(["index", corpus.root, "--json"], { ...env, CORTEX_TRACE: "1" }) : undefined;
  const db = report.database as string;
  const queries = await filesQueryTimes(corpus.root, home);
  const warm = await warmQueryTimes(corpus.name, corpus.root, home);
  const dbBytes = statSync(db).size;
  return [
    { metric: "cold index: files", value: report.files, unit: "files", note: `cortex: ${process.env.CORTEX_BIN!.replace(REPO + "/", "")}` },
    { metric: "cold index: wall time", value: cold.ms / 1000, unit: "s", note: `load average ${loadBefore} before, ${loadAfter} after` },
    {
      metric: "cold index: CPU time (user + system)",
      value: cold.cpuMs / 1000,
      unit: "s",
      note: `${Math.round(report.files / (cold.cpuMs / 1000))} files per CPU second`,
    },
    { metric: "cold index: throughput", value: report.files / (cold.ms / 1000), unit: "files/s" },
    { metric: "cold index: throughput", value: corpusBytes / (1 << 20) / (cold.ms / 1000), unit: "MiB/s" },
    { metric: "cold index: peak memory", value: cold.maxRssMb, unit: "MiB" },
    {
      metric: "text tier: searchable (grep, exact) after",
      value: searchableMs / 1000,
      unit: "s",
      note: `${Math.round(report.files / (searchableMs / 1000))} files/s`,
    },
    { metric: "parse tier and finish", value: report.tiers.parseMs / 1000, unit: "s" },
    ...coldPhases(cold.stderr),
    ...peers,
    { metric: "no-op re-index: wall time", value: noop.ms / 1000, unit: "s" },
    { metric: "one changed file: wall time", value: one.ms / 1000, unit: "s" },
    { metric: "one changed file: files parsed", value: oneReport.parsed, unit: "files" },
    { metric: `${many.length} changed files: wall time`, value: manyRun.ms / 1000, unit: "s", note: `${manyReport.parsed} files parsed` },
    ...(lotsRun
      ? [
          {
            metric: `${lots.length} changed files: wall time`,
            value: lotsRun.ms / 1000,
            unit: "s",
            note: `${JSON.parse(lotsRun.stdout).parsed} files parsed; CPU ${(lotsRun.cpuMs / 1000).toFixed(1)} s`,
          },
        ]
      : []),
    { metric: "database size after the cold index", value: coldDbBytes / (1 << 20), unit: "MiB" },
    { metric: "database / corpus size after the cold index", value: coldDbBytes / corpusBytes, unit: "×" },
    { metric: "database size", value: dbBytes / (1 << 20), unit: "MiB", note: "after the changed files' runs" },
    { metric: "database / corpus size", value: dbBytes / corpusBytes, unit: "×", note: "after the changed files' runs" },
    ...queries,
    ...warm,
  ];
}

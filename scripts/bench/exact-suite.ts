/**
 * Exact-search benchmark: cortex against ripgrep on the same corpus in the same run, for the four query
 * classes of issue 4 (a selective literal, a common literal, a regex with a required literal, a regex
 * with none), plus the trigram index's build time and size.
 *
 * Three cortex figures per query, each beside ripgrep's time for the same query:
 *  - cli: `cortex grep` as a user runs it (the executable scripts/build.ts makes, a new process each
 *    time, default limit of 500 lines), against `rg` printing every matching line;
 *  - engine: the same search inside a warm process (what an MCP client waits for), default limit;
 *  - all: the engine returning every matching line (no limit), the like-for-like throughput figure.
 * Process runs are interleaved (cortex, rg, cortex, rg, …) so background load affects both alike; each
 * figure is the median of the runs. Ratios are ripgrep's time over cortex's (above 1: cortex is faster).
 * BENCH_ROUNDS sets the runs per figure (default 15); BENCH_KEEP=1 keeps the index built for the run.
 */
import { mkdtempSync, readdirSync, statSync, rmSync } from "node:fs";
import { sqliteOf } from "../../src/store/sqlite-access.ts";
import { join } from "node:path";
import { tmpdir } from "node:os";
import type { Corpus } from "./corpora.ts";
import { REPO, runCortex, shippedCortex, type BenchRow } from "./run.ts";

interface QueryCase {
  klass: string;
  query: string;
  regex: boolean;
  caseSensitive: boolean;
}

const CASES: QueryCase[] = [
  { klass: "selective literal", query: "ErrUnexpectedEOF", regex: false, caseSensitive: true },
  { klass: "selective literal, case-insensitive", query: "sync.rwmutex", regex: false, caseSensitive: false },
  { klass: "common literal", query: "return nil", regex: false, caseSensitive: true },
  { klass: "very common literal", query: "err", regex: false, caseSensitive: true },
  { klass: "regex with a required literal", query: 'errors\\.New\\("[^"]*"\\)', regex: true, caseSensitive: true },
  { klass: "selective regex with a required literal", query: "func \\(\\w+ \\*\\w+\\) Close\\(\\)", regex: true, caseSensitive: true },
  { klass: "regex with no usable literal", query: "\\d{4}-\\d{2}-\\d{2}", regex: true, caseSensitive: true },
];

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const WARMUP = 2;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function dirBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) n += statSync(join(e.parentPath, e.name)).size;
  return n;
}

async function timeOnce(cmd: string[], env: Record<string, string>, cwd: string): Promise<{ ms: number; stdout: string }> {
  const t0 = performance.now();
  const p = Bun.spawn(cmd, { cwd, env: { ...process.env, ...env }, stdout: "pipe", stderr: "ignore" });
  const stdout = await new Response(p.stdout).text();
  await p.exited;
  return { ms: performance.now() - t0, stdout };
}

/** Median wall times of several commands, run interleaved. */
async function interleaved(cmds: string[][], env: Record<string, string>, cwd: string): Promise<number[]> {
  const times = cmds.map(() => [] as number[]);
  for (let r = 0; r < ROUNDS + WARMUP; r++) {
    for (let i = 0; i < cmds.length; i++) {
      const { ms } = await timeOnce(cmds[i]!, env, cwd);
      if (r >= WARMUP) times[i]!.push(ms);
    }
  }
  return times.map(median);
}

/**
 * The design decision, measured: the same stored content indexed by an FTS5 trigram table (contentless,
 * detail=none: file-level postings, as ours) and by cortex's own posting lists, one after the other in
 * this process: build time, size, and the time to find the candidate files of a selective literal.
 */
async function storageComparison(indexDb: string): Promise<BenchRow[]> {
  const { Database } = await import("bun:sqlite");
  const { updateTrigramIndex, ContentIndex } = await import("../../src/store/content-index.ts");
  const { planLiteral } = await import("../../src/engines/exact/plan.ts");
  const { CandidateFinder } = await import("../../src/store/trigram-candidates.ts");
  const { trigramText } = await import("../../src/store/trigrams.ts");
  const dir = mkdtempSync(join(tmpdir(), "cortex-bench-fts-"));
  const own = new Database(join(dir, "own.db"), { create: true });
  own.exec(`ATTACH '${indexDb}' AS src`);
  own.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA foreign_keys = ON");
  own.exec("CREATE TABLE file_state AS SELECT * FROM src.file_state; CREATE TABLE contents AS SELECT * FROM src.contents");
  own.exec("CREATE UNIQUE INDEX fs_id ON file_state(file_id); CREATE UNIQUE INDEX c_id ON contents(file_id)");
  own.exec("DETACH src");
  const contentPages = (own.query("SELECT SUM(pgsize) AS b FROM dbstat WHERE name IN ('file_state', 'contents', 'fs_id', 'c_id')").get() as { b: number }).b;
  let t0 = performance.now();
  updateTrigramIndex(own);
  const ownMs = performance.now() - t0;
  const ownBytes = new ContentIndex(own).sizeBytes();

  const fts = new Database(join(dir, "fts.db"), { create: true });
  fts.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF");
  fts.exec("CREATE VIRTUAL TABLE t USING fts5(text, tokenize = 'trigram', detail = none, content = '', contentless_delete = 1)");
  const insert = fts.prepare("INSERT INTO t (rowid, text) VALUES (?, ?)");
  const rows = own.query("SELECT file_id AS id, text FROM contents ORDER BY file_id").all() as Array<{ id: number; text: string }>;
  t0 = performance.now();
  fts.transaction(() => rows.forEach((r) => insert.run(r.id, r.text)))();
  fts.exec("INSERT INTO t (t) VALUES ('optimize')");
  const ftsMs = performance.now() - t0;
  const ftsBytes = (fts.query("SELECT SUM(pgsize) AS b FROM dbstat WHERE name LIKE 't%'").get() as { b: number }).b;

  const literal = "ErrUnexpectedEOF";
  const q = planLiteral(literal, true).query;
  const ftsQuery = q.op === "and" ? q.args.map((a) => `"${trigramText((a as { t: number }).t)}"`).join(" AND ") : "";
  const timeIt = (fn: () => number) => {
    const times: number[] = [];
    let n = 0;
    for (let i = 0; i < ROUNDS + WARMUP; i++) {
      const s = performance.now();
      n = fn();
      if (i >= WARMUP) times.push(performance.now() - s);
    }
    return { ms: median(times), n };
  };
  const ftsStmt = fts.prepare("SELECT rowid FROM t WHERE t MATCH ?");
  const ftsLookup = timeIt(() => ftsStmt.values(ftsQuery).length);
  const ownIndex = new ContentIndex(own);
  const ownLookup = timeIt(() => new CandidateFinder(ownIndex).evaluate(q)!.length);
  own.close();
  fts.close();
  rmSync(dir, { recursive: true, force: true });
  const note = `${(contentPages / (1 << 20)).toFixed(0)} MiB of stored content, one thread`;
  return [
    { metric: "design: FTS5 trigram (detail=none) build", value: ftsMs / 1000, unit: "s", note },
    { metric: "design: own posting lists build", value: ownMs / 1000, unit: "s", note: `${(ftsMs / ownMs).toFixed(1)}× faster than FTS5` },
    { metric: "design: FTS5 trigram size", value: ftsBytes / (1 << 20), unit: "MiB" },
    { metric: "design: own posting lists size", value: ownBytes / (1 << 20), unit: "MiB", note: "postings and per-file coverage" },
    { metric: `design: FTS5 candidates of ${JSON.stringify(literal)}`, value: ftsLookup.ms, unit: "ms", note: `${ftsLookup.n} files` },
    { metric: `design: own candidates of ${JSON.stringify(literal)}`, value: ownLookup.ms, unit: "ms", note: `${ownLookup.n} files` },
  ];
}

export async function exactSuite(corpus: Corpus): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const home = mkdtempSync(join(tmpdir(), "cortex-bench-exact-"));
  const env = { CORTEX_HOME: home };
  const bin = await shippedCortex();

  // Index (the dev CLI, like the index suite), with the trigram hook's own time from its trace line.
  const indexed = await runCortex(["index", corpus.root, "--json"], { ...env, CORTEX_TRACE: "1" });
  const report = JSON.parse(indexed.stdout);
  const trace = /trigram index: \w+ (\d+) files, (\d+) postings in (\d+) ms/.exec(indexed.stderr);
  rows.push({ metric: "index: files", value: report.files, unit: "files" });
  rows.push({ metric: "index: full build, wall time", value: indexed.ms / 1000, unit: "s", note: "cortex index, cold" });
  if (trace)
    rows.push({
      metric: "index: trigram index build within it",
      value: Number(trace[3]) / 1000,
      unit: "s",
      note: `${trace[2]} postings; ${((Number(trace[3]) / indexed.ms) * 100).toFixed(1)}% of the build`,
    });

  // In-process engine over the index just built.
  process.env.CORTEX_HOME = home;
  const { Session } = await import("../../src/tools/session.ts");
  const { PathFilter } = await import("../../src/engines/exact/index.ts");
  const { ContentIndex } = await import("../../src/store/content-index.ts");
  const session = new Session(corpus.root);
  const engine = await session.exact();
  const store = session.store()!;
  const corpusBytes = dirBytes(corpus.root);
  const textBytes = (sqliteOf(store).query("SELECT SUM(length(CAST(text AS BLOB))) AS b FROM contents").get() as { b: number }).b;
  const trigramBytes = new ContentIndex(sqliteOf(store)).sizeBytes();
  rows.push({ metric: "index: trigram index size", value: trigramBytes / (1 << 20), unit: "MiB" });
  rows.push({
    metric: "index: trigram index / corpus size",
    value: trigramBytes / corpusBytes,
    unit: "×",
    note: `corpus ${(corpusBytes / (1 << 20)).toFixed(0)} MiB on disk`,
  });
  rows.push({
    metric: "index: trigram index / indexed text",
    value: trigramBytes / textBytes,
    unit: "×",
    note: `${(textBytes / (1 << 20)).toFixed(0)} MiB of text indexed (binary and >1 MiB files are not)`,
  });
  rows.push(...(await storageComparison(store.path)));

  const search = (c: QueryCase, maxMatches: number) =>
    engine.searchText({
      query: c.query,
      isRegex: c.regex,
      caseSensitive: c.caseSensitive,
      contextLines: 0,
      paths: PathFilter.ALL,
      extensions: [],
      fresh: false,
      maxMatches,
      maxChars: Number.MAX_SAFE_INTEGER,
      deadline: Date.now() + 120_000,
    });
  const engineMs = async (c: QueryCase, maxMatches: number) => {
    const times: number[] = [];
    for (let r = 0; r < ROUNDS + WARMUP; r++) {
      const t0 = performance.now();
      await search(c, maxMatches);
      if (r >= WARMUP) times.push(performance.now() - t0);
    }
    return median(times);
  };

  // The floor under every cli figure: starting the executable and loading its modules.
  const [startup] = (await interleaved([[bin, "--version"]], env, corpus.root)) as [number];
  rows.push({ metric: "cortex --version (start-up, included in every cli figure)", value: startup, unit: "ms", note: bin.replace(REPO + "/", "") });

  for (const c of CASES) {
    // ripgrep reads the ignore files cortex reads (the corpus's own .gitignore files, wherever the
    // corpus lies), not those of a repository around it (.bench/ sits inside this one)
    const rgArgs = [
      "rg",
      "--no-config",
      "--no-ignore-parent",
      "--no-require-git",
      "-n",
      c.caseSensitive ? "-s" : "-i",
      ...(c.regex ? [] : ["-F"]),
      "--",
      c.query,
    ];
    const cortexArgs = [bin, "grep", "-C", "0", c.caseSensitive ? "-s" : "-i", ...(c.regex ? ["-e"] : []), "--", c.query];
    const rgLines = (await timeOnce(rgArgs, env, corpus.root)).stdout.split("\n").filter(Boolean).length;
    const all = await search(c, Number.MAX_SAFE_INTEGER);
    const [cliMs, rgMs] = (await interleaved([cortexArgs, rgArgs], env, corpus.root)) as [number, number];
    const capped = await engineMs(c, 500);
    const complete = await engineMs(c, Number.MAX_SAFE_INTEGER);
    const label = `${c.klass}: ${c.regex ? "/" + c.query + "/" : JSON.stringify(c.query)}`;
    const lines = `${all.matches.length} lines (rg ${rgLines}), ${all.stats.candidate_files} candidate files`;
    rows.push({ metric: `${label}: ripgrep`, value: rgMs, unit: "ms", note: lines });
    rows.push({ metric: `${label}: cortex grep (cli)`, value: cliMs, unit: "ms", note: `${(rgMs / cliMs).toFixed(2)}× ripgrep's speed` });
    rows.push({ metric: `${label}: engine, 500-line limit`, value: capped, unit: "ms", note: `${(rgMs / capped).toFixed(1)}× ripgrep's speed` });
    rows.push({ metric: `${label}: engine, every line`, value: complete, unit: "ms", note: `${(rgMs / complete).toFixed(2)}× ripgrep's speed` });
  }

  // cortex_exact keyword queries (no ripgrep equivalent: ranked, boundary-aware, boolean)
  for (const q of ["sync.RWMutex", "authentication AND -test", "context* AND deadline"]) {
    const times: number[] = [];
    let hits = 0;
    for (let r = 0; r < ROUNDS + WARMUP; r++) {
      const t0 = performance.now();
      const res = await engine.searchKeywords({ query: q, limit: 15, contextLines: 2, paths: PathFilter.ALL, languages: [], deadline: Date.now() + 120_000 });
      if (r >= WARMUP) times.push(performance.now() - t0);
      hits = res.total_lines;
    }
    rows.push({ metric: `cortex_exact ${JSON.stringify(q)}: engine`, value: median(times), unit: "ms", note: `${hits} matching lines, best 15 returned` });
  }
  session.close();
  if (!process.env.BENCH_KEEP) rmSync(home, { recursive: true, force: true });
  return rows;
}

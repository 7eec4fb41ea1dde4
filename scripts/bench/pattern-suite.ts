/**
 * Pattern search benchmark: cortex_pattern against the plain ast-grep CLI (the same pinned binary) on the
 * same corpus, in one run. Rounds interleave the contenders and rotate their order, so a busy machine
 * slows every contender alike; each figure is the median of the rounds, with CPU time (user + system,
 * children included) next to wall time. Measured per pattern:
 *
 *   ast-grep CLI          `ast-grep run -p <p> --lang <l> --json=stream .` (or `scan --inline-rules` for a rule)
 *                         in the corpus, ignoring ignore files above it (see peerArgs)
 *   cortex CLI            `cortex pattern <p> --lang <l> --json`: a fresh process, as a shell user sees it
 *   engine                the engine in this process, as the MCP server runs it (walk + literal narrowing)
 *   engine, no narrowing  the same, handing ast-grep every file: cortex's own overhead
 *   engine, index         candidates from the index (language + literals by SQL over stored contents)
 *                         instead of the walk and file reads: does the index pay?
 *
 *   bun scripts/bench.ts pattern go|django|<path> [--runs N]
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { sqliteOf } from "../../src/store/sqlite-access.ts";
import { join, resolve } from "node:path";
import { tmpdir, loadavg } from "node:os";
import type { Corpus } from "./corpora.ts";
import { runCortex, type BenchRow } from "./run.ts";
import { PatternEngine, patternLanguage, type PatternSearch } from "../../src/engines/structural/index.ts";
import { resolveAstGrep } from "../../src/engines/structural/install.ts";
import { walkProject } from "../../src/indexer/walk.ts";
import { Session } from "../../src/tools/session.ts";
import { ruleDocument } from "../../src/engines/structural/command.ts";
import { LiteralFilter } from "../../src/engines/structural/literals.ts";

interface Case {
  label: string;
  query: PatternSearch;
}

const CASES: Record<string, Case[]> = {
  go: [
    { label: "defer $F()", query: { pattern: "defer $F()", language: "go" } },
    { label: "$MU.Lock()", query: { pattern: "$MU.Lock()", language: "go" } },
    { label: "for $K, $V := range $M { $$$B }", query: { pattern: "for $K, $V := range $M { $$$B }", language: "go" } },
    { label: "if err != nil { $$$B }", query: { pattern: "if err != nil { $$$B }", language: "go" } },
    {
      label: "rule: $X.Unlock() inside defer",
      query: { rule: { pattern: "$X.Unlock()", inside: { kind: "defer_statement", stopBy: "end" } }, language: "go" },
    },
  ],
  python: [
    { label: "with $CTX as $V: $$$B", query: { pattern: "with $CTX as $V: $$$B", language: "python" } },
    { label: "$M.objects.filter($$$A)", query: { pattern: "$M.objects.filter($$$A)", language: "python" } },
    { label: "raise $E from $C", query: { pattern: "raise $E from $C", language: "python" } },
    { label: "def $F(self, $$$A): $$$B", query: { pattern: "def $F(self, $$$A): $$$B", language: "python" } },
    {
      label: "rule: print() outside classes",
      query: { rule: { pattern: "print($$$A)", not: { inside: { kind: "class_definition", stopBy: "end" } } }, language: "python" },
    },
  ],
};

interface Sample {
  wall: number;
  cpu: number;
  matches: number;
  searched?: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Runs a command under GNU time: wall seconds, CPU seconds (children included) and stdout. */
async function timed(cmd: string[], cwd: string, env: Record<string, string> = {}): Promise<{ wall: number; cpu: number; stdout: string }> {
  const proc = Bun.spawn(["/usr/bin/time", "-f", "__T__%e %U %S", ...cmd], { cwd, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const m = /__T__([\d.]+) ([\d.]+) ([\d.]+)/.exec(stderr);
  if (!m || (code !== 0 && code !== 1)) throw new Error(`${cmd.join(" ")} failed (${code}): ${stderr.slice(0, 500)}`);
  return { wall: Number(m[1]), cpu: Number(m[2]) + Number(m[3]), stdout };
}

/** CPU seconds of this process and of the children it has waited for (ast-grep runs), from /proc. */
function cpuSeconds(): number {
  const own = process.cpuUsage();
  let children = NaN;
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
    children = (Number(fields[13]) + Number(fields[14])) / 100; // cutime + cstime, in clock ticks (USER_HZ = 100)
  } catch {}
  return (own.user + own.system) / 1e6 + children;
}

function dominantLanguage(root: string): "go" | "python" {
  const files = walkProject(root, { maxFileSize: 1 << 20, extraExcludes: [] }).files;
  const go = files.filter((f) => f.path.endsWith(".go")).length;
  const py = files.filter((f) => f.path.endsWith(".py")).length;
  if (go === 0 && py === 0) throw new Error("the pattern suite has pattern sets for Go and Python corpora only");
  return go >= py ? "go" : "python";
}

export async function patternSuite(corpus: Corpus, args: string[]): Promise<BenchRow[]> {
  const runsAt = args.indexOf("--runs");
  const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 3;
  const language = dominantLanguage(corpus.root);
  const cases = CASES[language === "go" ? "go" : "python"]!;
  const binary = await resolveAstGrep();
  const home = mkdtempSync(join(tmpdir(), "cortex-bench-home-"));
  const env = { CORTEX_HOME: home, CORTEX_AST_GREP: binary.path };
  const engine = new PatternEngine(corpus.root, { maxFileSize: 1 << 20, excludes: [] }, async () => binary);
  const control = { timeoutMs: 600_000 };

  // The index for the index-narrowing variant, built once (its build time is the index suite's business).
  await runCortex(["index", corpus.root, "--json"], env);
  const savedHome = process.env.CORTEX_HOME;
  process.env.CORTEX_HOME = home;
  const session = new Session(corpus.root);
  const store = session.store();
  if (savedHome === undefined) delete process.env.CORTEX_HOME;
  else process.env.CORTEX_HOME = savedHome;
  if (!store) throw new Error("the corpus index was not built");
  // Measurement code, not product code: the experiment asks SQLite directly what the engine would ask.
  const extensions = patternLanguage(language)!.extensions;
  const indexCandidates = (literals: { exact: string[]; caseless: string[] }): string[] => {
    const where = [
      `(${extensions.map(() => "f.file_path LIKE ?").join(" OR ")})`,
      ...literals.exact.map(() => "instr(c.text, ?) > 0"),
      ...literals.caseless.map(() => "instr(lower(c.text), ?) > 0"),
    ];
    const sql = `SELECT f.file_path FROM files f JOIN file_state s ON s.file_path = f.file_path JOIN contents c ON c.file_id = s.file_id WHERE ${where.join(" AND ")} ORDER BY f.file_path`;
    const params = [...extensions.map((e) => `%.${e}`), ...literals.exact, ...literals.caseless];
    return (
      sqliteOf(store)
        .query(sql)
        .all(...params) as Array<{ file_path: string }>
    ).map((r) => r.file_path);
  };

  // Warm the page cache so the first contender does not pay for the disk.
  const walked = walkProject(corpus.root, { maxFileSize: Number.MAX_SAFE_INTEGER, extraExcludes: [] });
  for (const f of walked.files) readFileSync(join(corpus.root, f.path));
  const walkStart = performance.now();
  const inScope = walkProject(corpus.root, { maxFileSize: 1 << 20, extraExcludes: [] }).files.filter((f) => f.path.endsWith(language === "go" ? ".go" : ".py"));
  const walkMs = performance.now() - walkStart;

  const cli = resolve(import.meta.dir, "..", "..", "src", "cli", "main.ts");
  type Contender = "astgrep" | "cortexCli" | "engine" | "engineFull" | "engineIndex";
  const contenders: Contender[] = ["astgrep", "cortexCli", "engine", "engineFull", "engineIndex"];
  const rows: BenchRow[] = [];
  const load: number[] = [];

  for (const c of cases) {
    const samples: Record<Contender, Sample[]> = { astgrep: [], cortexCli: [], engine: [], engineFull: [], engineIndex: [] };
    // --no-ignore=parent: the corpus copy lives in this repository's .bench/, and ast-grep would otherwise
    // apply the repository's own .gitignore (its `dist/` rule hides the Go corpus's cmd/dist) to it.
    const peerArgs = c.query.rule
      ? ["scan", `--inline-rules=${ruleDocument(c.query.language, c.query.rule)}`, "--no-ignore=parent", "--json=stream", "."]
      : ["run", `--pattern=${c.query.pattern}`, `--lang=${c.query.language}`, "--no-ignore=parent", "--json=stream", "."];
    const cliArgs = ["pattern", "--lang", c.query.language, "--limit", "100", "--json", "--root", corpus.root, "--timeout-ms", "600000"];
    if (c.query.rule) cliArgs.push("--rule", JSON.stringify(c.query.rule));
    else cliArgs.splice(1, 0, c.query.pattern!);
    // One untimed search: the literals for the index variant, and the pattern analysis cached as a server has it.
    const literals = (await engine.search(c.query, control)).metadata.literals;

    const diskMs: number[] = [];
    const sqlMs: number[] = [];
    const filter = new LiteralFilter(literals);
    for (let round = 0; round < runs; round++) {
      load.push(loadavg()[0]!);
      // the two ways of narrowing, alone: read and check every file in scope, or ask the index
      let t = performance.now();
      if (filter.active) for (const f of inScope) filter.accepts(readFileSync(join(corpus.root, f.path)));
      diskMs.push(performance.now() - t);
      t = performance.now();
      indexCandidates(literals);
      sqlMs.push(performance.now() - t);
      const order = contenders.map((_, i) => contenders[(i + round) % contenders.length]!);
      for (const who of order) {
        if (who === "astgrep") {
          const r = await timed([binary.path, ...peerArgs], corpus.root);
          samples.astgrep.push({ wall: r.wall, cpu: r.cpu, matches: r.stdout.split("\n").filter((l) => l.trim()).length });
        } else if (who === "cortexCli") {
          const r = await timed([process.execPath, cli, ...cliArgs], corpus.root, env);
          const out = JSON.parse(r.stdout);
          samples.cortexCli.push({ wall: r.wall, cpu: r.cpu, matches: out.total, searched: out.metadata.files.searched });
        } else {
          const t0 = performance.now();
          const c0 = cpuSeconds();
          const res =
            who === "engineIndex"
              ? await engine.search(c.query, { ...control, narrow: false, files: indexCandidates(literals) })
              : await engine.search(c.query, { ...control, narrow: who === "engine" });
          samples[who].push({ wall: (performance.now() - t0) / 1000, cpu: cpuSeconds() - c0, matches: res.total, searched: res.metadata.files.searched });
        }
      }
    }

    const peer = median(samples.astgrep.map((s) => s.wall));
    const row = (who: Contender, name: string) => {
      const s = samples[who];
      const wall = median(s.map((x) => x.wall));
      const cpu = median(s.map((x) => x.cpu));
      const searched = s[0]?.searched;
      const note = [
        `${s[0]?.matches ?? "?"} matches`,
        searched !== undefined ? `${searched} files to ast-grep` : `${inScope.length} ${language} files (its own walk)`,
        Number.isFinite(cpu) ? `CPU ${cpu.toFixed(2)} s` : "",
        who === "astgrep" ? "" : `${wall <= peer ? "" : "+"}${(((wall - peer) / peer) * 100).toFixed(0)}% vs ast-grep`,
      ].filter(Boolean);
      rows.push({ metric: `${c.label}: ${name}`, value: wall, unit: "s", note: note.join(", ") });
    };
    row("astgrep", "ast-grep CLI");
    row("cortexCli", "cortex pattern CLI");
    row("engine", "engine (walk + literals)");
    row("engineFull", "engine, no narrowing");
    row("engineIndex", "engine, index narrowing");
    rows.push({
      metric: `${c.label}: literals checked on disk`,
      value: median(diskMs),
      unit: "ms",
      note: `read ${inScope.length} files; literals ${JSON.stringify(literals)}`,
    });
    rows.push({
      metric: `${c.label}: literals checked by the index (SQL)`,
      value: median(sqlMs),
      unit: "ms",
      note: "stored contents; blind to changes since the last index run",
    });
  }
  session.close();
  rows.push({ metric: "walk + language filter (cortex ignore rules)", value: walkMs, unit: "ms", note: `${inScope.length} ${language} files in scope` });
  rows.push({
    metric: "machine load during the run (1-min load average)",
    value: median(load),
    unit: "",
    note: `min ${Math.min(...load).toFixed(1)}, max ${Math.max(...load).toFixed(1)}`,
  });
  return rows;
}

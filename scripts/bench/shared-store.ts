#!/usr/bin/env bun
/**
 * The shared store (PostgreSQL) against the local SQLite index, for many repositories in one database.
 *
 *   bun scripts/bench/shared-store.ts --store postgres://… [--server-pid <postmaster pid>] <repo-folder>…
 *
 * 1. Per repository: the local index build (`cortex index`: CPU seconds of this process, wall), then its
 *    first publication (what `cortex index --repo` adds: the same, and the server's CPU when
 *    --server-pid names the postmaster of a server only this run uses), the local index's size.
 *    Throughput of `index --repo` against `index` = local CPU / (local + publish CPU), with and without
 *    the server's share.
 * 2. Over every published repository at once: the database's size against the corpus, and p50/p95 of a
 *    selective literal grep, a regex grep (the exact engine over the shared reader, verification
 *    included), a keyword search, a cortex_files aggregation and cortex_search (the tool, keyword mode)
 *    for queries of common and rarer words.
 * 3. Two indexers at once (two processes) publishing two indexes as new repositories, then each the
 *    other's index over its own, while two readers query: every answer a reader gets must show each
 *    repository whole in one generation (its file count and byte total those of one published index),
 *    and afterwards each repository's files must be exactly its last index's (path and content hash).
 *
 * Wall times on a shared machine depend on its load, printed beside them.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { loadavg, tmpdir } from "node:os";
import { spawn } from "node:child_process";
import { Session } from "../../src/tools/session.ts";
import { invokeTool } from "../../src/tools/invoke.ts";
import { searchTool } from "../../src/tools/cortex-search.ts";
import { indexLocation } from "../../src/store/location.ts";
import { connectPostgres } from "../../src/store/postgres/client.ts";
import { SharedStore } from "../../src/store/postgres/shared-store.ts";
import { PgIndexReader } from "../../src/store/postgres/reader.ts";
import { SqliteIndexReader } from "../../src/store/sqlite-reader.ts";
import { ExactEngine, PathFilter } from "../../src/engines/exact/index.ts";
import { compileQuery } from "../../src/engines/files/compile.ts";
import { queryDefinitionSchema } from "../../src/engines/files/query-schema.ts";
import { POSTGRES_DIALECT } from "../../src/store/sql-dialect.ts";

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const v = args[at + 1];
  if (v === undefined) throw new Error(`${name} needs a value`);
  args.splice(at, 2);
  return v;
};
const url = option("--store");
if (url === undefined) throw new Error("usage: bun scripts/bench/shared-store.ts --store postgres://… [--server-pid N] <repo-folder>…");
process.env.CORTEX_DATABASE_URL = url;

// the child mode of part 3: one publication in a process of its own
const publishOne = option("--publish-one");
if (publishOne !== undefined) {
  const store = SharedStore.connect(url);
  const r = await store.publish(publishOne, args[0]!);
  await store.close();
  console.log(JSON.stringify(r));
  process.exit(0);
}
const serverPid = option("--server-pid");
const folders = args;

/** CPU seconds of the server: the postmaster's and its live children's, and the reaped children's. */
function serverCpu(): number {
  if (serverPid === undefined) return Number.NaN;
  const tick = 100; // USER_HZ on Linux
  const fields = (pid: string) =>
    readFileSync(`/proc/${pid}/stat`, "utf8")
      .replace(/^.*\) /, "")
      .split(" ");
  const own = fields(serverPid);
  let sum = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const f = fields(pid);
      if (f[1] === serverPid) sum += Number(f[11]) + Number(f[12]);
    } catch {
      // the process ended meanwhile: its time is in the parent's reaped-children count
    }
  }
  return sum / tick;
}

async function measure<T>(fn: () => Promise<T>): Promise<{ value: T; cpu: number; wall: number; server: number }> {
  const c0 = process.cpuUsage();
  const s0 = serverCpu();
  const t0 = performance.now();
  const value = await fn();
  const c = process.cpuUsage(c0);
  return { value, cpu: (c.user + c.system) / 1e6, wall: (performance.now() - t0) / 1000, server: serverCpu() - s0 };
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
const out: string[] = [`machine: load average at start ${load()}`, ""];
const indexes = new Map<string, string>();
const store = SharedStore.connect(url);
const rows: string[] = [
  "| repository | files | local build CPU s (wall) | publish CPU s (wall) | server CPU s | SQLite index MiB |",
  "|---|---|---|---|---|---|",
];
const total = { files: 0, local: 0, localWall: 0, publish: 0, publishWall: 0, server: 0 };
for (const folder of folders) {
  const session = new Session(folder);
  const built = await measure(() => session.index({ full: true }));
  session.close();
  const path = indexLocation(session.root).current()!;
  indexes.set(basename(folder), path);
  const published = await measure(() => store.publish(basename(folder), path));
  const mib = statSync(path).size / 2 ** 20;
  total.files += published.value.changed;
  total.local += built.cpu;
  total.localWall += built.wall;
  total.publish += published.cpu;
  total.publishWall += published.wall;
  total.server += published.server;
  rows.push(
    `| ${basename(folder)} | ${published.value.changed} | ${built.cpu.toFixed(1)} (${built.wall.toFixed(1)}) | ${published.cpu.toFixed(1)} (${published.wall.toFixed(1)}) | ${published.server.toFixed(1)} | ${mib.toFixed(1)} |`,
  );
  console.error(rows.at(-1), `load ${load()}`);
}
rows.push(
  `| all ${folders.length} | ${total.files} | ${total.local.toFixed(1)} (${total.localWall.toFixed(1)}) | ${total.publish.toFixed(1)} (${total.publishWall.toFixed(1)}) | ${total.server.toFixed(1)} | |`,
);
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(0)} %`;
out.push(rows.join("\n"), "");
out.push(
  `index --repo throughput against index: CPU of this process ${pct(total.local, total.local + total.publish)}, with the server's CPU ${pct(total.local, total.local + total.publish + total.server)}, wall ${pct(total.localWall, total.localWall + total.publishWall)}`,
);

const client = connectPostgres(url);
const [size] = await client.query<{ db: number; corpus: number; text: number }>(
  `SELECT (pg_database_size(current_database()) / 1048576.0)::float8 AS db,
          (SELECT sum(size_bytes) FROM cortex.live_files) / 1048576.0::float8 AS corpus,
          (pg_total_relation_size('cortex.file_versions') / 1048576.0)::float8 AS text`,
);
const sqliteMib = [...indexes.values()].reduce((n, p) => n + statSync(p).size, 0) / 2 ** 20;
out.push(
  `database: ${size!.db.toFixed(0)} MiB for a corpus of ${Number(size!.corpus).toFixed(0)} MiB of indexed text (${(size!.db / Number(size!.corpus)).toFixed(1)} ×; file_versions with its indexes ${size!.text.toFixed(0)} MiB); the ${indexes.size} SQLite indexes: ${sqliteMib.toFixed(0)} MiB`,
  "",
);

const reader = new PgIndexReader(client, "all");
const engine = new ExactEngine(reader, "/nonexistent");
const grep =
  (query: string, isRegex: boolean, caseSensitive = false) =>
  () =>
    engine.searchText({
      query,
      isRegex,
      caseSensitive,
      contextLines: 0,
      paths: PathFilter.ALL,
      extensions: [],
      fresh: false,
      maxMatches: 200,
      maxChars: 100_000,
      deadline: Date.now() + 10_000,
    });
const files = compileQuery(
  queryDefinitionSchema.parse({
    from: "files",
    fields: ["language"],
    aggregations: [
      { function: "COUNT", alias: "n" },
      { function: "SUM", field: "lines_code", alias: "code" },
    ],
    groupBy: ["language"],
  }),
  POSTGRES_DIALECT,
);
const cases: Array<[string, () => Promise<unknown>]> = [
  ['grep, common literal ("ErrNotExist")', grep("ErrNotExist", false)],
  ['grep, selective literal ("ErrNoDeadline")', grep("ErrNoDeadline", false)],
  ['grep, selective literal, case-sensitive ("ErrNoDeadline")', grep("ErrNoDeadline", false, true)],
  ['grep, regex ("func \\(\\w+ \\*?Context\\)")', grep("func \\(\\w+ \\*?Context\\)", true)],
  ['grep, selective regex ("Err[A-Z]\\w+Timeout")', grep("Err[A-Z]\\w+Timeout", true)],
  ['keyword search ("parse header")', () => reader.keywordSearch(["parse", "header"], { symbols: 10, title: 5, path: 2, body: 1 }, {}, 20)],
  ["cortex_files, files by language", () => reader.runStatsQuery(files.sql, files.params)],
];
// cortex_search as an agent calls it (keyword mode: no model here), over a Session on the shared reader;
// a Session's root must exist (it is made canonical), and a shared one reads nothing from it
const searchRoot = mkdtempSync(join(tmpdir(), "cortex-shared-bench-"));
const searchSession = new Session(searchRoot, { oneShot: true, shared: { reader, store: { url, repos: () => store.repos() } } });
for (const query of [
  "parse http header",
  "where are TLS certificates verified",
  "retry failed requests with backoff",
  "validate json schema",
  "if err return nil",
  "context deadline exceeded",
]) {
  cases.push([
    `cortex_search "${query}"`,
    () => invokeTool(searchTool, { query }, { session: searchSession, signal: new AbortController().signal, deadline: Date.now() + 20_000 }),
  ]);
}
/** What a query answered, to print beside its time. */
function describeAnswer(a: unknown): string {
  if (Array.isArray(a)) return `${a.length} rows`;
  const o = a as { matches?: unknown[]; stats?: { candidate_files: number }; rows?: unknown[]; results?: unknown[] };
  if (o.matches) return `${o.matches.length} lines, ${o.stats?.candidate_files} candidate files`;
  if (o.results) return `${o.results.length} results`;
  return `${o.rows?.length} rows`;
}
const lines = [`| query, all ${indexes.size} repositories | p50 ms | p95 ms | answer |`, "|---|---|---|---|"];
for (const [name, run] of cases) {
  const first = await run();
  const times: number[] = [];
  for (let i = 0; i < 21; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const answer = describeAnswer(first);
  lines.push(`| ${name} | ${times[10]!.toFixed(1)} | ${times[19]!.toFixed(1)} | ${answer} |`);
  console.error(lines.at(-1));
}
searchSession.close();
rmSync(searchRoot, { recursive: true, force: true });
out.push(`load average before the queries ${load()}`, "", lines.join("\n"), "");

// 3. two indexers at once, readers querying
const names = [...indexes.keys()].sort((a, b) => statSync(indexes.get(b)!).size - statSync(indexes.get(a)!).size);
// two mid-sized indexes: big enough that publication takes seconds
const [ia, ib] = [names[Math.floor(names.length / 3)]!, names[Math.floor(names.length / 3) + 1]!];
const shape = async (path: string) => {
  const r = SqliteIndexReader.open(path);
  const states = await r.fileStates();
  await r.close();
  let bytes = 0;
  for (const s of states.values()) bytes += s.sizeBytes;
  return { files: states.size, bytes, hashes: new Map([...states].map(([p, s]) => [p, s.contentHash])) };
};
const shapes = { [ia]: await shape(indexes.get(ia)!), [ib]: await shape(indexes.get(ib)!) };
const whole = (files: number, bytes: number, allowed: string[]) =>
  (files === 0 && bytes === 0 && allowed.includes("none")) || allowed.some((n) => n !== "none" && shapes[n]!.files === files && shapes[n]!.bytes === bytes);
const publishInChild = (repo: string, index: string) =>
  new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [import.meta.path, "--store", url, "--publish-one", repo, index], { stdio: ["ignore", "pipe", "inherit"] });
    let text = "";
    child.stdout.on("data", (d) => (text += d));
    child.on("exit", (code) => (code === 0 ? resolve(text.trim()) : reject(new Error(`publisher of ${repo} exited ${code}`))));
  });
let answers = 0;
let broken = 0;
const readerLoop = async (allowed: Record<string, string[]>, done: () => boolean) => {
  const c = connectPostgres(url, { maxConnections: 1 });
  const r = new PgIndexReader(c, ["concurrent-a", "concurrent-b"]);
  while (!done()) {
    const states = await r.fileStates();
    for (const repo of ["concurrent-a", "concurrent-b"]) {
      let files = 0;
      let bytes = 0;
      for (const [p, s] of states) {
        if (!p.startsWith(`${repo}/`)) continue;
        files++;
        bytes += s.sizeBytes;
      }
      answers++;
      if (!whole(files, bytes, allowed[repo]!)) {
        broken++;
        console.error(`reader saw ${repo} with ${files} files, ${bytes} bytes: no whole generation`);
      }
    }
  }
  await c.close();
};
const concurrentRound = async (label: string, plan: Record<string, string>, allowed: Record<string, string[]>) => {
  let finished = false;
  const readers = [readerLoop(allowed, () => finished), readerLoop(allowed, () => finished)];
  const t0 = performance.now();
  const results = await Promise.all(Object.entries(plan).map(([repo, name]) => publishInChild(repo, indexes.get(name)!)));
  const wall = (performance.now() - t0) / 1000;
  finished = true;
  await Promise.all(readers);
  const c = connectPostgres(url, { maxConnections: 1 });
  const lost: string[] = [];
  for (const [repo, name] of Object.entries(plan)) {
    const states = await new PgIndexReader(c, [repo]).fileStates();
    const want = shapes[name]!.hashes;
    const same = states.size === want.size && [...want].every(([p, h]) => states.get(p)?.contentHash === h);
    if (!same) lost.push(`${repo}: ${states.size} files, the index has ${want.size}`);
  }
  await c.close();
  return `${label}: ${wall.toFixed(1)} s wall; ${results.map((r) => JSON.parse(r).changed).join(" + ")} files written; final generations ${lost.length === 0 ? "complete (every path and content hash as indexed)" : `INCOMPLETE: ${lost.join("; ")}`}`;
};
const round1 = await concurrentRound(
  `two publishers at once, ${ia} as concurrent-a and ${ib} as concurrent-b (new repositories)`,
  { "concurrent-a": ia, "concurrent-b": ib },
  { "concurrent-a": ["none", ia], "concurrent-b": ["none", ib] },
);
const round2 = await concurrentRound(
  `then at once each the other's index (${ib} over concurrent-a, ${ia} over concurrent-b)`,
  { "concurrent-a": ib, "concurrent-b": ia },
  { "concurrent-a": [ia, ib], "concurrent-b": [ib, ia] },
);
out.push(round1, round2, `two readers meanwhile: ${answers} repository answers, ${broken} not one whole generation`, "");
out.push(`load average at the end ${load()}`);
for (const repo of ["concurrent-a", "concurrent-b"]) await client.query("DELETE FROM cortex.repos WHERE name = $1", [repo]);

await store.close();
await reader.close();
await client.close();
console.log(out.join("\n"));
process.exit(0);

#!/usr/bin/env bun
/**
 * The shared store (PostgreSQL) against the local SQLite index, for several repositories in one database.
 *
 *   bun scripts/bench/shared-store.ts --store postgres://… <repo-folder>…
 *
 * Per repository: the local index build (CPU seconds, wall), then its first publication (the same), the
 * local index's size. Then, over every published repository at once: the database's size, and p50/p95
 * of a selective literal grep, a regex grep, a keyword search and a cortex_files aggregation through the
 * shared reader (the exact engine itself for grep). CPU time is the process's own (user + sys): wall
 * times on a shared machine depend on its load, printed beside them.
 */
import { statSync } from "node:fs";
import { basename } from "node:path";
import { loadavg } from "node:os";
import { Session } from "../../src/tools/session.ts";
import { indexLocation } from "../../src/store/location.ts";
import { connectPostgres } from "../../src/store/postgres/client.ts";
import { SharedStore } from "../../src/store/postgres/shared-store.ts";
import { PgIndexReader } from "../../src/store/postgres/reader.ts";
import { ExactEngine, PathFilter } from "../../src/engines/exact/index.ts";
import { compileQuery } from "../../src/engines/files/compile.ts";
import { queryDefinitionSchema } from "../../src/engines/files/query-schema.ts";
import { POSTGRES_DIALECT } from "../../src/store/sql-dialect.ts";

const args = process.argv.slice(2);
const at = args.indexOf("--store");
if (at < 0 || args[at + 1] === undefined) throw new Error("usage: bun scripts/bench/shared-store.ts --store postgres://… <repo-folder>…");
const url = args[at + 1]!;
const folders = args.filter((_, i) => i !== at && i !== at + 1);
process.env.CORTEX_DATABASE_URL = url;

function measure<T>(fn: () => Promise<T>): Promise<{ value: T; cpu: number; wall: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  return fn().then((value) => {
    const c = process.cpuUsage(c0);
    return { value, cpu: (c.user + c.system) / 1e6, wall: (performance.now() - t0) / 1000 };
  });
}

const store = SharedStore.connect(url);
const rows: string[] = ["| repository | files | local build CPU s (wall) | publish CPU s (wall) | SQLite index MiB |", "|---|---|---|---|---|"];
for (const folder of folders) {
  const session = new Session(folder);
  const built = await measure(() => session.index({ full: true }));
  session.close();
  const path = indexLocation(session.root).current()!;
  const published = await measure(() => store.publish(basename(folder), path));
  const mib = statSync(path).size / 2 ** 20;
  rows.push(
    `| ${basename(folder)} | ${published.value.changed} | ${built.cpu.toFixed(1)} (${built.wall.toFixed(1)}) | ${published.cpu.toFixed(1)} (${published.wall.toFixed(1)}) | ${mib.toFixed(1)} |`,
  );
  console.error(rows.at(-1));
}
await store.close();

const client = connectPostgres(url);
const [size] = await client.query<{ mib: number }>("SELECT (pg_database_size(current_database()) / 1048576.0)::float8 AS mib");
const reader = new PgIndexReader(client, "all");
const engine = new ExactEngine(reader, "/nonexistent");
const grep = (query: string, isRegex: boolean) => () =>
  engine.searchText({
    query,
    isRegex,
    caseSensitive: false,
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
  ['grep, selective literal ("ErrNotExist")', grep("ErrNotExist", false)],
  ['grep, regex ("func \\(\\w+ \\*?Context\\)")', grep("func \\(\\w+ \\*?Context\\)", true)],
  ['keyword search ("parse header")', () => reader.keywordSearch(["parse", "header"], { symbols: 10, title: 5, path: 2, body: 1 }, {}, 20)],
  ["cortex_files, files by language", () => reader.runStatsQuery(files.sql, files.params)],
];
const lines = ["| query, all repositories | p50 ms | p95 ms |", "|---|---|---|"];
for (const [name, run] of cases) {
  await run();
  const times: number[] = [];
  for (let i = 0; i < 15; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  lines.push(`| ${name} | ${times[7]!.toFixed(1)} | ${times[14]!.toFixed(1)} |`);
}
await reader.close();
await client.close();
console.log(rows.join("\n"));
console.log(
  `\ndatabase size: ${size!.mib.toFixed(1)} MiB; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}\n`,
);
console.log(lines.join("\n"));
process.exit(0);

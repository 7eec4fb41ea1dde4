/**
 * The parse tier's workers alone: runs parseFiles (src/indexer/parse-pool.ts) over every file stored in an
 * index's database, without writing anything, and prints the wall time, the process's CPU, this thread's
 * and each thread's (/proc/self/task, Linux only: the parse workers, JavaScriptCore's JIT and collector
 * threads). With CORTEX_TRACE=1 each worker also reports its CPU by step. Issue 19: what the workers cost
 * beside what scripts/parse-check.ts measures on one thread, without the indexer's writes in the way.
 *
 *   CORTEX_TRACE=1 bun scripts/parse-pool-bench.ts <index.db> [workers, default 2; 0: this thread]
 */
import { Database } from "bun:sqlite";
import { readdirSync, readFileSync } from "node:fs";
import { parseFiles } from "../src/indexer/parse-pool.ts";
import type { ProjectInfo } from "../src/lang/project.ts";
import type { UnparsedFile } from "../src/store/types.ts";

const [dbPath, workersArg] = process.argv.slice(2);
if (!dbPath) {
  console.error("usage: bun scripts/parse-pool-bench.ts <index.db> [workers]");
  process.exit(1);
}
const db = new Database(dbPath, { readonly: true });
const workers = Number(workersArg ?? 2);
const project = JSON.parse((db.query("SELECT value FROM meta WHERE key = 'project_info'").get() as { value: string }).value) as ProjectInfo;
const files = db
  .query("SELECT file_id AS fileId, file_path AS path, language, size_bytes AS sizeBytes, mtime_ms AS mtimeMs FROM file_state ORDER BY file_id")
  .all() as UnparsedFile[];
const contents = new Map<number, Uint8Array>();
for (const r of db.query("SELECT file_id AS fileId, z FROM contents").all() as Array<{ fileId: number; z: Uint8Array }>) contents.set(r.fileId, r.z);

const TICKS_PER_SECOND = 100; // USER_HZ on Linux
/** CPU seconds of each thread of this process, by "tid name". */
function threads(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync("/proc/self/task")) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    const close = stat.lastIndexOf(")");
    const fields = stat.slice(close + 2).split(" ");
    out.set(`${tid} ${stat.slice(stat.indexOf("(") + 1, close)}`, (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND);
  }
  return out;
}

const before = threads();
const cpu0 = process.cpuUsage();
const thread0 = process.threadCpuUsage();
const t0 = performance.now();
let n = 0;
let failed = 0;
let atEnd: Map<string, number> | undefined;
for await (const outcome of parseFiles(files, (f) => contents.get(f.fileId), project, workers)) {
  if (outcome.kind === "failed") failed++;
  // the workers end with the generator: their CPU is read while they still run
  if (++n === files.length) atEnd = threads();
}
const s = (u: { user: number; system: number }) => ((u.user + u.system) / 1e6).toFixed(2);
console.log(
  `files ${n} (${failed} failed), wall ${((performance.now() - t0) / 1000).toFixed(2)} s, process CPU ${s(process.cpuUsage(cpu0))} s, this thread ${s(process.threadCpuUsage(thread0))} s`,
);
for (const [k, v] of atEnd ?? threads()) {
  const d = v - (before.get(k) ?? 0);
  if (d >= 0.05) console.log(`  ${k}: ${d.toFixed(2)} s`);
}

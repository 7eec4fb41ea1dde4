/**
 * Runs a full reference resolution on a copy of a kept index and prints its CPU time and a hash of its
 * output: every reference's target and resolution, and every import edge. Two runs of different resolver
 * code on the same index must print the same hashes (how resolution changes are kept: issue 19).
 *
 *   bun scripts/resolve-check.ts <index.db>           (copies it to a temporary folder first)
 *   bun --cpu-prof-md scripts/resolve-check.ts <index.db>   (where the CPU goes)
 *   bun scripts/resolve-check.ts <index.db> --cold    (every reference unresolved first, as a first build's
 *                                                      resolution finds them: its writes are all there)
 */
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { IndexStore } from "../src/store/index-store.ts";
import { GraphStore } from "../src/store/graph-store.ts";
import { resolveReferences } from "../src/engines/symbols/resolve-hook.ts";
import { emptyProjectInfo, type ProjectInfo } from "../src/lang/project.ts";
import { collectionStats } from "../src/core/memory.ts";

const source = process.argv[2];
const cold = process.argv.includes("--cold");
if (!source || !existsSync(source)) {
  console.error("usage: bun scripts/resolve-check.ts <index.db> [--cold] (the database of a kept index)");
  process.exit(1);
}
const dir = mkdtempSync(join(tmpdir(), "cortex-resolve-check-"));
const db = join(dir, "index.db");
copyFileSync(source, db);
for (const ext of ["-wal", "-shm"]) if (existsSync(source + ext)) copyFileSync(source + ext, db + ext);
if (cold) {
  const raw = new Database(db);
  raw.exec("UPDATE ref_rows SET target_symbol_id = NULL, resolution = NULL");
  raw.close();
}

let store: IndexStore;
try {
  store = IndexStore.open(db);
} catch (e) {
  // an index of another schema: its copy (gigabytes for the kernel) must not stay behind
  rmSync(dir, { recursive: true, force: true });
  throw e;
}
try {
  const stored = store.getMeta("project_info");
  const project: ProjectInfo = stored ? (JSON.parse(stored) as ProjectInfo) : emptyProjectInfo();
  const cpu0 = process.threadCpuUsage();
  const all0 = process.cpuUsage();
  const report = await resolveReferences(store, { written: [], deleted: [], full: true }, project);
  const cpu = process.threadCpuUsage(cpu0);
  // the process's CPU adds JavaScriptCore's collector threads (parallel marking) to this thread's
  const all = process.cpuUsage(all0);
  const gc = collectionStats();
  const peakMiB = Math.round(process.resourceUsage().maxRSS / 1024);
  const g = new GraphStore(store);
  const refs = new Bun.CryptoHasher("sha256");
  let resolved = 0;
  g.forEachRef((r) => {
    refs.update(`${r.id}\t${r.targetId ?? ""}\t${r.resolution ?? ""}\n`);
    if (r.targetId !== null) resolved++;
  });
  const edges = new Bun.CryptoHasher("sha256");
  const rows = g.allEdges().map((e) => `${e.siteId}\t${e.file}\t${e.target}`);
  rows.sort();
  for (const row of rows) edges.update(row + "\n");
  console.log(
    JSON.stringify(
      {
        refs: report.refs,
        resolved,
        sites: report.sites,
        edges: rows.length,
        cpuSeconds: +((cpu.user + cpu.system) / 1e6).toFixed(2),
        processCpuSeconds: +((all.user + all.system) / 1e6).toFixed(2),
        fullCollections: gc.count,
        collectionSeconds: +(gc.ms / 1000).toFixed(2),
        peakMiB,
        wallMs: report.ms,
        threadCpuMsByPart: report.cpu,
        refsHash: refs.digest("hex").slice(0, 16),
        edgesHash: edges.digest("hex").slice(0, 16),
      },
      null,
      2,
    ),
  );
} finally {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}

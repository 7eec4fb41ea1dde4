/**
 * The indexer: walk → compare with the store → parse what changed (in parallel) → write in batches →
 * re-aggregate modules → run hooks. Incremental by content hash; a first index, a schema change or
 * `full` builds a new database aside and publishes it by rename, so a crash never leaves a half index.
 */
import { join } from "node:path";
import { canonicalRoot } from "../core/paths.ts";
import { loadConfig, type CortexConfig } from "../core/config.ts";
import { acquireLock } from "../core/lock.ts";
import { CortexError } from "../core/errors.ts";
import { log } from "../core/log.ts";
import { indexLocation } from "../store/location.ts";
import { createBuildDatabase, createBuildIndexes, finishBuildDatabase, openDatabase } from "../store/db.ts";
import { IndexStore } from "../store/index-store.ts";
import type { ProjectInfo } from "../lang/project.ts";
import { walkProject, type Exclusion, type WalkedFile } from "./walk.ts";
import { affectsProjectInfo, buildProjectInfo, modulePathOf } from "./project-info.ts";
import { parseFiles } from "./parse-pool.ts";
import type { FileJob } from "./file-record.ts";
import { INDEX_HOOKS, type IndexChanges } from "./hooks.ts";
import { readGitHead } from "./git-head.ts";

export interface IndexProgress {
  phase: "walk" | "parse" | "finish";
  done: number;
  total: number;
}

export interface IndexOptions {
  root: string;
  full?: boolean;
  config?: CortexConfig;
  onProgress?: (p: IndexProgress) => void;
  /** How long to wait for another writer to finish (ms). */
  lockWaitMs?: number;
  workers?: number;
}

export interface IndexReport {
  root: string;
  database: string;
  mode: "full" | "incremental";
  files: number;
  parsed: number;
  unchanged: number;
  deleted: number;
  skipped: { binary: number; unreadable: number };
  excluded: number;
  tookMs: number;
  filesPerSecond: number;
  errors: Array<{ path: string; error: string }>;
}

const BATCH = 256;
/** Builds of fewer files load their keyword index on this thread: a worker's start costs more. */
const FULL_TEXT_ASIDE_FILES = 500;
const PROJECT_INFO_KEY = "project_info";

export async function runIndex(options: IndexOptions): Promise<IndexReport> {
  const started = performance.now();
  const root = canonicalRoot(options.root);
  const config = options.config ?? loadConfig(root);
  const location = indexLocation(root);
  const lock = await acquireLock(location.lockPath, "the index of " + root, options.lockWaitMs ?? 60_000);
  try {
    location.collectGarbage();
    options.onProgress?.({ phase: "walk", done: 0, total: 0 });
    const walked = walkProject(root, { maxFileSize: config.index.max_file_size, extraExcludes: config.index.exclude });

    let mode: "full" | "incremental" = "incremental";
    let dbPath = location.current();
    let store: IndexStore | undefined;
    if (dbPath && !options.full) {
      try {
        store = new IndexStore(openDatabase(dbPath));
      } catch (e) {
        log.warn(`rebuilding the index: ${(e as Error).message}`);
        store = undefined;
      }
    }
    if (!store) {
      mode = "full";
      dbPath = location.newDatabasePath();
      store = new IndexStore(createBuildDatabase(dbPath));
    }
    let published = false;
    try {
      const report = await indexInto(store, root, walked.files, walked.excluded, mode, options);
      report.database = dbPath!;
      if (mode === "full") {
        finishBuildDatabase(store.db);
        location.publish(dbPath!);
        published = true;
      } else {
        store.db.exec("PRAGMA wal_checkpoint(PASSIVE)");
        store.close();
      }
      report.tookMs = Math.round(performance.now() - started);
      report.filesPerSecond = report.parsed > 0 ? Math.round((report.parsed / report.tookMs) * 1000) : 0;
      return report;
    } finally {
      if (mode === "full" && !published) {
        try {
          store.close();
        } catch {}
        location.collectGarbage();
      }
    }
  } finally {
    lock.release();
  }
}

async function indexInto(
  store: IndexStore,
  root: string,
  files: WalkedFile[],
  excluded: Exclusion[],
  mode: "full" | "incremental",
  options: IndexOptions,
): Promise<IndexReport> {
  const states = store.fileStates();
  const seen = new Set<string>();
  const jobs: FileJob[] = [];
  let unchanged = 0;
  for (const f of files) {
    seen.add(f.path);
    const st = states.get(f.path);
    if (st && st.mtimeMs === Math.trunc(f.mtimeMs) && st.sizeBytes === f.size) {
      unchanged++;
      continue;
    }
    const job: FileJob = { path: f.path, abs: join(root, f.path), mtimeMs: Math.trunc(f.mtimeMs) };
    if (st) job.prevHash = st.contentHash;
    jobs.push(job);
  }
  const removed = [...states.keys()].filter((p) => !seen.has(p));

  const project = projectInfoFor(store, root, files, jobs, removed);
  const changes: IndexChanges = { written: [], deleted: [], full: mode === "full" };
  const affectedModules = new Set<string>();
  const errors: IndexReport["errors"] = [];
  let binary = 0;
  let unreadable = 0;

  /** Removes a file's rows; its module is aggregated again at the end. */
  const removeRows = (path: string) => {
    const m = store.moduleOf(path);
    if (m !== undefined) affectedModules.add(m);
    store.deleteFile(path);
  };
  const deleteFile = (path: string) => {
    removeRows(path);
    changes.deleted.push(path);
  };
  store.transaction(() => removed.forEach(deleteFile));

  // A batch removes every replaced or vanished file's rows first, then inserts: FTS5 flushes its pending
  // inserts to a new segment before each delete, so a delete between two files' inserts cost a segment
  // (and its merges) per file: 64 ms per changed file on go-src's index, 4.4 of a 69-file run's 5.3 s.
  let removals: Array<() => void> = [];
  let writes: Array<() => void> = [];
  let writeMs = 0;
  const flush = () => {
    if (removals.length + writes.length === 0) return;
    const [r, w] = [removals, writes];
    [removals, writes] = [[], []];
    const t0 = performance.now();
    store.transaction(() => {
      r.forEach((step) => step());
      w.forEach((step) => step());
    });
    writeMs += performance.now() - t0;
  };
  let done = 0;
  const parseStarted = performance.now();
  if (mode === "full") store.stageFullText();
  options.onProgress?.({ phase: "parse", done, total: jobs.length });
  for await (const outcome of parseFiles(jobs, project, options.workers ?? options.config?.index.workers)) {
    done++;
    switch (outcome.kind) {
      case "indexed": {
        const f = outcome.file;
        if (states.has(f.path)) removals.push(() => removeRows(f.path));
        writes.push(() => {
          store.insertFile(f);
          affectedModules.add(f.modulePath);
        });
        changes.written.push(f.path);
        break;
      }
      case "same-content":
        writes.push(() => store.touch(outcome.path, outcome.mtimeMs));
        unchanged++;
        break;
      case "binary":
        binary++;
        if (states.has(outcome.path)) removals.push(() => deleteFile(outcome.path));
        break;
      case "unreadable":
        unreadable++;
        errors.push({ path: outcome.path, error: outcome.error });
        if (states.has(outcome.path)) removals.push(() => deleteFile(outcome.path));
        break;
    }
    if (removals.length + writes.length >= BATCH) flush();
    if (done % 64 === 0) options.onProgress?.({ phase: "parse", done, total: jobs.length });
  }
  flush();
  if (process.env.CORTEX_TRACE) log.warn(`parse and write: ${jobs.length} files in ${Math.round(performance.now() - parseStarted)} ms (writes ${Math.round(writeMs)} ms of it)`);
  options.onProgress?.({ phase: "finish", done: jobs.length, total: jobs.length });

  const finishStarted = performance.now();
  if (mode === "full") {
    createBuildIndexes(store.db);
    if (process.env.CORTEX_TRACE) log.warn(`secondary indexes: ${Math.round(performance.now() - finishStarted)} ms`);
  }
  const head = readGitHead(root);
  store.transaction(() => {
    store.recomputeModules(affectedModules);
    store.setMeta("root", root);
    store.setMeta("last_run", new Date().toISOString());
    store.setMeta("branch", head.branch ?? "");
    store.setMeta("commit", head.commit ?? "");
    // Binary files are never stored, so every run meets all of them again: this is the full count.
    store.setMeta("binary_files", String(binary));
  });
  if (process.env.CORTEX_TRACE) log.warn(`indexes and modules: ${Math.round(performance.now() - finishStarted)} ms`);
  // A large build's keyword index loads on another thread while the hooks compute (they wait before writing).
  if (mode === "full") {
    const fullTextStarted = performance.now();
    const aside = changes.written.length >= FULL_TEXT_ASIDE_FILES;
    store.loadStagedFullText({ aside });
    void store.whenWritable().then(() => {
      if (process.env.CORTEX_TRACE) log.warn(`full-text load${aside ? " and trigram index" : ""}: ${Math.round(performance.now() - fullTextStarted)} ms${aside ? " (beside the index steps)" : ""}`);
    }, () => {});
  }
  for (const hook of INDEX_HOOKS) {
    try {
      await hook.run(store, changes, project);
    } catch (e) {
      if (e instanceof CortexError) throw e;
      // the steps left wait on the failed keyword index load too: its error alone is reported, below
      if (store.fullTextLoadFailed()) break;
      log.error(`index step '${hook.name}' failed: ${(e as Error).stack ?? e}`);
      errors.push({ path: "", error: `index step '${hook.name}' failed: ${(e as Error).message}` });
    }
  }
  // a failed keyword index load fails the build: the previous index stays current
  if (mode === "full") await store.finishStagedFullText();
  return {
    root,
    database: "",
    mode,
    files: files.length - binary - unreadable,
    parsed: changes.written.length,
    unchanged,
    deleted: changes.deleted.length,
    skipped: { binary, unreadable },
    excluded: excluded.length,
    tookMs: 0,
    filesPerSecond: 0,
    errors,
  };
}

function projectInfoFor(store: IndexStore, root: string, files: WalkedFile[], jobs: FileJob[], removed: string[]): ProjectInfo {
  const stored = store.getMeta(PROJECT_INFO_KEY);
  // Manifests matter whenever they change; source files only when they appear or disappear.
  const stale =
    !stored ||
    jobs.some((j) => isManifest(j.path) || (j.prevHash === undefined && affectsProjectInfo(j.path))) ||
    removed.some(affectsProjectInfo);
  if (!stale) return JSON.parse(stored) as ProjectInfo;
  const info = buildProjectInfo(root, files.map((f) => f.path));
  store.setMeta(PROJECT_INFO_KEY, JSON.stringify(info));
  return info;
}

function isManifest(path: string): boolean {
  const base = path.slice(path.lastIndexOf("/") + 1);
  return base === "go.mod" || base === "package.json" || base === "Cargo.toml" || base === "composer.json";
}

export { modulePathOf };

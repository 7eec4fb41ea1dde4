/**
 * The indexer, in two tiers: walk → compare with the store → the text tier (read, hash, compress and
 * write what changed, then the trigram index: exact and regex search answer from here on) → the parse
 * tier (parse the stored texts in parallel, write their statistics, facts, chunks and keyword words in
 * batches) → finish (modules, keyword index load, reference resolution).
 *
 * Incremental by content hash. A first index (or a schema change) builds a new database and publishes it
 * as soon as its text tier is written, so exact search answers while the parse tier is built in place;
 * `full` on a usable index builds the new one aside and publishes it whole, so nothing answers less
 * meanwhile. A crash never leaves a broken index: before publication the old one stays current; after
 * it, the text tier is complete and a first build's interrupted parse tier is started again by the next run.
 */
import { join } from "node:path";
import { canonicalRoot } from "../core/paths.ts";
import { loadConfig, type CortexConfig } from "../core/config.ts";
import { acquireLock } from "../core/lock.ts";
import { CortexError } from "../core/errors.ts";
import { log } from "../core/log.ts";
import { collectionStats, collectNow, collectOnGrowth, PARSE_TIER_GROWTH_BYTES } from "../core/memory.ts";
import { indexLocation, type IndexLocation } from "../store/location.ts";
import { IndexStore, STEPS_PENDING_META } from "../store/index-store.ts";
import { writeFailureReason } from "../store/write-failure.ts";
import type { ProjectInfo } from "../lang/project.ts";
import type { Exclusion, WalkedFile } from "./walk.ts";
import { walkProjectInParallel } from "./walk-parallel.ts";
import { affectsProjectInfo, buildProjectInfo } from "./project-info.ts";
import { defaultWorkerCount, parseFiles } from "./parse-pool.ts";
import { releaseTrigramExtractor, type FileJob } from "./file-record.ts";
import { readTextFiles } from "./text-pool.ts";
import type { IndexChanges, IndexHook } from "./hooks.ts";
import { readGitHead } from "./git-head.ts";

export type { IndexProgress } from "./progress.ts";
import type { IndexProgress } from "./progress.ts";

export interface IndexOptions {
  root: string;
  full?: boolean;
  config?: CortexConfig;
  onProgress?: (p: IndexProgress) => void;
  /** How long to wait for another writer to finish (ms). */
  lockWaitMs?: number;
  workers?: number;
  /**
   * What runs after the facts are written, in order (reference resolution, src/tools/index-hooks.ts).
   * Required: a run without the hooks its index was built with would leave their data stale.
   */
  hooks: readonly IndexHook[];
}

export interface IndexReport {
  root: string;
  database: string;
  mode: "full" | "incremental";
  files: number;
  /** Files whose parse tier this run wrote. */
  parsed: number;
  unchanged: number;
  deleted: number;
  skipped: { binary: number; unreadable: number };
  excluded: number;
  tookMs: number;
  filesPerSecond: number;
  /** Each tier's time, and when this run's index became searchable by exact search (ms from the start). */
  tiers: { textMs: number; parseMs: number; searchableAfterMs: number };
  errors: Array<{ path: string; error: string }>;
}

/** Files written per transaction. */
const BATCH = 256;
/**
 * And at most this many source bytes per transaction: a batch's parsed files wait in memory (facts,
 * chunks, words) until it is written, about 6 times their size on this thread's heap, so 256 large files
 * (the kernel's generated register headers, up to 1 MiB each) held over a gigabyte. go-src's batches
 * (12 KiB a file) stay whole.
 */
const BATCH_BYTES = 4 * 2 ** 20;
/** Builds of fewer files load their keyword index on this thread: a worker's start costs more. */
const FULL_TEXT_ASIDE_FILES = 500;
const PROJECT_INFO_KEY = "project_info";
/** meta.parse_state while a first build's parse tier is being written in bulk (no secondary indexes yet). */
const PARSE_STATE_KEY = "parse_state";
/*
 * STEPS_PENDING_META: the files an incremental run parsed whose references the index steps (resolution)
 * have not yet finished with, as JSON: set before the parse tier writes, cleared once the steps succeed.
 * A run stopped in between (Ctrl-C, a crash) left those references unresolved for good, since the next
 * run saw nothing changed; the next run now hands them to the steps with its own changes. Meanwhile the
 * index says its parse tier is finishing (IndexStore.parseTierState): answers read in between miss
 * references.
 */
const BULK = "bulk";

export async function runIndex(options: IndexOptions): Promise<IndexReport> {
  const started = performance.now();
  const root = canonicalRoot(options.root);
  const config = options.config ?? loadConfig(root);
  const location = indexLocation(root);
  const lock = await acquireLock(location.lockPath, "the index of " + root, options.lockWaitMs ?? 60_000);
  try {
    location.collectGarbage();
    options.onProgress?.({ phase: "walk", done: 0, total: 0 });
    const walkStarted = performance.now();
    const walked = await walkProjectInParallel(root, { maxFileSize: config.index.max_file_size, extraExcludes: config.index.exclude });
    if (process.env.CORTEX_TRACE)
      log.warn(
        `walk: ${walked.files.length} files, ${walked.excluded.length} left out, in ${Math.round(performance.now() - walkStarted)} ms on ${walked.threads} thread(s)`,
      );

    let mode: "full" | "incremental" = "incremental";
    let dbPath = location.current();
    let store: IndexStore | undefined;
    if (dbPath && !options.full) {
      try {
        store = IndexStore.open(dbPath);
      } catch (e) {
        log.warn(`rebuilding the index: ${(e as Error).message}`);
        store = undefined;
      }
    }
    // a rebuild asked for over a usable index keeps that index current until the new one is complete
    const replacing = !store && options.full === true && dbPath !== undefined && IndexStore.isReadable(dbPath);
    if (!store) {
      mode = "full";
      dbPath = location.newDatabasePath();
      try {
        store = IndexStore.createForBuild(dbPath);
      } catch (e) {
        const reason = writeFailureReason(e);
        if (reason === undefined) throw e;
        location.collectGarbage();
        const left = replacing ? "The index from before this run is kept and answers as before." : "No index was written.";
        throw new CortexError("IO", `could not write the index of ${root} in ${location.dir}: ${reason}. ${left} ${FREE_SPACE_AND_START_AGAIN}`, { cause: e });
      }
    }
    const run = new IndexRun(store, root, location, dbPath!, mode, options, started);
    try {
      // execute takes the walk's arrays out of it (its note)
      const report = await run.execute(walked, !replacing);
      report.tookMs = Math.round(performance.now() - started);
      report.filesPerSecond = report.files > 0 ? Math.round((report.files / report.tookMs) * 1000) : 0;
      return report;
    } catch (e) {
      const reason = writeFailureReason(e);
      if (reason === undefined) throw e;
      const left = whatIsLeft(run, store, replacing);
      if (run.published) {
        try {
          store.close();
        } catch {}
      }
      throw new CortexError("IO", `could not write the index of ${root} in ${location.dir}: ${reason}. ${left}`, { cause: e });
    } finally {
      if (!run.published) {
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

const FREE_SPACE_AND_RUN_AGAIN = "Free some space and run 'cortex index' again: it finishes what is left.";
/** When the run left nothing to finish (its build was not published): it starts over. */
const FREE_SPACE_AND_START_AGAIN = "Free some space and run 'cortex index' again: it starts the build over.";

/**
 * What a run that failed to write leaves a user: every write is a transaction, and a first build is only
 * published once its text tier is whole, so the answer depends only on how far the run got.
 */
function whatIsLeft(run: IndexRun, store: IndexStore, replacing: boolean): string {
  const again = FREE_SPACE_AND_RUN_AGAIN;
  if (run.mode === "incremental") return `The index keeps answering: files written before the failure are current, the others as they were. ${again}`;
  if (!run.published) {
    return replacing
      ? `The index from before this run is kept and answers as before. ${FREE_SPACE_AND_START_AGAIN}`
      : `No index was written (the partial build is removed). ${FREE_SPACE_AND_START_AGAIN}`;
  }
  let parse: ReturnType<IndexStore["parseTierState"]>;
  try {
    parse = store.parseTierState();
  } catch {
    parse = undefined;
  }
  const scope = parse
    ? ` Its parse tier stopped at ${parse.parsed} of ${parse.total} files: symbols, references and search chunks cover those files only.`
    : "";
  return `The index answers exact and regex search for every file it holds (files written before the failure are current).${scope} ${again}`;
}

/** One index run over one store: its tiers, its batches, what it changed. */
class IndexRun {
  published = false;
  private readonly changes: IndexChanges = { written: [], deleted: [], full: false };
  private readonly affectedModules = new Set<string>();
  private readonly errors: IndexReport["errors"] = [];
  private binary = 0;
  private unreadable = 0;
  private unchanged = 0;
  /** Files once found binary that changed since: read again, and their row replaced or forgotten. */
  private readonly changedBinary = new Set<string>();
  private removals: Array<() => void> = [];
  private writes: Array<() => void> = [];
  /** Source bytes of the files the queued writes hold. */
  private pendingBytes = 0;
  private writeMs = 0;
  /** This thread's CPU time in those writes (µs): on a shared machine their wall time says little. */
  private writeCpuUs = 0;
  private readonly cpuAtStart = process.cpuUsage();
  private readonly threadCpuAtStart = process.threadCpuUsage();

  constructor(
    private readonly store: IndexStore,
    private readonly root: string,
    private readonly location: IndexLocation,
    private readonly dbPath: string,
    readonly mode: "full" | "incremental",
    private readonly options: IndexOptions,
    private readonly started: number,
  ) {}

  private trace(message: string): void {
    // with each step the process's resident memory (where the peak comes from, parse workers included)
    // and CPU seconds since the run began, of every thread and of this one: on a shared machine a
    // step's CPU time says more than its wall time, and the difference is the workers' share
    if (!process.env.CORTEX_TRACE) return;
    const all = process.cpuUsage(this.cpuAtStart);
    const mine = process.threadCpuUsage(this.threadCpuAtStart);
    const s = (u: { user: number; system: number }) => ((u.user + u.system) / 1e6).toFixed(2);
    const gc = collectionStats();
    log.warn(
      `${message} [rss ${Math.round(process.memoryUsage.rss() / 1048576)} MiB, cpu ${s(all)} s (system ${(all.system / 1e6).toFixed(2)}), faults ${process.resourceUsage().minorPageFault}, this thread ${s(mine)} s, full collections ${gc.count} in ${(gc.ms / 1000).toFixed(1)} s]`,
    );
  }

  /**
   * Runs both tiers. The walk's arrays are taken out of `walk` and let go with the text tier: held through
   * the parse tier (as the caller's and this method's variables held them), the kernel's 78,000 walked
   * files, their read jobs and their paths were most of this thread's live heap, which each of the parse
   * tier's full collections marks again (docs/benchmarks.md, "Whole-corpus arrays on the indexer's thread").
   */
  async execute(walk: { files?: WalkedFile[]; excluded?: Exclusion[] }, publishEarly: boolean): Promise<IndexReport> {
    const store = this.store;
    const { project, bulk, walked, excludedCount, textMs } = await this.textPhase(walk);
    if (this.mode === "full" && publishEarly) this.publish();
    const searchableAfterMs = performance.now() - this.started;

    const parseStarted = performance.now();
    // the text tier's garbage and pages (go-src: RSS about 300 MiB after it) go before the parse workers
    // start beside this thread: left, the parse tier's first seconds were a peak of the build (615 MiB)
    if (bulk) this.releaseMemory();
    await this.parseTier(project, bulk);
    await this.finish(project, bulk);
    const parseMs = performance.now() - parseStarted;
    if (this.mode === "full") {
      const finishStarted = performance.now();
      store.finishBuild();
      this.trace(`planner statistics and checkpoint: ${Math.round(performance.now() - finishStarted)} ms`);
      if (!this.published) this.publish();
    } else {
      const returned = store.returnFreePages();
      if (returned > 0) this.trace(`free pages given back: ${returned}`);
      store.checkpoint();
      this.published = true;
    }
    store.close();
    return {
      root: this.root,
      database: this.dbPath,
      mode: this.mode,
      files: walked - this.binary - this.unreadable,
      parsed: this.changes.written.length,
      unchanged: this.unchanged,
      deleted: this.changes.deleted.length,
      skipped: { binary: this.binary, unreadable: this.unreadable },
      excluded: excludedCount,
      tookMs: 0,
      filesPerSecond: 0,
      tiers: { textMs: Math.round(textMs), parseMs: Math.round(parseMs), searchableAfterMs: Math.round(searchableAfterMs) },
      errors: this.errors,
    };
  }

  /** The text tier of the walk's files (execute): what the rest of the run needs of it. */
  private async textPhase(walk: { files?: WalkedFile[]; excluded?: Exclusion[] }) {
    const store = this.store;
    const files = walk.files ?? [];
    const excludedCount = walk.excluded?.length ?? 0;
    walk.files = walk.excluded = undefined;
    const textStarted = performance.now();
    const { jobs, removed, binaryGone } = this.compare(files);
    const previous = store.getMeta(PROJECT_INFO_KEY);
    const project = projectInfoFor(store, this.root, files, jobs, removed);
    if (previous && this.mode !== "full") this.reclassifyImports(JSON.parse(previous) as ProjectInfo, project, files, jobs);
    await this.textTier(jobs, removed, binaryGone);
    const trigrams = store.updateTrigramIndex();
    this.trace(`trigram index: ${trigrams.action} ${trigrams.files} files, ${trigrams.postings} postings in ${trigrams.ms} ms`);
    // an interrupted first build's parse tier is started again: its staged words and indexes are gone
    let bulk = this.mode === "full";
    if (!bulk && store.getMeta(PARSE_STATE_KEY) === BULK) {
      log.warn("the last index run stopped in its parse tier; parsing every file again");
      store.resetParseTier();
      bulk = true;
    }
    this.changes.full = bulk;
    if (bulk) store.setMeta(PARSE_STATE_KEY, BULK);
    this.recordRun();
    const textMs = performance.now() - textStarted;
    this.trace(`text tier: ${jobs.length} files read, ${removed.length} removed in ${Math.round(textMs)} ms (writes ${Math.round(this.writeMs)} ms)`);
    return { project, bulk, walked: files.length, excludedCount, textMs };
  }

  /**
   * Files to read (new or changed on disk), files gone from disk, and files once found binary that the
   * walk no longer gives. A file found binary before and unchanged since (mtime and size) is counted, not
   * read again.
   */
  private compare(files: WalkedFile[]): { jobs: FileJob[]; removed: string[]; binaryGone: string[] } {
    // what is left in `states` and `binaries` after the loop is what has gone from disk (or from the walk)
    const states = this.store.fileStamps();
    const binaries = this.store.binaryFiles();
    const jobs: FileJob[] = [];
    for (const f of files) {
      const st = states.get(f.path);
      if (st) states.delete(f.path);
      const bin = binaries.get(f.path);
      if (bin) {
        binaries.delete(f.path);
        if (!st && bin.mtimeMs === Math.trunc(f.mtimeMs) && bin.sizeBytes === f.size) {
          this.binary++;
          continue;
        }
        this.changedBinary.add(f.path); // read again: its outcome replaces or forgets the row
      }
      if (st && st.mtimeMs === Math.trunc(f.mtimeMs) && st.sizeBytes === f.size) {
        this.unchanged++;
        continue;
      }
      const job: FileJob = { path: f.path, abs: join(this.root, f.path), mtimeMs: Math.trunc(f.mtimeMs) };
      if (st) job.prevHash = this.store.contentHashOf(f.path);
      jobs.push(job);
    }
    return { jobs, removed: [...states.keys()], binaryGone: [...binaries.keys()] };
  }

  /**
   * An import is classified (project code or external) when its file is parsed, from the project's
   * packages: Python's top-level names, Go's modules. When those change (a package added, a go.mod
   * written or its module renamed), the unchanged files whose imports name what changed are read and
   * parsed again, so that their imports resolve as a first build's would. Other languages resolve what
   * they import at resolution time and need nothing here.
   */
  private reclassifyImports(before: ProjectInfo, after: ProjectInfo, files: WalkedFile[], jobs: FileJob[]): void {
    const affected = new Set<string>();
    const pyBefore = new Set([...(before.pythonTopLevel ?? []), ...(before.pythonRootPackage ? [before.pythonRootPackage] : [])]);
    const pyAfter = new Set([...(after.pythonTopLevel ?? []), ...(after.pythonRootPackage ? [after.pythonRootPackage] : [])]);
    const pyChanged = new Set([...pyBefore, ...pyAfter].filter((n) => pyBefore.has(n) !== pyAfter.has(n)));
    if (pyChanged.size > 0 || before.pythonRootPackage !== after.pythonRootPackage)
      for (const { path, module } of this.store.importsOfLanguage("python"))
        if (pyChanged.has(module.split(".")[0]!) || before.pythonRootPackage !== after.pythonRootPackage) affected.add(path);
    const goKey = (m: { dir: string; module: string }) => `${m.dir}\0${m.module}`;
    const goBefore = new Set((before.goModules ?? []).map(goKey));
    const goAfter = new Set((after.goModules ?? []).map(goKey));
    const goChanged = [...(before.goModules ?? []), ...(after.goModules ?? [])]
      .filter((m) => goBefore.has(goKey(m)) !== goAfter.has(goKey(m)))
      .map((m) => m.module);
    if (goChanged.length > 0)
      for (const { path, module } of this.store.importsOfLanguage("go"))
        if (goChanged.some((m) => module === m || module.startsWith(`${m}/`))) affected.add(path);
    if (affected.size === 0) return;
    for (const j of jobs) affected.delete(j.path);
    let forced = 0;
    for (const f of files) {
      if (!affected.has(f.path)) continue;
      // a stored hash no content has: the file is read and written again, whatever its content
      jobs.push({ path: f.path, abs: join(this.root, f.path), mtimeMs: Math.trunc(f.mtimeMs), prevHash: "" });
      this.unchanged--;
      forced++;
    }
    if (forced > 0) log.info(`the project's packages changed: ${forced} files whose imports name them are parsed again`);
  }

  /** Removes a file's rows of both tiers; its module is aggregated again at the end. */
  private removeRows(path: string): void {
    const m = this.store.moduleOf(path);
    if (m !== undefined) this.affectedModules.add(m);
    this.store.deleteFile(path);
  }

  private deleteFile(path: string): void {
    this.removeRows(path);
    this.changes.deleted.push(path);
  }

  /**
   * Writes the queued steps in one transaction, removals first: FTS5 flushes its pending inserts into a
   * new segment before each delete, so a delete between two files' inserts cost a segment (and its
   * merges) per file: 64 ms per changed file on go-src's index, 4.4 of a 69-file run's 5.3 s.
   */
  private full(): boolean {
    return this.removals.length + this.writes.length >= BATCH || this.pendingBytes >= BATCH_BYTES;
  }

  private flush(): void {
    if (this.removals.length + this.writes.length === 0) return;
    const [r, w] = [this.removals, this.writes];
    [this.removals, this.writes] = [[], []];
    this.pendingBytes = 0;
    const t0 = performance.now();
    const cpu0 = process.threadCpuUsage();
    this.store.transaction(() => {
      r.forEach((step) => step());
      w.forEach((step) => step());
    });
    const cpu = process.threadCpuUsage(cpu0);
    this.writeCpuUs += cpu.user + cpu.system;
    this.writeMs += performance.now() - t0;
  }

  /** Reads every changed file and writes its text tier; files gone from disk (or now binary) leave the index. */
  private async textTier(jobs: FileJob[], removed: string[], binaryGone: string[]): Promise<void> {
    const store = this.store;
    store.transaction(() => {
      removed.forEach((p) => this.deleteFile(p));
      binaryGone.forEach((p) => store.forgetBinary(p));
    });
    const known = new Set(jobs.filter((j) => j.prevHash !== undefined).map((j) => j.path));
    // a first build's trigram index is written as the files are (store.trigramBaseWriter), from trigrams the
    // readers extract beside the hash and compression; else updateTrigramIndex reads the contents back after
    const trigrams = store.trigramBaseWriter();
    if (trigrams) for (const j of jobs) j.trigrams = true;
    this.options.onProgress?.({ phase: "text", done: 0, total: jobs.length });
    let i = -1;
    for await (const outcome of readTextFiles(jobs, this.options.workers ?? this.options.config?.index.workers ?? defaultWorkerCount())) {
      i++;
      if (outcome.kind !== "binary" && this.changedBinary.has(jobs[i]!.path)) {
        const path = jobs[i]!.path;
        this.writes.push(() => store.forgetBinary(path));
      }
      switch (outcome.kind) {
        case "text": {
          const f = outcome.file;
          if (known.has(f.path)) this.removals.push(() => this.removeRows(f.path));
          this.writes.push(() => {
            const id = store.insertText(f);
            if (trigrams && f.trigrams) trigrams.takeTrigrams(id, f.trigrams, f.contentHash);
          });
          this.pendingBytes += f.sizeBytes;
          break;
        }
        case "same-content":
          this.writes.push(() => store.touch(outcome.path, outcome.mtimeMs));
          this.unchanged++;
          break;
        case "binary": {
          this.binary++;
          if (known.has(outcome.path)) this.removals.push(() => this.deleteFile(outcome.path));
          const mtimeMs = jobs[i]!.mtimeMs;
          this.writes.push(() => store.rememberBinary(outcome.path, mtimeMs, outcome.size));
          break;
        }
        case "unreadable":
          this.unreadable++;
          this.errors.push({ path: outcome.path, error: outcome.error });
          if (known.has(outcome.path)) this.removals.push(() => this.deleteFile(outcome.path));
          break;
      }
      if (this.full()) {
        this.flush();
        this.options.onProgress?.({ phase: "text", done: i + 1, total: jobs.length });
      }
    }
    this.flush();
    if (trigrams) {
      store.transaction(() => trigrams.finish());
      releaseTrigramExtractor();
      this.trace(`trigram index: written with the text tier, ${trigrams.files} files, ${trigrams.postings} postings in ${Math.round(trigrams.ms)} ms`);
    }
    this.options.onProgress?.({ phase: "text", done: jobs.length, total: jobs.length });
  }

  /** Parses every stored file that has no parse tier yet and writes it, in batches. */
  private async parseTier(project: ProjectInfo, bulk: boolean): Promise<void> {
    const store = this.store;
    const todo = store.unparsed();
    const parseStarted = performance.now();
    this.writeMs = 0;
    this.writeCpuUs = 0;
    if (bulk) store.stageFullText();
    // the bulk parse tier appends and hardly reads back: a small page cache leaves its RSS to the workers
    if (bulk) store.pageCache("small");
    if (!bulk && todo.length > 0) store.setMeta(STEPS_PENDING_META, JSON.stringify([...new Set([...this.stepsPending(), ...todo.map((f) => f.path)])]));
    let done = 0;
    this.options.onProgress?.({ phase: "parse", done, total: todo.length });
    const load = (f: { fileId: number }) => store.contentZ(f.fileId);
    for await (const outcome of parseFiles(todo, load, project, this.options.workers ?? this.options.config?.index.workers)) {
      done++;
      if (outcome.kind === "parsed") {
        const f = outcome.file;
        this.writes.push(() => {
          store.insertParsed(f);
          this.affectedModules.add(f.modulePath);
        });
        this.changes.written.push(f.path);
        this.pendingBytes += f.sizeBytes;
      } else {
        // the file keeps its text tier (exact search finds it); it is not parsed again until it changes
        this.errors.push({ path: outcome.path, error: outcome.error });
        this.writes.push(() => store.markParseFailed(outcome.path));
      }
      if (this.full()) {
        this.flush();
        // on growth, as the parse workers do (parse-worker.ts): over the budget alone, this thread collected
        // after most flushes of the kernel's parse tier (238 times, 20 s; 131 times, 12 s on growth)
        collectOnGrowth(undefined, PARSE_TIER_GROWTH_BYTES);
      }
      if (done % 64 === 0) this.options.onProgress?.({ phase: "parse", done, total: todo.length });
    }
    this.flush();
    if (bulk) store.pageCache("full");
    this.trace(
      `parse tier: ${todo.length} files in ${Math.round(performance.now() - parseStarted)} ms (writes ${Math.round(this.writeMs)} ms of it, ${(this.writeCpuUs / 1e6).toFixed(2)} s of this thread's CPU)`,
    );
    this.options.onProgress?.({ phase: "parse", done: todo.length, total: todo.length });
  }

  /** Secondary indexes and keyword indexes of a bulk parse tier, modules, then the index hooks. */
  private async finish(project: ProjectInfo, bulk: boolean): Promise<void> {
    const store = this.store;
    const finishStarted = performance.now();
    // a large build's keyword index loads on another thread beside the hooks (below), and builds there the
    // secondary indexes neither they nor the modules read: the kernel's indexes took 8-10 s here alone
    const aside = this.changes.written.length >= FULL_TEXT_ASIDE_FILES;
    if (bulk) {
      store.createBuildIndexes({ leaveLater: aside });
      this.trace(`secondary indexes${aside ? " (those the index steps read)" : ""}: ${Math.round(performance.now() - finishStarted)} ms`);
    }
    // the steps after the parse tier (a minute or two on the kernel), one at a time, so a bar does not sit at 100 %
    const steps = 1 + this.options.hooks.length + (bulk ? 1 : 0);
    let step = 0;
    const stepStarts = (name: string) => this.options.onProgress?.({ phase: "finish", done: step++, total: steps, step: name });
    stepStarts("modules");
    store.transaction(() => store.recomputeModules(this.affectedModules));
    // what the parse tier and the index builds leave behind goes before the two steps that use the most
    if (bulk) this.releaseMemory();
    // A large build's keyword index loads on another thread while the hooks compute (they wait before writing).
    if (bulk) {
      const fullTextStarted = performance.now();
      store.loadStagedFullText({ aside });
      void store.whenFullTextLoaded().then(
        () => {
          const cpu = store.fullTextLoadCpuMs();
          const indexCpu = store.fullTextLoadIndexCpuMs();
          const writes = store.fullTextLoadWrites();
          const indexes =
            (indexCpu === undefined ? "" : `, ${(indexCpu / 1000).toFixed(1)} s of it the other secondary indexes`) +
            (writes === undefined ? "" : `, ${(writes.cpuMs / 1000).toFixed(1)} s resolution's writes after ${writes.waitedMs} ms waiting for them`);
          const where = aside ? ` (beside the index steps${cpu === undefined ? "" : `, its thread's CPU ${(cpu / 1000).toFixed(1)} s${indexes}`})` : "";
          this.trace(`full-text load: ${Math.round(performance.now() - fullTextStarted)} ms${where}`);
        },
        () => {},
      );
    }
    // files an earlier run parsed and stopped before these steps finished with
    const pending = bulk ? [] : this.stepsPending();
    let changes = this.changes;
    if (pending.length > 0) {
      const indexed = store.fileStamps();
      const written = new Set(this.changes.written);
      const resumed = pending.filter((path) => indexed.has(path) && !written.has(path));
      // handed to the steps as written, not counted as parsed by this run
      if (resumed.length > 0) {
        changes = { ...this.changes, written: [...this.changes.written, ...resumed] };
        log.warn(`the last index run stopped before resolving ${resumed.length} files' references; resolving them now`);
      }
    }
    let stepsFailed = false;
    for (const hook of this.options.hooks) {
      stepStarts(hook.name);
      try {
        await hook.run(store, changes, project);
      } catch (e) {
        if (e instanceof CortexError) throw e;
        stepsFailed = true;
        // the steps left wait on the failed keyword index load too: its error alone is reported, below
        if (store.fullTextLoadFailed()) break;
        log.error(`index step '${hook.name}' failed: ${(e as Error).stack ?? e}`);
        this.errors.push({ path: "", error: `index step '${hook.name}' failed: ${(e as Error).message}` });
      }
    }
    if (!bulk && !stepsFailed && (pending.length > 0 || store.getMeta(STEPS_PENDING_META))) store.setMeta(STEPS_PENDING_META, "");
    // a failed keyword index load fails the run: before publication the previous index stays current,
    // after it the parse tier is marked unfinished and the next run builds it again
    if (bulk) {
      stepStarts("keyword index");
      await store.finishStagedFullText();
      store.setMeta(PARSE_STATE_KEY, "");
      // a whole build resolved every file: what an earlier stopped run owed is paid (written once the
      // keyword load beside, which held the writer, is done)
      if (store.getMeta(STEPS_PENDING_META)) store.setMeta(STEPS_PENDING_META, "");
    }
    this.options.onProgress?.({ phase: "finish", done: steps, total: steps, step: "done" });
    this.trace(`index steps done`);
  }

  /** The files STEPS_PENDING_META lists (none when unset or unreadable). */
  private stepsPending(): string[] {
    const raw = this.store.getMeta(STEPS_PENDING_META);
    if (!raw) return [];
    try {
      const list = JSON.parse(raw) as unknown;
      return Array.isArray(list) ? list.filter((p): p is string => typeof p === "string") : [];
    } catch {
      return [];
    }
  }

  /** A full collection of this thread's heap and the connection's page cache emptied, between phases. */
  private releaseMemory(): void {
    collectNow();
    this.store.releaseMemory();
  }

  /** Records when, at which commit and with how many binary files this run indexed. */
  private recordRun(): void {
    const store = this.store;
    const head = readGitHead(this.root);
    store.transaction(() => {
      store.setMeta("root", this.root);
      store.setMeta("last_run", new Date().toISOString());
      store.setMeta("branch", head.branch ?? "");
      store.setMeta("commit", head.commit ?? "");
      // every binary file of the walk, read this run or known unchanged (binary_files): the full count
      store.setMeta("binary_files", String(this.binary));
    });
  }

  /** Makes this run's database the current index: readers switch to it. */
  private publish(): void {
    this.location.publish(this.dbPath);
    this.published = true;
  }
}

function projectInfoFor(store: IndexStore, root: string, files: WalkedFile[], jobs: FileJob[], removed: string[]): ProjectInfo {
  const stored = store.getMeta(PROJECT_INFO_KEY);
  // Manifests matter whenever they change; source files only when they appear or disappear.
  const stale = !stored || jobs.some((j) => isManifest(j.path) || (j.prevHash === undefined && affectsProjectInfo(j.path))) || removed.some(affectsProjectInfo);
  if (!stale) return JSON.parse(stored) as ProjectInfo;
  const info = buildProjectInfo(
    root,
    files.map((f) => f.path),
  );
  store.setMeta(PROJECT_INFO_KEY, JSON.stringify(info));
  return info;
}

function isManifest(path: string): boolean {
  const base = path.slice(path.lastIndexOf("/") + 1);
  return base === "go.mod" || base === "package.json" || base === "Cargo.toml" || base === "composer.json";
}

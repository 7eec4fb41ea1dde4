/**
 * Keeps a project's index current while a server runs: builds it at start (or refreshes it), re-indexes
 * incrementally when the watcher settles, one run at a time (changes that arrive during a run cause one
 * more run), and rebuilds from scratch when the index turns out corrupt — tools keep answering from what
 * exists meanwhile.
 */
import { ProjectWatcher } from "./watch.ts";
import { log } from "../core/log.ts";
import { describeSystemError, isCortexError } from "../core/errors.ts";
import { cortexHome } from "../core/paths.ts";
import type { IndexReport } from "./pipeline.ts";

/**
 * What a live index needs of the project it keeps current: where it is, how long to let changes settle,
 * and a way to run the indexer with the hooks of its composition root (src/tools/session.ts is one).
 */
export interface IndexedProject {
  readonly root: string;
  readonly config: { watch: { debounce_ms: number }; index: { exclude: string[] } };
  index(opts: { full?: boolean }): Promise<IndexReport>;
}

/** Beyond this many changed files (a branch switch), searches wait for the index rather than read them all per call. */
const MAX_CHANGED_ON_DISK = 1000;

export class LiveIndex {
  private watcher: ProjectWatcher | undefined;
  /** Paths the watcher reported, each with the number of its latest event: an index run started after it covers it. */
  private readonly changed = new Map<string, number>();
  private events = 0;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  lastReport: IndexReport | undefined;
  lastError: string | undefined;

  private started = false;

  constructor(
    private readonly project: IndexedProject,
    private readonly watch = true,
  ) {}

  /** Starts the first run (in the background) and the watcher. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule();
    if (this.watch) {
      this.watcher = new ProjectWatcher(
        this.project.root,
        () => this.schedule(),
        this.project.config.watch.debounce_ms,
        (path) => this.changed.set(path, ++this.events),
        this.project.config.index.exclude,
      );
      this.watcher.start();
    }
  }

  /** Asks for a run; coalesces with one in progress. */
  schedule(full = false): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.run(full).finally(() => {
      this.running = undefined;
      if (this.again && !this.stopped) {
        this.again = false;
        void this.schedule();
      }
    });
    return this.running;
  }

  /**
   * Paths that changed on disk after the last index run started (what text searches should read from
   * disk until the index has them), or undefined when there are too many to read per call.
   */
  changedOnDisk(): string[] | undefined {
    if (this.changed.size > MAX_CHANGED_ON_DISK) return undefined;
    return [...this.changed.keys()];
  }

  private async run(full: boolean): Promise<void> {
    const covered = this.events;
    try {
      this.lastReport = await this.project.index({ full });
      this.lastError = undefined;
      // the run read every file changed before it started; later events stay until the next run
      for (const [path, event] of this.changed) if (event <= covered) this.changed.delete(path);
    } catch (e) {
      this.lastError = (e as Error).message;
      if (isCortexError(e) && e.code === "INDEX_LOCKED") {
        // another process is writing; our next change event will try again
        log.info(`index busy: ${e.message}`);
        return;
      }
      if (!full && isCortexError(e) && e.code === "INDEX_CORRUPT") {
        log.warn(`the index is damaged (${e.message}); rebuilding it`);
        return this.run(true);
      }
      // an expected condition (the folder gone, a home it cannot write) in one line; a bug with its stack
      const said = isCortexError(e) ? e.message : describeSystemError(e, cortexHome());
      log.error(`indexing failed: ${said ?? (e as Error).stack ?? e}`);
    }
  }

  /** Waits for the run in progress (if any). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.watcher?.stop();
    await this.idle();
  }
}

/**
 * Watches a project for changes and calls back once things settle (debounced). Any event can matter —
 * an edit, a new file, a branch switch rewriting .git/HEAD, a commit moving a branch — and the incremental
 * indexer finds what really changed, so the watcher only filters what cannot change the index: git's
 * internals other than HEAD, branch tips and info/exclude, dependency and tool folders, editor swap
 * files, and whatever the project's ignore rules leave out (a dev server's logs, a build's output folder).
 *
 * Settling waits for a quiet `debounceMs`, but never longer than MAX_WAIT_MS after the first change it
 * holds: a file written every few hundred milliseconds would otherwise hold every other change back for
 * as long as it is written.
 */
import { watch, type FSWatcher } from "node:fs";
import { log } from "../core/log.ts";
import { TreeWalker } from "./walk.ts";

const NOISE =
  /^(?:\.git\/(?!HEAD$|info\/exclude$|refs\/heads\/|packed-refs$)|node_modules\/|\.cortex\/|__pycache__\/|\.venv\/|\.tox\/|\.mypy_cache\/|\.pytest_cache\/|\.idea\/|\.gradle\/)|(?:^|\/)\.#|~$|\.swp$|\.swx$/;

/** The project's configuration, which a running server reads once. */
const CONFIG_FILE = ".cortex/config.yml";

/** Files whose change changes the ignore rules themselves. */
const RULES = /(?:^|\/)\.(?:git|cortex)ignore$|^\.git\/info\/exclude$/;

/** The longest a change waits for the events around it to settle (a change is searchable within about this). */
export const MAX_WAIT_MS = 2000;

export class ProjectWatcher {
  private watcher: FSWatcher | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pending = new Set<string>();
  /** When the oldest change held in `pending` came. */
  private firstAt = 0;
  /** The ignore rules as a walk reads them; rebuilt when an ignore file changes. */
  private rules: TreeWalker | undefined;
  private configWarned = false;

  constructor(
    private readonly root: string,
    private readonly onSettled: (paths: string[]) => void,
    private readonly debounceMs = 500,
    /** Called with each event's path at once, before things settle. */
    private readonly onEvent?: (path: string) => void,
    /** The configuration's own excludes (index.exclude), which the walk applies too. */
    private readonly excludes: string[] = [],
  ) {}

  start(): void {
    if (this.watcher) return;
    try {
      this.watcher = watch(this.root, { recursive: true, persistent: false }, (_event, filename) =>
        this.heard(filename ? String(filename).replace(/\\/g, "/") : ""),
      );
      this.watcher.on("error", (e) => log.warn(`file watcher stopped: ${(e as Error).message}`));
    } catch (e) {
      log.warn(`cannot watch ${this.root}: ${(e as Error).message}; the index updates only on 'cortex index' or refresh_index`);
    }
  }

  /** One event: kept unless it cannot change the index, and settled as the debounce and the longest wait say. */
  heard(path: string): void {
    if (path === CONFIG_FILE) {
      // the running server keeps the configuration it started with (its excludes, its model): say so once
      if (!this.configWarned) log.warn(`${CONFIG_FILE} changed: restart the server for the change to apply (it keeps the settings it started with)`);
      this.configWarned = true;
      return;
    }
    if (path && NOISE.test(path)) return;
    if (path && RULES.test(path)) this.rules = undefined;
    else if (path && !path.startsWith(".git/") && this.ignored(path)) return;
    this.pending.add(path);
    if (path) this.onEvent?.(path);
    const now = Date.now();
    if (this.timer) clearTimeout(this.timer);
    else this.firstAt = now;
    this.timer = setTimeout(() => this.flush(), Math.max(0, Math.min(this.debounceMs, this.firstAt + Math.max(MAX_WAIT_MS, this.debounceMs) - now)));
  }

  private ignored(path: string): boolean {
    try {
      this.rules ??= new TreeWalker(this.root, { maxFileSize: Number.POSITIVE_INFINITY, extraExcludes: this.excludes });
      return this.rules.ignores(path);
    } catch {
      return false; // rules that cannot be read: the event counts, as before
    }
  }

  private flush(): void {
    this.timer = undefined;
    const paths = [...this.pending];
    this.pending.clear();
    this.onSettled(paths);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.watcher?.close();
    this.watcher = undefined;
  }
}

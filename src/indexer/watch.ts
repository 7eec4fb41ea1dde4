/**
 * Watches a project for changes and calls back once things settle (debounced). Any event can matter —
 * an edit, a new file, a branch switch rewriting .git/HEAD — and the incremental indexer finds what
 * really changed, so the watcher only filters the noise (git internals other than HEAD, dependency and
 * tool folders) and never tries to interpret events.
 */
import { watch, type FSWatcher } from "node:fs";
import { log } from "../core/log.ts";

const NOISE =
  /^(?:\.git\/(?!HEAD$)|node_modules\/|\.cortex\/|__pycache__\/|\.venv\/|\.tox\/|\.mypy_cache\/|\.pytest_cache\/|\.idea\/|\.gradle\/)|(?:^|\/)\.#|~$|\.swp$|\.swx$/;

export class ProjectWatcher {
  private watcher: FSWatcher | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pending = new Set<string>();

  constructor(
    private readonly root: string,
    private readonly onSettled: (paths: string[]) => void,
    private readonly debounceMs = 500,
    /** Called with each event's path at once, before things settle. */
    private readonly onEvent?: (path: string) => void,
  ) {}

  start(): void {
    if (this.watcher) return;
    try {
      this.watcher = watch(this.root, { recursive: true, persistent: false }, (_event, filename) => {
        const path = filename ? String(filename).replace(/\\/g, "/") : "";
        if (path && NOISE.test(path)) return;
        this.pending.add(path);
        if (path) this.onEvent?.(path);
        if (this.timer) clearTimeout(this.timer);
        this.timer = setTimeout(() => this.flush(), this.debounceMs);
      });
      this.watcher.on("error", (e) => log.warn(`file watcher stopped: ${(e as Error).message}`));
    } catch (e) {
      log.warn(`cannot watch ${this.root}: ${(e as Error).message}; the index updates only on 'cortex index' or refresh_index`);
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

/**
 * The index step that keeps the history channel current (store/history-store.ts): after each run's
 * writes, the commits HEAD gained since the last run are read with git (indexer/git-history.ts) and
 * stored; a first run, or a HEAD that no longer descends from the stored one (a branch switch, a rebase,
 * a checkout of an older commit), reads the newest commits again and replaces what was stored. Nothing
 * beyond HEAD is ever read. A folder that is not a git work tree, or a config that turns the channel off
 * (`index.history: false`), has no history tables at all.
 */
import type { IndexHook } from "./hooks.ts";
import type { IndexStore } from "../store/index-store.ts";
import { dropHistory, writeHistory } from "../store/history-store.ts";
import { readHistory } from "./git-history.ts";
import { loadConfig } from "../core/config.ts";
import { log } from "../core/log.ts";

const HEAD_KEY = "history_head";
/** How many commits the last run read from git (0 when HEAD had not moved). */
export const HISTORY_READ_KEY = "history_read";

export interface HistoryUpdate {
  mode: "off" | "unchanged" | "incremental" | "full";
  /** Commits read from git in this run. */
  read: number;
  /** Commits stored in this run (sweeps and empty commits left out). */
  stored: number;
  ms: number;
}

/** Brings the stored history up to HEAD; see the module comment. */
export async function updateHistory(store: IndexStore, root: string): Promise<HistoryUpdate> {
  const started = performance.now();
  const config = loadConfig(root).index;
  const done = (u: Omit<HistoryUpdate, "ms">): HistoryUpdate => ({ ...u, ms: Math.round(performance.now() - started) });
  const slice = config.history ? await readHistory(root, store.getMeta(HEAD_KEY), config.history_commits) : undefined;
  await store.whenWritable();
  if (!slice) {
    dropHistory(store);
    store.setMeta(HEAD_KEY, "");
    store.setMeta(HISTORY_READ_KEY, "0");
    return done({ mode: "off", read: 0, stored: 0 });
  }
  if (slice.mode === "incremental" && slice.commits.length === 0) {
    // HEAD may still have moved: a --no-ff merge of a branch already stored adds only the merge commit, which
    // the log leaves out; the stored head follows it, so the next run reads from there
    store.setMeta(HEAD_KEY, slice.head);
    store.setMeta(HISTORY_READ_KEY, "0");
    return done({ mode: "unchanged", read: 0, stored: 0 });
  }
  const stored = writeHistory(store, slice.commits, { replace: slice.mode === "full", keep: config.history_commits });
  store.setMeta(HEAD_KEY, slice.head);
  store.setMeta(HISTORY_READ_KEY, String(slice.commits.length));
  return done({ mode: slice.mode, read: slice.commits.length, stored });
}

/** The index hook: the history after every run's writes. */
export const gitHistory: IndexHook = {
  name: "git history",
  async run(store) {
    const root = store.getMeta("root");
    if (!root) return;
    const u = await updateHistory(store, root);
    if (process.env.CORTEX_TRACE) log.warn(`git history: ${u.mode}, ${u.read} commits read, ${u.stored} stored in ${u.ms} ms`);
  },
};

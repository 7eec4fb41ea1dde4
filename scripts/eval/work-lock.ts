/**
 * One evaluation per work folder. A run empties the cortex home it keeps in its `--work` folder and moves
 * the corpus folders there from commit to commit, so a second run on the same folder (another session's,
 * with the same default) deletes the first one's indexes under it: its instances then fail as "no index"
 * or a failed write and count as misses. A run takes the folder with a lock file naming its process, and a
 * run that finds the folder held by a live process refuses to start, saying which.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CortexError } from "../../src/core/errors.ts";

const LOCK = "eval.lock";

/** True when a process with this id exists (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to another user
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes `work` for this process; returns the release. Throws when a live process holds it. */
export function lockWorkFolder(work: string): () => void {
  mkdirSync(work, { recursive: true });
  const file = join(work, LOCK);
  let holder: number | undefined;
  try {
    holder = Number.parseInt(readFileSync(file, "utf8"), 10);
  } catch {
    holder = undefined;
  }
  if (holder !== undefined && Number.isInteger(holder) && holder !== process.pid && alive(holder)) {
    throw new CortexError("INVALID_INPUT", `--work: ${work} is in use by another evaluation (process ${holder}); pass a folder of this run's own with --work`);
  }
  writeFileSync(file, String(process.pid));
  return () => {
    try {
      if (Number.parseInt(readFileSync(file, "utf8"), 10) === process.pid) rmSync(file, { force: true });
    } catch {
      // already gone
    }
  };
}

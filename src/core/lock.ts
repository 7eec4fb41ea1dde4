/**
 * A cross-process lock held as a file created with O_EXCL. The file records the holder's pid; a lock
 * whose holder is dead (kill -9, crash) is taken over, so a crash never wedges the index.
 */
import { openSync, writeSync, closeSync, readFileSync, rmSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { CortexError } from "./errors.ts";

export interface FileLock {
  readonly path: string;
  release(): void;
}

function holderAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function tryAcquire(path: string): FileLock | undefined {
  try {
    const fd = openSync(path, "wx");
    writeSync(fd, JSON.stringify({ pid: process.pid, at: new Date().toISOString() }));
    closeSync(fd);
    let released = false;
    return {
      path,
      release() {
        if (released) return;
        released = true;
        rmSync(path, { force: true });
      },
    };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    let pid = -1;
    try {
      pid = JSON.parse(readFileSync(path, "utf8")).pid;
    } catch {
      // unreadable: a holder may be writing it right now; treat as held unless it stays that way
      return undefined;
    }
    if (!holderAlive(pid)) {
      rmSync(path, { force: true });
      return tryAcquire(path);
    }
    return undefined;
  }
}

/** Whether a live process (this one included) holds the lock now. */
export function isLockHeld(path: string): boolean {
  try {
    return holderAlive(JSON.parse(readFileSync(path, "utf8")).pid);
  } catch {
    return false;
  }
}

/** Takes the lock, waiting up to `waitMs` for another holder to let go. */
export async function acquireLock(path: string, what: string, waitMs = 0): Promise<FileLock> {
  mkdirSync(dirname(path), { recursive: true });
  const until = Date.now() + waitMs;
  for (;;) {
    const lock = tryAcquire(path);
    if (lock) return lock;
    if (Date.now() >= until) {
      let holder = "another process";
      try {
        holder = `process ${JSON.parse(readFileSync(path, "utf8")).pid}`;
      } catch {}
      throw new CortexError("INDEX_LOCKED", `${what} is locked by ${holder} (lock file ${path})`, { data: { path } });
    }
    await Bun.sleep(50);
  }
}

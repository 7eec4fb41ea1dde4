/**
 * A cross-process lock held as a file created with O_EXCL. The file records the holder's pid and, on
 * Linux, that process's start (boot id and start time), so a lock whose holder is dead (kill -9, crash)
 * is taken over even when its pid now belongs to another process (after a reboot or a container
 * restart): a crash never wedges the index.
 */
import { openSync, writeSync, closeSync, readFileSync, rmSync, mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { CortexError } from "./errors.ts";

export interface FileLock {
  readonly path: string;
  release(): void;
}

/** What the lock file holds. */
interface Holder {
  pid: number;
  at?: string;
  /** The holder process's identity when it took the lock (processStart); absent off Linux and in older files. */
  start?: string;
}

/** A lock file that cannot be read this long after it was made is left over (a holder died writing it, or the disk was full). */
const UNREADABLE_GRACE_MS = 5_000;

/**
 * A process's start as Linux records it: the boot's id and the start time in clock ticks since boot
 * (/proc/<pid>/stat, field 22). Two processes with one pid differ in it. Undefined where /proc is not.
 */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // the command name (field 2) is in parentheses and may hold spaces: count fields after its end
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    return `${boot}:${fields[19]}`;
  } catch {
    return undefined;
  }
}

function holderAlive(h: Holder): boolean {
  const pid = h.pid;
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  // the pid is taken: by the holder, unless its start differs from the one the lock recorded
  if (h.start === undefined) return true;
  const now = processStart(pid);
  return now === undefined || now === h.start;
}

function readHolder(path: string): Holder | undefined {
  try {
    const h = JSON.parse(readFileSync(path, "utf8")) as Holder;
    return typeof h?.pid === "number" ? h : undefined;
  } catch {
    return undefined;
  }
}

function tryAcquire(path: string): FileLock | undefined {
  let fd: number;
  try {
    fd = openSync(path, "wx");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    const holder = readHolder(path);
    if (!holder) {
      // unreadable: a holder may be writing it right now; left over once it stays that way
      let age = 0;
      try {
        age = Date.now() - statSync(path).mtimeMs;
      } catch {
        return tryAcquire(path); // gone meanwhile
      }
      if (age < UNREADABLE_GRACE_MS) return undefined;
    } else if (holderAlive(holder)) return undefined;
    rmSync(path, { force: true });
    return tryAcquire(path);
  }
  try {
    const start = processStart(process.pid);
    writeSync(fd, JSON.stringify({ pid: process.pid, at: new Date().toISOString(), ...(start ? { start } : {}) }));
    closeSync(fd);
  } catch (e) {
    // a lock file left empty (the disk full) would block every later run: it goes with the error
    try {
      closeSync(fd);
    } catch {}
    rmSync(path, { force: true });
    const err = e as NodeJS.ErrnoException;
    throw new CortexError("IO", `cannot write the lock file ${path}: ${err.code === "ENOSPC" ? "the disk is full" : err.message}`, { cause: e });
  }
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      rmSync(path, { force: true });
    },
  };
}

/** Whether a live process (this one included) holds the lock now. */
export function isLockHeld(path: string): boolean {
  const holder = readHolder(path);
  return holder !== undefined && holderAlive(holder);
}

/** Takes the lock, waiting up to `waitMs` for another holder to let go. */
export async function acquireLock(path: string, what: string, waitMs = 0): Promise<FileLock> {
  mkdirSync(dirname(path), { recursive: true });
  const until = Date.now() + waitMs;
  for (;;) {
    const lock = tryAcquire(path);
    if (lock) return lock;
    if (Date.now() >= until) {
      const holder = readHolder(path);
      throw new CortexError(
        "INDEX_LOCKED",
        `${what} is locked by ${holder ? `process ${holder.pid}` : "another process"} (lock file ${path}; if no cortex is running, delete it)`,
        { data: { path } },
      );
    }
    await Bun.sleep(50);
  }
}

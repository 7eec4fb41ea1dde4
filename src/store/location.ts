/**
 * Where a worktree's index lives: $CORTEX_HOME/cache/<name>-<hash of the real root path>/. The current
 * database is named in `current` (written atomically), so a full rebuild can write a new database
 * beside the old one and switch by one rename: a crash mid-build leaves the previous index in use.
 */
import { existsSync, readFileSync, readdirSync, rmSync, mkdirSync } from "node:fs";
import { basename, join } from "node:path";
import { homePaths } from "../core/paths.ts";
import { shortHash } from "../core/hash.ts";
import { writeFileAtomic } from "../core/fs-atomic.ts";

export interface IndexLocation {
  dir: string;
  /** Path of the database in use, or undefined when no index has been completed yet. */
  current(): string | undefined;
  /** A fresh path for a database being built aside. */
  newDatabasePath(): string;
  /** Makes `dbPath` the current database and removes the previous ones. */
  publish(dbPath: string): void;
  /** Removes databases that are neither current nor being written by a live process. */
  collectGarbage(): void;
  lockPath: string;
}

function safeName(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 40) || "root";
}

export function indexLocation(root: string): IndexLocation {
  const dir = join(homePaths.cache(), `${safeName(basename(root))}-${shortHash(root)}`);
  const pointer = join(dir, "current");
  const read = (): string | undefined => {
    if (!existsSync(pointer)) return undefined;
    const name = readFileSync(pointer, "utf8").trim();
    if (!/^index-[0-9a-z-]+\.db$/.test(name)) return undefined;
    const p = join(dir, name);
    return existsSync(p) ? p : undefined;
  };
  return {
    dir,
    lockPath: join(dir, "write.lock"),
    current: read,
    newDatabasePath() {
      mkdirSync(dir, { recursive: true });
      return join(dir, `index-${Date.now().toString(36)}-${process.pid}.db`);
    },
    publish(dbPath: string) {
      const before = read();
      writeFileAtomic(pointer, basename(dbPath) + "\n");
      if (before && before !== dbPath) {
        for (const suffix of ["", "-wal", "-shm"]) rmSync(before + suffix, { force: true });
      }
    },
    collectGarbage() {
      if (!existsSync(dir)) return;
      const cur = read();
      for (const f of readdirSync(dir)) {
        const m = /^index-[0-9a-z]+-(\d+)\.db(-wal|-shm|-stage)?$/.exec(f);
        if (!m) continue;
        const full = join(dir, f);
        if (cur && full.startsWith(cur)) continue;
        const pid = Number(m[1]);
        let alive = false;
        try {
          process.kill(pid, 0);
          alive = pid !== process.pid;
        } catch {}
        if (!alive) rmSync(full, { force: true });
      }
    },
  };
}

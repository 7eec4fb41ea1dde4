/**
 * The index's write lock: a live holder keeps it; a dead one, a pid another process has taken since, and
 * a file left empty or unreadable are taken over; a lock that cannot be written (the disk full) leaves no
 * file behind.
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { acquireLock, isLockHeld } from "../../src/core/lock.ts";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const fresh = () => {
  dir = mkdtempSync(join(tmpdir(), "cortex-lock-"));
  return join(dir, "write.lock");
};
const old = (path: string) => utimesSync(path, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));

test("a live holder keeps the lock; the error says which process and how to clear a left-over file", async () => {
  const path = fresh();
  const sleeper = Bun.spawn(["sleep", "30"]);
  try {
    writeFileSync(path, JSON.stringify({ pid: sleeper.pid, at: new Date().toISOString() }));
    expect(isLockHeld(path)).toBe(true);
    await expect(acquireLock(path, "the index", 100)).rejects.toThrow(
      `the index is locked by process ${sleeper.pid} (lock file ${path}; if no cortex is running, delete it)`,
    );
  } finally {
    sleeper.kill();
  }
});

test("a dead holder's lock is taken over, and the new file records this process's start", async () => {
  const path = fresh();
  const gone = Bun.spawn(["true"]);
  await gone.exited;
  writeFileSync(path, JSON.stringify({ pid: gone.pid, at: "2020-01-01T00:00:00Z" }));
  const lock = await acquireLock(path, "the index");
  const held = JSON.parse(readFileSync(path, "utf8"));
  expect(held.pid).toBe(process.pid);
  if (process.platform === "linux") expect(held.start).toMatch(/^[0-9a-f-]+:\d+$/);
  lock.release();
  expect(existsSync(path)).toBe(false);
});

test.if(process.platform === "linux")("a pid that another process took since (a reboot, a container restart) does not hold the lock", async () => {
  const path = fresh();
  // pid 1 is alive, but it is not the process that wrote this lock: its recorded start differs
  writeFileSync(path, JSON.stringify({ pid: 1, at: "2020-01-01T00:00:00Z", start: "00000000-0000-0000-0000-000000000000:1" }));
  expect(isLockHeld(path)).toBe(false);
  const lock = await acquireLock(path, "the index");
  expect(JSON.parse(readFileSync(path, "utf8")).pid).toBe(process.pid);
  lock.release();
});

test("an empty lock file (a holder that died writing it, a full disk) is waited on briefly, then taken over", async () => {
  const path = fresh();
  writeFileSync(path, "");
  // just made: a holder may be writing it
  await expect(acquireLock(path, "the index", 100)).rejects.toThrow("is locked by another process");
  old(path);
  const lock = await acquireLock(path, "the index");
  expect(JSON.parse(readFileSync(path, "utf8")).pid).toBe(process.pid);
  lock.release();
});

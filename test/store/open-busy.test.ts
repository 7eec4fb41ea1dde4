import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBuildDatabase, openDatabase } from "../../src/store/db.ts";

// Opening an index while another process holds its file (a build's last checkpoint, a connection closing
// and folding its log) once failed at the first read, without waiting, as "damaged": the caller rebuilt
// an index that was only busy (seen in test/tools/index-thread.test.ts, a session opened as the index
// thread finished).

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function newIndex(): string {
  dir = mkdtempSync(join(tmpdir(), "cortex-open-busy-"));
  const path = join(dir, "index.db");
  createBuildDatabase(path).close();
  return path;
}

/** A process that holds the whole file (WAL in exclusive locking mode, after a write) for `ms`. */
async function holdLock(path: string, ms: number): Promise<Bun.Subprocess<"ignore", "pipe", "inherit">> {
  const script = `
    const { Database } = require("bun:sqlite");
    const db = new Database(${JSON.stringify(path)});
    db.exec("PRAGMA locking_mode = EXCLUSIVE");
    db.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('held', '1')");
    console.log("locked");
    setTimeout(() => db.close(), ${ms});`;
  const child = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "inherit" });
  const reader = child.stdout.getReader();
  const first = await reader.read();
  reader.releaseLock();
  expect(new TextDecoder().decode(first.value)).toContain("locked");
  return child;
}

test("an index held a moment by another process is waited for, not called damaged", async () => {
  const path = newIndex();
  const child = await holdLock(path, 400);
  try {
    const db = openDatabase(path);
    expect((db.query("SELECT value FROM meta WHERE key = 'held'").get() as { value: string }).value).toBe("1");
    db.close();
  } finally {
    child.kill();
  }
});

test("an index held longer than the wait is INDEX_LOCKED, which nobody rebuilds, not INDEX_CORRUPT", async () => {
  const path = newIndex();
  const child = await holdLock(path, 30_000);
  try {
    expect(() => openDatabase(path, { readonly: true })).toThrow(
      expect.objectContaining({ code: "INDEX_LOCKED", message: expect.stringContaining("try again") }),
    );
  } finally {
    child.kill();
    await child.exited;
  }
  // and once free, it opens as it was
  openDatabase(path).close();
}, 15_000);

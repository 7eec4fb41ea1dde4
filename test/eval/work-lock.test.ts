/**
 * One evaluation per work folder (scripts/eval/work-lock.ts): a run refuses a folder a live process holds,
 * takes over one whose holder is gone, and gives it back when it ends.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lockWorkFolder } from "../../scripts/eval/work-lock.ts";

const folders: string[] = [];
afterEach(() => {
  while (folders.length > 0) rmSync(folders.pop()!, { recursive: true, force: true });
});

function workFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "cortex-work-lock-"));
  folders.push(dir);
  return dir;
}

describe("the evaluation's work folder lock", () => {
  test("refuses a folder another live process holds, naming it", () => {
    const work = workFolder();
    // the test runner's parent is alive for as long as the test runs
    writeFileSync(join(work, "eval.lock"), String(process.ppid));
    expect(() => lockWorkFolder(work)).toThrow(`is in use by another evaluation (process ${process.ppid})`);
  });

  test("takes over a folder whose holder has ended, and gives it back", () => {
    const work = workFolder();
    const ended = Bun.spawnSync([process.execPath, "-e", ""]).pid;
    writeFileSync(join(work, "eval.lock"), String(ended));
    const release = lockWorkFolder(work);
    expect(readFileSync(join(work, "eval.lock"), "utf8")).toBe(String(process.pid));
    release();
    expect(existsSync(join(work, "eval.lock"))).toBe(false);
    lockWorkFolder(work)();
  });
});

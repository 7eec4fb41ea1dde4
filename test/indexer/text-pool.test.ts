import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readTextFile, type FileJob, type TextOutcome } from "../../src/indexer/file-record.ts";
import { readTextFiles } from "../../src/indexer/text-pool.ts";
import { sha256 } from "../../src/core/hash.ts";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

async function all(outcomes: AsyncGenerator<TextOutcome>): Promise<TextOutcome[]> {
  const out: TextOutcome[] = [];
  for await (const o of outcomes) out.push(o);
  return out;
}

test("text tier workers give what the calling thread reads, in the jobs' order: text, binary, unreadable, unchanged", async () => {
  dir = mkdtempSync(join(tmpdir(), "cortex-text-pool-"));
  const jobs: FileJob[] = [];
  // more files than the workers' window of chunks, some large enough to finish after their successors
  for (let i = 0; i < 700; i++) {
    const path = `f${i}.go`;
    const body = i % 97 === 0 ? `package p\n// ${"x".repeat(200_000)}\n` : `package p\n\nfunc F${i}() int { return ${i} }\n`;
    writeFileSync(join(dir, path), body);
    jobs.push({ path, abs: join(dir, path), mtimeMs: i });
  }
  writeFileSync(join(dir, "bin.dat"), Buffer.from([0, 1, 2, 0, 255]));
  jobs.splice(100, 0, { path: "bin.dat", abs: join(dir, "bin.dat"), mtimeMs: 1 });
  jobs.splice(200, 0, { path: "gone.go", abs: join(dir, "gone.go"), mtimeMs: 1 });
  const same = "package same\n";
  writeFileSync(join(dir, "same.go"), same);
  jobs.splice(300, 0, { path: "same.go", abs: join(dir, "same.go"), mtimeMs: 2, prevHash: sha256(new TextEncoder().encode(same)) });

  const expected = jobs.map(readTextFile);
  expect(expected.map((o) => o.kind)).toContain("binary");
  expect(expected.map((o) => o.kind)).toContain("unreadable");
  expect(expected.map((o) => o.kind)).toContain("same-content");
  expect(await all(readTextFiles(jobs, 2, 0))).toEqual(expected);
  expect(await all(readTextFiles(jobs, 1, 0))).toEqual(expected);
  // below the threshold, on the calling thread
  expect(await all(readTextFiles(jobs, 2))).toEqual(expected);
});

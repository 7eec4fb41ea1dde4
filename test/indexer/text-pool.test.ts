import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readTextFile, type FileJob, type TextOutcome } from "../../src/indexer/file-record.ts";
import { readTextFiles } from "../../src/indexer/text-pool.ts";
import { sha256 } from "../../src/core/hash.ts";
import { TrigramExtractor } from "../../src/store/trigrams.ts";
import { contentBytes } from "../../src/store/content-codec.ts";

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

test("asked for trigrams, a reader gives the distinct trigrams of the bytes it stores, on workers as on the calling thread", async () => {
  dir = mkdtempSync(join(tmpdir(), "cortex-text-pool-"));
  const jobs: FileJob[] = [];
  for (let i = 0; i < 300; i++) {
    const path = `f${i}.txt`;
    // ASCII, folded case, UTF-8, CRLF; every 50th file Latin-1 (not UTF-8: stored decoded, with replacement
    // characters), one of 2 bytes
    const body =
      i % 50 === 0 ? Buffer.from(`caf\xe9 na\xefve ${i}\n`, "latin1") : i === 7 ? Buffer.from("ab") : Buffer.from(`Line ${i} ünïcödé ſ K\r\nAnother LINE\n`);
    writeFileSync(join(dir, path), body);
    jobs.push({ path, abs: join(dir, path), mtimeMs: i, trigrams: true });
  }
  const expected = jobs.map(readTextFile);
  const extractor = new TrigramExtractor();
  for (const o of expected) {
    if (o.kind !== "text") throw new Error(`${o.kind}: every file here is text`);
    expect(o.file.trigrams).toEqual(extractor.extract(contentBytes(o.file.content)).slice());
  }
  const latin = expected[50]!;
  // the trigrams are those of what is stored, not of the bytes on disk
  expect(latin.kind === "text" && new TextDecoder().decode(contentBytes(latin.file.content))).toBe("caf\ufffd na\ufffdve 50\n");
  expect(expected[7]!.kind === "text" && expected[7]!.file.trigrams?.length).toBe(0);
  expect(await all(readTextFiles(jobs, 2, 0))).toEqual(expected);
  // not asked: none
  const plain = readTextFile({ ...jobs[1]!, trigrams: undefined });
  expect(plain.kind === "text" && plain.file.trigrams).toBeUndefined();
});

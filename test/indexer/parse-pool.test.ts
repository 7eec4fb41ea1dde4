import { describe, expect, test } from "bun:test";
import { parseFiles, type ParseOutcome } from "../../src/indexer/parse-pool.ts";
import { compressContent } from "../../src/store/content-codec.ts";
import { emptyProjectInfo } from "../../src/lang/project.ts";
import type { UnparsedFile } from "../../src/store/types.ts";

const MiB = 2 ** 20;

describe("parse pool", () => {
  test("holds a bounded number of source bytes between loading a file and handing its outcome out", async () => {
    // files said to be 4 MiB each (the pool counts the stored size; the content itself can be small)
    const files: UnparsedFile[] = Array.from({ length: 100 }, (_, i) => ({
      fileId: i + 1,
      path: `big/f${i}.txt`,
      language: "text",
      sizeBytes: 4 * MiB,
      mtimeMs: 0,
    }));
    const content = compressContent(new TextEncoder().encode("a line\n"));
    let loads = 0;
    const it = parseFiles(
      files,
      () => {
        loads++;
        return new Uint8Array(content); // a copy each call, as the store reads one: the pool moves it to a worker
      },
      emptyProjectInfo(),
      2,
    );
    const first = await it.next();
    expect(first.done).toBe(false);
    // a caller busy writing: the workers go on only as far as the bound lets them
    await Bun.sleep(500);
    // 8 MiB of waiting source = 2 of these files beside the one handed out; counted by files alone
    // (16 per worker, 96 in all) the pool loaded 97
    expect(loads).toBeLessThanOrEqual(1 + 2);
    const outcomes: ParseOutcome[] = [first.value as ParseOutcome];
    for await (const o of { [Symbol.asyncIterator]: () => it }) outcomes.push(o);
    expect(outcomes.length).toBe(100);
    expect(outcomes.every((o) => o.kind === "parsed")).toBe(true);
    expect(loads).toBe(100);
  });

  test("lets each file's listing go once it is parsed, so the list is not held whole to the end", async () => {
    const files: UnparsedFile[] = Array.from({ length: 200 }, (_, i) => ({ fileId: i + 1, path: `src/f${i}.go`, language: "go", sizeBytes: 20, mtimeMs: 0 }));
    const content = compressContent(new TextEncoder().encode("package f\n\nfunc F() {}\n"));
    const paths: string[] = [];
    let emptiedBefore = 0;
    for await (const o of parseFiles(files, () => new Uint8Array(content), emptyProjectInfo(), 2)) {
      if (o.kind === "parsed") paths.push(o.file.path);
      // the file handed out is parsed: its slot is empty already
      const at = Number(/f(\d+)/.exec(o.kind === "parsed" ? o.file.path : o.path)![1]);
      if (files[at] === undefined) emptiedBefore++;
    }
    expect(paths.sort()).toEqual(Array.from({ length: 200 }, (_, i) => `src/f${i}.go`).sort());
    expect(emptiedBefore).toBe(200);
    expect(files.every((f) => f === undefined)).toBe(true);
  });
});

import { afterEach, describe, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { walkProject } from "../../src/indexer/walk.ts";
import { packResults, unpackResults, walkProjectInParallel } from "../../src/indexer/walk-parallel.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";

let p: TmpProject;
afterEach(() => p?.cleanup());

const options = { maxFileSize: 1000, extraExcludes: ["vendor/"] };

/**
 * A tree whose ignore files sit at every depth, so that a unit walked on its own gets a verdict wrong
 * unless the rules of every folder above it are in force: a folder two levels up leaves out `*.gen`, one
 * level up brings `keep.gen` back, the unit's own file leaves out `local/`.
 */
function deepTree(): TmpProject {
  const files: Record<string, string> = {
    ".gitignore": "*.log\nbuild/\n",
    "top.go": "x",
    "debug.log": "x",
    "big.txt": "y".repeat(2000),
    "vendor/lib.go": "x",
  };
  for (const a of ["alpha", "beta", "gamma"]) {
    files[`${a}/.gitignore`] = "*.gen\n";
    files[`${a}/mid.go`] = "x";
    for (const b of ["one", "two", "three", "four"]) {
      files[`${a}/${b}/.gitignore`] = "!keep.gen\n";
      files[`${a}/${b}/x.gen`] = "x";
      files[`${a}/${b}/keep.gen`] = "x";
      files[`${a}/${b}/build/out.o`] = "x";
      for (const c of ["p", "q"]) {
        files[`${a}/${b}/${c}/.cortexignore`] = "local/\n";
        files[`${a}/${b}/${c}/local/secret.go`] = "x";
        files[`${a}/${b}/${c}/deep/more/${c}.go`] = "x";
        files[`${a}/${b}/${c}/deep/more/drop.gen`] = "x";
        files[`${a}/${b}/${c}/deep/more/keep.gen`] = "x";
        files[`${a}/${b}/${c}/deep/trace.log`] = "x";
      }
    }
  }
  return tmpProject(files);
}

describe("the walk on several threads", () => {
  test("gives walkProject's files and exclusions in walkProject's order, however the tree is cut and shared", async () => {
    p = deepTree();
    symlinkSync(join(p.root, "top.go"), join(p.root, "alpha", "one", "link.go"));
    const serial = walkProject(p.root, options);
    // the tree really holds what the rules decide: kept by a re-inclusion two levels down, dropped by a rule above
    const kept = serial.files.map((f) => f.path);
    expect(kept).toContain("alpha/one/p/deep/more/keep.gen");
    expect(kept).not.toContain("alpha/one/p/deep/more/drop.gen");
    expect(kept).not.toContain("beta/two/q/local/secret.go");
    expect(serial.excluded.map((e) => e.reason).sort()).toContain("symlink");
    for (const minUnits of [1, 3, 8, 30]) {
      for (const claim of [true, false]) {
        const { threads, ...shared } = await walkProjectInParallel(p.root, options, { workers: 2, minUnits, claim, shareAfterMs: 0, leftToShareMs: 0 });
        expect({ minUnits, claim, ...shared }).toEqual({ minUnits, claim, ...serial });
        // left to the workers, both of them answered (their walks are the ones compared)
        if (!claim) expect(threads).toBe(3);
      }
    }
  });

  test("a tree with fewer folders than it takes to share is walked on this thread, with the same result", async () => {
    p = tmpProject({ "a.go": "x", "src/b.go": "x", ".gitignore": "*.tmp\n", "c.tmp": "x" });
    expect(await walkProjectInParallel(p.root, options)).toEqual({ ...walkProject(p.root, options), threads: 1 });
    expect(await walkProjectInParallel(p.root, options, { workers: 0 })).toEqual({ ...walkProject(p.root, options), threads: 1 });
  });

  test("a root that is not a folder is refused as walkProject refuses it", async () => {
    p = tmpProject({ "a.go": "x" });
    await expect(walkProjectInParallel(join(p.root, "missing"), options)).rejects.toThrow(
      `the project folder ${join(p.root, "missing")} no longer exists (moved or deleted)`,
    );
    await expect(walkProjectInParallel(join(p.root, "a.go"), options)).rejects.toThrow(`the project root ${join(p.root, "a.go")} is not a folder`);
    expect(() => walkProject(join(p.root, "a.go"), options)).toThrow(`the project root ${join(p.root, "a.go")} is not a folder`);
  });

  test("a worker's answer packed for the trip between threads unpacks to the same results", () => {
    const results = [
      { files: [{ path: "a/x.go", size: 3, mtimeMs: 1700000000123.5 }], excluded: [] },
      { files: [], excluded: [{ path: "b/y.log", reason: "ignored" as const, detail: ".gitignore:1: *.log", isDir: false }] },
      {
        files: [
          { path: "c/ü z.go", size: 0, mtimeMs: 1 },
          { path: "c/w.go", size: 9, mtimeMs: 2 },
        ],
        excluded: [],
      },
    ];
    expect(unpackResults(packResults([4, 0, 7], results))).toEqual(results);
    expect(unpackResults(packResults([], []))).toEqual([]);
  });
});

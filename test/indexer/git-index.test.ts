/**
 * The paths of a git index file, as git itself writes them (versions 2, 3 and 4, extended flags, a
 * SHA-256 repository, a split index), and what the walk does with them: tracked files stay whatever git's
 * ignore rules say, as in git, and cortex's own rules still leave paths out.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { readIndexPaths, TrackedPaths, UnreadableIndex } from "../../src/indexer/git-index.ts";
import { walkProject } from "../../src/indexer/walk.ts";
import { walkProjectInParallel } from "../../src/indexer/walk-parallel.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";

let p: TmpProject | undefined;
afterEach(() => {
  p?.cleanup();
  p = undefined;
});

function git(root: string, ...args: string[]): string {
  const r = Bun.spawnSync(["git", "-C", root, "-c", "user.email=t@x", "-c", "user.name=t", ...args], { stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

/** A repository whose .gitignore leaves out build/, gen/ and *.log, with files added past it by `git add -f`. */
function repository(initArgs: string[] = []): TmpProject {
  const r = tmpProject({
    ".gitignore": "build/\n*.log\ngen/\n",
    "src/main.go": "package main\n",
    "build/keep.txt": "kept: tracked\n",
    "build/sub/x.go": "package sub\n",
    "build/untracked.o": "left out\n",
    "build/other/y.go": "package other\n",
    "app.log": "left out\n",
    "fixtures.log": "kept: tracked\n",
    "gen/g.go": "package gen\n",
    "docs/ünïcode name.md": "# tracked, with a non-ASCII name\n",
  });
  git(r.root, "init", "-q", ...initArgs);
  git(r.root, "add", ".gitignore", "src", "docs");
  git(r.root, "add", "-f", "build/keep.txt", "build/sub/x.go", "fixtures.log");
  return r;
}

const TRACKED = [".gitignore", "build/keep.txt", "build/sub/x.go", "docs/ünïcode name.md", "fixtures.log", "src/main.go"];

describe("git index files", () => {
  test("versions 2, 3 (an intent-to-add entry sets the extended flags) and 4 (paths prefix-compressed)", () => {
    p = repository();
    for (const version of ["2", "3", "4"]) {
      git(p.root, "update-index", "--index-version", version);
      expect(readIndexPaths(join(p.root, ".git"))!.sort()).toEqual(TRACKED);
    }
    p.write("new.go", "package main\n");
    git(p.root, "add", "-N", "new.go"); // intent to add: extended flags, so version 3 at least
    expect(readIndexPaths(join(p.root, ".git"))!.sort()).toEqual([...TRACKED, "new.go"].sort());
    git(p.root, "update-index", "--index-version", "4");
    expect(readIndexPaths(join(p.root, ".git"))!.sort()).toEqual([...TRACKED, "new.go"].sort());
  });

  test("a SHA-256 repository's 32-byte object ids, and a split index's shared file", () => {
    p = repository(["--object-format=sha256"]);
    expect(readIndexPaths(join(p.root, ".git"), "sha256")!.sort()).toEqual(TRACKED);
    p.cleanup();
    p = repository();
    git(p.root, "update-index", "--split-index");
    p.write("later.go", "package main\n");
    git(p.root, "add", "later.go");
    expect(readIndexPaths(join(p.root, ".git"))!.sort()).toEqual([...TRACKED, "later.go"].sort());
  });

  test("no index file is no answer; a damaged one is an error of its own", () => {
    p = tmpProject({ ".git/HEAD": "ref: refs/heads/main\n", ".git/index": "DIRC\u0000\u0000\u0000\u0009\u0000\u0000\u0000\u0001" });
    expect(() => readIndexPaths(join(p!.root, ".git"))).toThrow(new UnreadableIndex("git index version 9 is not one this reader knows (2-4)"));
    writeFileSync(join(p.root, ".git/index"), "DIRC\u0000\u0000\u0000\u0002\u0000\u0000\u0000\u0001short");
    expect(() => readIndexPaths(join(p!.root, ".git"))).toThrow(new UnreadableIndex("git index ends inside entry 1 of 1"));
    p.remove(".git/index");
    expect(readIndexPaths(join(p.root, ".git"))).toBeUndefined();
  });

  test("tracked paths as a project root inside the repository sees them", () => {
    const t = new TrackedPaths(["a/b/c.go", "a/d.go", "x.go", "a/sparse/"], "a/");
    expect([t.hasFile("b/c.go"), t.hasFile("d.go"), t.hasFile("x.go"), t.hasFile("a/d.go")]).toEqual([true, true, false, false]);
    expect([t.holds("b"), t.holds("sparse"), t.holds("a"), t.holds("")]).toEqual([true, true, false, false]);
  });
});

describe("the walk keeps what git tracks", () => {
  const options = { maxFileSize: 1 << 20, extraExcludes: [] as string[] };

  test("a tracked file an ignore rule matches, and the tracked files of an ignored folder; untracked ones stay out", async () => {
    p = repository();
    const r = walkProject(p.root, options);
    expect(r.files.map((f) => f.path)).toEqual([".gitignore", "build/keep.txt", "build/sub/x.go", "docs/ünïcode name.md", "fixtures.log", "src/main.go"]);
    expect(r.excluded.map((e) => `${e.path} ${e.detail}`)).toEqual([
      ".git built-in rule: .git",
      "app.log .gitignore:2: *.log",
      "build .gitignore:1: build/ (untracked files; the files git tracks in it are kept)",
      "gen .gitignore:3: gen/",
    ]);
    // the threads' walk gives the same
    const { threads: _, ...parallel } = await walkProjectInParallel(p.root, options, { workers: 2, minUnits: 1, shareAfterMs: 0, leftToShareMs: 0 });
    expect(parallel).toEqual(r);
  });

  test("cortex's own rules still leave tracked files out; a project root inside the repository reads the repository's index", () => {
    p = repository();
    p.write(".cortexignore", "fixtures.log\nbuild/sub/\n");
    expect(walkProject(p.root, { ...options, extraExcludes: ["build/keep.txt"] }).files.map((f) => f.path)).toEqual([
      ".cortexignore",
      ".gitignore",
      "docs/ünïcode name.md",
      "src/main.go",
    ]);
    p.remove(".cortexignore");
    expect(walkProject(join(p.root, "build"), options).files.map((f) => f.path)).toEqual(["keep.txt", "sub/x.go"]);
  });
});

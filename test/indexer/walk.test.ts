import { afterEach, describe, expect, test } from "bun:test";
import { symlinkSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { walkProject, looksBinary } from "../../src/indexer/walk.ts";
import { walkProjectInParallel } from "../../src/indexer/walk-parallel.ts";
import { planIndex } from "../../src/indexer/plan.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";

let p: TmpProject;
afterEach(() => p?.cleanup());

const walk = (root: string, extra: string[] = [], max = 1 << 20) => walkProject(root, { maxFileSize: max, extraExcludes: extra });
const paths = (root: string, extra: string[] = []) =>
  walk(root, extra)
    .files.map((f) => f.path)
    .sort();

describe("walk honours ignore rules", () => {
  test("root .gitignore: plain, directory-only, anchored and negated patterns", () => {
    p = tmpProject({
      ".gitignore": "*.log\nbuild/\n/top.txt\n!keep.log\n",
      "a.ts": "x",
      "debug.log": "x",
      "keep.log": "x",
      "build/out.js": "x",
      "src/build/readme.md": "not under the root build/ dir but still a build/ dir",
      "top.txt": "anchored: ignored at the root",
      "src/top.txt": "anchored rule does not apply below the root",
    });
    expect(paths(p.root)).toEqual([".gitignore", "a.ts", "keep.log", "src/top.txt"]);
  });

  test("a folder an outer .gitignore leaves out and an inner one brings back is walked as git walks it", () => {
    // git (2.39, `git status --ignored` and `git check-ignore -v`) keeps pkg/build/keep.c and leaves out
    // pkg/build/out.o by `*.o` and build/ by `build/`
    p = tmpProject({
      ".gitignore": "build/\n*.o\n",
      "pkg/.gitignore": "!build/\n",
      "pkg/build/keep.c": "x",
      "pkg/build/out.o": "x",
      "build/x.c": "x",
    });
    expect(paths(p.root)).toEqual([".gitignore", "pkg/.gitignore", "pkg/build/keep.c"]);
    const why = Object.fromEntries(walk(p.root).excluded.map((e) => [e.path, e.detail]));
    expect(why).toEqual({ build: ".gitignore:1: build/", "pkg/build/out.o": ".gitignore:2: *.o" });
  });

  test("patterns match case as the repository's git does: exactly, unless core.ignorecase says otherwise", () => {
    // git (2.39, `git status --ignored`): `*.s` leaves out gen.s and keeps head.S (the kernel's assembly
    // sources), unless the repository's config has ignorecase = true (git sets it on macOS and Windows)
    const tree = { ".git/HEAD": "ref: refs/heads/main\n", ".gitignore": "*.s\nBuild/\n", "head.S": "x", "gen.s": "x", "build/a.c": "x", "Build/b.c": "x" };
    p = tmpProject({ ...tree, ".git/config": "[core]\n\trepositoryformatversion = 0\n\tbare = false\n" });
    expect(paths(p.root)).toEqual([".gitignore", "build/a.c", "head.S"]);
    p.cleanup();
    p = tmpProject({ ...tree, ".git/config": '[core]\n\tbare = false\n\tignoreCase = true\n[remote "origin"]\n\tignorecase = false\n' });
    expect(paths(p.root)).toEqual([".gitignore"]);
  });

  test("the user's own ignore file (core.excludesFile, else ~/.config/git/ignore) applies in a repository, below its .gitignore files", () => {
    const config = tmpProject({ "git/ignore": "*.secret\n.env\n", "other-ignore": "*.log\n" });
    const xdg = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = config.root;
    try {
      const tree = { ".gitignore": "!keep.secret\n", "a.secret": "x", "keep.secret": "x", ".env": "x", "debug.log": "x", "main.go": "x" };
      p = tmpProject({ ...tree, ".git/HEAD": "ref: refs/heads/main\n" });
      expect(paths(p.root)).toEqual([".gitignore", "debug.log", "keep.secret", "main.go"]);
      const why = Object.fromEntries(walk(p.root).excluded.map((e) => [e.path, e.detail]));
      expect(why["a.secret"]).toBe(`${join(config.root, "git", "ignore")}:1: *.secret`);
      p.cleanup();
      // core.excludesFile names another file, in place of the default one
      p = tmpProject({ ...tree, ".git/HEAD": "ref: refs/heads/main\n", ".git/config": `[core]\n\texcludesFile = "${join(config.root, "other-ignore")}"\n` });
      expect(paths(p.root)).toEqual([".env", ".gitignore", "a.secret", "keep.secret", "main.go"]);
      p.cleanup();
      // a relative path is the worktree top's, for the top and for a folder inside it, wherever cortex runs
      p = tmpProject({
        ...tree,
        "pkg/trace.log": "x",
        "my-ignore": "*.log\n",
        ".git/HEAD": "ref: refs/heads/main\n",
        ".git/config": "[core]\n\texcludesFile = my-ignore\n",
      });
      expect(paths(p.root)).toEqual([".env", ".gitignore", "a.secret", "keep.secret", "main.go", "my-ignore"]);
      expect(paths(join(p.root, "pkg"))).toEqual([]);
      p.cleanup();
      // a folder inside a repository obeys it too; a folder in no repository does not
      p = tmpProject({ ".git/HEAD": "ref: refs/heads/main\n", "pkg/a.secret": "x", "pkg/b.go": "x" });
      expect(paths(join(p.root, "pkg"))).toEqual(["b.go"]);
      p.cleanup();
      p = tmpProject(tree);
      expect(paths(p.root)).toEqual([".env", ".gitignore", "a.secret", "debug.log", "keep.secret", "main.go"]);
    } finally {
      if (xdg === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = xdg;
      config.cleanup();
    }
  });

  test("a repository inside the project (nested, or a submodule's .git file) keeps its own info/exclude, as git inside it does", () => {
    p = tmpProject({
      ".git/HEAD": "ref: refs/heads/main\n",
      "main.go": "x",
      "top.secret": "x",
      // nested: its own .git folder
      "inner/.git/HEAD": "ref: refs/heads/main\n",
      "inner/.git/info/exclude": "*.secret\n",
      "inner/key.secret": "x",
      "inner/lib.go": "x",
      // a submodule: .git is a file naming its git folder under the outer .git/modules
      ".git/modules/sub/HEAD": "ref: refs/heads/main\n",
      ".git/modules/sub/info/exclude": "/untracked.tmp\n",
      "sub/.git": "gitdir: ../.git/modules/sub\n",
      "sub/untracked.tmp": "x",
      "sub/deep/untracked.tmp": "x",
      "sub/mod.go": "x",
    });
    expect(paths(p.root)).toEqual(["inner/lib.go", "main.go", "sub/deep/untracked.tmp", "sub/mod.go", "top.secret"]);
  });

  test("a byte-order mark before the first rule of an ignore file is not part of the rule", () => {
    p = tmpProject({
      ".gitignore": "\uFEFF*.log\n",
      "pkg/.cortexignore": "\uFEFF*.tmp\n",
      "a.ts": "x",
      "debug.log": "x",
      "pkg/x.tmp": "x",
      "pkg/y.ts": "x",
    });
    expect(paths(p.root)).toEqual([".gitignore", "a.ts", "pkg/.cortexignore", "pkg/y.ts"]);
  });

  test("nested .gitignore files apply below their directory and can re-include", () => {
    p = tmpProject({
      ".gitignore": "*.gen.ts\n",
      "pkg/.gitignore": "!special.gen.ts\nlocal/\n",
      "x.gen.ts": "x",
      "pkg/a.gen.ts": "x",
      "pkg/special.gen.ts": "x",
      "pkg/local/secret.ts": "x",
      "other/local/kept.ts": "x",
    });
    expect(paths(p.root)).toEqual([".gitignore", "other/local/kept.ts", "pkg/.gitignore", "pkg/special.gen.ts"]);
  });

  test(".git/info/exclude, .cortexignore and config excludes; .cortexignore overrides .gitignore", () => {
    p = tmpProject({
      ".git/info/exclude": "secret.txt\n",
      ".git/HEAD": "ref: refs/heads/main\n",
      ".gitignore": "dist/\n",
      ".cortexignore": "fixtures/\n!dist/\n",
      "secret.txt": "x",
      "dist/bundle.js": "x",
      "fixtures/big.json": "x",
      "vendor/lib.go": "x",
      "main.go": "x",
    });
    expect(paths(p.root, ["vendor/"])).toEqual([".cortexignore", ".gitignore", "dist/bundle.js", "main.go"]);
  });

  test("a project inside a git repository obeys the repository's ignore rules above it", () => {
    const repo = tmpProject({
      ".git/HEAD": "ref: refs/heads/main\n",
      ".git/info/exclude": "*.secret\n",
      ".gitignore": "*.log\nbuild/\n",
      "services/.gitignore": "/api/generated/\n",
      "services/api/main.go": "x",
      "services/api/debug.log": "x",
      "services/api/key.secret": "x",
      "services/api/build/out.js": "x",
      "services/api/generated/client.go": "x",
    });
    try {
      expect(paths(join(repo.root, "services/api"))).toEqual(["main.go"]);
      const r = walk(join(repo.root, "services/api"));
      expect(r.excluded.find((e) => e.path === "debug.log")!.detail).toEndWith(".gitignore:1: *.log");
    } finally {
      repo.cleanup();
    }
  });

  test("built-in rules skip dependency folders; a negation brings one back", () => {
    p = tmpProject({ "node_modules/x/index.js": "x", "__pycache__/a.pyc": "x", "a.py": "x", "sub/.git": "gitdir: ../.git/modules/sub\n", "sub/b.py": "x" });
    expect(paths(p.root)).toEqual(["a.py", "sub/b.py"]); // a submodule's .git file is git's, not code
    p.remove("sub");
    p.write(".cortexignore", "!node_modules/\n");
    expect(paths(p.root)).toEqual([".cortexignore", "a.py", "node_modules/x/index.js"]);
  });

  test("every exclusion says why, naming the rule and its file and line", () => {
    p = tmpProject({ ".gitignore": "# comment\n\n*.tmp\n", "a.tmp": "x", "big.txt": "y".repeat(2000) });
    const r = walk(p.root, [], 1000);
    const byPath = Object.fromEntries(r.excluded.map((e) => [e.path, e]));
    expect(byPath["a.tmp"]!.reason).toBe("ignored");
    expect(byPath["a.tmp"]!.detail).toBe(".gitignore:3: *.tmp");
    expect(byPath["big.txt"]!.reason).toBe("too-large");
    expect(byPath["big.txt"]!.detail).toContain("2000 bytes > limit 1000");
  });
});

describe("walk never follows symlinks", () => {
  test("a link out of the root is refused and a loop does not hang", () => {
    p = tmpProject({ "a.ts": "x", "sub/b.ts": "y" });
    const outside = tmpProject({ "secret.ts": "s" });
    try {
      symlinkSync(outside.root, join(p.root, "escape"));
      symlinkSync(join(p.root, "sub"), join(p.root, "sub", "loop"));
      symlinkSync(join(p.root, "a.ts"), join(p.root, "alias.ts"));
      symlinkSync(join(p.root, "self"), join(p.root, "self")); // a link to itself
      symlinkSync(join(p.root, "gone.ts"), join(p.root, "dangling.ts"));
      const r = walk(p.root);
      expect(r.files.map((f) => f.path).sort()).toEqual(["a.ts", "sub/b.ts"]);
      const reasons = Object.fromEntries(r.excluded.map((e) => [e.path, e]));
      expect(reasons.escape!.reason).toBe("symlink");
      expect(reasons.escape!.detail).toContain("outside the project root");
      expect(reasons["sub/loop"]!.reason).toBe("symlink");
      expect(reasons["alias.ts"]!.detail).toContain("indexed at its own path");
      expect([reasons.self!.detail, reasons["dangling.ts"]!.detail]).toEqual(["symlink loop", "broken symlink"]);
    } finally {
      outside.cleanup();
    }
  });
});

describe("binary detection and the dry-run plan", () => {
  test("a project folder gone (moved or deleted under a running server) is an error saying so, in both walks", async () => {
    p = tmpProject({ "a.go": "package a\n" });
    const root = p.root;
    p.cleanup();
    const gone = `the project folder ${root} no longer exists (moved or deleted)`;
    expect(() => walk(root)).toThrow(gone);
    await expect(walkProjectInParallel(root, { maxFileSize: 1 << 20, extraExcludes: [] }, { workers: 1 })).rejects.toThrow(gone);
  });

  test("a NUL byte in the first 8 KB marks a file binary; later ones do not", () => {
    const head = new Uint8Array(100);
    head[50] = 0;
    expect(looksBinary(head)).toBe(true);
    const late = new Uint8Array(9000).fill(65);
    late[8500] = 0;
    expect(looksBinary(late)).toBe(false);
  });

  test("planIndex lists languages with bytes and every exclusion with its reason", () => {
    p = tmpProject({
      ".gitignore": "out/\n",
      "main.go": "package main\n",
      "util.go": "package main\n\nfunc f() {}\n",
      "README.md": "# hi\n",
      "logo.png": new Uint8Array([137, 80, 78, 71, 0, 0, 1]),
      // "hi\n" in UTF-16LE with its byte-order mark
      "notes.txt": new Uint8Array([0xff, 0xfe, 0x68, 0, 0x69, 0, 0x0a, 0]),
      "out/gen.go": "package gen\n",
    });
    mkdirSync(join(p.root, "empty"));
    const plan = planIndex(p.root);
    // UTF-16 with its byte-order mark is text (its NULs are the high bytes of ASCII characters)
    expect(plan.files).toBe(5);
    expect(plan.excluded.entries.find((e) => e.path === "notes.txt")).toBeUndefined();
    expect(plan.excluded.entries.find((e) => e.path === "logo.png")).toMatchObject({ reason: "binary", detail: "NUL byte in the first 8 KB" });
    const go = plan.languages.find((l) => l.language === "go")!;
    expect(go).toEqual({ language: "go", files: 2, bytes: 13 + 26, parsed: true });
    expect(plan.languages.find((l) => l.language === "markdown")).toEqual({ language: "markdown", files: 1, bytes: 5, parsed: false });
    expect(plan.excluded.byReason).toEqual({ ignored: 1, binary: 1 });
    expect(plan.excluded.entries.find((e) => e.path === "out")).toMatchObject({ reason: "ignored", isDir: true, detail: ".gitignore:1: out/" });
  });
});

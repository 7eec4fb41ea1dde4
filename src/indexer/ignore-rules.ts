/**
 * Git-compatible ignore rules: .gitignore files at every level (negation, anchoring, directory-only
 * rules, case as the repository's core.ignorecase says), .git/info/exclude, the user's own ignore file
 * (core.excludesFile), .cortexignore (same syntax, read after .gitignore so it can override it), the
 * config's extra excludes, and a few built-in rules for dependency and tool folders. Deeper files
 * override shallower ones, as in git. Each rule remembers its file and line so a dry run can say why.
 */
import ignore, { type Ignore, type TestResult } from "ignore";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { commonGitDir, gitDir } from "./git-head.ts";
import { IgnoreSieve } from "./ignore-sieve.ts";
import { excludesFile, GitSettings } from "./git-config.ts";
import { readIndexPaths, TrackedPaths } from "./git-index.ts";

/** Folders no one wants indexed; a .cortexignore or .gitignore `!rule` can bring one back. */
export const BUILTIN_EXCLUDES = [
  // the folder, and the file a submodule or worktree has in its place (`gitdir: …`), which git never tracks
  ".git",
  ".hg/",
  ".svn/",
  ".cortex/",
  "node_modules/",
  "__pycache__/",
  ".venv/",
  ".tox/",
  ".mypy_cache/",
  ".pytest_cache/",
  ".ruff_cache/",
  ".gradle/",
  ".idea/",
  ".DS_Store",
];

interface Layer {
  /** Directory the rules are relative to ("" for the root). */
  base: string;
  /** The rule set's verdict on one path by the path alone (ownTest). */
  test: (path: string) => TestResult;
  /** Rules out the paths none of the rules can decide, before `test` runs (undefined: test all). */
  sieve: IgnoreSieve | undefined;
}

/** Rules of a folder above the project root (inside the same git repository). */
interface OuterLayer {
  /** The project root's path relative to the folder the rules belong to ("a/b"). */
  prefix: string;
  rules: Ignore;
}

export interface IgnoreVerdict {
  ignored: boolean;
  /** `<file>:<line>: <pattern>` of the deciding rule when ignored. */
  rule?: string;
  /**
   * Git tracks the path (a file), or files under it (a folder), though a git ignore rule matches it:
   * git ignores untracked files only, so the walk keeps the file, and the tracked files of the folder.
   */
  tracked?: boolean;
}

/**
 * Whether a rule is cortex's own (built in, the config's excludes, a .cortexignore), which holds for
 * tracked files too, rather than git's (.gitignore, info/exclude, the user's excludes file).
 */
const isCortexRule = (mark: string): boolean =>
  mark.startsWith("built-in rule: ") || mark.startsWith(".cortex/config.yml ") || /(?:^|\/)\.cortexignore:\d+: /.test(mark);

function rulesFrom(text: string, source: string): Array<{ pattern: string; mark: string }> {
  const out: Array<{ pattern: string; mark: string }> = [];
  // a byte-order mark before the first line is not part of it (as git reads it)
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.trim() === "" || l.startsWith("#")) continue;
    out.push({ pattern: l, mark: `${source}:${i + 1}: ${l.trim()}` });
  }
  return out;
}

function readRules(abs: string, label: string): Array<{ pattern: string; mark: string }> {
  if (!existsSync(abs)) return [];
  try {
    return rulesFrom(readFileSync(abs, "utf8"), label);
  } catch {
    return [];
  }
}

/**
 * One rule set's verdict on a path by the rules that match the path itself, not the folders above it. Git
 * decides a folder before it looks inside, and the walk never asks about a path under an ignored folder;
 * but a folder that one ignore file leaves out and a deeper one brings back (`build/` at the top,
 * `!build/` in pkg/.gitignore) is entered, and git then decides each path in it by the rules that match
 * that path. The package's `test` answers for the folders above as well, so the top file left out every
 * file under pkg/build that git keeps. Its rule list's own test (ignore 7.0.16, pinned in package.json)
 * answers for the path alone; should a later version not have it, the public test (the old behaviour).
 */
function ownTest(rules: Ignore): (path: string) => TestResult {
  const own = (rules as unknown as { _rules?: { test?: (path: string, mode: string) => TestResult } })._rules;
  return typeof own?.test === "function" ? (path) => own.test!(path, "regex") : (path) => rules.test(path);
}

/** File systems that ignore case by default (APFS, NTFS): where git init sets core.ignorecase. */
const PLATFORM_IGNORES_CASE = process.platform === "darwin" || process.platform === "win32";

/**
 * Whether a repository's ignore rules match names whatever their case: its core.ignorecase, which git
 * init and clone set to true on a file system that ignores case and leave out elsewhere (false). The
 * `ignore` package ignores case unless told: the Linux kernel's `*.s` (generated assembly) then left out
 * its 1,331 `.S` sources, which git keeps.
 */
function ignoresCase(settings: GitSettings): boolean {
  return settings.bool("core", "ignoreCase") ?? false;
}

/** The user's own ignore file for a repository (core.excludesFile), as rules marked with its path. */
function userExcludes(settings: GitSettings, worktreeTop: string): Array<{ pattern: string; mark: string }> {
  const file = excludesFile(settings, worktreeTop);
  return file === undefined ? [] : readRules(file, file);
}

export interface IgnoreStackOptions {
  /** Sieve paths before the package's test (default true; false: the package tests every path, as the tests' reference). */
  sieve?: boolean;
}

export class IgnoreStack {
  private readonly layers: Layer[] = [];
  private readonly outer: OuterLayer[] = [];
  private readonly root: string;
  private readonly sieved: boolean;
  /** Whether patterns match names whatever their case, as the repository's git does (ignoresCase). */
  private ignoreCase: boolean;
  /** The repository around the root (its git directory, the root's path inside it), whose index says what git tracks. */
  private repository: { gitDir: string; prefix: string; objectFormat: "sha1" | "sha256" } | undefined;
  /** Read on the first path a git rule ignores (most walks meet none that git tracks). */
  private trackedPaths: TrackedPaths | null | undefined;

  constructor(root: string, extraExcludes: string[], options: IgnoreStackOptions = {}) {
    this.root = root;
    this.sieved = options.sieve ?? true;
    const own = gitDir(root);
    // git's settings, read once for both the walk needs
    const settings = own ? GitSettings.read(own) : undefined;
    if (own && settings) this.repository = { gitDir: own, prefix: "", objectFormat: objectFormatOf(settings) };
    this.ignoreCase = settings ? ignoresCase(settings) : PLATFORM_IGNORES_CASE; // a repository above: readOuterRules
    const rules = [
      ...BUILTIN_EXCLUDES.map((p) => ({ pattern: p, mark: `built-in rule: ${p}` })),
      ...extraExcludes.map((p, i) => ({ pattern: p, mark: `.cortex/config.yml index.exclude[${i}]: ${p}` })),
      // git's order, a later rule winning: the user's ignore file, info/exclude, then .gitignore files
      ...(settings ? userExcludes(settings, root) : []),
      ...(own ? readRules(join(commonGitDir(own), "info", "exclude"), ".git/info/exclude") : []),
      ...readRules(join(root, ".gitignore"), ".gitignore"),
      ...readRules(join(root, ".cortexignore"), ".cortexignore"),
    ];
    if (!own) this.readOuterRules();
    this.layers.push(this.layer("", rules));
  }

  private layer(base: string, rules: Array<{ pattern: string; mark: string }>): Layer {
    const sieve = this.sieved ? IgnoreSieve.of(rules.map((r) => r.pattern)) : undefined;
    return { base, test: ownTest(this.rulesOf(rules)), sieve };
  }

  private rulesOf(rules: Array<{ pattern: string; mark: string }>): Ignore {
    return ignore({ ignorecase: this.ignoreCase }).add(rules);
  }

  /**
   * A project root inside a git repository (a folder of a monorepo) obeys the repository's ignore rules
   * above it too, as git does: info/exclude and every .gitignore from the repository's top down.
   */
  private readOuterRules(): void {
    const chain: string[] = [];
    let dir = this.root;
    for (;;) {
      const parent = dirname(dir);
      if (parent === dir) return; // no repository above
      chain.unshift(basename(dir));
      dir = parent;
      const g = gitDir(dir);
      if (!g) continue;
      // `dir` is the repository's top; walk down to the root's parent
      const settings = GitSettings.read(g);
      this.repository = { gitDir: g, prefix: `${chain.join("/")}/`, objectFormat: objectFormatOf(settings) };
      this.ignoreCase = ignoresCase(settings);
      const user = userExcludes(settings, dir);
      if (user.length) this.outer.push({ prefix: chain.join("/"), rules: this.rulesOf(user) });
      const exclude = readRules(join(commonGitDir(g), "info", "exclude"), `${dir}/.git/info/exclude`);
      if (exclude.length) this.outer.push({ prefix: chain.join("/"), rules: this.rulesOf(exclude) });
      let at = dir;
      for (let i = 0; i < chain.length; i++) {
        const rules = readRules(join(at, ".gitignore"), `${join(at, ".gitignore")}`);
        if (rules.length) this.outer.push({ prefix: chain.slice(i).join("/"), rules: this.rulesOf(rules) });
        at = join(at, chain[i]!);
      }
      return;
    }
  }

  /** Reads the ignore files of a directory being entered (not the root, which the constructor read). */
  enter(dirRel: string, names?: ReadonlySet<string>): void {
    if (dirRel === "") return;
    // `names`: the directory's entries, as the walk has just read them; with them, a folder without ignore
    // files costs no look-up (two a folder: 60 ms of the kernel's no-op)
    const read = (file: string) => (names === undefined || names.has(file) ? readRules(join(this.root, dirRel, file), `${dirRel}/${file}`) : []);
    // a repository inside the project (nested, or a submodule: `.git` a folder or a file) keeps its own
    // user ignore file and info/exclude, below its .gitignore files, as git run inside it does
    const nested = names === undefined || names.has(".git") ? this.nestedRepositoryRules(dirRel) : [];
    const rules = [...nested, ...read(".gitignore"), ...read(".cortexignore")];
    if (rules.length > 0) this.layers.push(this.layer(dirRel, rules));
  }

  /** The user's ignore file and info/exclude of a repository whose top is `dirRel`, if it is one. */
  private nestedRepositoryRules(dirRel: string): Array<{ pattern: string; mark: string }> {
    const top = join(this.root, dirRel);
    const g = gitDir(top);
    if (!g) return [];
    return [...userExcludes(GitSettings.read(g), top), ...readRules(join(commonGitDir(g), "info", "exclude"), `${dirRel}/.git/info/exclude`)];
  }

  /** Drops the layers of directories the walk has left. */
  leave(dirRel: string): void {
    while (this.layers.length > 1 && this.layers[this.layers.length - 1]!.base === dirRel) this.layers.pop();
  }

  /** Decides one path (root-relative); the walk never asks about a path under an ignored directory. */
  check(rel: string, isDir: boolean): IgnoreVerdict {
    let verdict: IgnoreVerdict = { ignored: false };
    for (const o of this.outer) {
      const r = o.rules.test(`${o.prefix}/${rel}${isDir ? "/" : ""}`);
      if (r.ignored) verdict = { ignored: true, rule: r.rule?.mark ?? r.rule?.pattern ?? "ignore rule" };
      else if (r.unignored) verdict = { ignored: false };
    }
    for (const layer of this.layers) {
      let sub: string;
      if (layer.base === "") sub = rel;
      else if (rel.startsWith(layer.base + "/")) sub = rel.slice(layer.base.length + 1);
      else continue;
      if (layer.sieve?.mayMatch(sub) === false) continue;
      const r = layer.test(isDir ? sub + "/" : sub);
      if (r.ignored) verdict = { ignored: true, rule: r.rule?.mark ?? r.rule?.pattern ?? "ignore rule" };
      else if (r.unignored) verdict = { ignored: false };
    }
    if (verdict.ignored && !isCortexRule(verdict.rule!)) {
      const tracked = this.tracked();
      if (tracked && (isDir ? tracked.holds(rel) : tracked.hasFile(rel))) verdict.tracked = true;
    }
    return verdict;
  }

  /** What the repository's index tracks, read once; null without a repository or a readable index. */
  tracked(): TrackedPaths | null {
    if (this.trackedPaths === undefined) {
      this.trackedPaths = null;
      const repo = this.repository;
      if (repo) {
        try {
          const paths = readIndexPaths(repo.gitDir, repo.objectFormat);
          if (paths) this.trackedPaths = new TrackedPaths(paths, repo.prefix);
        } catch {
          // an index this reader cannot read (a future version): ignore rules as they stand, as before
        }
      }
    }
    return this.trackedPaths;
  }
}

/** The repository's object id format (extensions.objectFormat): the index holds ids of its size. */
function objectFormatOf(settings: GitSettings): "sha1" | "sha256" {
  return settings.value("extensions", "objectFormat")?.toLowerCase() === "sha256" ? "sha256" : "sha1";
}

/**
 * Git-compatible ignore rules: .gitignore files at every level (negation, anchoring, directory-only
 * rules), .git/info/exclude, .cortexignore (same syntax, read after .gitignore so it can override it),
 * the config's extra excludes, and a few built-in rules for dependency and tool folders. Deeper files
 * override shallower ones, as in git. Each rule remembers its file and line so a dry run can say why.
 */
import ignore, { type Ignore } from "ignore";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { commonGitDir, gitDir } from "./git-head.ts";

/** Folders no one wants indexed; a .cortexignore or .gitignore `!rule` can bring one back. */
export const BUILTIN_EXCLUDES = [
  ".git/",
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
  rules: Ignore;
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
}

function rulesFrom(text: string, source: string): Array<{ pattern: string; mark: string }> {
  const out: Array<{ pattern: string; mark: string }> = [];
  const lines = text.split(/\r?\n/);
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

export class IgnoreStack {
  private readonly layers: Layer[] = [];
  private readonly outer: OuterLayer[] = [];
  private readonly root: string;

  constructor(root: string, extraExcludes: string[]) {
    this.root = root;
    const ig = ignore();
    ig.add(BUILTIN_EXCLUDES.map((p) => ({ pattern: p, mark: `built-in rule: ${p}` })));
    ig.add(extraExcludes.map((p, i) => ({ pattern: p, mark: `.cortex/config.yml index.exclude[${i}]: ${p}` })));
    const own = gitDir(root);
    if (own) ig.add(readRules(join(commonGitDir(own), "info", "exclude"), ".git/info/exclude"));
    else this.readOuterRules();
    ig.add(readRules(join(root, ".gitignore"), ".gitignore"));
    ig.add(readRules(join(root, ".cortexignore"), ".cortexignore"));
    this.layers.push({ base: "", rules: ig });
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
      const exclude = readRules(join(commonGitDir(g), "info", "exclude"), `${dir}/.git/info/exclude`);
      if (exclude.length) this.outer.push({ prefix: chain.join("/"), rules: ignore().add(exclude) });
      let at = dir;
      for (let i = 0; i < chain.length; i++) {
        const rules = readRules(join(at, ".gitignore"), `${join(at, ".gitignore")}`);
        if (rules.length) this.outer.push({ prefix: chain.slice(i).join("/"), rules: ignore().add(rules) });
        at = join(at, chain[i]!);
      }
      return;
    }
  }

  /** Reads the ignore files of a directory being entered (not the root, which the constructor read). */
  enter(dirRel: string): void {
    if (dirRel === "") return;
    const rules = [
      ...readRules(join(this.root, dirRel, ".gitignore"), `${dirRel}/.gitignore`),
      ...readRules(join(this.root, dirRel, ".cortexignore"), `${dirRel}/.cortexignore`),
    ];
    if (rules.length > 0) this.layers.push({ base: dirRel, rules: ignore().add(rules) });
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
      const r = layer.rules.test(isDir ? sub + "/" : sub);
      if (r.ignored) verdict = { ignored: true, rule: r.rule?.mark ?? r.rule?.pattern ?? "ignore rule" };
      else if (r.unignored) verdict = { ignored: false };
    }
    return verdict;
  }
}

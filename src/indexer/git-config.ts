/**
 * The few git settings the walk follows (core.ignorecase, core.excludesFile), read from the files git
 * reads, in its order, a later file winning: the system file (/etc/gitconfig, unless GIT_CONFIG_NOSYSTEM),
 * the user's (GIT_CONFIG_GLOBAL, else $XDG_CONFIG_HOME/git/config or ~/.config/git/config, then
 * ~/.gitconfig), then the repository's own, each with the files its `[include]` sections name and those of
 * its `[includeIf]` sections whose condition holds for the repository (`gitdir:`, `gitdir/i:`, `onbranch:`,
 * `hasconfig:remote.*.url:`). Plain `key = value` lines only.
 */
import { readFileSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { commonGitDir, readHead } from "./git-head.ts";

/** The configuration files git reads for a repository (its git folder), those that exist or not. */
function configFiles(repoGitDir: string | undefined): string[] {
  const files: string[] = [];
  if (!truthy(process.env.GIT_CONFIG_NOSYSTEM)) files.push("/etc/gitconfig");
  if (process.env.GIT_CONFIG_GLOBAL !== undefined) files.push(process.env.GIT_CONFIG_GLOBAL);
  else files.push(join(xdgConfigHome(), "git", "config"), join(homedir(), ".gitconfig"));
  if (repoGitDir !== undefined) files.push(join(commonGitDir(repoGitDir), "config"));
  return files;
}

function xdgConfigHome(): string {
  const xdg = process.env.XDG_CONFIG_HOME;
  return xdg ? xdg : join(homedir(), ".config");
}

/** git's words for true and false. */
const TRUE = ["true", "yes", "on", "1"];
const FALSE = ["false", "no", "off", "0", ""];

function truthy(v: string | undefined): boolean {
  return v !== undefined && TRUE.includes(v.trim().toLowerCase());
}

/**
 * Every `section.key` (lower case) the files git reads for a repository set, each with the value git would
 * use (the last one set), read in one pass over the files and their includes.
 */
export class GitSettings {
  private constructor(private readonly values: ReadonlyMap<string, string>) {}

  static read(repoGitDir: string | undefined): GitSettings {
    const values = new Map<string, string>();
    visitSettings(
      repoGitDir,
      (s, _sub, k, value) => values.set(`${s}.${k}`, value),
      repoGitDir === undefined ? undefined : new RepositoryConditions(repoGitDir),
    );
    return new GitSettings(values);
  }

  /** The value of `section.key` (both ignore case), or undefined when no file sets it. */
  value(section: string, key: string): string | undefined {
    return this.values.get(`${section.toLowerCase()}.${key.toLowerCase()}`);
  }

  /** A boolean setting (true, yes, on, 1 and their opposites); undefined when unset or unreadable. */
  bool(section: string, key: string): boolean | undefined {
    const v = this.value(section, key)?.toLowerCase();
    if (v === undefined) return undefined;
    if (TRUE.includes(v)) return true;
    if (FALSE.includes(v)) return false;
    return undefined;
  }
}

/** The value git would use for `section.key` (both ignore case), or undefined when no file sets it. */
export function gitConfigValue(repoGitDir: string | undefined, section: string, key: string): string | undefined {
  return GitSettings.read(repoGitDir).value(section, key);
}

/** Called for each `key = value` line a config file sets: section (lower case), subsection, key (lower case), value. */
type ConfigVisitor = (section: string, subsection: string, key: string, value: string) => void;

/**
 * What an `[includeIf "…"]` condition is tested against: the repository's git folder (as given, and as its
 * real path, as git tries both), its checked-out branch and its remotes' URLs, each read once and only
 * when a condition asks.
 */
class RepositoryConditions {
  private branchRead = false;
  private branchName: string | undefined;
  private remoteUrls: string[] | undefined;

  /** `withRemotes` false: hasconfig conditions do not hold (while the remotes themselves are read, as git). */
  constructor(
    private readonly gitDir: string,
    private readonly withRemotes = true,
  ) {}

  /** Whether `[includeIf "<condition>"]` in `file` includes: git's include_by_gitdir and include_by_branch. */
  holds(condition: string, file: string): boolean {
    const colon = condition.indexOf(":");
    if (colon < 0) return false;
    const kind = condition.slice(0, colon);
    const pattern = condition.slice(colon + 1);
    if (kind === "gitdir" || kind === "gitdir/i") return this.gitDirMatches(pattern, file, kind === "gitdir/i");
    if (kind === "onbranch") {
      const branch = this.branch();
      return branch !== undefined && pattern !== "" && globMatches(withTrailingStars(pattern), branch, false);
    }
    if (kind === "hasconfig" && pattern.startsWith("remote.*.url:") && this.withRemotes) {
      // matched as written: git adds no `**` after a trailing slash here
      const url = pattern.slice("remote.*.url:".length);
      return url !== "" && this.remotes().some((u) => globMatches(url, u, false));
    }
    return false;
  }

  /**
   * Every remote.<name>.url the repository's configuration sets, read through the same files and includes
   * with no hasconfig condition holding (git forbids a file such a condition includes to set remotes).
   */
  private remotes(): string[] {
    if (this.remoteUrls === undefined) {
      const urls: string[] = [];
      visitSettings(
        this.gitDir,
        (section, _sub, key, value) => {
          if (section === "remote" && key === "url") urls.push(value);
        },
        new RepositoryConditions(this.gitDir, false),
      );
      this.remoteUrls = urls;
    }
    return this.remoteUrls;
  }

  private gitDirMatches(raw: string, file: string, caseless: boolean): boolean {
    if (raw === "") return false;
    // `~` expanded as git does; a pattern naming an unknown user matches nothing (git reports an error)
    const expanded = expandUserPath(raw);
    if (expanded === undefined) return false;
    // expansion drops a trailing slash, which means "everything below" here
    let pattern = raw.endsWith("/") && !expanded.endsWith("/") ? `${expanded}/` : expanded;
    // relative to the folder of the file that holds the condition (join keeps a trailing slash)
    if (pattern.startsWith("./")) pattern = join(dirname(realPath(file)), pattern.slice(2));
    else if (!pattern.startsWith("/")) pattern = `**/${pattern}`;
    pattern = withTrailingStars(pattern);
    const absolute = resolve(this.gitDir);
    for (const text of new Set([realPath(absolute), absolute])) if (globMatches(pattern, text, caseless)) return true;
    return false;
  }

  /** The checked-out branch (HEAD naming refs/heads/…); undefined on a detached HEAD, as git has it. */
  private branch(): string | undefined {
    if (!this.branchRead) {
      this.branchRead = true;
      const head = readHead(this.gitDir);
      this.branchName = head && "ref" in head && head.ref.startsWith("refs/heads/") ? head.ref.slice("refs/heads/".length) : undefined;
    }
    return this.branchName;
  }
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** git's rule for a pattern ending in a slash: everything under that folder. */
function withTrailingStars(pattern: string): string {
  return pattern.endsWith("/") ? `${pattern}**` : pattern;
}

/**
 * git's wildmatch with WM_PATHNAME, through Bun.Glob: `*` and `?` stay inside one path segment, `**` crosses
 * them, `[…]` is a class. Braces and a leading `!` are plain characters to git and are escaped here.
 */
function globMatches(pattern: string, text: string, caseless: boolean): boolean {
  const escaped = pattern.replace(/[{}]/g, "\\$&").replace(/^!/, "\\!");
  return caseless ? new Bun.Glob(escaped.toLowerCase()).match(text.toLowerCase()) : new Bun.Glob(escaped).match(text);
}

/** Visits every setting of the files git reads for a repository, in its order, includes where they stand. */
function visitSettings(repoGitDir: string | undefined, visit: ConfigVisitor, repo: RepositoryConditions | undefined): void {
  for (const file of configFiles(repoGitDir)) readConfig(file, visit, 0, repo);
}

/** Includes inside includes, at most (git stops at 10 too). */
const MAX_INCLUDE_DEPTH = 10;

/**
 * Visits one file's settings in order, and those of the files its `[include] path = …` lines name and its
 * `[includeIf "…"] path = …` lines whose condition holds for `repo`, where they stand (a relative path is
 * the including file's folder's, a leading `~/` or `~user/` that home folder). Without a repository no conditional
 * include is followed, as git outside one.
 */
function readConfig(file: string, visit: ConfigVisitor, depth: number, repo: RepositoryConditions | undefined): void {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return;
  }
  let current = "";
  let subsection = "";
  for (const line of text.split(/\r?\n/)) {
    // [section] or [section "subsection"] (in the subsection, \" and \\ stand for " and \)
    const header = /^\s*\[\s*([^\]\s"]+)(?:\s+"((?:[^"\\]|\\.)*)")?/.exec(line);
    if (header) {
      current = header[1]!.toLowerCase();
      subsection = (header[2] ?? "").replace(/\\(.)/g, "$1");
    }
    const m = /^\s*(?:\[[^\]]*\]\s*)?([A-Za-z][\w-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!m) continue;
    const name = m[1]!.toLowerCase();
    const value = m[2] === undefined ? "true" : unquote(m[2]);
    const including = name === "path" && depth < MAX_INCLUDE_DEPTH && m[2] !== undefined;
    if (including && (current === "include" || (current === "includeif" && repo?.holds(subsection, file)))) {
      // an include naming an unknown user's home is skipped (git reports "could not expand include path")
      const target = value.startsWith("~") ? expandUserPath(value) : resolve(dirname(file), value);
      if (target !== undefined) readConfig(target, visit, depth + 1, repo);
    } else if (current !== "" && current !== "include" && current !== "includeif") visit(current, subsection, name, value);
  }
}

/** A value as git reads it: double quotes removed, a `#` or `;` outside them ends it, spaces trimmed. */
function unquote(raw: string): string {
  let out = "";
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '"') quoted = !quoted;
    else if (c === "\\" && i + 1 < raw.length) out += { n: "\n", t: "\t", b: "\b" }[raw[++i]!] ?? raw[i];
    else if (!quoted && (c === "#" || c === ";")) break;
    else out += c;
  }
  return out.trim();
}

/** A boolean setting (true, yes, on, 1 and their opposites); undefined when unset or unreadable. */
export function gitConfigBool(repoGitDir: string | undefined, section: string, key: string): boolean | undefined {
  return GitSettings.read(repoGitDir).bool(section, key);
}

/**
 * The user's ignore file for a repository: core.excludesFile (a leading `~/` or `~user/` is that home
 * folder, a relative path the worktree top's when given), else $XDG_CONFIG_HOME/git/ignore or
 * ~/.config/git/ignore, as git reads it. Undefined when the setting names a user the system does not
 * know (git stops there with "failed to expand user dir").
 */
export function excludesFile(settings: GitSettings | string, worktreeTop?: string): string | undefined {
  const set = (typeof settings === "string" ? GitSettings.read(settings) : settings).value("core", "excludesFile");
  if (set?.startsWith("~")) return expandUserPath(set);
  // a relative path is the worktree top's, where git runs its commands from whatever folder it was started in
  if (set) return worktreeTop === undefined ? set : resolve(worktreeTop, set);
  return join(xdgConfigHome(), "git", "ignore");
}

/**
 * A path with git's leading `~` expanded (interpolate_path): `~` and `~/…` the current user's home, `~name`
 * and `~name/…` that user's home from the password file. Undefined when that user is unknown; a path
 * without a leading `~` as it is.
 */
export function expandUserPath(path: string): string | undefined {
  if (!path.startsWith("~")) return path;
  const slash = path.indexOf("/");
  const user = slash < 0 ? path.slice(1) : path.slice(1, slash);
  const rest = slash < 0 ? "" : path.slice(slash + 1);
  const home = user === "" ? homedir() : homeOf(user);
  return home === undefined ? undefined : join(home, rest);
}

/** A user's home folder from /etc/passwd (name:password:uid:gid:gecos:home:shell), undefined if not listed. */
function homeOf(user: string): string | undefined {
  let passwd: string;
  try {
    passwd = readFileSync("/etc/passwd", "utf8");
  } catch {
    return undefined;
  }
  for (const line of passwd.split("\n")) {
    const fields = line.split(":");
    if (fields[0] === user && fields.length >= 7) return fields[5];
  }
  return undefined;
}

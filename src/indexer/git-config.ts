/**
 * The few git settings the walk follows (core.ignorecase, core.excludesFile), read from the files git
 * reads, in its order, a later file winning: the system file (/etc/gitconfig, unless GIT_CONFIG_NOSYSTEM),
 * the user's (GIT_CONFIG_GLOBAL, else $XDG_CONFIG_HOME/git/config or ~/.config/git/config, then
 * ~/.gitconfig), then the repository's own, each with the files its `[include]` sections name. Plain
 * `key = value` lines only; conditional includes (`[includeIf]`) are not followed.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { commonGitDir } from "./git-head.ts";

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

/** The value git would use for `section.key` (both ignore case), or undefined when no file sets it. */
export function gitConfigValue(repoGitDir: string | undefined, section: string, key: string): string | undefined {
  const found: { value?: string } = {};
  for (const file of configFiles(repoGitDir)) readConfig(file, section.toLowerCase(), key.toLowerCase(), found, 0);
  return found.value;
}

/** Includes inside includes, at most (git stops at 10 too). */
const MAX_INCLUDE_DEPTH = 10;

/**
 * Reads one file's settings of `section.key` into `found`, a later one winning, and the files its
 * `[include] path = …` lines name, where they stand (a relative path is the including file's folder's, a
 * leading `~/` the home folder). Conditional includes (`[includeIf "…"]`) are not followed.
 */
function readConfig(file: string, section: string, key: string, found: { value?: string }, depth: number): void {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return;
  }
  let current = "";
  for (const line of text.split(/\r?\n/)) {
    const header = /^\s*\[\s*([^\]\s"]+)/.exec(line);
    if (header) current = header[1]!.toLowerCase();
    if (current !== section && current !== "include") continue;
    const m = /^\s*(?:\[[^\]]*\]\s*)?([A-Za-z][\w-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!m) continue;
    const name = m[1]!.toLowerCase();
    const value = m[2] === undefined ? "true" : unquote(m[2]);
    if (current === "include" && name === "path" && depth < MAX_INCLUDE_DEPTH && m[2] !== undefined) {
      const target = value.startsWith("~/") ? join(homedir(), value.slice(2)) : resolve(dirname(file), value);
      readConfig(target, section, key, found, depth + 1);
    } else if (current === section && name === key) found.value = value;
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
  const v = gitConfigValue(repoGitDir, section, key)?.toLowerCase();
  if (v === undefined) return undefined;
  if (TRUE.includes(v)) return true;
  if (FALSE.includes(v)) return false;
  return undefined;
}

/**
 * The user's ignore file for a repository: core.excludesFile (a leading `~/` is the home folder), else
 * $XDG_CONFIG_HOME/git/ignore or ~/.config/git/ignore, as git reads it.
 */
export function excludesFile(repoGitDir: string): string {
  const set = gitConfigValue(repoGitDir, "core", "excludesFile");
  if (set) return set.startsWith("~/") ? join(homedir(), set.slice(2)) : set;
  return join(xdgConfigHome(), "git", "ignore");
}

import { afterEach, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { excludesFile, expandUserPath, gitConfigBool, gitConfigValue } from "../../src/indexer/git-config.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";

let p: TmpProject;
const saved = { global: process.env.GIT_CONFIG_GLOBAL, xdg: process.env.XDG_CONFIG_HOME, nosystem: process.env.GIT_CONFIG_NOSYSTEM };
const restore = (name: string, value: string | undefined) => {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
};
afterEach(() => {
  p?.cleanup();
  restore("GIT_CONFIG_GLOBAL", saved.global);
  restore("XDG_CONFIG_HOME", saved.xdg);
  restore("GIT_CONFIG_NOSYSTEM", saved.nosystem);
});

test("a setting is read as git reads it: sections and keys in any case, quotes, comments, a bare key is true", () => {
  p = tmpProject({
    ".git/config": [
      '[remote "origin"]',
      "\tignorecase = false",
      "[Core]",
      '\tIgnoreCase = "tr"ue ; a comment',
      '\texcludesfile = "/a path/with # inside" # and a comment',
      "[core] bare",
    ].join("\n"),
  });
  const git = join(p.root, ".git");
  expect(gitConfigValue(git, "core", "ignoreCase")).toBe("true");
  expect(gitConfigBool(git, "core", "ignorecase")).toBe(true);
  expect(gitConfigBool(git, "core", "bare")).toBe(true);
  expect(excludesFile(git)).toBe("/a path/with # inside");
  expect(gitConfigValue(git, "core", "missing")).toBeUndefined();
});

test("a later file wins: the repository's over the user's; the user's file is GIT_CONFIG_GLOBAL's", () => {
  p = tmpProject({
    "user.gitconfig": "[core]\n\tignorecase = true\n\texcludesFile = ~/my-ignore\n",
    "repo/.git/config": "[core]\n\tignorecase = no\n",
    "other/.git/config": "[core]\n\trepositoryformatversion = 0\n",
  });
  process.env.GIT_CONFIG_GLOBAL = join(p.root, "user.gitconfig");
  expect(gitConfigBool(join(p.root, "repo", ".git"), "core", "ignorecase")).toBe(false);
  expect(gitConfigBool(join(p.root, "other", ".git"), "core", "ignorecase")).toBe(true);
  expect(excludesFile(join(p.root, "other", ".git"))).toBe(join(homedir(), "my-ignore"));
});

test("with no core.excludesFile the user's ignore file is $XDG_CONFIG_HOME/git/ignore", () => {
  p = tmpProject({ ".git/config": "[core]\n\tbare = false\n" });
  process.env.XDG_CONFIG_HOME = join(p.root, "xdg");
  expect(excludesFile(join(p.root, ".git"))).toBe(join(p.root, "xdg", "git", "ignore"));
});

test("[include] path = … is read where it stands, relative to the including file, so a later line still wins", () => {
  p = tmpProject({
    "user.gitconfig": "[core]\n\texcludesFile = /first\n[include]\n\tpath = more/extra.gitconfig\n[user]\n\tname = x\n",
    "more/extra.gitconfig": "[core]\n\texcludesFile = /from-include\n\tignorecase = true\n[include]\n\tpath = loop.gitconfig\n",
    "more/loop.gitconfig": "[include]\n\tpath = extra.gitconfig\n",
    "repo/.git/config": "[core]\n\tbare = false\n",
    "last/.git/config": "[include]\n\tpath = ../../user.gitconfig\n[core]\n\texcludesFile = /last\n",
  });
  process.env.GIT_CONFIG_GLOBAL = join(p.root, "user.gitconfig");
  expect(excludesFile(join(p.root, "repo", ".git"))).toBe("/from-include");
  expect(gitConfigBool(join(p.root, "repo", ".git"), "core", "ignorecase")).toBe(true);
  expect(excludesFile(join(p.root, "last", ".git"))).toBe("/last");
});

test("[includeIf] follows git: gitdir (absolute, relative to the file, a bare name, through a symlink, /i), onbranch, hasconfig:remote.*.url", () => {
  p = tmpProject();
  const r = p.root;
  const set = (value: string) => `[core]\n\texcludesFile = /${value}\n`;
  p.write("work.gitconfig", set("work"));
  p.write("case.gitconfig", set("case"));
  p.write("rel.gitconfig", set("rel"));
  p.write("named.gitconfig", set("named"));
  p.write("feature.gitconfig", set("feature"));
  p.write("hasconfig.gitconfig", set("hasconfig"));
  p.write(
    "user.gitconfig",
    [
      set("plain"),
      `[includeIf "gitdir:${r}/work/"]`,
      "\tpath = work.gitconfig",
      `[includeIf "gitdir/i:${r.toUpperCase()}/CASE/"]`,
      "\tpath = case.gitconfig",
      '[includeIf "gitdir:./rel/"]',
      "\tpath = rel.gitconfig",
      '[includeIf "gitdir:named/.git"]',
      "\tpath = named.gitconfig",
      '[includeIf "onbranch:feature/"]',
      "\tpath = feature.gitconfig",
      '[includeIf "hasconfig:remote.*.url:https://example.com/**"]',
      "\tpath = hasconfig.gitconfig",
    ].join("\n"),
  );
  const repos = ["work/a", "case/b", "rel/c", "other/named", "plain/d", "feat/e", "remote/f"];
  const env = { ...process.env, GIT_CONFIG_GLOBAL: join(r, "user.gitconfig"), GIT_CONFIG_NOSYSTEM: "1" };
  for (const repo of repos) Bun.spawnSync(["git", "init", "-q", join(r, repo)], { env });
  Bun.spawnSync(["git", "-C", join(r, "feat/e"), "checkout", "-q", "-b", "feature/x"], { env });
  Bun.spawnSync(["git", "-C", join(r, "remote/f"), "remote", "add", "origin", "https://example.com/x.git"], { env });
  symlinkSync(join(r, "work"), join(r, "link"));
  process.env.GIT_CONFIG_GLOBAL = env.GIT_CONFIG_GLOBAL;
  process.env.GIT_CONFIG_NOSYSTEM = "1";
  const gitSays = (worktree: string) =>
    new TextDecoder().decode(Bun.spawnSync(["git", "-C", worktree, "config", "--get", "core.excludesFile"], { env }).stdout).trim();
  const expected: Record<string, string> = {
    "work/a": "/work",
    "link/a": "/work",
    "case/b": "/case",
    "rel/c": "/rel",
    "other/named": "/named",
    "plain/d": "/plain",
    "feat/e": "/feature",
    "remote/f": "/hasconfig",
  };
  for (const [worktree, value] of Object.entries(expected)) {
    expect(excludesFile(join(r, worktree, ".git"))).toBe(value);
    expect(gitSays(join(r, worktree))).toBe(value);
  }
});

test("a leading ~user/ is that user's home, as git expands it (core.excludesFile, include paths, gitdir patterns)", () => {
  p = tmpProject();
  const r = p.root;
  // this user's name and home as the password file has them (git's getpwnam), not $HOME (tests may move it);
  // Bun's userInfo() may say "unknown" for the name
  const id = (flag: string) => new TextDecoder().decode(Bun.spawnSync(["id", flag]).stdout).trim();
  const passwd = (Bun.spawnSync(["getent", "passwd", id("-u")]).stdout.toString() || "").trim().split(":");
  const me = { username: id("-un"), homedir: passwd[5]! };
  expect(expandUserPath(`~${me.username}`)).toBe(me.homedir);
  p.write("inc.gitconfig", "[core]\n\tignorecase = true\n");
  p.write(
    "user.gitconfig",
    ["[core]", `\texcludesFile = ~${me.username}/ignore-here`, `[includeIf "gitdir:~${me.username}/"]\n\tpath = ${join(r, "inc.gitconfig")}`].join("\n"),
  );
  const env = { ...process.env, GIT_CONFIG_GLOBAL: join(r, "user.gitconfig"), GIT_CONFIG_NOSYSTEM: "1" };
  Bun.spawnSync(["git", "init", "-q", join(r, "repo")], { env });
  process.env.GIT_CONFIG_GLOBAL = env.GIT_CONFIG_GLOBAL;
  process.env.GIT_CONFIG_NOSYSTEM = "1";
  const git = (...args: string[]) => new TextDecoder().decode(Bun.spawnSync(["git", "-C", join(r, "repo"), ...args], { env }).stdout).trim();
  expect(excludesFile(join(r, "repo", ".git"))).toBe(join(me.homedir, "ignore-here"));
  expect(git("config", "--type=path", "--get", "core.excludesFile")).toBe(join(me.homedir, "ignore-here"));
  // the repository is under the home folder only when the temporary folder is: git and we agree either way
  const underHome = join(r, "repo").startsWith(`${me.homedir}/`);
  expect(gitConfigBool(join(r, "repo", ".git"), "core", "ignorecase")).toBe(underHome ? true : undefined);
  expect(git("config", "--type=bool", "--get", "core.ignorecase")).toBe(underHome ? "true" : "");
  // an include naming an unknown user is skipped (git stops with "could not expand include path")
  p.write("user.gitconfig", `[core]\n\texcludesFile = ~${me.username}/ignore-here\n[include]\n\tpath = ~no-such-user-cortex/x.gitconfig\n`);
  expect(excludesFile(join(r, "repo", ".git"))).toBe(join(me.homedir, "ignore-here"));
  expect(expandUserPath("~no-such-user-cortex/x")).toBeUndefined();
  expect(expandUserPath("~/x")).toBe(join(homedir(), "x"));
  expect(expandUserPath("plain/~x")).toBe("plain/~x");
});

/**
 * Reads a bounded slice of a project's git history with the git CLI: for each commit (merges left out),
 * its id, time, subject line and the paths it changed. The history channel (history-hook.ts) stores it,
 * so search can match a question against what past changes were called and the edit preflight can name
 * the files a file is usually changed with. Only commits reachable from HEAD are ever read: a checkout of
 * an older commit sees nothing of what came after it.
 *
 * Only a folder that is itself the top of a git work tree has a history channel (its `.git` is here): a
 * subfolder of a larger repository, or a folder without git (or without the git program), has none, and
 * every other part of the index is the same either way.
 */
import { gitDir } from "./git-head.ts";

export interface HistoryCommit {
  sha: string;
  /** Commit time, seconds since the epoch. */
  time: number;
  subject: string;
  /** Root-relative paths the commit changed (a rename is the old path deleted and the new one added). */
  files: string[];
}

export interface HistorySlice {
  /** The commit HEAD names. */
  head: string;
  /** "full": the newest commits up to the limit; "incremental": those after `since`, which HEAD descends from. */
  mode: "full" | "incremental";
  /** Newest first, as git log lists them. */
  commits: HistoryCommit[];
}

/** Runs git in `root`: its output, or undefined when git is missing or exits with another code than 0. */
async function git(root: string, args: string[]): Promise<Uint8Array | undefined> {
  let proc: ReturnType<typeof Bun.spawn>;
  try {
    proc = Bun.spawn(["git", "-C", root, ...args], {
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
      // the project's own settings stay, but no pager, no prompt, and no replacement objects
      env: { ...process.env, GIT_PAGER: "cat", GIT_TERMINAL_PROMPT: "0", GIT_NO_REPLACE_OBJECTS: "1" },
    });
  } catch {
    return undefined;
  }
  const out = new Uint8Array(await new Response(proc.stdout as ReadableStream).arrayBuffer());
  return (await proc.exited) === 0 ? out : undefined;
}

/** The commit HEAD names in the work tree at `root`, or undefined (no work tree there, no commit yet, no git). */
export async function headCommit(root: string): Promise<string | undefined> {
  if (!gitDir(root)) return undefined;
  const r = await git(root, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]);
  if (!r) return undefined;
  const sha = new TextDecoder().decode(r).trim();
  return /^[0-9a-f]{40,64}$/.test(sha) ? sha : undefined;
}

/**
 * The history to add to what is stored: the commits after `since` when HEAD descends from it (a pull, a
 * commit), else the newest `limit` commits of HEAD (a first run, a branch switch, a rebase: the stored
 * history is replaced). At most `limit` commits either way. Undefined when the folder has no history.
 */
export async function readHistory(root: string, since: string | undefined, limit: number): Promise<HistorySlice | undefined> {
  const head = await headCommit(root);
  if (!head) return undefined;
  if (since === head) return { head, mode: "incremental", commits: [] };
  let range = [head];
  let mode: HistorySlice["mode"] = "full";
  if (since && /^[0-9a-f]{40,64}$/.test(since)) {
    // exit code 0: an ancestor; 1: not one; 128: unknown (a commit gone with a rebase and a gc)
    if (await git(root, ["merge-base", "--is-ancestor", since, head])) {
      range = [head, `^${since}`];
      mode = "incremental";
    }
  }
  // --no-renames: rename detection costs a content comparison per added file, and a rename's old path,
  // listed as deleted, names nothing the index holds; -z: paths as they are, without quoting
  const r = await git(root, ["log", "--no-merges", "--no-renames", "--name-only", "-z", `--max-count=${limit}`, "--format=%x1e%H %ct %s", ...range, "--"]);
  if (!r) return undefined;
  return { head, mode, commits: parseLog(r) };
}

/** Parses `git log --name-only -z --format=%x1e%H %ct %s`: per commit, a header ending in NUL, then NUL-ended paths. */
export function parseLog(out: Uint8Array): HistoryCommit[] {
  const text = new TextDecoder().decode(out);
  const commits: HistoryCommit[] = [];
  for (const record of text.split("\x1e")) {
    if (record === "") continue;
    const end = record.indexOf("\0");
    const header = end < 0 ? record : record.slice(0, end);
    const m = /^([0-9a-f]+) (\d+) ?(.*)$/s.exec(header);
    if (!m) continue;
    const files =
      end < 0
        ? []
        : record
            .slice(end + 1)
            .split("\0")
            .map((p) => p.replace(/^\n/, ""))
            .filter((p) => p !== "");
    commits.push({ sha: m[1]!, time: Number(m[2]), subject: m[3]!.trim(), files });
  }
  return commits;
}

/**
 * Reads the checked-out branch and commit of a worktree from .git without running git (a linked worktree's
 * `.git` is a file naming its git directory). Recorded in the index; never used raw in a path.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

export interface GitHead {
  branch?: string;
  commit?: string;
  /** Path of the HEAD file, for watchers that want to notice a branch switch. */
  headFile?: string;
}

/** The git directory of a worktree root (a linked worktree's `.git` file names it), if any. */
export function gitDir(root: string): string | undefined {
  const dotGit = join(root, ".git");
  if (!existsSync(dotGit)) return undefined;
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, "utf8"));
    return m ? resolve(root, m[1]!.trim()) : undefined;
  } catch {
    return undefined;
  }
}

/** What a git directory's HEAD holds: the ref it names (`refs/heads/main`), or a commit when detached. */
export function readHead(dir: string): { ref: string } | { commit: string } | undefined {
  let head: string;
  try {
    head = readFileSync(join(dir, "HEAD"), "utf8").trim();
  } catch {
    return undefined;
  }
  const ref = /^ref:\s*(.+)$/.exec(head);
  return ref ? { ref: ref[1]! } : { commit: head };
}

export function readGitHead(root: string): GitHead {
  const dir = gitDir(root);
  if (!dir) return {};
  const headFile = join(dir, "HEAD");
  const head = readHead(dir);
  if (!head) return {};
  if ("commit" in head) return { commit: head.commit, headFile };
  const refName = head.ref;
  const branch = refName.replace(/^refs\/heads\//, "");
  let commit: string | undefined;
  // loose ref in this git dir or the common dir (linked worktrees), then packed-refs
  const common = existsSync(join(dir, "commondir")) ? resolve(dir, readFileSync(join(dir, "commondir"), "utf8").trim()) : dir;
  for (const d of [dir, common]) {
    try {
      commit = readFileSync(join(d, refName), "utf8").trim();
      break;
    } catch {}
  }
  if (!commit) {
    try {
      const packed = readFileSync(join(common, "packed-refs"), "utf8");
      const line = packed.split("\n").find((l) => l.endsWith(" " + refName));
      commit = line?.split(" ")[0];
    } catch {}
  }
  const out: GitHead = { branch, headFile };
  if (commit) out.commit = commit;
  return out;
}

/** The common git directory (shared by linked worktrees: info/exclude, packed-refs live there). */
export function commonGitDir(dir: string): string {
  try {
    return existsSync(join(dir, "commondir")) ? resolve(dir, readFileSync(join(dir, "commondir"), "utf8").trim()) : dir;
  } catch {
    return dir;
  }
}

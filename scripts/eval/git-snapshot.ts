/**
 * Reads a commit's files straight from a git directory (bare mirrors included) without a checkout:
 * `git ls-tree -r -z` lists the tree, one `git cat-file --batch` process streams the blobs. A snapshot
 * may lack a few large blobs; those come back as missing instead of failing the run.
 */

export interface TreeEntry {
  path: string;
  /** The blob's object id: equal ids mean equal content, so it doubles as the content hash. */
  blob: string;
  mode: string;
}

/** Runs git with the given arguments in `gitDir` and returns stdout as bytes; throws with stderr on failure. */
export async function git(gitDir: string, args: string[], stdin?: string): Promise<Uint8Array> {
  const proc = Bun.spawn(["git", "--git-dir", gitDir, ...args], { stdin: stdin === undefined ? "ignore" : "pipe", stdout: "pipe", stderr: "pipe" });
  const out = new Response(proc.stdout).arrayBuffer();
  const err = new Response(proc.stderr).text();
  if (stdin !== undefined) {
    const sink = proc.stdin as import("bun").FileSink;
    sink.write(stdin);
    await sink.end();
  }
  const [bytes, stderr, code] = await Promise.all([out, err, proc.exited]);
  if (code !== 0) throw new Error(`git ${args.join(" ")} in ${gitDir} failed (${code}): ${stderr.trim()}`);
  return new Uint8Array(bytes);
}

/** Every file (regular or executable blob) of the commit's tree; symlinks and submodules are left out. */
export async function listTree(gitDir: string, commit: string): Promise<TreeEntry[]> {
  const raw = new TextDecoder().decode(await git(gitDir, ["ls-tree", "-r", "-z", "--full-tree", commit]));
  const entries: TreeEntry[] = [];
  for (const rec of raw.split("\0")) {
    if (rec === "") continue;
    const tab = rec.indexOf("\t");
    const [mode, type, blob] = rec.slice(0, tab).split(" ");
    if (type !== "blob" || (mode !== "100644" && mode !== "100755")) continue;
    entries.push({ path: rec.slice(tab + 1), blob: blob!, mode: mode! });
  }
  return entries;
}

/**
 * The content of each blob, by id. Blobs the git directory does not hold are absent from the result
 * (the caller skips them), so a partial snapshot still yields every file it has.
 */
export async function readBlobs(gitDir: string, blobs: string[]): Promise<Map<string, Uint8Array>> {
  const found = new Map<string, Uint8Array>();
  if (blobs.length === 0) return found;
  const out = await git(gitDir, ["cat-file", "--batch"], blobs.join("\n") + "\n");
  let at = 0;
  while (at < out.length) {
    const nl = out.indexOf(10, at);
    if (nl < 0) break;
    const header = new TextDecoder().decode(out.subarray(at, nl));
    at = nl + 1;
    const [id, type, size] = header.split(" ");
    if (type === "missing" || size === undefined) continue;
    const n = Number(size);
    if (type === "blob") found.set(id!, out.subarray(at, at + n));
    at += n + 1; // content, then a newline
  }
  return found;
}

/**
 * Commit time (seconds since the epoch) of each commit, for putting instances in history order. A commit
 * the git directory lacks is left out of the map (its instance fails later, on its own).
 */
export async function commitTimes(gitDir: string, commits: string[]): Promise<Map<string, number>> {
  const unique = [...new Set(commits)];
  let raw: string;
  try {
    raw = new TextDecoder().decode(await git(gitDir, ["log", "--no-walk=unsorted", "--format=%H %ct", ...unique]));
  } catch {
    // some commit is unknown: ask one by one
    const lines: string[] = [];
    for (const c of unique) {
      try {
        lines.push(new TextDecoder().decode(await git(gitDir, ["log", "-1", "--format=%H %ct", c])).trim());
      } catch {
        // unknown: no time
      }
    }
    raw = lines.join("\n");
  }
  const times = new Map<string, number>();
  for (const line of raw.split("\n")) {
    const [sha, ct] = line.split(" ");
    if (sha && ct) times.set(sha, Number(ct));
  }
  for (const c of unique) {
    const full = [...times.keys()].find((k) => k.startsWith(c));
    if (full !== undefined && full !== c) times.set(c, times.get(full)!);
  }
  return times;
}

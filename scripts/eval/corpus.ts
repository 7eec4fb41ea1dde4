/**
 * The protocol's corpus: every non-test `.py` file of the repository at a base commit (the generated
 * sets use every source file instead: scripts/eval/sets/source-paths.ts). A CorpusFolder
 * holds one repository's corpus as real files in a working folder and moves it from commit to commit
 * by writing only the files whose blob changed and deleting the ones that left, so the indexer that
 * runs over the folder sees what it would see on a developer's machine after a checkout: an
 * incremental change.
 *
 * The folder is also a git repository whose HEAD is that commit, as a developer's checkout is, so cortex's
 * history channel (src/indexer/git-history.ts) reads the project's history up to the commit and never
 * beyond: the repository borrows the mirror's objects (objects/info/alternates) and has no branch, tag
 * or reflog, only a detached HEAD, and every checkout asserts that the commit a question was made from
 * is not reachable from it.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { git, listTree, readBlobs } from "./git-snapshot.ts";
import { isCorpusSource } from "./sets/source-paths.ts";
import { blankRanges } from "./sets/doc-comments.ts";
import type { CorpusKind } from "./dataset.ts";

const TEST_WORDS = new Set(["test", "tests", "testing"]);

/** A path is a test when splitting it on space, `_`, `/` or `.` yields test, tests or testing. */
/**
 * Empties `<work>/cortex-home` and points CORTEX_HOME at it, so a run indexes from nothing and leaves its
 * indexes in its own work folder. Returns the variable's value before, for a caller that restores it.
 */
export function useFreshCortexHome(work: string): string | undefined {
  const home = join(work, "cortex-home");
  rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  const before = process.env.CORTEX_HOME;
  process.env.CORTEX_HOME = home;
  return before;
}

export function isTestPath(path: string): boolean {
  return path.split(/[ _/.]/).some((part) => TEST_WORDS.has(part));
}

export function isCorpusPath(path: string): boolean {
  return path.endsWith(".py") && !isTestPath(path);
}

export interface CorpusFile {
  /** The git blob id: equal ids mean equal content. */
  blob: string;
  text: string;
}

export interface CorpusChange {
  commit: string;
  written: string[];
  deleted: string[];
  unchanged: number;
  /** Corpus files whose blob the git directory lacks (left out of the corpus, as the protocol says). */
  missing: string[];
}

const decoder = new TextDecoder("utf-8", { fatal: false });

export const CORPUS_FILTERS: Record<CorpusKind, (path: string) => boolean> = { "python-non-test": isCorpusPath, source: isCorpusSource };

export interface CorpusOptions {
  /** Which paths of a commit belong to the corpus (default: the SWE-bench protocol's). */
  include?: (path: string) => boolean;
  /**
   * Ranges to blank per path ([start, end) offsets in the decoded text): the docstring set's comments, so
   * the index never holds the text a query was made from. Newlines are kept, so lines do not move.
   */
  strip?: ReadonlyMap<string, ReadonlyArray<readonly [number, number]>>;
  /** Make the folder a git repository at each checked-out commit (default true; see the module comment). */
  git?: boolean;
}

export class CorpusFolder {
  private readonly current = new Map<string, CorpusFile>();
  private readonly include: (path: string) => boolean;
  private readonly strip: ReadonlyMap<string, ReadonlyArray<readonly [number, number]>>;

  /** `root` is emptied first: the folder belongs to the corpus and holds nothing else. */
  constructor(
    readonly root: string,
    private readonly gitDir: string,
    options: CorpusOptions = {},
  ) {
    this.include = options.include ?? isCorpusPath;
    this.strip = options.strip ?? new Map();
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    this.repository = options.git === false ? undefined : initCheckoutRepository(root, gitDir);
  }

  /** The folder's own git directory (undefined when the folder is not made a repository). */
  private readonly repository: string | undefined;

  /** The corpus as it stands: root-relative path → file. */
  get files(): ReadonlyMap<string, CorpusFile> {
    return this.current;
  }

  /**
   * Makes the folder hold the corpus of `commit`, touching only what differs from the last commit, and
   * (a git folder) its HEAD that commit. `asked`: the commit the question was made from, which must not be
   * reachable from HEAD (the child of `commit`, for commit subjects and edit tasks).
   */
  async checkout(commit: string, asked?: string): Promise<CorpusChange> {
    // a stripped file's blob id gets a mark: its content is not the blob's (a commit the mirror lacks fails here, named)
    const wanted = (await listTree(this.gitDir, commit))
      .filter((e) => this.include(e.path))
      .map((e) => (this.strip.has(e.path) ? { ...e, blob: `${e.blob}:stripped` } : e));
    if (this.repository) await this.moveHead(commit, asked);
    const wantedPaths = new Set(wanted.map((e) => e.path));
    const toRead = wanted.filter((e) => this.current.get(e.path)?.blob !== e.blob);
    const blobs = await readBlobs(this.gitDir, [...new Set(toRead.map((e) => e.blob.replace(/:stripped$/, "")))]);
    const change: CorpusChange = { commit, written: [], deleted: [], unchanged: wanted.length - toRead.length, missing: [] };
    for (const path of [...this.current.keys()]) {
      if (wantedPaths.has(path)) continue; // kept, or changed and rewritten below
      this.remove(path);
      change.deleted.push(path);
    }
    for (const e of toRead) {
      const bytes = blobs.get(e.blob.replace(/:stripped$/, ""));
      if (!bytes) {
        change.missing.push(e.path);
        if (this.current.has(e.path)) {
          this.remove(e.path);
          change.deleted.push(e.path);
        }
        continue;
      }
      const abs = join(this.root, e.path);
      mkdirSync(dirname(abs), { recursive: true });
      const ranges = this.strip.get(e.path);
      const text = ranges ? blankRanges(decoder.decode(bytes), ranges) : decoder.decode(bytes);
      writeFileSync(abs, ranges ? text : bytes);
      this.current.set(e.path, { blob: e.blob, text });
      change.written.push(e.path);
    }
    return change;
  }

  /** Detaches HEAD at `commit` and checks that nothing later than it can be read from the folder. */
  private async moveHead(commit: string, asked: string | undefined): Promise<void> {
    const dir = this.repository!;
    writeFileSync(join(dir, "HEAD"), `${commit}\n`);
    const head = new TextDecoder().decode(await git(dir, ["rev-parse", "--verify", "HEAD^{commit}"])).trim();
    if (!head.startsWith(commit)) throw new Error(`the corpus repository's HEAD is ${head}, not ${commit}`);
    assertNoRefs(dir);
    if (asked !== undefined && asked !== "" && (await isAncestor(dir, asked, head)))
      throw new Error(`history leak: ${asked}, the commit the question comes from, is reachable from the corpus HEAD ${head}`);
  }

  private remove(path: string): void {
    rmSync(join(this.root, path), { force: true });
    this.current.delete(path);
  }
}

/**
 * Makes `root` a git repository over the mirror's objects: `git init`, then objects/info/alternates naming
 * the mirror's object store. No ref is created; HEAD is written per checkout. Returns its git directory.
 */
function initCheckoutRepository(root: string, mirrorGitDir: string): string {
  const init = Bun.spawnSync(["git", "init", "-q", root], { stdout: "ignore", stderr: "pipe" });
  if (init.exitCode !== 0) throw new Error(`git init ${root} failed: ${init.stderr.toString().trim()}`);
  const dir = join(root, ".git");
  const objects = join(mirrorGitDir, "objects");
  if (!existsSync(objects)) throw new Error(`${mirrorGitDir} has no objects folder to borrow`);
  writeFileSync(join(dir, "objects", "info", "alternates"), `${objects}\n`);
  return dir;
}

/** The folder's repository names no branch, tag or other ref (a later commit could be read through one). */
function assertNoRefs(dir: string): void {
  const refs = (sub: string): string[] => {
    const at = join(dir, sub);
    if (!existsSync(at)) return [];
    return readdirSync(at, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? refs(join(sub, e.name)) : [join(sub, e.name)]));
  };
  const found = [...refs("refs"), ...(existsSync(join(dir, "packed-refs")) ? ["packed-refs"] : []), ...(existsSync(join(dir, "logs")) ? ["logs"] : [])];
  if (found.length > 0) throw new Error(`history leak: the corpus repository ${dir} holds refs (${found.join(", ")}) besides HEAD`);
}

/** Whether `ancestor` is reachable from `head` (an unknown commit is not). */
async function isAncestor(dir: string, ancestor: string, head: string): Promise<boolean> {
  const p = Bun.spawn(["git", "--git-dir", dir, "merge-base", "--is-ancestor", ancestor, head], { stdout: "ignore", stderr: "ignore" });
  return (await p.exited) === 0;
}

/**
 * After an index run over a git corpus folder: the history the index holds must end at the folder's HEAD
 * (`commit`) when the history channel is on (meta history_head), or be absent when it is off.
 */
export async function assertHistoryAt(meta: (key: string) => Promise<string | undefined>, commit: string): Promise<void> {
  const head = (await meta("history_head")) ?? "";
  if (head !== "" && !head.startsWith(commit)) throw new Error(`history leak: the index's history ends at ${head}, not at the checked-out ${commit}`);
}

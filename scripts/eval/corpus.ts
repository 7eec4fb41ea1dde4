/**
 * The protocol's corpus: every non-test `.py` file of the repository at a base commit (the generated
 * sets use every source file instead: scripts/eval/sets/source-paths.ts). A CorpusFolder
 * holds one repository's corpus as real files in a working folder and moves it from commit to commit
 * by writing only the files whose blob changed and deleting the ones that left, so the indexer that
 * runs over the folder sees what it would see on a developer's machine after a checkout: an
 * incremental change.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { listTree, readBlobs } from "./git-snapshot.ts";
import { isCorpusSource } from "./sets/source-paths.ts";
import { blankRanges } from "./sets/doc-comments.ts";
import type { CorpusKind } from "./dataset.ts";

const TEST_WORDS = new Set(["test", "tests", "testing"]);

/** A path is a test when splitting it on space, `_`, `/` or `.` yields test, tests or testing. */
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
  }

  /** The corpus as it stands: root-relative path → file. */
  get files(): ReadonlyMap<string, CorpusFile> {
    return this.current;
  }

  /** Makes the folder hold the corpus of `commit`, touching only what differs from the last commit. */
  async checkout(commit: string): Promise<CorpusChange> {
    // a stripped file's blob id gets a mark: its content is not the blob's
    const wanted = (await listTree(this.gitDir, commit))
      .filter((e) => this.include(e.path))
      .map((e) => (this.strip.has(e.path) ? { ...e, blob: `${e.blob}:stripped` } : e));
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

  private remove(path: string): void {
    rmSync(join(this.root, path), { force: true });
    this.current.delete(path);
  }
}

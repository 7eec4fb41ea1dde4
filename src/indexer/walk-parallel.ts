/**
 * The walk of a large project on several threads, with the result of walkProject to the entry: the same
 * files and exclusions in the same order (file ids follow it).
 *
 * Why: a no-op re-index of the Linux kernel is mostly its walk, 0.75 s of 1.5 s warm on one thread (the
 * directory reads and a stat per file, 78,171 files in 5,000 folders), and more with a cold file cache.
 * Two threads take it to 0.54-0.62 s warm and 1.3-1.5 s cold from 1.65-1.8 s; not half, since their
 * system calls slow each other, and cold the disk sets the pace (more threads gain nothing there).
 *
 * How: this thread reads the first levels of the tree itself until they hold enough folders to share
 * (MIN_UNITS), keeping each file, exclusion and folder in its place. The folders left unread are the units:
 * whole subtrees that this thread and the workers claim one at a time from a shared counter, so a large
 * unit on one thread does not leave the other idle while units remain. Each thread walks a unit with
 * TreeWalker.moveTo's rules: those of every folder above it, as a walk from the root would have them.
 * Results are put back in the units' places. A worker that fails leaves its units to this thread.
 */
import { availableParallelism } from "node:os";
import { startWorker } from "../core/worker-entry.ts";
import { TreeWalker, checkRoot, walkProject, type Exclusion, type WalkedFile, type WalkOptions, type WalkResult } from "./walk.ts";

/** A unit's walk: what it found, in order. */
export interface UnitResult {
  files: WalkedFile[];
  excluded: Exclusion[];
}

/** What a walk worker is asked (walk-worker.ts). */
export interface WalkRequest {
  root: string;
  options: WalkOptions;
  units: string[];
  /** Int32Array over a SharedArrayBuffer: [0] the next unit to claim. */
  next: Int32Array;
}

/**
 * What a walk worker answers: the units it walked, in the order it walked them, and their results packed
 * (packResults): copying tens of thousands of small objects between threads cost 100-200 ms of the
 * kernel's walk, one string and one array of numbers a few.
 */
export interface WalkAnswer {
  units: number[];
  /** Each unit's file count, then its paths joined by NUL (no path holds one). */
  fileCounts: number[];
  paths: string;
  /** size, mtimeMs of each file in turn. */
  numbers: Float64Array;
  /** Each unit's exclusions (few: objects as they are). */
  excluded: Exclusion[][];
}

/** The answer for the results of `units`, in the same order. */
export function packResults(units: number[], results: UnitResult[]): WalkAnswer {
  const paths: string[] = [];
  const total = results.reduce((n, r) => n + r.files.length, 0);
  const numbers = new Float64Array(total * 2);
  let k = 0;
  for (const r of results) {
    for (const f of r.files) {
      paths.push(f.path);
      numbers[k++] = f.size;
      numbers[k++] = f.mtimeMs;
    }
  }
  return { units, fileCounts: results.map((r) => r.files.length), paths: paths.join("\0"), numbers, excluded: results.map((r) => r.excluded) };
}

/** packResults undone: each unit's results, in the answer's order. */
export function unpackResults(answer: WalkAnswer): UnitResult[] {
  const paths = answer.paths === "" ? [] : answer.paths.split("\0");
  const out: UnitResult[] = [];
  let at = 0;
  answer.units.forEach((_, u) => {
    const files: WalkedFile[] = [];
    for (let i = 0; i < answer.fileCounts[u]!; i++, at++) files.push({ path: paths[at]!, size: answer.numbers[2 * at]!, mtimeMs: answer.numbers[2 * at + 1]! });
    out.push({ files, excluded: answer.excluded[u]! });
  });
  return out;
}

export interface ParallelWalkOptions {
  /** Worker threads beside this one (default: one less than the cores, at most 3). */
  workers?: number;
  /** Folders the first levels are read for (default MIN_UNITS); workers join while a quarter of that is left. */
  minUnits?: number;
  /** How long this thread walks alone before workers join (default SHARE_AFTER_MS). */
  shareAfterMs?: number;
  /** How long the units left must look for workers to join (default LEFT_TO_SHARE_MS). */
  leftToShareMs?: number;
  /** false: this thread leaves every unit to the workers (a test's way to see the workers' walk). */
  claim?: boolean;
}

/** Folders (units) the first levels are read for: enough that the threads' shares even out. */
const MIN_UNITS = 64;
/**
 * This thread's walk before workers are started: a worker's start (about 30 ms) is then a small part of
 * what is left to share.
 */
const SHARE_AFTER_MS = 25;
/** What must look left (at this thread's pace so far) for workers to join. */
const LEFT_TO_SHARE_MS = 300;
/** Levels read by this thread looking for MIN_UNITS folders; a tree that has not reached them is walked here. */
const MAX_LEVELS = 4;

/** A place in the walk's order: a file, an exclusion, or a unit whose results go there. */
type Item = { file: WalkedFile } | { excluded: Exclusion } | { unit: number } | { items: Item[] };

/** A walk's result, and how many threads walked (1: this one alone). */
export interface ParallelWalkResult extends WalkResult {
  threads: number;
}

export async function walkProjectInParallel(root: string, options: WalkOptions, parallel: ParallelWalkOptions = {}): Promise<ParallelWalkResult> {
  const workers = parallel.workers ?? Math.min(3, availableParallelism() - 1);
  const minUnits = parallel.minUnits ?? MIN_UNITS;
  if (workers < 1) return { ...walkProject(root, options), threads: 1 };
  checkRoot(root);
  const walker = new TreeWalker(root, options);

  // the first levels, read here: each folder's items in order, each subfolder a slot to fill
  const top: Item[] = [];
  let frontier: Array<{ rel: string; items: Item[] }> = [{ rel: "", items: top }];
  for (let level = 0; level < MAX_LEVELS && frontier.length > 0 && frontier.length < minUnits; level++) {
    const below: typeof frontier = [];
    for (const dir of frontier) {
      walker.moveTo(dir.rel);
      walker.readDirectory(dir.rel, {
        file: (file) => dir.items.push({ file }),
        exclude: (excluded) => dir.items.push({ excluded }),
        directory: (rel) => {
          const items: Item[] = [];
          dir.items.push({ items });
          below.push({ rel, items });
        },
      });
    }
    frontier = below;
  }
  const units = frontier.map((d) => d.rel);
  const results: Array<UnitResult | undefined> = new Array(units.length);
  frontier.forEach((d, i) => d.items.push({ unit: i }));

  const walkHere = (i: number) => {
    const result: UnitResult = { files: [], excluded: [] };
    walker.moveTo(units[i]!);
    walker.walkFrom(units[i]!, result.files, result.excluded);
    results[i] = result;
  };
  // Workers join once this thread has walked for shareAfterMs and the units left look like LEFT_TO_SHARE_MS
  // more at its pace so far: a tree walked in less never pays for their start (go-src's walk, 100-120 ms
  // in a new process, took 126-143 ms shared once the rest looked like 150 ms; the kernel's, 850-1,100
  // ms, 650-720 ms shared).
  const next = new Int32Array(new SharedArrayBuffer(4));
  let answers: Array<Promise<WalkAnswer | undefined>> = [];
  const share = () => {
    if (answers.length === 0 && units.length - Atomics.load(next, 0) >= minUnits / 4)
      answers = Array.from({ length: workers }, () => askWorker({ root, options, units, next }));
  };
  const unitsStarted = performance.now();
  const shareAfter = unitsStarted + (parallel.shareAfterMs ?? SHARE_AFTER_MS);
  if (parallel.claim === false) share();
  else {
    for (let i = Atomics.add(next, 0, 1); i < units.length; i = Atomics.add(next, 0, 1)) {
      walkHere(i);
      const now = performance.now();
      if (
        answers.length === 0 &&
        now >= shareAfter &&
        ((now - unitsStarted) * (units.length - i - 1)) / (i + 1) >= (parallel.leftToShareMs ?? LEFT_TO_SHARE_MS)
      )
        share();
    }
  }
  let threads = 1;
  for (const answer of await Promise.all(answers)) {
    if (!answer) continue;
    threads++;
    const unpacked = unpackResults(answer);
    answer.units.forEach((unit, k) => (results[unit] = unpacked[k]));
  }
  // a worker that failed: its units are walked here
  for (let i = 0; i < units.length; i++) if (!results[i]) walkHere(i);

  const files: WalkedFile[] = [];
  const excluded: Exclusion[] = [];
  const flatten = (items: Item[]) => {
    for (const item of items) {
      if ("file" in item) files.push(item.file);
      else if ("excluded" in item) excluded.push(item.excluded);
      else if ("items" in item) flatten(item.items);
      else {
        const r = results[item.unit]!;
        for (const f of r.files) files.push(f);
        for (const e of r.excluded) excluded.push(e);
      }
    }
  };
  flatten(top);
  return { files, excluded, threads };
}

/** One worker's share of the units; undefined when it failed (its units are then walked by the caller). */
function askWorker(request: WalkRequest): Promise<WalkAnswer | undefined> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = startWorker("indexer/walk-worker");
    } catch {
      return resolve(undefined);
    }
    const finish = (answer: WalkAnswer | undefined) => {
      worker.terminate();
      resolve(answer);
    };
    worker.onmessage = (ev: MessageEvent) => finish(ev.data as WalkAnswer);
    worker.onerror = () => finish(undefined);
    worker.postMessage(request);
  });
}

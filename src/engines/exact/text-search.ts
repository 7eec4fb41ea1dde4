/**
 * Literal and regex search over the indexed content (search_text_pattern, `cortex grep`): plan → candidate
 * files from the trigram index → filters → line verification → hits in path order, each marked stale
 * when its file changed on disk since it was indexed. Regexes are verified in the worker pool (hostile
 * patterns cannot hang the caller); literals, which run in linear time, on the calling thread (measured:
 * handing many hits back from workers costs more than a second core saves).
 */
import { join } from "node:path";
import { CortexError } from "../../core/errors.ts";
import type { ContentFileRow } from "../../store/contract.ts";
import { compilePattern } from "./text-query.ts";
import { LineMatcher, type LineHit, type MatchDetail } from "./line-scan.ts";
import { verifyPool, type VerifiedFile, type VerifyJob } from "./pool.ts";
import { ByteLiteralScanner } from "./byte-scan.ts";
import { readDiskText } from "./disk-text.ts";
import { hasExtension, type PathFilter } from "./path-filter.ts";
import { describeQuery } from "./plan.ts";
import type { ExactIndexView } from "./view.ts";

/** The file id of a file on disk that the index does not hold (a `fresh` search's added files). */
const NOT_INDEXED = 0xffffffff;

/** Characters of the readable plan a result carries at most (a long alternation's plan is cut, with "…"). */
export const PLAN_CHARS = 400;

export interface TextSearchRequest {
  query: string;
  isRegex: boolean;
  caseSensitive: boolean;
  contextLines: number;
  paths: PathFilter;
  /** Normalised extensions (".py"); empty for every file. */
  extensions: string[];
  /** Read changed files from disk instead of the index. */
  fresh: boolean;
  /**
   * With `fresh`: every file the project holds on disk now (root-relative, as a walk with the index's
   * rules gives them), so that files added since indexing are searched too. Absent: only indexed files.
   */
  onDisk?: readonly string[];
  /**
   * Indexed files a live server's watcher saw change since the index last caught up with them: searched
   * as they are on disk now (a deleted one not at all), so an edit answers before its index run is done.
   */
  changedOnDisk?: ReadonlySet<string>;
  maxMatches: number;
  /** Output budget: characters of matched and context lines. */
  maxChars: number;
  deadline: number;
  signal?: AbortSignal;
  /**
   * Called with each match as soon as it is final, in result order (the CLI's --ndjson streams them):
   * literal searches find matches file by file, regex searches when the worker pool is done (as its
   * chunks complete in order with `handOver`). Returning false stops the search there, marked truncated
   * (the caller's own output budget is spent).
   */
  onMatch?(match: TextMatch): boolean | undefined;
  /**
   * Every match goes to `onMatch` as soon as it is final and none is kept in the outcome's `matches`: the
   * CLI's grep prints them all, as ripgrep does, in memory bounded by a file's hits rather than by the
   * result (set maxMatches and maxChars to Infinity with it).
   */
  handOver?: boolean;
}

export interface TextMatch {
  file_path: string;
  line_number: number;
  matched_line: string;
  /** Context lines before, then after, the matched line. */
  context: string[];
  /** Line number of the first context line (context[i] is line context_start_line + i, skipping the match). */
  context_start_line: number;
  match_details: { matches: MatchDetail[] };
  /** The line is longer than 1,000 characters and matched_line is a window around the first match. */
  line_truncated?: true;
  /** The file changed on disk since it was indexed: the line is as indexed. */
  stale?: true;
}

export interface TextSearchOutcome {
  matches: TextMatch[];
  /** More matching lines exist than were returned (limit or output budget). */
  truncated: boolean;
  /** The deadline or a cancellation stopped verification: matches are those found so far. */
  partial: boolean;
  stats: {
    /** Files the trigram index could not rule out (after path and extension filters). */
    candidate_files: number;
    /** Candidate files verified. */
    searched_files: number;
    /** The trigram query, readable ("ALL" for a full scan). */
    plan: string;
    took_ms: number;
  };
}

interface Item {
  row: ContentFileRow;
  /** Absolute path when the content comes from disk. */
  disk?: string;
}

/** The changed files among the index's: read from disk when they differ from it, as indexed when not. */
async function changedItems(
  view: ExactIndexView,
  changed: ReadonlySet<string>,
  candidates: Uint32Array | null,
  keep: (r: ContentFileRow) => boolean,
): Promise<Item[]> {
  const out: Item[] = [];
  for (const row of await view.allFiles()) {
    if (!changed.has(row.path) || !keep(row)) continue;
    const state = view.diskState(row);
    if (state === "changed") out.push({ row, disk: join(view.root, row.path) });
    else if (state === "same" && (candidates === null || hasSorted(candidates, row.fileId))) out.push({ row });
  }
  return out;
}

function hasSorted(ids: Uint32Array, id: number): boolean {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = ids[mid]!;
    if (v === id) return true;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

export async function searchText(view: ExactIndexView, req: TextSearchRequest): Promise<TextSearchOutcome> {
  const started = performance.now();
  const { spec, plan } = compilePattern(req.query, req.isRegex, req.caseSensitive);
  if (req.isRegex) verifyPool().warm();
  const keep = (r: ContentFileRow) => req.paths.matches(r.path) && hasExtension(r.path, req.extensions);
  const candidates = await view.candidates(plan.query, req.isRegex ? undefined : { text: req.query, caseSensitive: req.caseSensitive });

  let items: Item[];
  if (req.fresh) {
    // Every file that changed on disk is searched as it is now; unchanged ones only when they are candidates.
    const candidateSet = candidates === null ? undefined : new Set(candidates);
    items = [];
    const indexed = await view.allFiles();
    for (const row of indexed.filter(keep)) {
      const state = view.diskState(row);
      if (state === "deleted") continue;
      if (state === "changed") items.push({ row, disk: join(view.root, row.path) });
      else if (!candidateSet || candidateSet.has(row.fileId)) items.push({ row });
    }
    // files added since indexing (a new file, a rename's new name): read from disk, as changed ones are
    if (req.onDisk) {
      const known = new Set(indexed.map((r) => r.path));
      for (const path of req.onDisk) {
        const row: ContentFileRow = { fileId: NOT_INDEXED, path, mtimeMs: 0, sizeBytes: 0 };
        if (!known.has(path) && keep(row)) items.push({ row, disk: join(view.root, path) });
      }
    }
  } else {
    const changed = req.changedOnDisk;
    items = [];
    for (const row of await view.rows(candidates)) if (keep(row) && !changed?.has(row.path)) items.push({ row });
    if (changed && changed.size > 0) items.push(...(await changedItems(view, changed, candidates, keep)));
  }
  items.sort((a, b) => (a.row.path < b.row.path ? -1 : a.row.path > b.row.path ? 1 : 0));

  const matches: TextMatch[] = [];
  let truncated = false;
  let chars = 0;
  const staleByPath = new Map<string, boolean>();
  /** Turns one file's hits into matches, in order; false once no more may be taken. */
  const accept = (item: number, hits: LineHit[], checked?: boolean): boolean => {
    if (truncated) return false;
    const it = items[item]!;
    // checked: the worker that found the hits looked at the file on disk (VerifyJob.onDisk)
    let stale = checked ?? false;
    if (!it.disk && checked === undefined) {
      let s = staleByPath.get(it.row.path);
      if (s === undefined) staleByPath.set(it.row.path, (s = view.diskState(it.row) !== "same"));
      stale = s;
    }
    for (const h of hits) {
      chars += h.text.length + h.context.reduce((n, c) => n + c.length, 0);
      if (matches.length >= req.maxMatches || (chars > req.maxChars && matches.length > 0)) {
        truncated = true;
        return false;
      }
      const m: TextMatch = {
        file_path: it.row.path,
        line_number: h.line,
        matched_line: h.text,
        context: h.context,
        context_start_line: h.contextStart,
        match_details: { matches: h.matches },
      };
      if (h.truncated) m.line_truncated = true;
      if (stale) m.stale = true;
      if (req.onMatch?.(m) === false) {
        truncated = true;
        return false;
      }
      if (!req.handOver) matches.push(m);
    }
    return true;
  };

  let partial = false;
  let searched = 0;
  // what the pool's workers saw on disk (they check a local index's files: VerifyJob.onDisk)
  const checkedOf = (f: VerifiedFile): boolean | undefined => (view.local ? f.stale === true : undefined);
  // a literal is found inline (a budgeted search stops at its first files), except when every match of
  // many files is to be printed: the files' decompression then splits over the pool's workers (the
  // kernel's `spin_lock_irqsave`: 3,792 files)
  if (req.isRegex || (req.handOver === true && items.length >= POOL_LITERAL_FILES)) {
    const disk: Record<number, string> = {};
    items.forEach((it, i) => {
      if (it.disk) disk[i] = it.disk;
    });
    const run = await verifyPool().run(
      {
        source: view.source,
        spec,
        ids: Uint32Array.from(items, (it) => it.row.fileId),
        disk,
        contextLines: req.contextLines,
        maxPerFile: req.maxMatches + 1,
        ...(view.local ? { onDisk: diskRows(view.root, items) } : {}),
      },
      {
        parallelism: 2,
        deadline: req.deadline,
        ...(req.signal ? { signal: req.signal } : {}),
        maxHits: req.maxMatches + 1,
        ...(req.handOver
          ? {
              onHits: (files: VerifiedFile[]) => {
                for (const f of files) if (!accept(f.item, f.hits, checkedOf(f))) break;
              },
            }
          : {}),
      },
    );
    // the pattern compiled here but a worker could not run it (out of memory in a nested alternation):
    // an error, not "no matches"
    if (run.error !== undefined)
      throw /regular expression/i.test(run.error)
        ? new CortexError("INVALID_INPUT", `query: the regular expression could not be run: ${run.error}`)
        : new CortexError("IO", `the search failed while reading the index: ${run.error}`);
    partial = run.partial;
    searched = run.verified;
    for (const f of run.hits) if (!accept(f.item, f.hits, checkedOf(f))) break;
  } else {
    ({ partial, searched } = await verifyInline(view, items, spec, req, accept));
  }

  return {
    matches,
    truncated,
    partial,
    stats: {
      candidate_files: items.length,
      searched_files: searched,
      plan: clipped(describeQuery(plan.query)),
      took_ms: Math.round((performance.now() - started) * 100) / 100,
    },
  };
}

/**
 * Literal searches: linear-time matching on this thread, polling the deadline between batches of files;
 * each file's hits go to `accept` as soon as the file is scanned (false: stop).
 */
async function verifyInline(
  view: ExactIndexView,
  items: Item[],
  spec: ReturnType<typeof compilePattern>["spec"],
  req: TextSearchRequest,
  accept: (item: number, hits: LineHit[]) => boolean,
): Promise<{ partial: boolean; searched: number }> {
  const matcher = new LineMatcher(spec);
  const bytes = ByteLiteralScanner.for(spec);
  let total = 0;
  let partial = false;
  let searched = 0;
  // Files are read in batches that grow: a selective search reads little, a broad one pays few calls.
  let batch = 8;
  for (let from = 0; from < items.length && total <= req.maxMatches; from += batch, batch = Math.min(batch * 2, 128)) {
    if (Date.now() >= req.deadline || req.signal?.aborted === true) {
      partial = true;
      break;
    }
    const slice = items.slice(from, from + batch);
    const stored = slice.map((it) => (it.disk ? -1 : it.row.fileId));
    const contents: Array<string | Uint8Array | undefined> = bytes ? await view.texts(stored, "bytes") : await view.texts(stored, "string");
    for (let k = 0; k < slice.length && total <= req.maxMatches; k++) {
      const it = slice[k]!;
      const left = req.maxMatches + 1 - total;
      searched++;
      let hits: LineHit[];
      if (it.disk) {
        const text = readDiskText(it.disk);
        if (text === undefined) continue;
        hits = matcher.scan(text, req.contextLines, left);
      } else {
        const c = contents[k];
        if (c === undefined) continue;
        hits = typeof c === "string" ? matcher.scan(c, req.contextLines, left) : bytes!.scan(c, req.contextLines, left);
      }
      if (hits.length === 0) continue;
      total += hits.length;
      if (!accept(from + k, hits)) return { partial, searched };
    }
  }
  return { partial, searched };
}

function clipped(plan: string): string {
  return plan.length <= PLAN_CHARS ? plan : `${plan.slice(0, PLAN_CHARS - 1)}…`;
}

/** Candidate files from which a literal search that prints every match runs on the worker pool. */
const POOL_LITERAL_FILES = 256;

/** What a verification worker needs to check each item's file on disk (VerifyJob.onDisk). */
function diskRows(root: string, items: ReadonlyArray<{ row: ContentFileRow }>): NonNullable<VerifyJob["onDisk"]> {
  const paths: string[] = new Array(items.length);
  const mtimes = new Float64Array(items.length);
  const sizes = new Float64Array(items.length);
  items.forEach((it, i) => {
    paths[i] = it.row.path;
    mtimes[i] = it.row.mtimeMs;
    sizes[i] = it.row.sizeBytes;
  });
  return { root, paths, mtimes, sizes };
}

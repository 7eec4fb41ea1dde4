/**
 * The state of a project's index: whether one exists, when it was built, what it holds, and how much of
 * the tree changed on disk since (a walk and a stat per file; no content is read).
 */
import { statSync, existsSync } from "node:fs";
import type { IndexReader } from "../store/contract.ts";
import type { IndexLocation } from "../store/location.ts";
import type { CortexConfig } from "../core/config.ts";
import { walkProjectInParallel } from "./walk-parallel.ts";

export interface IndexStatus {
  root: string;
  /** ready: an index answers (perhaps while a run updates it); indexing: the first build, nothing answers yet. */
  state: "ready" | "missing" | "indexing";
  /** Why the index database there could not be read (state missing): the next run builds it again. */
  damaged?: string;
  /** A run is bringing the index up to date; answers come from the index as it stood before the run. */
  updating?: boolean;
  database?: string;
  database_bytes?: number;
  last_run?: string;
  branch?: string;
  commit?: string;
  files?: number;
  languages?: Record<string, number>;
  changed_since_index?: { modified: number; added: number; deleted: number; examples: string[] };
  /** Files the walk leaves out for their size (over index.max_file_size): no search finds them. */
  too_large?: { files: number; limit_bytes: number; examples: string[] };
  /** Each tier's state: the text tier (exact and regex search) is whole once an index exists. */
  tiers?: { text: "complete"; parse: ParseTierStatus };
}

/** How far the parse tier is, and whether a run is still building it or the last one stopped short. */
export interface ParseTierStatus {
  state: "complete" | "building" | "interrupted";
  parsed_files: number;
  total_files: number;
  /** Every file is parsed; the keyword index and reference resolution are still to be built. */
  finishing?: boolean;
}

export async function indexStatus(
  root: string,
  location: IndexLocation,
  store: IndexReader | undefined,
  config: CortexConfig,
  /** This process is indexing the project now. */
  indexing: boolean,
  /** Some process (this one included) holds the project's writer lock: an incomplete parse tier is being built, not interrupted. */
  runActive = indexing,
): Promise<IndexStatus> {
  const dbPath = location.current();
  if (!store || !dbPath) return { root, state: indexing ? "indexing" : "missing" };
  // An index that exists answers while a run updates it (a freshness check, a refresh, the parse tier
  // after the text tier): "indexing" would tell an agent to wait for answers it can have now.
  const status: IndexStatus = { root, state: "ready", ...(indexing ? { updating: true } : {}), database: dbPath };
  try {
    status.database_bytes = statSync(dbPath).size + (existsSync(dbPath + "-wal") ? statSync(dbPath + "-wal").size : 0);
  } catch {}
  const meta = (k: string) => store.meta(k);
  const lastRun = await meta("last_run");
  if (lastRun) status.last_run = lastRun;
  const branch = await meta("branch");
  if (branch) status.branch = branch;
  const commit = await meta("commit");
  if (commit) status.commit = commit;
  const languages = await store.languageCounts();
  status.languages = languages;
  status.files = Object.values(languages).reduce((a, b) => a + b, 0);
  const parse = await store.parseTierState();
  status.tiers = {
    text: "complete",
    parse: parse
      ? { state: runActive ? "building" : "interrupted", parsed_files: parse.parsed, total_files: parse.total, ...(parse.finishing ? { finishing: true } : {}) }
      : { state: "complete", parsed_files: status.files, total_files: status.files },
  };
  const states = await store.fileStates();
  const walked = await walkProjectInParallel(root, { maxFileSize: config.index.max_file_size, extraExcludes: config.index.exclude });
  let modified = 0;
  let added = 0;
  const examples: string[] = [];
  const seen = new Set<string>();
  for (const f of walked.files) {
    seen.add(f.path);
    const s = states.get(f.path);
    if (!s) {
      added++;
    } else if (s.mtimeMs !== Math.trunc(f.mtimeMs) || s.sizeBytes !== f.size) {
      modified++;
      if (examples.length < 5) examples.push(f.path);
    }
  }
  let deleted = 0;
  for (const p of states.keys()) if (!seen.has(p)) deleted++;
  const large = walked.excluded.filter((e) => e.reason === "too-large");
  if (large.length > 0) status.too_large = { files: large.length, limit_bytes: config.index.max_file_size, examples: large.slice(0, 5).map((e) => e.path) };
  // Files never indexed because they are binary show up as "added" every time; they are not news.
  status.changed_since_index = { modified, added: Math.max(0, added - Number((await meta("binary_files")) ?? 0)), deleted, examples };
  return status;
}

/**
 * The evaluation loop of the SWE-bench file-localization protocol. For each repository, in base-commit
 * order: move the corpus folder to the instance's base commit (incrementally), run cortex's indexer on
 * it in-process (incremental by content hash after the first instance), ask the ranker for the ranked
 * files and record where the gold files landed. cortex writes under a CORTEX_HOME of the harness's own,
 * emptied at the start, so the first instance of each repository is a full index and the rest are
 * incremental.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Session } from "../../src/tools/index.ts";
import { CorpusFolder } from "./corpus.ts";
import { gitDirFor, loadInstances, type Instance, type InstanceFilter } from "./dataset.ts";
import { commitTimes } from "./git-snapshot.ts";
import { goldRanks, summarize, type Rank, type Summary } from "./metrics.ts";
import type { RankerFactory } from "./ranker.ts";

export interface EvalOptions extends InstanceFilter {
  /** The JSONL data file. */
  data: string;
  /** Where the repositories' git directories are (see gitDirFor). */
  mirrors: string;
  /** A scratch folder the harness owns: corpus folders and cortex's home go here. */
  work: string;
  ranker: RankerFactory;
  /** Run cortex's indexer on each base commit (default true). */
  index?: boolean;
  /** Progress lines (the CLI sends them to stderr). */
  progress?: (line: string) => void;
}

export interface IndexStep {
  mode: "full" | "incremental";
  parsed: number;
  deleted: number;
  unchanged: number;
  files: number;
  ms: number;
}

export interface InstanceResult {
  instance_id: string;
  repo: string;
  base_commit: string;
  /** Corpus size at the base commit. */
  n_docs: number;
  gold: string[];
  /** 0-based rank of each gold file, null when the ranker did not return it. */
  ranks: Rank[];
  /** The ranker's first ten files. */
  top: string[];
  corpus: { written: number; deleted: number; unchanged: number; missing: number };
  index?: IndexStep;
  rank_ms: number;
}

export interface EvalResult {
  ranker: string;
  data: string;
  summary: Summary;
  instances: InstanceResult[];
}

/** Instances grouped by repository (first-appearance order), each group in base-commit order. */
export async function inCommitOrder(instances: Instance[], mirrors: string): Promise<Array<{ repo: string; gitDir: string; instances: Instance[] }>> {
  const groups = new Map<string, Instance[]>();
  for (const i of instances) {
    const g = groups.get(i.repo);
    if (g) g.push(i);
    else groups.set(i.repo, [i]);
  }
  const out = [];
  for (const [repo, list] of groups) {
    const gitDir = gitDirFor(list[0]!, mirrors);
    const times = await commitTimes(gitDir, list.map((i) => i.base_commit));
    list.sort((a, b) => times.get(a.base_commit)! - times.get(b.base_commit)! || (a.instance_id < b.instance_id ? -1 : 1));
    out.push({ repo, gitDir, instances: list });
  }
  return out;
}

export async function runEvaluation(options: EvalOptions): Promise<EvalResult> {
  const filter: InstanceFilter = {};
  if (options.repos) filter.repos = options.repos;
  if (options.limit !== undefined) filter.limit = options.limit;
  const instances = loadInstances(options.data, filter);
  const groups = await inCommitOrder(instances, options.mirrors);
  const home = join(options.work, "cortex-home");
  rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  const savedHome = process.env.CORTEX_HOME;
  process.env.CORTEX_HOME = home;
  const results: InstanceResult[] = [];
  let rankerName = "";
  try {
    for (const group of groups) {
      const folder = new CorpusFolder(join(options.work, "corpus", group.repo.replace("/", "+")), group.gitDir);
      const session = new Session(folder.root);
      const ranker = options.ranker();
      rankerName = ranker.name;
      try {
        for (const instance of group.instances) {
          const change = await folder.checkout(instance.base_commit);
          let index: IndexStep | undefined;
          if (options.index !== false) {
            const r = await session.index();
            index = { mode: r.mode, parsed: r.parsed, deleted: r.deleted, unchanged: r.unchanged, files: r.files, ms: r.tookMs };
          }
          const t0 = performance.now();
          const ranked = await ranker.rank({ instance, query: instance.problem_statement, corpus: folder.files, change, session });
          const rankMs = Math.round(performance.now() - t0);
          const ranks = goldRanks(ranked, instance.gold_files);
          const result: InstanceResult = {
            instance_id: instance.instance_id,
            repo: instance.repo,
            base_commit: instance.base_commit,
            n_docs: folder.files.size,
            gold: instance.gold_files,
            ranks,
            top: ranked.slice(0, 10),
            corpus: { written: change.written.length, deleted: change.deleted.length, unchanged: change.unchanged, missing: change.missing.length },
            rank_ms: rankMs,
          };
          if (index) result.index = index;
          results.push(result);
          options.progress?.(
            `${results.length}/${instances.length} ${instance.instance_id}: ranks ${JSON.stringify(ranks)}` +
              (index ? ` (index ${index.mode}: ${index.parsed} parsed, ${index.deleted} deleted, ${index.ms} ms)` : ""),
          );
        }
      } finally {
        session.close();
      }
    }
  } finally {
    if (savedHome === undefined) delete process.env.CORTEX_HOME;
    else process.env.CORTEX_HOME = savedHome;
  }
  return { ranker: rankerName, data: options.data, summary: summarize(results.map((r) => r.ranks)), instances: results };
}

export interface ReferenceRow {
  instance_id: string;
  ranks: Rank[];
  n_docs?: number;
}

export interface Agreement {
  compared: number;
  /** Instances whose gold ranks equal the reference's exactly. */
  sameRanks: number;
  /** Instances whose corpus size equals the reference's. */
  sameDocCount: number;
  disagreements: Array<{ instance_id: string; ours: Rank[]; reference: Rank[] }>;
}

/** Compares per-instance ranks with a reference file (the reference_bm25_probe_*.json shape). */
export function compareWithReference(results: InstanceResult[], reference: ReferenceRow[]): Agreement {
  const byId = new Map(reference.map((r) => [r.instance_id, r]));
  const a: Agreement = { compared: 0, sameRanks: 0, sameDocCount: 0, disagreements: [] };
  for (const r of results) {
    const ref = byId.get(r.instance_id);
    if (!ref) continue;
    a.compared++;
    if (ref.n_docs === r.n_docs) a.sameDocCount++;
    if (JSON.stringify(ref.ranks) === JSON.stringify(r.ranks)) a.sameRanks++;
    else a.disagreements.push({ instance_id: r.instance_id, ours: r.ranks, reference: ref.ranks });
  }
  return a;
}

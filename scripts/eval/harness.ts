/**
 * The evaluation loop of the SWE-bench file-localization protocol. For each repository, in base-commit
 * order: move the corpus folder to the instance's base commit (incrementally), run cortex's indexer on
 * it in-process (incremental by content hash after the first instance), ask the ranker for the ranked
 * files and record where the gold files landed. cortex writes under a CORTEX_HOME of the harness's own,
 * emptied at the start, so the first instance of each repository is a full index and the rest are
 * incremental. Instances labelled with functions are also ranked at chunk level, where the ranker can.
 * An instance that fails (a commit the mirror lacks, an index or search error) counts as a miss and
 * keeps its error; the run goes on.
 */
import { join } from "node:path";
import { Session } from "../../src/tools/index.ts";
import { assertHistoryAt, CORPUS_FILTERS, CorpusFolder, type CorpusChange, useFreshCortexHome } from "./corpus.ts";
import { gitDirFor, loadFunctionLabels, loadInstances, type Instance, type InstanceFilter } from "./dataset.ts";
import { commitTimes } from "./git-snapshot.ts";
import { functionRanks, goldRanks, groupSummaries, summarize, type GroupRow, type Rank, type Summary } from "./metrics.ts";
import { errorMessage } from "../../src/core/errors.ts";
import type { RankerFactory } from "./ranker.ts";
import { lockWorkFolder } from "./work-lock.ts";

export interface EvalOptions extends InstanceFilter {
  /** The JSONL data file. */
  data: string;
  /** Where the repositories' git directories are (see gitDirFor). */
  mirrors: string;
  /** A scratch folder the harness owns: corpus folders and cortex's home go here. */
  work: string;
  ranker: RankerFactory;
  /** Function labels for SWE-bench rows (swebench-functions.jsonl): adds function-level metrics and the split. */
  functions?: string;
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
  set?: string;
  language?: string;
  split?: string;
  /** Corpus size at the base commit. */
  n_docs: number;
  gold: string[];
  /** 0-based rank of each gold file, null when the ranker did not return it. */
  ranks: Rank[];
  /** The ranker's first ten files. */
  top: string[];
  /** 0-based rank of each labelled function among the ranker's chunks (chunk-ranking rankers only). */
  function_ranks?: Rank[];
  /** The ranker's first five chunks (`type path:start-end kind name`), to see what outranks a labelled function. */
  function_top?: string[];
  corpus: { written: number; deleted: number; unchanged: number; missing: number };
  index?: IndexStep;
  rank_ms: number;
  /** Why the instance failed; its ranks are then all null (a miss). */
  error?: string;
}

export interface EvalResult {
  ranker: string;
  data: string;
  summary: Summary;
  /** Per split and language (then per split), file- and function-level. */
  groups: GroupRow[];
  instances: InstanceResult[];
}

/** Group key of a result: set, split and language where the data says them. */
export function groupKey(r: { set?: string; split?: string; language?: string }): string {
  return [r.set ?? "swebench", r.split ?? "all", r.language ?? "python"].join(" / ");
}

/** The union of a repository's comment ranges to blank; they must all describe one commit's files. */
export function stripsOf(instances: Instance[]): Map<string, Array<[number, number]>> {
  const out = new Map<string, Array<[number, number]>>();
  const commits = new Set<string>();
  for (const i of instances) {
    if (!i.strip) continue;
    commits.add(i.base_commit);
    for (const [path, ranges] of Object.entries(i.strip)) out.set(path, [...(out.get(path) ?? []), ...ranges]);
  }
  if (commits.size > 1)
    throw new Error(`rows of ${instances[0]!.repo} blank comments at ${commits.size} commits; the docstring set indexes one commit per repository`);
  return out;
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
    const times = await commitTimes(
      gitDir,
      list.map((i) => i.base_commit),
    );
    // commits the mirror lacks go last; their instances fail on their own
    const time = (i: Instance) => times.get(i.base_commit) ?? Number.MAX_SAFE_INTEGER;
    list.sort((a, b) => time(a) - time(b) || (a.instance_id < b.instance_id ? -1 : 1));
    out.push({ repo, gitDir, instances: list });
  }
  return out;
}

/** The variants a tuning script's `--variants a,b` names (all when not given); an unknown name is an error. */
export function chosenVariants(arg: string | undefined, variants: Record<string, unknown>): string[] {
  const names = arg ? arg.split(",").map((s) => s.trim()) : Object.keys(variants);
  for (const n of names) if (!(n in variants)) throw new Error(`unknown variant ${n}; known: ${Object.keys(variants).join(", ")}`);
  return names;
}

/**
 * Runs `each` over the groups of inCommitOrder, each with its corpus folder under `<work>/corpus` (the
 * docstring rows' comments blanked: stripsOf) and one Session on it, closed after the group: the tuning
 * scripts' loop (rank-tune, nl-tune, history-tune, fn-tune). `include` defaults to the group's corpus kind.
 */
export async function forEachRepository(
  instances: Instance[],
  options: { work: string; mirrors: string; include?: (path: string) => boolean },
  each: (group: { repo: string; instances: Instance[] }, folder: CorpusFolder, session: Session) => Promise<void>,
): Promise<void> {
  for (const group of await inCommitOrder(instances, options.mirrors)) {
    const first = group.instances[0]!;
    const folder = new CorpusFolder(join(options.work, "corpus", group.repo.replace("/", "+")), group.gitDir, {
      include: options.include ?? CORPUS_FILTERS[first.corpus ?? "python-non-test"],
      strip: stripsOf(group.instances),
    });
    const session = new Session(folder.root);
    try {
      await each(group, folder, session);
    } finally {
      session.close();
    }
  }
}

export async function runEvaluation(options: EvalOptions): Promise<EvalResult> {
  const filter: InstanceFilter = {};
  if (options.repos) filter.repos = options.repos;
  if (options.limit !== undefined) filter.limit = options.limit;
  if (options.split !== undefined) filter.split = options.split;
  let instances = loadInstances(options.data, options.functions ? { ...filter, split: undefined } : filter);
  if (options.functions) {
    const labels = loadFunctionLabels(options.functions);
    instances = instances.map((i) => {
      const l = labels.get(i.instance_id);
      return l ? { ...i, gold_functions: l.functions, split: l.split } : i;
    });
    if (options.split !== undefined) instances = instances.filter((i) => i.split === options.split);
  }
  const groups = await inCommitOrder(instances, options.mirrors);
  const release = lockWorkFolder(options.work);
  const savedHome = useFreshCortexHome(options.work);
  const results: InstanceResult[] = [];
  let rankerName = "";
  try {
    for (const group of groups) {
      const first = group.instances[0]!;
      const folder = new CorpusFolder(join(options.work, "corpus", group.repo.replace("/", "+")), group.gitDir, {
        include: CORPUS_FILTERS[first.corpus ?? "python-non-test"],
        strip: stripsOf(group.instances),
      });
      const session = new Session(folder.root);
      const ranker = options.ranker();
      rankerName = ranker.name;
      try {
        for (const instance of group.instances) {
          // a row naming no function (a SWE-bench patch outside every function) has no function-level figure
          const labelled = instance.gold_functions && instance.gold_functions.length > 0 ? instance.gold_functions : undefined;
          const result: InstanceResult = {
            instance_id: instance.instance_id,
            repo: instance.repo,
            base_commit: instance.base_commit,
            ...(instance.set ? { set: instance.set } : {}),
            ...(instance.language ? { language: instance.language } : {}),
            ...(instance.split ? { split: instance.split } : {}),
            n_docs: 0,
            gold: instance.gold_files,
            ranks: instance.gold_files.map(() => null),
            top: [],
            ...(labelled && ranker.rankChunks ? { function_ranks: labelled.map(() => null) } : {}),
            corpus: { written: 0, deleted: 0, unchanged: 0, missing: 0 },
            rank_ms: 0,
          };
          try {
            const change: CorpusChange = await folder.checkout(instance.base_commit, instance.asked_commit);
            result.n_docs = folder.files.size;
            result.corpus = { written: change.written.length, deleted: change.deleted.length, unchanged: change.unchanged, missing: change.missing.length };
            if (options.index !== false) {
              const r = await session.index();
              result.index = { mode: r.mode, parsed: r.parsed, deleted: r.deleted, unchanged: r.unchanged, files: r.files, ms: r.tookMs };
              const reader = await session.requireReader();
              await assertHistoryAt((k) => reader.meta(k), instance.base_commit);
            }
            const request = { instance, query: instance.problem_statement, corpus: folder.files, change, session };
            const t0 = performance.now();
            const ranked = await ranker.rank(request);
            result.ranks = goldRanks(ranked, instance.gold_files);
            result.top = ranked.slice(0, 10);
            if (labelled && ranker.rankChunks) {
              const chunks = await ranker.rankChunks(request);
              result.function_ranks = functionRanks(chunks, labelled);
              result.function_top = chunks
                .slice(0, 5)
                .map((c) => `${c.chunk_type} ${c.path}:${c.start_line}-${c.end_line} ${c.kind ?? ""} ${c.name ?? ""}`.trim());
            }
            result.rank_ms = Math.round(performance.now() - t0);
          } catch (e) {
            // a failing instance is a miss with its reason, never the end of the run
            result.error = errorMessage(e);
          }
          results.push(result);
          const index = result.index;
          options.progress?.(
            `${results.length}/${instances.length} ${instance.instance_id}: ranks ${JSON.stringify(result.ranks)}` +
              (result.function_ranks ? ` functions ${JSON.stringify(result.function_ranks)}` : "") +
              (index ? ` (index ${index.mode}: ${index.parsed} parsed, ${index.deleted} deleted, ${index.ms} ms)` : "") +
              (result.error ? ` FAILED: ${result.error}` : ""),
          );
        }
      } finally {
        session.close();
      }
    }
  } finally {
    if (savedHome === undefined) delete process.env.CORTEX_HOME;
    else process.env.CORTEX_HOME = savedHome;
    release();
  }
  const byGroup = [
    ...groupSummaries(results, groupKey),
    ...groupSummaries(results, (r) => [r.set ?? "swebench", r.split ?? "all", "all languages"].join(" / ")),
  ];
  return { ranker: rankerName, data: options.data, summary: summarize(results.map((r) => r.ranks)), groups: byGroup, instances: results };
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

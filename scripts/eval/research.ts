#!/usr/bin/env bun
/**
 * Ranking research on the tuning splits: which cheap code-structure signals move file localization.
 * Every variant ranks every instance of the same corpus walk (one corpus sync per instance), so the
 * comparison is paired. Prints one markdown table (Acc@1/5/10 and MRR per split) and writes the JSON.
 *
 *   bun scripts/eval/research.ts [--split dev|tune|both] [--repo owner/name]... [--limit n] [--only name,...] [--tag t]
 *   (--tag names the work folder and output, so two runs can go side by side; --bench dir holds the JSONL
 *   files, default ../shared/bench; --mirrors dir the git directories, default /work/.mirror)
 */
import { parseArgs } from "node:util";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CorpusFolder } from "./corpus.ts";
import { loadInstances } from "./dataset.ts";
import { inCommitOrder } from "./harness.ts";
import { goldRanks, summarize, type Rank, type Summary } from "./metrics.ts";
import { RepoSignals } from "./signals/repo-signals.ts";
import { rankWithSignals } from "./signals/signal-ranker.ts";
import { VARIANTS } from "./signals/variants.ts";

const REPO_ROOT = resolve(import.meta.dir, "..", "..");
/** The shared data folder: ../shared/bench beside a main checkout, ../../shared/bench beside a worktree in wt/. */
const DEFAULT_BENCH = [resolve(REPO_ROOT, "..", "shared", "bench"), resolve(REPO_ROOT, "..", "..", "shared", "bench")].find((p) => existsSync(p));
const SPLITS: Record<string, string> = { dev: "swebench_lite_dev.jsonl", tune: "swebench_verified_tune.jsonl" };

async function runSplit(
  data: string,
  variants: typeof VARIANTS,
  filter: { repos?: string[]; limit?: number },
  work: string,
  mirrors: string,
): Promise<Map<string, Rank[][]>> {
  const ranks = new Map<string, Rank[][]>(variants.map((v) => [v.name, []]));
  const groups = await inCommitOrder(loadInstances(data, filter), mirrors);
  let done = 0;
  for (const group of groups) {
    const folder = new CorpusFolder(join(work, group.repo.replace("/", "+")), group.gitDir);
    const signals = new RepoSignals();
    for (const instance of group.instances) {
      await folder.checkout(instance.base_commit);
      signals.sync(folder.files);
      for (const v of variants) ranks.get(v.name)!.push(goldRanks(rankWithSignals(signals, instance.problem_statement, v.config), instance.gold_files));
      process.stderr.write(`\r${++done} ${instance.instance_id}            `);
    }
    // A partial table after each repository, so a long run shows where it stands.
    process.stderr.write(
      `\n${group.repo} done; so far:\n${variants.map((v) => `${v.name}: Acc@5 ${summarize(ranks.get(v.name)!).acc5.toFixed(1)}`).join("\n")}\n`,
    );
  }
  process.stderr.write("\n");
  return ranks;
}

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    split: { type: "string", default: "both" },
    tag: { type: "string", default: "" },
    bench: { type: "string" },
    mirrors: { type: "string", default: "/work/.mirror" },
    repo: { type: "string", multiple: true },
    limit: { type: "string" },
    only: { type: "string" },
  },
});
const bench = values.bench ? resolve(values.bench) : DEFAULT_BENCH;
if (!bench) throw new Error("--bench: the folder holding the SWE-bench JSONL files (../shared/bench was not found)");
const splits = values.split === "both" ? ["dev", "tune"] : [values.split!];
for (const s of splits) if (!SPLITS[s]) throw new Error(`--split: must be dev, tune or both, got '${s}'`);
const only = values.only ? new Set(values.only.split(",")) : undefined;
const variants = only ? VARIANTS.filter((v) => only.has(v.name)) : VARIANTS;
const filter: { repos?: string[]; limit?: number } = {};
if (values.repo) filter.repos = values.repo;
if (values.limit) filter.limit = Number(values.limit);

const summaries = new Map<string, Record<string, Summary>>(variants.map((v) => [v.name, {}]));
const perInstance: Record<string, Record<string, Rank[][]>> = {};
for (const split of splits) {
  const ranks = await runSplit(
    join(bench, SPLITS[split]!),
    variants,
    filter,
    join(REPO_ROOT, ".bench", "eval", `research-work${values.tag}`),
    resolve(values.mirrors!),
  );
  perInstance[split] = Object.fromEntries(ranks);
  for (const [name, r] of ranks) summaries.get(name)![split] = summarize(r);
}
const cols = splits.flatMap((s) => [`${s} Acc@1`, `${s} Acc@5`, `${s} Acc@10`, `${s} MRR`]);
console.log(`| variant | ${cols.join(" | ")} |\n|---|${cols.map(() => "---:").join("|")}|`);
const base = summaries.get(variants[0]!.name)!;
for (const v of variants) {
  const s = summaries.get(v.name)!;
  const cells = splits.flatMap((sp) => {
    const x = s[sp]!;
    const d = (a: number, b: number) => (v === variants[0] ? "" : ` (${a - b >= 0 ? "+" : ""}${(a - b).toFixed(1)})`);
    return [
      `${x.acc1.toFixed(1)}${d(x.acc1, base[sp]!.acc1)}`,
      `${x.acc5.toFixed(1)}${d(x.acc5, base[sp]!.acc5)}`,
      `${x.acc10.toFixed(1)}${d(x.acc10, base[sp]!.acc10)}`,
      x.mrr.toFixed(3),
    ];
  });
  console.log(`| ${v.name} | ${cells.join(" | ")} |`);
}
const out = join(REPO_ROOT, ".bench", "eval", `research${values.tag}.json`);
mkdirSync(join(REPO_ROOT, ".bench", "eval"), { recursive: true });
writeFileSync(out, JSON.stringify({ variants, summaries: Object.fromEntries(summaries), perInstance }) + "\n");
console.log(`\nper-instance ranks: ${out}`);

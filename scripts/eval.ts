#!/usr/bin/env bun
/**
 * Retrieval evaluation: SWE-bench file localization (protocol: ../shared/bench/README.md) and the generated
 * query sets (scripts/eval/sets/data: commit subjects → files, docstrings → functions; see
 * scripts/eval/build-sets.ts). Prints a markdown summary on stdout (overall, then per set, split and
 * language, with function-level figures where rows name functions), progress on stderr, and writes every
 * instance's ranks to JSON. An instance that fails counts as a miss, with its error in the JSON.
 *
 *   bun scripts/eval.ts --data ../shared/bench/swebench_lite_dev.jsonl [options]
 *   bun scripts/eval.ts --data scripts/eval/sets/data/commits.jsonl --split dev --ranker cortex --mode keyword
 *     --ranker bm25|signals|cortex   bm25: the protocol's plain BM25 floor; signals: BM25 plus the code-structure
 *                              signals the research recommends (scripts/eval/signals/); cortex: the cortex_search tool
 *     --mode keyword|vector|hybrid   cortex_search mode (with --ranker cortex; default hybrid)
 *     --repo owner/name        only this repository (repeatable)
 *     --split dev|test|tune    only rows of this split (generated sets; SWE-bench rows get theirs from --functions)
 *     --functions file.jsonl   function labels of SWE-bench rows (scripts/eval/sets/data/swebench-functions.jsonl)
 *     --limit n                only the first n instances (after --repo)
 *     --out file.json          per-instance ranks (default .bench/eval/<data>-<ranker>.json)
 *     --reference file.json    compare ranks with a reference (reference_bm25_probe_*.json)
 *     --mirrors dir            git directories (default /work/.mirror, as the fetch tool leaves them)
 *     --work dir               scratch folder for corpora and cortex's home (default $TMPDIR/cortex-eval-work: outside
 *                              the repository, whose .gitignore (.bench/) the indexer would apply to corpora inside it);
 *                              one run per folder: a run refuses a folder another live run holds (work-lock.ts)
 *     --no-index               skip cortex's indexer (bm25 only reads the corpus)
 *
 *   bun scripts/eval.ts --preflight [--data scripts/eval/sets/data/edits.jsonl] [--split dev|test] [--repo r]... [--limit n] [--out f]
 *     the edit preflight's confusion matrix (scripts/eval/preflight.ts): search_codebase with intent edit per task
 */
import { parseArgs } from "node:util";
import { readFileSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { CortexError, errorMessage } from "../src/core/errors.ts";
import { compareWithReference, runEvaluation, type EvalResult } from "./eval/harness.ts";
import { groupTable, summaryTable } from "./eval/metrics.ts";
import { createBm25Ranker } from "./eval/bm25-ranker.ts";
import { createCortexRanker, requireSearchTool, SEARCH_MODES, type SearchMode } from "./eval/cortex-ranker.ts";
import type { RankerFactory } from "./eval/ranker.ts";
import { createSignalRanker } from "./eval/signals/signal-ranker.ts";
import { RECOMMENDED } from "./eval/signals/variants.ts";
import { preflightCli } from "./eval/preflight-cli.ts";

const REPO_ROOT = resolve(import.meta.dir, "..");
const RANKERS = ["bm25", "signals", "cortex"] as const;

export interface EvalCliResult {
  result: EvalResult;
  table: string;
  /** Per set, split and language. */
  groups: string;
  out: string;
  agreement?: ReturnType<typeof compareWithReference>;
}

const USAGE =
  "usage: bun scripts/eval.ts --data <file.jsonl> [--ranker bm25|signals|cortex] [--mode keyword|vector|hybrid] [--repo owner/name]... [--split s] [--functions file.jsonl] [--limit n] [--out file.json] [--reference file.json] [--mirrors dir] [--work dir] [--no-index]";

function parseOptions(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        data: { type: "string" },
        ranker: { type: "string", default: "bm25" },
        mode: { type: "string" },
        repo: { type: "string", multiple: true },
        limit: { type: "string" },
        split: { type: "string" },
        functions: { type: "string" },
        out: { type: "string" },
        reference: { type: "string" },
        mirrors: { type: "string", default: "/work/.mirror" },
        work: { type: "string" },
        "no-index": { type: "boolean", default: false },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (e) {
    throw new CortexError("INVALID_INPUT", `${errorMessage(e)}\n${USAGE}`);
  }
}

function intOption(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new CortexError("INVALID_INPUT", `--${name}: must be a positive integer, got '${raw}'`);
  return n;
}

/** Runs the CLI; returns what it printed so tests can check the same values. */
export async function evalCli(argv: string[], progress: (line: string) => void = (l) => process.stderr.write(l + "\n")): Promise<EvalCliResult> {
  const { values } = parseOptions(argv);
  if (!values.data) throw new CortexError("INVALID_INPUT", "--data: required (a SWE-bench JSONL file)");
  const rankerName = values.ranker!;
  if (!(RANKERS as readonly string[]).includes(rankerName))
    throw new CortexError("INVALID_INPUT", `--ranker: must be one of ${RANKERS.join(", ")}, got '${rankerName}'`);
  if (values.mode !== undefined && rankerName !== "cortex") throw new CortexError("INVALID_INPUT", "--mode: only with --ranker cortex");
  const mode = (values.mode ?? "hybrid") as SearchMode;
  if (!SEARCH_MODES.includes(mode)) throw new CortexError("INVALID_INPUT", `--mode: must be one of ${SEARCH_MODES.join(", ")}, got '${mode}'`);
  if (rankerName === "cortex" && values["no-index"])
    throw new CortexError("INVALID_INPUT", "--no-index: the cortex ranker searches the index, so it cannot skip indexing");
  let factory: RankerFactory;
  if (rankerName === "cortex") {
    requireSearchTool();
    factory = () => createCortexRanker({ mode });
  } else if (rankerName === "signals") factory = () => createSignalRanker("signals", RECOMMENDED.config);
  else factory = createBm25Ranker;

  const limit = intOption(values.limit, "limit");
  const work = resolve(values.work ?? join(tmpdir(), "cortex-eval-work"));
  const result = await runEvaluation({
    data: resolve(values.data),
    mirrors: resolve(values.mirrors!),
    work,
    ranker: factory,
    index: !values["no-index"],
    ...(values.repo ? { repos: values.repo } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(values.split ? { split: values.split } : {}),
    ...(values.functions ? { functions: resolve(values.functions) } : {}),
    progress,
  });
  const label = rankerName === "cortex" ? `cortex-${mode}` : rankerName;
  const out = resolve(
    values.out ?? `${REPO_ROOT}/.bench/eval/${basename(values.data).replace(/\.jsonl?$/, "")}${values.split ? `-${values.split}` : ""}-${label}.json`,
  );
  const cli: EvalCliResult = { result, out, table: summaryTable([{ name: label, summary: result.summary }]), groups: groupTable(label, result.groups) };
  if (values.reference) {
    let reference: unknown;
    try {
      reference = JSON.parse(readFileSync(values.reference, "utf8"));
    } catch (e) {
      throw new CortexError("INVALID_INPUT", `--reference: cannot read ${values.reference}: ${errorMessage(e)}`);
    }
    if (!Array.isArray(reference)) throw new CortexError("INVALID_INPUT", `--reference: ${values.reference} must hold a JSON array of {instance_id, ranks}`);
    cli.agreement = compareWithReference(result.instances, reference);
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify({ ...result, ...(cli.agreement ? { agreement: cli.agreement } : {}) }, null, 1) + "\n");
  return cli;
}

if (import.meta.main && process.argv.includes("--preflight")) {
  try {
    const r = await preflightCli(process.argv.slice(2).filter((a) => a !== "--preflight"));
    console.log(r.table);
    console.log(`\nper-task cards: ${r.out}`);
  } catch (e) {
    process.stderr.write(`eval --preflight: ${errorMessage(e)}\n`);
    process.exit(1);
  }
} else if (import.meta.main) {
  if (process.argv.includes("--help") || process.argv.includes("-h")) {
    console.log(USAGE);
    process.exit(0);
  }
  try {
    const r = await evalCli(process.argv.slice(2));
    console.log(r.table);
    console.log("\n" + r.groups);
    const failed = r.result.instances.filter((i) => i.error !== undefined);
    if (failed.length > 0)
      console.log(
        `\n${failed.length} instance(s) failed and count as misses: ${failed
          .slice(0, 5)
          .map((i) => `${i.instance_id} (${i.error})`)
          .join("; ")}`,
      );
    if (r.agreement) {
      const a = r.agreement;
      console.log(
        `\nreference agreement: ${a.sameRanks}/${a.compared} instances with identical gold ranks, ${a.sameDocCount}/${a.compared} with the same corpus size`,
      );
    }
    console.log(`\nper-instance ranks: ${r.out}`);
  } catch (e) {
    process.stderr.write(`eval: ${errorMessage(e)}\n`);
    if (!(e instanceof CortexError)) process.stderr.write(String((e as Error).stack ?? "") + "\n");
    process.exit(1);
  }
}

/**
 * `bun scripts/eval.ts --preflight`: runs the edit preflight's evaluation (preflight.ts), prints the
 * confusion matrix per split and language, and writes every task's card to JSON.
 */
import { parseArgs } from "node:util";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { CortexError, errorMessage } from "../../src/core/errors.ts";
import { confusion, confusionTable, runPreflightEvaluation, type TaskResult } from "./preflight.ts";

const REPO_ROOT = resolve(import.meta.dir, "..", "..");

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        data: { type: "string", default: join(REPO_ROOT, "scripts", "eval", "sets", "data", "edits.jsonl") },
        split: { type: "string" },
        repo: { type: "string", multiple: true },
        limit: { type: "string" },
        out: { type: "string" },
        mirrors: { type: "string", default: "/work/.mirror" },
        work: { type: "string" },
      },
      strict: true,
    }).values;
  } catch (e) {
    throw new CortexError("INVALID_INPUT", errorMessage(e));
  }
}

export async function preflightCli(
  argv: string[],
  progress: (line: string) => void = (l) => process.stderr.write(l + "\n"),
): Promise<{ table: string; out: string; results: TaskResult[] }> {
  const values = parse(argv);
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
    throw new CortexError("INVALID_INPUT", `--limit: must be a positive integer, got '${values.limit}'`);
  const results = await runPreflightEvaluation({
    data: resolve(values.data!),
    mirrors: resolve(values.mirrors!),
    work: resolve(values.work ?? join(tmpdir(), "cortex-eval-preflight")),
    ...(values.split ? { split: values.split } : {}),
    ...(values.repo ? { repos: values.repo } : {}),
    ...(limit ? { limit } : {}),
    progress,
  });
  const out = resolve(values.out ?? join(REPO_ROOT, ".bench", "eval", `preflight${values.split ? `-${values.split}` : ""}.json`));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify({ data: values.data, summary: confusion(results), tasks: results }, null, 1) + "\n");
  return { table: confusionTable(results), out, results };
}

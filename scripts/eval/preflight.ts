/**
 * The edit preflight's evaluation (issue 15, item 6): for each edit task (scripts/eval/sets/data/edits.jsonl,
 * built by build-sets.ts --kinds edits), index the parent commit and call `search_codebase` with the task
 * as an agent would (the commit's subject, intent edit, the tool's defaults), then compare the card's
 * `ready` with what the task needed. The card's evidence is the files it puts in front of the agent: its
 * results and the impact's files outside them. A task is safe when that evidence holds every file the
 * commit modified and the task is local; broad tasks (many files, or a function many files name) must
 * never be ready. Reports the confusion matrix and the precision and recall of `ready: true`, per split and
 * language. A task that fails (a commit the mirror lacks, an index or search error) is a miss with its
 * error: no card, so not ready, and not complete.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { Session, findTool } from "../../src/tools/index.ts";
import { parseInput } from "../../src/core/zod-issues.ts";
import { formatIssues } from "../../src/core/zod-issues.ts";
import { CortexError, errorMessage } from "../../src/core/errors.ts";
import { assertHistoryAt, CORPUS_FILTERS, CorpusFolder, useFreshCortexHome } from "./corpus.ts";
import { lockWorkFolder } from "./work-lock.ts";
import { inCommitOrder } from "./harness.ts";
import type { Instance } from "./dataset.ts";
import { probe, type Probe } from "./preflight-probe.ts";

export const PREFLIGHT_TOOL = "search_codebase";

const functionLabel = z.object({ file: z.string(), name: z.string(), qualified_name: z.string(), start_line: z.number(), end_line: z.number() });
const editRowSchema = z.object({
  kind: z.literal("edit"),
  id: z.string().min(1),
  repo: z.string().regex(/^[^/\s]+\/[^/\s]+$/, "must be owner/name"),
  language: z.string().min(1),
  split: z.string().min(1),
  commit: z.string().regex(/^[0-9a-f]{40}$/, "must be a full commit id"),
  change: z.string(),
  query: z.string().min(1),
  files: z.array(z.string().min(1)).min(1),
  functions: z.array(functionLabel),
  scope: z.enum(["local", "broad"]),
  broad_because: z.array(z.string()),
});
export type EditTask = z.infer<typeof editRowSchema>;

export function loadEditTasks(file: string, filter: { split?: string; repos?: string[]; limit?: number } = {}): EditTask[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new CortexError("INVALID_INPUT", `data: cannot read ${file}: ${errorMessage(e)}`);
  }
  let rows: EditTask[] = [];
  text.split("\n").forEach((line, n) => {
    if (line.trim() === "") return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (e) {
      throw new CortexError("INVALID_INPUT", `data: ${file}:${n + 1}: not valid JSON (${errorMessage(e)})`);
    }
    const parsed = editRowSchema.safeParse(raw);
    if (!parsed.success) throw new CortexError("INVALID_INPUT", `data: ${file}:${n + 1}: ${formatIssues(parsed.error.issues)}`);
    rows.push(parsed.data);
  });
  if (filter.repos?.length) rows = rows.filter((r) => filter.repos!.includes(r.repo));
  if (filter.split !== undefined) rows = rows.filter((r) => r.split === filter.split);
  if (rows.length === 0) throw new CortexError("INVALID_INPUT", `data: no edit task in ${file} matches the filters`);
  return filter.limit === undefined ? rows : rows.slice(0, filter.limit);
}

/** The part of the card the evaluation keeps. */
export interface CardSummary {
  ready: boolean;
  blockers?: string[];
  /** Ready by the history's way: what blocked the search's way (replayed as blockers). */
  waived?: string[];
  nextAction?: string;
  whatWouldHelp?: string[];
  impact?: { coverage: string; files: string[]; target: string; tests?: string[] };
  evidence?: unknown;
  signals?: unknown;
  changedTogether?: Array<{ file: string; commits: string }>;
  pastChanges?: { commits: number; within: number; outside: Array<{ file: string; commits: number }> };
}

export interface TaskResult {
  id: string;
  repo: string;
  language: string;
  split: string;
  scope: "local" | "broad";
  query: string;
  files: string[];
  /** The files the card put in front of the agent: results, then impact files. */
  evidence: string[];
  /** Every modified file is in the evidence. */
  complete: boolean;
  ready: boolean;
  card?: CardSummary;
  /** Result files with their scores, best first, and what the card said of each. */
  results?: RecordedResult[];
  /** What else the index knew (preflight-probe.ts), for studying new signals from a saved run. */
  probe?: Probe;
  error?: string;
  ms: number;
}

export interface RecordedResult {
  file: string;
  score: number;
  type?: string;
  chunkType?: string;
  symbol?: string;
  relationships?: { importedByCount: number; usedByCount: number; hasTests: boolean };
}

/** What the card names: its results, the impact files outside them, and the files usually changed with the top one. */
export function cardEvidence(response: {
  results?: Array<{ file: string }>;
  preflight?: { impact?: { files: string[] }; changedTogether?: Array<{ file: string }> };
}): string[] {
  return [
    ...new Set([
      ...(response.results ?? []).map((r) => r.file),
      ...(response.preflight?.impact?.files ?? []),
      ...(response.preflight?.changedTogether ?? []).map((c) => c.file),
    ]),
  ];
}

/** A task the card should call ready: local, and its evidence complete. */
export const isSafe = (t: Pick<TaskResult, "scope" | "complete">): boolean => t.scope === "local" && t.complete;

export interface Confusion {
  n: number;
  /** ready and safe */
  tp: number;
  /** ready on a local task with incomplete evidence */
  fpIncomplete: number;
  /** ready on a broad task */
  fpBroad: number;
  /** not ready on a safe task */
  fn: number;
  /** not ready, and not safe */
  tn: number;
  /** ready: true on broad tasks / broad tasks */
  broadReady: string;
  errors: number;
  precision: number | null;
  recall: number | null;
}

export function confusion(rows: readonly Pick<TaskResult, "scope" | "complete" | "ready" | "error">[]): Confusion {
  const c = { n: rows.length, tp: 0, fpIncomplete: 0, fpBroad: 0, fn: 0, tn: 0, errors: 0 };
  let broad = 0;
  for (const r of rows) {
    if (r.error !== undefined) c.errors++;
    if (r.scope === "broad") broad++;
    if (r.ready) {
      if (isSafe(r)) c.tp++;
      else if (r.scope === "broad") c.fpBroad++;
      else c.fpIncomplete++;
    } else if (isSafe(r)) c.fn++;
    else c.tn++;
  }
  const ready = c.tp + c.fpIncomplete + c.fpBroad;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    ...c,
    broadReady: `${c.fpBroad}/${broad}`,
    precision: ready === 0 ? null : round(c.tp / ready),
    recall: c.tp + c.fn === 0 ? null : round(c.tp / (c.tp + c.fn)),
  };
}

/** One row per split and language, then per split over all languages. */
export function confusionTable(results: readonly TaskResult[]): string {
  const lines = [
    "| split | language | n | safe | ready & safe | ready & incomplete | ready & broad | not ready & safe | not ready & unsafe | precision | recall | errors |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  const splits = [...new Set(results.map((r) => r.split))].sort();
  const fmt = (x: number | null) => (x === null ? "–" : x.toFixed(2));
  for (const split of splits) {
    const inSplit = results.filter((r) => r.split === split);
    const languages = [...new Set(inSplit.map((r) => r.language))].sort();
    for (const language of [...languages, "**all languages**"]) {
      const rows = language.startsWith("**") ? inSplit : inSplit.filter((r) => r.language === language);
      const c = confusion(rows);
      lines.push(
        `| ${split} | ${language} | ${c.n} | ${c.tp + c.fn} | ${c.tp} | ${c.fpIncomplete} | ${c.fpBroad} | ${c.fn} | ${c.tn} | ${fmt(c.precision)} | ${fmt(c.recall)} | ${c.errors} |`,
      );
    }
  }
  return lines.join("\n");
}

export interface PreflightEvalOptions {
  data: string;
  mirrors: string;
  work: string;
  split?: string;
  repos?: string[];
  limit?: number;
  progress?: (line: string) => void;
}

/** Runs every task: the parent indexed (incrementally after a repository's first), then the tool as an agent calls it. */
export async function runPreflightEvaluation(o: PreflightEvalOptions): Promise<TaskResult[]> {
  const tool = findTool(PREFLIGHT_TOOL);
  if (!tool) throw new CortexError("UNSUPPORTED", `the preflight evaluation needs the ${PREFLIGHT_TOOL} tool, which is not registered in src/tools/index.ts`);
  const tasks = loadEditTasks(o.data, {
    ...(o.split ? { split: o.split } : {}),
    ...(o.repos ? { repos: o.repos } : {}),
    ...(o.limit ? { limit: o.limit } : {}),
  });
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const instances: Instance[] = tasks.map((t) => ({
    instance_id: t.id,
    repo: t.repo,
    base_commit: t.commit,
    problem_statement: t.query,
    gold_files: t.files,
    fetch_source: `github:${t.repo}`,
    asked_commit: t.change,
  }));
  const release = lockWorkFolder(o.work);
  const savedHome = useFreshCortexHome(o.work);
  const out: TaskResult[] = [];
  try {
    for (const group of await inCommitOrder(instances, o.mirrors)) {
      const folder = new CorpusFolder(join(o.work, "corpus", group.repo.replace("/", "+")), group.gitDir, { include: CORPUS_FILTERS.source });
      const session = new Session(folder.root);
      try {
        for (const instance of group.instances) {
          const t = byId.get(instance.instance_id)!;
          const r: TaskResult = {
            id: t.id,
            repo: t.repo,
            language: t.language,
            split: t.split,
            scope: t.scope,
            query: t.query,
            files: t.files,
            evidence: [],
            complete: false,
            ready: false,
            ms: 0,
          };
          const t0 = performance.now();
          try {
            await folder.checkout(t.commit, t.change);
            await session.index();
            const reader = await session.requireReader();
            await assertHistoryAt((k) => reader.meta(k), t.commit);
            // as an agent calls it: the task's words, intent edit, every other input at its default
            const input = parseInput(tool.input, { query: t.query, intent: "edit" });
            const response = (await tool.handler(input, { session, signal: new AbortController().signal, deadline: Date.now() + 120_000 })) as {
              results: RecordedResult[];
              preflight?: CardSummary & { impact?: { files: string[]; coverage: string; target: string } };
            };
            r.evidence = cardEvidence(response);
            r.complete = t.files.every((f) => r.evidence.includes(f));
            r.ready = response.preflight?.ready === true;
            r.results = response.results.map((x) => ({
              file: x.file,
              score: x.score,
              ...(x.type ? { type: x.type } : {}),
              ...(x.chunkType ? { chunkType: x.chunkType } : {}),
              ...(x.symbol ? { symbol: x.symbol } : {}),
              ...(x.relationships ? { relationships: x.relationships } : {}),
            }));
            r.probe = await probe(reader, t.query, r.results);
            // the ranking further down, for studying wider evidence sets from a saved run
            const wider = (await tool.handler(parseInput(tool.input, { query: t.query, intent: "edit", limit: 15 }), {
              session,
              signal: new AbortController().signal,
              deadline: Date.now() + 120_000,
            })) as { results: RecordedResult[] };
            // the patterns each of the top three files shows (the card's pattern-conflict check reads them)
            const pats = await (await session.patterns()).analyze({ files: r.results.slice(0, 3).map((x) => x.file) });
            r.probe.patterns = {
              conflicts: pats.conflicts.map((c) => c.group),
              byFile: Object.fromEntries(Object.entries(pats.by_file ?? {}).map(([f, l]) => [f, l.map((x) => `${x.group}: ${x.pattern}`)])),
            };
            r.probe.wider = wider.results.map((x) => ({ file: x.file, score: x.score, ...(x.symbol ? { symbol: x.symbol } : {}) }));
            const p = response.preflight;
            if (p)
              r.card = {
                ready: p.ready,
                ...(p.blockers ? { blockers: p.blockers } : {}),
                ...(p.waived ? { waived: p.waived } : {}),
                ...(p.nextAction ? { nextAction: p.nextAction } : {}),
                ...(p.whatWouldHelp ? { whatWouldHelp: p.whatWouldHelp } : {}),
                ...(p.impact ? { impact: p.impact } : {}),
                evidence: p.evidence,
                ...(p.signals ? { signals: p.signals } : {}),
                ...(p.changedTogether ? { changedTogether: p.changedTogether } : {}),
                ...(p.pastChanges ? { pastChanges: p.pastChanges } : {}),
              };
          } catch (e) {
            // a failing task is a miss with its reason, never the end of the run
            r.error = errorMessage(e);
            r.ready = false;
            r.complete = false;
          }
          r.ms = Math.round(performance.now() - t0);
          out.push(r);
          o.progress?.(
            `${out.length}/${tasks.length} ${t.id} [${t.scope}] ready=${r.ready} complete=${r.complete} (${r.ms} ms)${r.error ? ` FAILED: ${r.error}` : ""}`,
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
  return out;
}

#!/usr/bin/env bun
/**
 * Learns the file ranking's weights (FILE_RANKING, src/engines/search/index.ts) from dev records, and writes
 * them to the data file the engine ships (src/engines/search/file-ranking.json). Learning to rank by
 * coordinate ascent: each weight in turn is set to the value of its grid that ranks the records best with
 * every other weight held, and kept only when it gains at least --min-gain points (0.05: about four questions of a thousand-question set, net); passes repeat until one
 * changes nothing. A step may not cost any one set more than --max-loss points of its own score, so no set
 * is traded away for the others. The ranking is the real `searchFiles` over recorded indexes (scripts/eval/file-record.ts,
 * made by rank-tune's `--dump`), so one evaluation of every record takes seconds, not the hours re-indexing
 * would.
 *
 * The objective is the mean over the sets (each --set counts once, whatever its size) of
 * (Acc@1 + Acc@5 + 100 · MRR) / 3, in points: Acc@1 and Acc@5 are what the issue's figures read, MRR keeps
 * the ascent moving where a step changes neither. Dev records only: the test splits are measured once, with
 * scripts/eval.ts, after the weights are fixed.
 *
 *   bun scripts/eval/rank-tune.ts --data scripts/eval/sets/data/docstrings.jsonl --split dev --variants base --dump doc-dev.jsonl
 *   bun scripts/eval/rank-tune.ts --data scripts/eval/sets/data/commits.jsonl --split dev --variants base --dump com-dev.jsonl
 *   bun scripts/eval/rank-tune.ts --data ../shared/bench/swebench_lite_dev.jsonl --variants base --dump-terms --dump lite.jsonl
 *   bun scripts/eval/rank-tune.ts --data ../shared/bench/swebench_verified_tune.jsonl --variants base --dump-terms --dump vt.jsonl
 *   bun scripts/eval/train-ranker.ts --set docstrings=doc-dev.jsonl --set commits=com-dev.jsonl --set swebench=lite.jsonl,vt.jsonl \
 *     [--passes 4] [--min-gain 0.05] [--max-loss 0.5] [--knobs chunk,history,...] [--out src/engines/search/file-ranking.json] [--jobs 2] [--dry-run]
 *
 * It starts from the weights the engine has now (the shipped file included), so a retrain after a new signal
 * moves only what the new records ask for. The records must be made with those weights: the script checks
 * that replaying them gives each recorded ranking and stops when more than --max-differ do not.
 */
import { parseArgs } from "node:util";
import { writeFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { join, resolve } from "node:path";
import { FILE_RANKING, HAND_FILE_RANKING } from "../../src/engines/search/index.ts";
import { LEARNED_KNOBS, type LearnedKnob } from "../../src/engines/search/learned-ranking.ts";
import { summarize, type Rank } from "./metrics.ts";
import type { EvaluatorMessage, EvaluatorRequest } from "./train-ranker-worker.ts";

/** Each weight's grid: the values a step may set it to. Weights not replayable from records are not here (see file-record.ts). */
const GRIDS: Record<LearnedKnob, number[]> = {
  chunk: [0, 0.25, 0.5, 0.75, 1, 1.5],
  chunkShort: [0.5, 1, 1.5, 2, 3, 4],
  chunkPower: [1, 1.5, 2, 3],
  contentPower: [0.5, 0.75, 1, 1.5, 2],
  nameShare: [0, 0.25, 0.5, 0.75, 1],
  definitions: [0.25, 0.4, 0.5, 0.6, 0.75, 1],
  definitionsRarest: [0, 1, 2, 3],
  mentions: [0.25, 0.5, 0.75, 1],
  nonSource: [0.3, 0.5, 0.7, 1],
  scope: [0, 0.5, 1, 1.5, 2],
  tests: [0.2, 0.3, 0.4, 0.55],
  history: [0, 0.5, 1, 1.5, 2],
  historyGate: [0, 0.5, 1, 1.5, 2],
  coChange: [0, 0.1, 0.2],
  coChangeLong: [0, 0.15, 0.3, 0.5],
  coChangeLeaders: [1, 3, 5],
  coChangeMinCommits: [2, 3, 4],
  titleLong: [2, 3, 4, 6],
  familyCap: [0, 2, 3, 4],
  familySlot: [0, 3, 4, 5],
  familyPool: [10, 15, 30],
  kindUnseen: [0.5, 0.75, 1],
  kindEnd: [1, 2, 3],
  "describe.history": [0, 0.25, 0.5, 1],
  "describe.chunkPower": [1, 2, 3, 4],
  "describe.chunkShort": [1, 2, 3, 4],
  "describe.nonSource": [0.5, 0.75, 1],
  "describe.nameShare": [0, 0.25, 0.5, 1],
  "describe.definitions": [0.25, 0.5, 0.75, 1],
  "describe.tests": [0.2, 0.3, 0.55],
  "change.history": [1, 1.5, 2, 3],
  "change.historyGate": [0.5, 1, 1.5, 2],
  "change.chunkShort": [1, 2, 3],
  "change.nameShare": [0, 0.25, 0.5, 1],
  "change.definitions": [0.25, 0.5, 0.75, 1],
  "change.tests": [0.2, 0.3, 0.55],
};

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    set: { type: "string", multiple: true },
    passes: { type: "string", default: "4" },
    "min-gain": { type: "string", default: "0.05" },
    "max-loss": { type: "string", default: "0.5" },
    knobs: { type: "string" },
    out: { type: "string", default: "src/engines/search/file-ranking.json" },
    "max-differ": { type: "string", default: "0.02" },
    "dry-run": { type: "boolean", default: false },
    jobs: { type: "string", default: "2" },
  },
});
if (!values.set || values.set.length === 0) throw new Error("give at least one --set name=records.jsonl[,more.jsonl]");
const knobs = (values.knobs ? values.knobs.split(",") : LEARNED_KNOBS) as LearnedKnob[];
for (const k of knobs) if (!(k in GRIDS)) throw new Error(`--knobs: no grid for "${k}" (known: ${Object.keys(GRIDS).join(", ")})`);
const minGain = Number(values["min-gain"]);
const maxLoss = Number(values["max-loss"]);

type Weights = Record<LearnedKnob, number>;

/**
 * A knob's own value in `w`: a plain weight's, or a kind's own ("describe.history"), undefined where the kind
 * has none and follows the plain weight (kindWeights): such a knob is left unset until a step sets it, so a
 * step on the plain weight moves the kinds that follow it, as the engine will.
 */
function own(w: object, k: LearnedKnob): number | undefined {
  const [group, key] = k.split(".") as [string, string | undefined];
  const o = w as Record<string, Record<string, number | undefined> & number>;
  return key === undefined ? o[group] : o[group]![key];
}
/** The value a knob has in effect: its own, or for a kind without one the plain weight's in `weights`. */
function effective(weights: Partial<Weights>, k: LearnedKnob): number {
  const key = k.split(".")[1] as LearnedKnob | undefined;
  return weights[k] ?? (key === undefined ? own(FILE_RANKING, k)! : (weights[key] ?? own(FILE_RANKING, key)!));
}

interface SetScore {
  name: string;
  acc1: number;
  acc5: number;
  mrr: number;
  score: number;
  ranks: Rank[][];
}
interface Result {
  score: number;
  sets: SetScore[];
}

// the evaluators: each holds every record, so one weight's grid is ranked on --jobs threads side by side
const jobs = Math.max(1, Number(values.jobs));
const evaluators = Array.from(
  { length: jobs },
  (_, i) => new Worker(join(import.meta.dir, "train-ranker-worker.ts"), { workerData: { sets: values.set, check: i === 0 } }),
);
const loaded = await Promise.all(
  evaluators.map(
    (w) =>
      new Promise<Extract<EvaluatorMessage, { kind: "loaded" }>>((ok, fail) => {
        w.once("message", (m: EvaluatorMessage) => (m.kind === "loaded" ? ok(m) : fail(new Error(m.kind === "failed" ? m.error : "unexpected message"))));
        w.once("error", fail);
      }),
  ),
);
const setNames = loaded[0]!.sets.map((s) => s.name);
const records = loaded[0]!.sets.reduce((a, s) => a + s.records, 0);
process.stderr.write(`${records} records; ${loaded[0]!.differ} replay otherwise than recorded\n`);
// the records must replay as they were ranked, or the ascent learns from a ranking the engine does not make
if (loaded[0]!.differ > Number(values["max-differ"]) * records)
  throw new Error(`${loaded[0]!.differ} of ${records} records replay otherwise than they were recorded: make them again with today's weights`);

const idle = [...evaluators];
const waiting: Array<(w: Worker) => void> = [];
let evaluations = 0;
let nextId = 0;
async function evaluate(weights: Partial<Weights>): Promise<Result> {
  const w = idle.pop() ?? (await new Promise<Worker>((ok) => waiting.push(ok)));
  try {
    const id = nextId++;
    const ranks = await new Promise<Rank[][][]>((ok, fail) => {
      const on = (m: EvaluatorMessage) => {
        if (m.kind === "loaded" || m.id !== id) return;
        w.off("message", on);
        if (m.kind === "ranks") ok(m.ranks);
        else fail(new Error(m.error));
      };
      w.on("message", on);
      w.postMessage({ id, weights } satisfies EvaluatorRequest);
    });
    if (++evaluations % 10 === 0) process.stderr.write(`  ${evaluations} evaluations\n`);
    const sets = ranks.map((r, i) => {
      const s = summarize(r);
      return { name: setNames[i]!, acc1: s.acc1, acc5: s.acc5, mrr: s.mrr, score: (s.acc1 + s.acc5 + 100 * s.mrr) / 3, ranks: r };
    });
    return { score: sets.reduce((a, s) => a + s.score, 0) / sets.length, sets };
  } finally {
    const next = waiting.shift();
    if (next) next(w);
    else idle.push(w);
  }
}

const fmt = (r: Result) => `${r.score.toFixed(2)} (${r.sets.map((s) => `${s.name} ${s.acc1.toFixed(1)}/${s.acc5.toFixed(1)}/${s.mrr.toFixed(3)}`).join(", ")})`;

const current: Partial<Weights> = {};
for (const k of knobs) {
  const v = own(FILE_RANKING, k);
  if (v !== undefined) current[k] = v;
}
let best = await evaluate(current);
const start = best;
process.stderr.write(`start ${fmt(best)}\n`);
const steps: Array<{ pass: number; knob: string; from: number; to: number; score: number }> = [];
for (let pass = 1; pass <= Number(values.passes); pass++) {
  let changed = false;
  for (const k of knobs) {
    let choice: { value: number; result: Result } | undefined;
    const now = effective(current, k);
    const grid = GRIDS[k].filter((v) => v !== now);
    const results = await Promise.all(grid.map((v) => evaluate({ ...current, [k]: v })));
    for (const [i, result] of results.entries()) {
      const v = grid[i]!;
      const fair = result.sets.every((s, i) => s.score >= best.sets[i]!.score - maxLoss);
      if (fair && result.score >= best.score + minGain && (!choice || result.score > choice.result.score)) choice = { value: v, result };
    }
    if (!choice) continue;
    steps.push({ pass, knob: k, from: now, to: choice.value, score: choice.result.score });
    process.stderr.write(`pass ${pass}: ${k} ${now} → ${choice.value}: ${fmt(choice.result)}\n`);
    current[k] = choice.value;
    best = choice.result;
    changed = true;
  }
  if (!changed) break;
}
process.stderr.write(`end ${fmt(best)}\n`);

// what moved, per set, at rank 1 and within 5 (instances won / lost against the start)
for (let i = 0; i < setNames.length; i++) {
  const a = start.sets[i]!.ranks;
  const b = best.sets[i]!.ranks;
  const at = (r: Rank[], k: number) => r.every((x) => x !== null && x < k);
  const moved = (k: number) => {
    let won = 0;
    let lost = 0;
    a.forEach((r, j) => {
      if (at(b[j]!, k) && !at(r, k)) won++;
      if (!at(b[j]!, k) && at(r, k)) lost++;
    });
    return `+${won} / −${lost}`;
  };
  console.log(
    `| ${setNames[i]} | ${a.length} | ${start.sets[i]!.acc1.toFixed(1)} / ${start.sets[i]!.acc5.toFixed(1)} / ${start.sets[i]!.mrr.toFixed(3)} | ${best.sets[i]!.acc1.toFixed(1)} / ${best.sets[i]!.acc5.toFixed(1)} / ${best.sets[i]!.mrr.toFixed(3)} | ${moved(1)} | ${moved(5)} |`,
  );
}

// the data file keeps the learned values that differ from the hand-chosen ones, so a reader sees what learning changed
const learned: Record<string, number> = {};
for (const k of LEARNED_KNOBS) {
  // a knob not trained this time keeps the shipped value; a kind left unset keeps following its plain weight
  const v = knobs.includes(k) ? current[k] : own(FILE_RANKING, k);
  if (v !== undefined && v !== own(HAND_FILE_RANKING, k)) learned[k] = v;
}
const file = {
  about:
    "FILE_RANKING's learned weights (src/engines/search/index.ts), written by scripts/eval/train-ranker.ts; a weight not named here keeps its hand-chosen value",
  trained: new Date().toISOString().slice(0, 10),
  sets: Object.fromEntries(
    loaded[0]!.sets.map((s, i) => [s.name, { records: s.records, start: round(start.sets[i]!.score), end: round(best.sets[i]!.score) }]),
  ),
  objective: { start: round(start.score), end: round(best.score) },
  steps,
  weights: learned,
};
if (values["dry-run"]) console.log(JSON.stringify(file, null, 2));
else writeFileSync(resolve(values.out!), JSON.stringify(file, null, 2) + "\n");
for (const w of evaluators) await w.terminate();

function round(x: number) {
  return Math.round(x * 100) / 100;
}

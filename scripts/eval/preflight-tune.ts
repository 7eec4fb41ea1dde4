#!/usr/bin/env bun
/**
 * Chooses the edit preflight's ready rule (src/engines/codebase-search/ready-rule.ts) from a preflight run's
 * recorded cards: every card keeps its older blockers and its signals, so any rule can be replayed
 * without searching again. Reads the dev split only; prints the rule with the highest recall whose
 * precision reaches the target (ties: the fewest checks, then the loosest thresholds), and what the rule
 * in the code gives on each split for comparison.
 *
 * With --cv it also tunes the rule once per dev repository on the other dev repositories and replays it on
 * the one left out: pooled, that says how well the choice itself carries to a repository it never saw.
 *
 * When the cards carry the history's signals (pastCommits, pastCovered: a run over git checkouts), what is
 * tuned is the history's way to ready (ready-rule.ts HistoryRule), the search's rule kept as it is in the
 * code; a run without them tunes the search's rule as before.
 *
 *   bun scripts/eval/preflight-tune.ts .bench/eval/preflight.json [--precision 0.9] [--cv] [--keep pattern-conflict]...
 *     --keep: an older check every candidate rule keeps
 */
import { parseArgs } from "node:util";
import { readFileSync } from "node:fs";
import {
  ALWAYS_BLOCKING,
  BASE_BLOCKERS,
  HISTORY_WAY,
  isReady,
  READY_RULE,
  type Blocker,
  type CardSignals,
  type HistoryRule,
  type ReadyRule,
} from "../../src/engines/codebase-search/ready-rule.ts";
import { confusion, type TaskResult } from "./preflight.ts";

type Recorded = Omit<TaskResult, "card"> & { card?: { blockers?: Blocker[]; waived?: Blocker[]; signals?: CardSignals } };

/**
 * Older blockers a card had, whatever rule it ran under: the signal blockers are decided again here. A
 * card ready by the history's way lists what it overrode as `waived`. (Older checks the rule in force
 * did not keep, such as low-confidence, leave no trace on a card: a run replays rules that keep more of
 * them, not fewer.)
 */
function baseOf(t: Recorded): Blocker[] {
  return [...(t.card?.blockers ?? []), ...(t.card?.waived ?? [])].filter((b) => BASE_BLOCKERS.includes(b));
}

export function replay(tasks: readonly Recorded[], rule: ReadyRule): Array<Omit<TaskResult, "card">> {
  return tasks.map((t) => ({ ...t, ready: t.card?.signals !== undefined && t.error === undefined && isReady(baseOf(t), t.card.signals, rule) }));
}

/**
 * Every candidate rule. `history`: some card carries the history's changed-together count, so its
 * threshold is a dimension (else it would only repeat every rule three times). `keep`: older checks every
 * rule keeps (chosen by hand for what they mean).
 */
function* rules(history: boolean, keep: readonly Blocker[] = []): Generator<ReadyRule> {
  // callers missing from the results, thin evidence and stale memories always block: they name what to read
  const always: Blocker[] = ["callers-missing", "thin-evidence", "stale-memory"];
  const optional: Blocker[] = ["low-confidence", "unresolved-callers", "pattern-conflict"];
  for (let mask = 0; mask < 1 << optional.length; mask++) {
    const base = [...always, ...optional.filter((_, i) => mask & (1 << i))];
    if (keep.some((k) => !base.includes(k))) continue;
    for (const maxRunnerUp of [0.6, 0.7, 0.8, 0.9, 0.95, 1])
      for (const maxNearTies of [0, 1, 99])
        for (const minTopCoverage of [0, 0.4, 0.5, 0.6])
          for (const maxFanIn of [0, 1, 3, 1_000_000])
            for (const blockTopTest of [false, true])
              for (const blockDefinedElsewhere of [false, true])
                for (const minTopScore of [0, 1.5, 1.9])
                  for (const maxSiblings of [0, 1, 99])
                    for (const blockSweepWords of [false, true])
                      for (const maxTwins of [0, 1, 1_000_000])
                        for (const maxChangedTogether of history ? [0, 1, undefined] : [undefined])
                          yield {
                            ...(maxChangedTogether === undefined ? {} : { maxChangedTogether }),
                            maxRunnerUp,
                            maxNearTies,
                            minTopCoverage,
                            maxFanIn,
                            blockTopTest,
                            blockDefinedElsewhere,
                            minTopScore,
                            maxSiblings,
                            blockSweepWords,
                            maxTwins,
                            base,
                          };
  }
}

/**
 * The history's way to ready under every candidate threshold, the search's rule fixed as in the code:
 * loosest first, so that among equal rules the first found is kept.
 */
function* historyRules(keep: readonly Blocker[] = []): Generator<ReadyRule> {
  const { history: _, ...search } = READY_RULE;
  // low-confidence is left out: READY_RULE does not keep it, so the recorded cards do not say where it was
  const optional: Blocker[] = ["unresolved-callers", "pattern-conflict", "twin-definitions", "sweep"];
  for (let mask = 0; mask < 1 << optional.length; mask++) {
    const base = optional.filter((_, i) => mask & (1 << i));
    if (keep.some((k) => !base.includes(k) && !ALWAYS_BLOCKING.includes(k))) continue;
    for (const minCommits of [1, 2, 3, 4, 5])
      for (const minCovered of [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9])
        for (const minTopCoverage of [0, 0.4, 0.5, 0.6]) {
          const history: HistoryRule = { minCommits, minCovered, minTopCoverage, base };
          yield { ...search, history };
        }
  }
}

/** How many checks a rule makes: fewer is simpler, preferred on a tie. */
function checks(r: ReadyRule): number {
  return (
    r.base.length +
    (r.maxRunnerUp < 1 ? 1 : 0) +
    (r.maxNearTies < 99 ? 1 : 0) +
    (r.minTopCoverage > 0 ? 1 : 0) +
    (r.maxFanIn < 1_000_000 ? 1 : 0) +
    (r.blockTopTest ? 1 : 0) +
    (r.minTopScore > 0 ? 1 : 0) +
    (r.maxSiblings < 99 ? 1 : 0) +
    (r.blockSweepWords ? 1 : 0) +
    (r.maxTwins < 1_000_000 ? 1 : 0) +
    (r.maxChangedTogether !== undefined ? 1 : 0) +
    (r.blockDefinedElsewhere ? 1 : 0) +
    (r.history ? r.history.base.length + (r.history.minCommits > 1 ? 1 : 0) + (r.history.minCovered > 0 ? 1 : 0) + (r.history.minTopCoverage > 0 ? 1 : 0) : 0)
  );
}

export function tune(
  dev: readonly Recorded[],
  target: number,
  keep: readonly Blocker[] = [],
): { rule: ReadyRule; precision: number; recall: number } | undefined {
  let best: { rule: ReadyRule; precision: number; recall: number; tp: number } | undefined;
  const history = dev.some((t) => t.card?.signals?.changedTogether !== undefined);
  const past = dev.some((t) => t.card?.signals?.pastCovered !== undefined);
  for (const rule of past ? historyRules(keep) : rules(history, keep)) {
    const c = confusion(replay(dev, rule));
    if (c.precision === null || c.precision < target || c.recall === null) continue;
    if (
      !best ||
      c.recall > best.recall ||
      (c.recall === best.recall && (c.precision > best.precision || (c.precision === best.precision && checks(rule) < checks(best.rule))))
    )
      best = { rule, precision: c.precision, recall: c.recall, tp: c.tp };
  }
  return best;
}

/**
 * Leave one repository out: the rule tuned on the other repositories, replayed on the one left out, all
 * held-out replays pooled. Precision and recall of the tuning procedure on repositories it never saw.
 */
export function crossValidate(dev: readonly Recorded[], target: number, keep: readonly Blocker[] = []): ReturnType<typeof confusion> {
  const held: Array<Omit<TaskResult, "card">> = [];
  for (const repo of new Set(dev.map((t) => t.repo))) {
    const best = tune(
      dev.filter((t) => t.repo !== repo),
      target,
      keep,
    );
    const out = dev.filter((t) => t.repo === repo);
    held.push(...(best ? replay(out, best.rule) : out.map((t) => ({ ...t, ready: false }))));
  }
  return confusion(held);
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    options: { precision: { type: "string", default: "0.9" }, cv: { type: "boolean", default: false }, keep: { type: "string", multiple: true } },
    allowPositionals: true,
  });
  if (positionals.length !== 1) throw new Error("usage: bun scripts/eval/preflight-tune.ts <preflight run .json> [--precision 0.9] [--cv]");
  const tasks = (JSON.parse(readFileSync(positionals[0]!, "utf8")) as { tasks: Recorded[] }).tasks;
  const dev = tasks.filter((t) => t.split === "dev");
  const keep = (values.keep ?? []) as Blocker[];
  const best = tune(dev, Number(values.precision), keep);
  console.log("best on dev:", JSON.stringify(best, null, 1));
  for (const split of ["dev", "test"]) {
    const rows = tasks.filter((t) => t.split === split);
    console.log(split, "as recorded:", JSON.stringify(confusion(rows)));
    console.log(split, "rule in the code:", JSON.stringify(confusion(replay(rows, READY_RULE))));
    console.log(split, "with the history's way (HISTORY_WAY):", JSON.stringify(confusion(replay(rows, { ...READY_RULE, history: HISTORY_WAY }))));
    if (best) console.log(split, "best dev rule:", JSON.stringify(confusion(replay(rows, best.rule))));
  }
  if (values.cv) console.log("dev, each repository tuned without it:", JSON.stringify(crossValidate(dev, Number(values.precision), keep)));
}

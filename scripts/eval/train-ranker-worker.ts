/**
 * One of train-ranker.ts's evaluators, on a thread of its own: loads every set's records (workerData.sets,
 * `name=records.jsonl[,more.jsonl]`), the first of them says how many replay otherwise than recorded, then answers each
 * { id, weights } with every set's gold ranks under FILE_RANKING with those weights laid over it. Each
 * evaluator holds all the records, so the values of one weight's grid are ranked side by side.
 */
import { parentPort, workerData } from "node:worker_threads";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { FILE_RANKING, type SearchEngine } from "../../src/engines/search/index.ts";
import { withLearned } from "../../src/engines/search/learned-ranking.ts";
import { goldRanks, type Rank } from "./metrics.ts";
import { replayEngine, type FileRecord } from "./file-record.ts";

export interface EvaluatorRequest {
  id: number;
  weights: Record<string, number>;
}
export type EvaluatorMessage =
  | { kind: "loaded"; sets: Array<{ name: string; records: number }>; differ: number }
  | { kind: "ranks"; id: number; ranks: Rank[][][] }
  | { kind: "failed"; id?: number; error: string };

interface Loaded {
  record: FileRecord;
  engine: SearchEngine;
}

function load(spec: string): { name: string; items: Loaded[] } {
  const eq = spec.indexOf("=");
  if (eq <= 0) throw new Error(`--set ${spec}: expected name=records.jsonl[,more.jsonl]`);
  const seen = new Set<string>();
  const items: Loaded[] = [];
  for (const file of spec.slice(eq + 1).split(",")) {
    for (const line of readFileSync(resolve(file), "utf8").split("\n")) {
      if (line.trim() === "") continue;
      const record = JSON.parse(line) as FileRecord;
      // two dumps of one instance (a split run in parts): the first counts
      if (seen.has(record.id)) continue;
      seen.add(record.id);
      items.push({ record, engine: replayEngine(record).engine });
    }
  }
  if (items.length === 0) throw new Error(`--set ${spec}: no records`);
  return { name: spec.slice(0, eq), items };
}

async function ranked({ record, engine }: Loaded): Promise<string[]> {
  return (await engine.searchFiles(record.query, 100, { mode: "keyword" })).map((f) => f.filePath);
}

const port = parentPort!;
const shipped = structuredClone(FILE_RANKING);
try {
  const sets = (workerData as { sets: string[] }).sets.map(load);
  // the records must replay as they were ranked, or the ascent learns from a ranking the engine does not make
  // (the first evaluator checks; the others hold the same records)
  let differ = 0;
  if ((workerData as { check: boolean }).check)
    for (const set of sets) for (const item of set.items) if ((await ranked(item)).join("\n") !== item.record.check.join("\n")) differ++;
  port.postMessage({ kind: "loaded", sets: sets.map((s) => ({ name: s.name, records: s.items.length })), differ } satisfies EvaluatorMessage);
  port.on("message", async ({ id, weights }: EvaluatorRequest) => {
    try {
      Object.assign(FILE_RANKING, withLearned(shipped, weights, "the trainer's weights"));
      const ranks: Rank[][][] = [];
      for (const set of sets) {
        const r: Rank[][] = [];
        for (const item of set.items) r.push(goldRanks(await ranked(item), item.record.gold));
        ranks.push(r);
      }
      port.postMessage({ kind: "ranks", id, ranks } satisfies EvaluatorMessage);
    } catch (e) {
      port.postMessage({ kind: "failed", id, error: String(e) } satisfies EvaluatorMessage);
    }
  });
} catch (e) {
  port.postMessage({ kind: "failed", error: String(e) } satisfies EvaluatorMessage);
}

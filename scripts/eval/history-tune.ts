#!/usr/bin/env bun
/**
 * Chooses the history channel's weights (FILE_RANKING.history… in src/engines/search/index.ts)
 * on a dev split: every instance is indexed once (its parent commit, as a git checkout: corpus.ts), then
 * ranked under each weight variant through the real file ranking, so the variants are compared on the same
 * indexes. Prints Acc@1 / Acc@5 / MRR per variant, overall and per language. Dev splits only: the test
 * split's figure is measured once with the chosen weights, by scripts/eval.ts.
 *
 *   bun scripts/eval/history-tune.ts --data scripts/eval/sets/data/commits.jsonl --split dev [--repo r]... [--work dir]
 */
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { FILE_RANKING } from "../../src/engines/search/index.ts";
import { CORPUS_FILTERS, useFreshCortexHome } from "./corpus.ts";
import { forEachRepository } from "./harness.ts";
import { loadInstances } from "./dataset.ts";
import { accAt, goldRanks, summarize, type Rank } from "./metrics.ts";

type Variant = Partial<typeof FILE_RANKING>;

/**
 * The grid: the channel off, the subjects at full weight whatever they match ("gate0", the weights kept
 * before), and the weight scaled by how much of the question the best matched subject says
 * (FILE_RANKING.historyGate), with more weight, fewer or more commits, and the co-change lift on top.
 */
const VARIANTS: Record<string, Variant> = {
  off: { history: 0, coChange: 0 },
  "h1 gate0": { history: 1, historyGate: 0, coChange: 0 },
  "h1 gate0.5": { history: 1, historyGate: 0.5, coChange: 0 },
  "h1 gate1": { history: 1, historyGate: 1, coChange: 0 },
  "h1 gate2": { history: 1, historyGate: 2, coChange: 0 },
  "h1.5 gate1": { history: 1.5, historyGate: 1, coChange: 0 },
  "h2 gate1": { history: 2, historyGate: 1, coChange: 0 },
  "h2 gate2": { history: 2, historyGate: 2, coChange: 0 },
  "h1 gate1 k10": { history: 1, historyGate: 1, historyCommits: 10, coChange: 0 },
  "h1 gate1 k100": { history: 1, historyGate: 1, historyCommits: 100, coChange: 0 },
  "h1 gate1 c0.15": { history: 1, historyGate: 1, coChange: 0.15 },
};

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    data: { type: "string", default: "scripts/eval/sets/data/commits.jsonl" },
    split: { type: "string", default: "dev" },
    repo: { type: "string", multiple: true },
    mirrors: { type: "string", default: "/work/.mirror" },
    work: { type: "string", default: join(tmpdir(), "cortex-history-tune") },
  },
});
if (values.split === "test") throw new Error("--split test: weights are chosen on dev only");

const instances = loadInstances(resolve(values.data!), { split: values.split!, ...(values.repo ? { repos: values.repo } : {}) });
const work = resolve(values.work!);
useFreshCortexHome(work);
const base = { ...FILE_RANKING };
const ranks = new Map<string, Array<{ language: string; ranks: Rank[] }>>(Object.keys(VARIANTS).map((v) => [v, []]));
let done = 0;
await forEachRepository(instances, { work, mirrors: resolve(values.mirrors!), include: CORPUS_FILTERS.source }, async (group, folder, session) => {
  for (const instance of group.instances) {
    await folder.checkout(instance.base_commit, instance.asked_commit);
    await session.index();
    const search = await session.search();
    for (const [name, v] of Object.entries(VARIANTS)) {
      Object.assign(FILE_RANKING, base, v);
      const files = await search.searchFiles(instance.problem_statement, 20, { mode: "keyword" });
      ranks.get(name)!.push({
        language: instance.language ?? "",
        ranks: goldRanks(
          files.map((f) => f.filePath),
          instance.gold_files,
        ),
      });
    }
    Object.assign(FILE_RANKING, base);
    if (++done % 20 === 0) process.stderr.write(`${done}/${instances.length}\n`);
  }
});
const languages = [...new Set(instances.map((i) => i.language ?? ""))].sort();
// how many questions each variant wins or loses at rank 1 against the channel off: a small net figure can hide much churn
const first = (r: Rank[]) => accAt(r, 1);
const offRows = ranks.get("off")!;
console.log(`| variant | n | Acc@1 | Acc@5 | MRR | @1 won / lost vs off | ${languages.map((l) => `${l} @1/@5`).join(" | ")} |`);
console.log(`|---|---:|---:|---:|---:|---:|${languages.map(() => "---:").join("|")}|`);
for (const [name, rows] of ranks) {
  const won = rows.filter((r, i) => first(r.ranks) && !first(offRows[i]!.ranks)).length;
  const lost = rows.filter((r, i) => !first(r.ranks) && first(offRows[i]!.ranks)).length;
  const s = summarize(rows.map((r) => r.ranks));
  const per = languages.map((l) => {
    const x = summarize(rows.filter((r) => r.language === l).map((r) => r.ranks));
    return `${x.acc1.toFixed(1)} / ${x.acc5.toFixed(1)}`;
  });
  console.log(`| ${name} | ${s.instances} | ${s.acc1.toFixed(1)} | ${s.acc5.toFixed(1)} | ${s.mrr.toFixed(3)} | +${won} / −${lost} | ${per.join(" | ")} |`);
}

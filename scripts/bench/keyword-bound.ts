/**
 * Keyword search ranked by groups under a bound (src/store/keyword-topk.ts) against ranking every
 * matching chunk, on an index already built: per question of the warm-query set, the time of each in
 * the keyword index, the plan and statements the bound took, and whether the 100 rows and their scores are
 * the same to the bit; then cortex_search in keyword mode as warm-queries.ts times it (the in-process
 * Session, 3 rounds, p50 and p95).
 *
 *   CORTEX_HOME=<home> bun scripts/bench/keyword-bound.ts <kernel|go> <corpus root>
 */
import { Session } from "../../src/tools/session.ts";
import { IndexStore } from "../../src/store/index-store.ts";
import { keywordTopK } from "../../src/store/chunk-search.ts";
import { analyzeQuery } from "../../src/engines/search/query.ts";
import { KEYWORD_WEIGHTS } from "../../src/engines/search/index.ts";
import { percentile } from "./run.ts";
import { SETS } from "./warm-queries.ts";

const [setName, root] = process.argv.slice(2);
const set = SETS[setName ?? ""];
if (!set || !root) {
  console.error("usage: CORTEX_HOME=<home> bun scripts/bench/keyword-bound.ts <kernel|go> <corpus root>");
  process.exit(2);
}
const session = new Session(root);
const path = session.reader()?.source;
if (!path) throw new Error(`no index of ${root} under CORTEX_HOME=${process.env.CORTEX_HOME}`);
const store = IndexStore.open(path, { readonly: true });

/** The median of three runs, and the last result. */
function timed<T>(f: () => T): { ms: number; value: T } {
  const ms: number[] = [];
  let value!: T;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    value = f();
    ms.push(performance.now() - t);
  }
  return { ms: percentile(ms, 50), value };
}

console.log("| question | every row | by groups | plan, statements | same rows and scores |\n|---|---:|---:|---|---|");
let same = 0;
for (const q of set.questions) {
  const terms = analyzeQuery(q).terms;
  const all = timed(() => keywordTopK(store, terms, KEYWORD_WEIGHTS, {}, 100, Number.POSITIVE_INFINITY));
  const bounded = timed(() => keywordTopK(store, terms, KEYWORD_WEIGHTS, {}, 100));
  const identical = JSON.stringify(all.value.rows) === JSON.stringify(bounded.value.rows);
  if (identical) same++;
  console.log(
    `| ${q} | ${all.ms.toFixed(1)} ms | ${bounded.ms.toFixed(1)} ms | ${bounded.value.plan}, ${bounded.value.expressions.length} | ${identical ? "yes" : "NO"} |`,
  );
}
console.log(`\n${same}/${set.questions.length} questions: the same 100 rows and scores`);
store.close();

const search = await session.search();
const ms: number[] = [];
for (let round = 0; round < 3; round++) {
  for (const query of set.questions) {
    const t = performance.now();
    await search.search({ query, limit: 15, mode: "keyword" });
    ms.push(performance.now() - t);
  }
}
console.log(
  `cortex_search, keyword mode, ${set.questions.length} questions × 3: p50 ${percentile(ms, 50).toFixed(1)} ms, p95 ${percentile(ms, 95).toFixed(1)} ms`,
);
session.close();

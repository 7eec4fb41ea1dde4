#!/usr/bin/env bun
/**
 * What the chunk list costs per question, with a long question's whole-file support on and off in turn
 * (FUNCTION_RANKING.shortQueryTerms at its value, or infinite: every question short, no whole-file ranking
 * asked): CPU time of this thread per `search` (keyword mode, limit 100, as cortex_search answers an
 * agent), p50 and p95 over rounds × questions, off and on alternated question by question so a shared
 * machine's load falls on both alike. The folder must be indexed already (CORTEX_HOME as it was indexed).
 *
 *   CORTEX_HOME=<home> bun scripts/eval/chunk-cost.ts --root <indexed folder> --data <jsonl with problem_statement or query> [--n 20] [--rounds 3]
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { Session } from "../../src/tools/index.ts";
import { condenseQuery } from "../../src/engines/search/long-query.ts";
import { FUNCTION_RANKING } from "../../src/engines/search/function-promotion.ts";
import { GO_QUESTIONS } from "../bench/search-suite.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    root: { type: "string" },
    data: { type: "string" },
    n: { type: "string", default: "20" },
    rounds: { type: "string", default: "3" },
  },
});
if (!values.root) throw new Error("--root");
const questions = values.data
  ? readFileSync(values.data, "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .slice(0, Number(values.n))
      .map((l) => {
        const r = JSON.parse(l) as { problem_statement?: string; query?: string };
        return condenseQuery(r.problem_statement ?? r.query ?? "").query;
      })
  : GO_QUESTIONS;
const session = new Session(values.root, { oneShot: true });
const engine = await session.search();
await engine.search({ query: "warm up", limit: 100, mode: "keyword" });
const terms = FUNCTION_RANKING.shortQueryTerms;
const cpu: Record<"off" | "on", number[]> = { off: [], on: [] };
for (let round = 0; round < Number(values.rounds); round++) {
  for (const query of questions) {
    for (const side of round % 2 === 0 ? (["off", "on"] as const) : (["on", "off"] as const)) {
      FUNCTION_RANKING.shortQueryTerms = side === "on" ? terms : Number.POSITIVE_INFINITY;
      const t = process.threadCpuUsage();
      await engine.search({ query, limit: 100, mode: "keyword" });
      const u = process.threadCpuUsage(t);
      cpu[side].push((u.user + u.system) / 1000);
    }
  }
}
FUNCTION_RANKING.shortQueryTerms = terms;
session.close();
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
for (const side of ["off", "on"] as const) {
  console.log(`${side}: ${cpu[side].length} searches, CPU p50 ${pct(cpu[side], 0.5).toFixed(1)} ms, p95 ${pct(cpu[side], 0.95).toFixed(1)} ms`);
}

#!/usr/bin/env bun
/**
 * The benchmark runner. Each suite measures one area against its peer tool in the same run and prints a
 * markdown table to paste into docs/benchmarks.md (with the command line, corpus and machine).
 *
 *   bun scripts/bench.ts <suite> [corpus]      suites: index, parse, embed, pattern, search, exact, graph, server, live
 *   corpus: go | django | go+django | kernel | jdk17 | glibc | boost | <path>   (Debian packages: scripts/bench/corpora.ts)
 */
import { cpus, tmpdir, totalmem } from "node:os";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { prepareCorpus } from "./bench/corpora.ts";
import type { BenchRow } from "./bench/run.ts";
import { indexSuite } from "./bench/index-suite.ts";
import { parseSuite } from "./bench/parse-suite.ts";
import { embedSuite } from "./bench/embed-suite.ts";
import { patternSuite } from "./bench/pattern-suite.ts";
import { searchSuite } from "./bench/search-suite.ts";
import { exactSuite } from "./bench/exact-suite.ts";
import { graphSuite } from "./bench/graph-suite.ts";
import { serverSuite } from "./bench/server-suite.ts";
import { liveSuite } from "./bench/live-suite.ts";

const SUITES: Record<string, (corpus: ReturnType<typeof prepareCorpus>, args: string[]) => Promise<BenchRow[]>> = {
  index: (c) => indexSuite(c),
  parse: (c) => parseSuite(c),
  embed: (c, args) => embedSuite(c, args),
  pattern: (c, args) => patternSuite(c, args),
  search: (c) => searchSuite(c),
  exact: (c) => exactSuite(c),
  graph: (c) => graphSuite(c),
  server: (c) => serverSuite(c),
  live: (c) => liveSuite(c),
};

function fmt(v: number): string {
  if (!Number.isFinite(v)) return "n/a";
  if (Math.abs(v) >= 100) return v.toFixed(0);
  if (Math.abs(v) >= 10) return v.toFixed(1);
  return v.toFixed(v >= 1 ? 2 : 3);
}

async function main(argv: string[]): Promise<void> {
  const [suite, corpusName = "go", ...rest] = argv;
  const run = suite ? SUITES[suite] : undefined;
  if (!run) {
    console.error(`usage: bun scripts/bench.ts <suite> [corpus]\nsuites: ${Object.keys(SUITES).join(", ")}`);
    process.exit(2);
  }
  const corpus = prepareCorpus(corpusName);
  // the suites' homes and indexes (hundreds of MB each) live in one folder removed at the end
  const scratch = mkdtempSync(join(tmpdir(), "cortex-bench-run-"));
  process.env.TMPDIR = scratch;
  let rows: BenchRow[];
  try {
    rows = await run(corpus, rest);
  } finally {
    if (!process.env.CORTEX_BENCH_KEEP) rmSync(scratch, { recursive: true, force: true });
  }
  const cpu = cpus()[0]?.model ?? "unknown cpu";
  console.log(`### ${suite} on ${corpus.name}\n`);
  console.log(`Command: \`bun scripts/bench.ts ${argv.join(" ")}\`  `);
  console.log(`Corpus: ${corpus.source}  `);
  console.log(`Machine: ${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Bun ${Bun.version}, ${new Date().toISOString().slice(0, 10)}\n`);
  console.log("| metric | value | unit | note |\n|---|---:|---|---|");
  for (const r of rows) console.log(`| ${r.metric} | ${fmt(r.value)} | ${r.unit} | ${r.note ?? ""} |`);
}

await main(process.argv.slice(2));

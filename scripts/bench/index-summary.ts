#!/usr/bin/env bun
/**
 * One table over several corpora from the index suite's reports (issue 19's figures: files, size, each
 * tier's files/s, peak memory, database × corpus, no-op and incremental runs, the peers of the same run):
 *
 *   for c in go django jdk17 boost glibc kernel; do bun scripts/bench.ts index $c > .bench/index-$c.md; done
 *   bun scripts/bench/index-summary.ts .bench/index-*.md
 *
 * Every figure is read from a report as printed; nothing is measured here.
 */
import { readFileSync } from "node:fs";

interface Row {
  value: number;
  note: string;
}

function parseReport(file: string): { corpus: string; rows: Map<string, Row> } {
  const text = readFileSync(file, "utf8");
  const corpus = /^### index on (.+)$/m.exec(text)?.[1];
  if (!corpus) throw new Error(`${file}: not a report of 'bun scripts/bench.ts index <corpus>' (no "### index on" line)`);
  const rows = new Map<string, Row>();
  for (const line of text.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    // | metric | value | unit | note |
    if (cells.length < 6 || cells[1] === "metric" || cells[1]!.startsWith("---")) continue;
    const value = Number(cells[2]);
    if (!Number.isFinite(value)) continue;
    const key = `${cells[1]} [${cells[3]}]`;
    if (!rows.has(key)) rows.set(key, { value, note: cells[4] ?? "" });
  }
  return { corpus, rows };
}

function get(rows: Map<string, Row>, metric: string, unit: string): Row | undefined {
  return rows.get(`${metric} [${unit}]`);
}

/** The wall time of the run that changed `n` files (the suite names it by its count), with n. */
function changed(rows: Map<string, Row>): string {
  const runs: Array<[number, number]> = [];
  const one = get(rows, "one changed file: wall time", "s");
  if (one) runs.push([1, one.value]);
  for (const [key, row] of rows) {
    const m = /^(\d+) changed files: wall time \[s\]$/.exec(key);
    if (m) runs.push([Number(m[1]), row.value]);
  }
  runs.sort((a, b) => a[0] - b[0]);
  return runs.map(([n, s]) => `${n}: ${s.toFixed(2)} s`).join("; ") || "–";
}

const fmt = (v: number | undefined, digits = 1) => (v === undefined || !Number.isFinite(v) ? "–" : v.toFixed(digits));

function summaryRow(file: string): string {
  const { corpus, rows } = parseReport(file);
  const files = get(rows, "cold index: files", "files")?.value;
  const wall = get(rows, "cold index: wall time", "s")?.value;
  const mibPerS = get(rows, "cold index: throughput", "MiB/s")?.value;
  const text = get(rows, "text tier: searchable (grep, exact) after", "s")?.value;
  const cpu = get(rows, "cold index: CPU time (user + system)", "s")?.value;
  const peak = get(rows, "cold index: peak memory", "MiB")?.value;
  const db = get(rows, "database size", "MiB")?.value;
  const ratio = get(rows, "database / corpus size", "×")?.value;
  // reports of stop 43 and before have only the size after the changed files' runs
  const coldDb = get(rows, "database size after the cold index", "MiB")?.value;
  const coldRatio = get(rows, "database / corpus size after the cold index", "×")?.value;
  const noop = get(rows, "no-op re-index: wall time", "s")?.value;
  const ctags = get(rows, "universal-ctags -R (peer): wall time", "s")?.value;
  const rg = get(rows, "ripgrep over the whole tree (peer): wall time", "s")?.value;
  const perS = (s: number | undefined) => (files !== undefined && s ? Math.round(files / s).toLocaleString("en") : "–");
  const mib = wall !== undefined && mibPerS !== undefined ? wall * mibPerS : undefined;
  return [
    corpus,
    files?.toLocaleString("en") ?? "–",
    fmt(mib, 0),
    `${fmt(text, 2)} s (${perS(text)})`,
    `${fmt(wall)} s (${perS(wall)})`,
    `${fmt(cpu, 0)} s`,
    `${fmt(peak, 0)} MiB`,
    coldDb === undefined ? "–" : `${fmt(coldDb, 0)} MiB (${fmt(coldRatio, 2)} ×)`,
    `${fmt(db, 0)} MiB (${fmt(ratio, 2)} ×)`,
    `${fmt(noop, 2)} s`,
    changed(rows),
    ctags !== undefined && wall !== undefined ? `${fmt(ctags, 2)} s (${fmt(wall / ctags, 2)} ×)` : "–",
    `${fmt(rg, 2)} s`,
  ].join(" | ");
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: bun scripts/bench/index-summary.ts <report.md>… (each the output of 'bun scripts/bench.ts index <corpus>')");
  process.exit(2);
}
console.log(
  "| corpus | files | MiB | text tier: searchable after (files/s) | full index (files/s) | CPU | peak memory | database after the cold index (× corpus) | database after the changed files (× corpus) | no-op | changed files | universal-ctags (cortex ÷ ctags) | ripgrep, one pass |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|");
for (const f of files) console.log(`| ${summaryRow(f)} |`);

/**
 * What an MCP client hears while the index is built in the background: each tier's start and end and the
 * parse tier by quarters, at info level for large runs, whatever CORTEX_LOG sets for stderr.
 */
import { expect, test } from "bun:test";
import { log, type LogRecord } from "../../src/core/log.ts";
import { tierNotices } from "../../src/mcp/tier-notices.ts";

function heard(run: (notice: ReturnType<typeof tierNotices>) => void): LogRecord[] {
  const records: LogRecord[] = [];
  const before = log.level();
  log.setLevel("warning"); // stderr's default: info does not reach it, but reaches a sink taking info
  const remove = log.addSink((r) => records.push(r), "info");
  try {
    run(tierNotices());
  } finally {
    remove();
    log.setLevel(before);
  }
  return records;
}

test("a large first build: the text tier's start and end, the parse tier by quarters, then resolution", () => {
  const records = heard((notice) => {
    notice({ phase: "walk", done: 0, total: 0 });
    for (let i = 0; i <= 1000; i += 100) notice({ phase: "text", done: i, total: 1000 });
    for (let i = 0; i <= 1000; i += 64) notice({ phase: "parse", done: i, total: 1000 });
    // the steps after the parse tier count steps, not files: still a large run's, announced by name
    ["modules", "reference resolution", "git history", "keyword index"].forEach((step, i) => notice({ phase: "finish", done: i, total: 4, step }));
    notice({ phase: "finish", done: 4, total: 4, step: "done" });
  });
  expect(records.map((r) => [r.level, r.message])).toEqual([
    ["info", "index: text tier: reading 1000 files"],
    ["info", "index: text tier written: grep and exact search answer from every file now"],
    ["info", "index: parse tier: parsing 1000 files (symbols, references, graphs, search chunks follow)"],
    ["info", "index: parse tier: 256/1000 files"],
    ["info", "index: parse tier: 512/1000 files"],
    ["info", "index: parse tier: 768/1000 files"],
    ["info", "index: parse tier written; finishing: modules"],
    ["info", "index: finishing: reference resolution"],
    ["info", "index: finishing: git history"],
    ["info", "index: finishing: keyword index"],
  ]);
});

test("a small run (a few changed files) is not announced at info level", () => {
  const records = heard((notice) => {
    notice({ phase: "text", done: 0, total: 3 });
    notice({ phase: "text", done: 3, total: 3 });
    notice({ phase: "parse", done: 0, total: 3 });
    notice({ phase: "finish", done: 0, total: 2, step: "modules" });
    notice({ phase: "finish", done: 1, total: 2, step: "reference resolution" });
  });
  expect(records).toEqual([]);
});

/**
 * scripts/eval/train-ranker.ts over records written here: it keeps a weight's grid value that ranks the gold
 * file first, writes the data file with the learned weight and its step, and refuses records that no longer
 * replay as they were ranked.
 */
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FILE_RANKING } from "../../src/engines/search/index.ts";
import type { FileRecord } from "../../scripts/eval/file-record.ts";

const script = join(import.meta.dir, "../../scripts/eval/train-ranker.ts");
const shipped = JSON.parse(readFileSync(join(import.meta.dir, "../../src/engines/search/file-ranking.json"), "utf8")) as { weights: Record<string, number> };
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length > 0) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** A question whose answer is a documentation file that the file BM25 puts first and the non-source scale puts second. */
function record(id: string, check: string[]): FileRecord {
  return {
    id,
    repo: "example/ledger",
    query: "how the totals are explained",
    gold: ["docs/ledger.py"],
    files: ["docs/ledger.py", "src/ledger.py"],
    tests: [],
    fileCount: 2,
    fileScores: [
      [0, 1],
      [1, 0.6],
    ],
    bestChunk: [],
    defining: {},
    commits: [],
    coChanges: {},
    edges: [],
    check,
  };
}

function run(records: FileRecord[], extra: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), "cortex-train-"));
  dirs.push(dir);
  writeFileSync(join(dir, "records.jsonl"), records.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const out = join(dir, "learned.json");
  const p = Bun.spawnSync(["bun", script, "--set", `docs=${join(dir, "records.jsonl")}`, "--knobs", "nonSource", "--jobs", "1", "--out", out, ...extra], {
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: p.exitCode, stderr: p.stderr.toString(), out };
}

test("a weight's grid value that ranks the gold file first is learned and written with its step", () => {
  // with the hand-chosen scale (0.5, not a learned one) docs/ledger.py scores 0.5 against 0.6: second, as the records say
  expect(FILE_RANKING.nonSource).toBe(0.5);
  expect(shipped.weights.nonSource).toBeUndefined();
  const { code, stderr, out } = run([record("q1", ["src/ledger.py", "docs/ledger.py"]), record("q2", ["src/ledger.py", "docs/ledger.py"])]);
  expect(stderr).toContain("2 records; 0 replay otherwise than recorded");
  expect(code).toBe(0);
  const learned = JSON.parse(readFileSync(out, "utf8")) as { weights: Record<string, number>; steps: Array<{ knob: string; from: number; to: number }> };
  // 0.7 is the first grid value above 0.6: docs/ledger.py leads from there on, and the first best is kept;
  // the weights it did not train keep their shipped values
  expect(learned.weights).toEqual({ ...shipped.weights, nonSource: 0.7 });
  expect(learned.steps).toMatchObject([{ knob: "nonSource", from: 0.5, to: 0.7 }]);
});

test("records that replay otherwise than they were ranked are refused, and nothing is written", () => {
  const { code, stderr, out } = run([record("q1", ["docs/ledger.py", "src/ledger.py"])]);
  expect(code).not.toBe(0);
  expect(stderr).toContain("1 of 1 records replay otherwise than they were recorded");
  expect(() => readFileSync(out)).toThrow();
});

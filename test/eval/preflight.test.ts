/**
 * The edit preflight's evaluation (scripts/eval/preflight.ts) and its tasks (scripts/eval/sets/edit-tasks.ts)
 * on a repository the test builds: a task's scope (broad by files or by a function many files name), the
 * confusion matrix and its precision and recall, the card's evidence, the tuner's replay of recorded cards,
 * and a run that indexes each parent, asks search_codebase and records a task whose commit the mirror lacks
 * as a miss with its error.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { BROAD_FAN_IN, fanIn, scopeOf } from "../../scripts/eval/sets/edit-tasks.ts";
import { cardEvidence, confusion, confusionTable, loadEditTasks, runPreflightEvaluation, type TaskResult } from "../../scripts/eval/preflight.ts";
import { crossValidate, replay, tune } from "../../scripts/eval/preflight-tune.ts";
import { BASE_BLOCKERS, READY_RULE } from "../../src/engines/codebase-search/ready-rule.ts";

let dir: string;
let repo: string;
const ENV = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };
function git(...args: string[]): string {
  const r = Bun.spawnSync(["git", "-C", repo, ...args], { env: ENV });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}
function write(path: string, text: string): void {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
}

const USERS = 11;
let parent = "";
let child = "";

beforeAll(() => {
  process.env.CORTEX_EMBEDDINGS_PROVIDER = "none";
  dir = mkdtempSync(join(tmpdir(), "cortex-preflight-eval-"));
  repo = join(dir, "mirrors", "fake+shop");
  mkdirSync(repo, { recursive: true });
  git("init", "-q", "-b", "main");
  write("money/money.go", 'package money\n\n// FormatCents writes an amount of cents as units and cents.\nfunc FormatCents(c int) string {\n\treturn ""\n}\n');
  write(
    "sku/sku.go",
    "package sku\n\n// ParseSku splits a stock keeping unit code into vendor and product.\nfunc ParseSku(code string) (string, string) {\n\treturn code, code\n}\n",
  );
  for (let i = 0; i < USERS; i++) write(`views/view${i}.go`, `package views\n\nfunc View${i}() string { return money.FormatCents(${i}) }\n`);
  git("add", "-A");
  git("commit", "-q", "-m", "Initial import");
  parent = git("rev-parse", "HEAD");
  write(
    "sku/sku.go",
    "package sku\n\n// ParseSku splits a stock keeping unit code into vendor and product.\nfunc ParseSku(code string) (string, string) {\n\treturn code[:3], code[3:]\n}\n",
  );
  git("commit", "-q", "-am", "Split the sku code into vendor and product parts");
  child = git("rev-parse", "HEAD");
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  delete process.env.CORTEX_EMBEDDINGS_PROVIDER;
});

const fn = (file: string, name: string) => ({ file, name, qualified_name: name, start_line: 4, end_line: 6 });

describe("edit task labels", () => {
  test("a function many files name makes a task broad; a lone one leaves it local", async () => {
    const gitDir = join(repo, ".git");
    const wide = await fanIn(gitDir, parent, [fn("money/money.go", "FormatCents")]);
    expect(wide).toEqual([{ name: "FormatCents", files: USERS }]);
    expect(USERS).toBeGreaterThanOrEqual(BROAD_FAN_IN);
    expect(scopeOf({ files: ["money/money.go"], added_files: [], deleted_files: [] }, wide)).toEqual({
      scope: "broad",
      broad_because: [`FormatCents named in ${USERS} files`],
    });
    const lone = await fanIn(gitDir, parent, [fn("sku/sku.go", "ParseSku")]);
    expect(scopeOf({ files: ["sku/sku.go"], added_files: [], deleted_files: [] }, lone).scope).toBe("local");
  });

  test("four changed source files make a task broad, tests not counted", () => {
    const row = { files: ["a.go", "b.go", "c.go"], added_files: ["d.go", "d_test.go"], deleted_files: [] };
    expect(scopeOf(row, [])).toEqual({ scope: "broad", broad_because: ["4 source files"] });
    expect(scopeOf({ ...row, added_files: ["d_test.go"] }, []).scope).toBe("local");
  });
});

const task = (over: Partial<TaskResult>): TaskResult => ({
  id: "x",
  repo: "r/r",
  language: "go",
  split: "dev",
  scope: "local",
  query: "q",
  files: ["a.go"],
  evidence: [],
  complete: true,
  ready: true,
  ms: 0,
  ...over,
});

describe("the confusion matrix", () => {
  test("ready is right only on a local task with complete evidence; broad and incomplete ones are false positives", () => {
    const rows = [
      task({}),
      task({}),
      task({ complete: false }),
      task({ scope: "broad" }),
      task({ ready: false }),
      task({ ready: false, complete: false }),
      task({ ready: false, complete: false, error: "boom" }),
    ];
    const c = confusion(rows);
    expect(c).toMatchObject({ n: 7, tp: 2, fpIncomplete: 1, fpBroad: 1, fn: 1, tn: 2, errors: 1, broadReady: "1/1" });
    expect(c.precision).toBe(0.5);
    expect(c.recall).toBe(0.667);
    const table = confusionTable(rows);
    expect(table).toContain("| dev | go | 7 | 3 | 2 | 1 | 1 | 1 | 2 | 0.50 | 0.67 | 1 |");
    expect(table).toContain("| dev | **all languages** | 7 |");
  });

  test("the card's evidence is its results and the impact's files outside them", () => {
    expect(cardEvidence({ results: [{ file: "a" }, { file: "b" }], preflight: { impact: { files: ["c", "a"] } } })).toEqual(["a", "b", "c"]);
  });

  test("replaying recorded cards under a rule: only kept older blockers and the rule's signals count", () => {
    const signals = {
      ...{ runnerUpRatio: 0.9, nearTies: 1, topCoverage: 1, topMissing: [], identifiers: [], definedInTop: [], namedFiles: {}, definedElsewhere: {} },
      topScore: 1,
      topIsTest: false,
      siblings: 0,
      sweepWords: [],
      pathMatch: false,
      fanIn: 0,
    };
    const recorded = [
      { ...task({}), card: { blockers: ["pattern-conflict" as const], signals } },
      { ...task({ complete: false }), card: { blockers: [], signals } },
      { ...task({ complete: false }), card: { blockers: [], signals: { ...signals, runnerUpRatio: 0.2, topIsTest: true } } },
    ];
    const open = { ...READY_RULE, base: BASE_BLOCKERS, maxRunnerUp: 1, minTopScore: 0, blockTopTest: false };
    expect(replay(recorded, open).map((t) => t.ready)).toEqual([false, true, true]);
    const loose = { ...open, base: BASE_BLOCKERS.filter((b) => b !== "pattern-conflict") };
    expect(replay(recorded, loose).map((t) => t.ready)).toEqual([true, true, true]);
    expect(replay(recorded, { ...open, maxRunnerUp: 0.5 }).map((t) => t.ready)).toEqual([false, false, true]);
    // the tuner finds a rule that is right on all of them: ready on the first only
    const best = tune(
      recorded.map((r, i) => (i === 0 ? { ...r, card: { blockers: [], signals: { ...signals, runnerUpRatio: 0.1 } } } : r)),
      0.9,
    );
    expect(best?.precision).toBe(1);
    expect(best?.recall).toBe(1);
  });

  test("with the history's signals on the cards, the tuner chooses the history's way, the search's rule as in the code", () => {
    const signals = {
      ...{ runnerUpRatio: 0.95, nearTies: 2, topCoverage: 1, topMissing: [], identifiers: [], definedInTop: [], namedFiles: {}, definedElsewhere: {} },
      topScore: 1,
      topIsTest: false,
      siblings: 0,
      sweepWords: [],
      pathMatch: false,
      fanIn: 0,
      pastCommits: 5,
    };
    // the search's rule blocks every card (a close runner-up); the history tells the safe tasks apart
    const recorded = [
      { ...task({}), card: { blockers: [], signals: { ...signals, pastCovered: 0.8 } } },
      { ...task({}), card: { blockers: [], signals: { ...signals, pastCovered: 0.7 } } },
      { ...task({ complete: false }), card: { blockers: [], signals: { ...signals, pastCovered: 0.1 } } },
      { ...task({ scope: "broad" }), card: { blockers: [], signals: { ...signals, pastCovered: 0.2 } } },
    ];
    expect(replay(recorded, { ...READY_RULE, history: undefined }).map((t) => t.ready)).toEqual([false, false, false, false]);
    const best = tune(recorded, 0.9)!;
    expect(best).toMatchObject({ precision: 1, recall: 1 });
    expect(best.rule.maxRunnerUp).toBe(READY_RULE.maxRunnerUp);
    expect(best.rule.history!.minCovered).toBeGreaterThan(0.2);
    expect(best.rule.history!.minCovered).toBeLessThanOrEqual(0.7);
  });

  test("cross-validation tunes without each repository and replays the rule on it", () => {
    const signals = {
      ...{ runnerUpRatio: 0.1, nearTies: 0, topCoverage: 1, topMissing: [], identifiers: [], definedInTop: [], namedFiles: {}, definedElsewhere: {} },
      topScore: 2,
      topIsTest: false,
      siblings: 0,
      sweepWords: [],
      pathMatch: true,
      fanIn: 0,
    };
    // in every repository a clear lead is safe and a near tie is not: a rule learned on one carries to the other
    const rows = ["a/a", "b/b"].flatMap((repo) => [
      { ...task({ repo, id: `${repo}1` }), card: { blockers: [], signals } },
      { ...task({ repo, id: `${repo}2`, complete: false }), card: { blockers: [], signals: { ...signals, runnerUpRatio: 0.97 } } },
    ]);
    const c = crossValidate(rows, 0.9);
    expect(c).toMatchObject({ n: 4, tp: 2, fpIncomplete: 0, fn: 0, tn: 2 });
    // a repository whose safe tasks look like the other's unsafe ones is missed when left out
    const flipped = rows.map((r) => (r.repo === "b/b" ? { ...r, complete: !r.complete } : r));
    expect(crossValidate(flipped, 0.9).precision).toBe(0);
  });
});

describe("the evaluation run", () => {
  test("indexes the parent, asks search_codebase with intent edit, and keeps a failing task as a miss", async () => {
    const row = {
      kind: "edit",
      id: "fake/shop@1",
      repo: "fake/shop",
      language: "go",
      split: "dev",
      commit: parent,
      change: child,
      query: "Split the sku code into vendor and product parts",
      files: ["sku/sku.go"],
      functions: [fn("sku/sku.go", "ParseSku")],
      scope: "local",
      broad_because: [],
    };
    const data = join(dir, "edits.jsonl");
    writeFileSync(data, [row, { ...row, id: "fake/shop@missing", commit: "1".repeat(40) }].map((r) => JSON.stringify(r)).join("\n") + "\n");
    const lines: string[] = [];
    const results = await runPreflightEvaluation({ data, mirrors: join(dir, "mirrors"), work: join(dir, "work"), progress: (l) => lines.push(l) });
    const ok = results.find((r) => r.id === "fake/shop@1")!;
    expect(ok.error).toBeUndefined();
    expect(ok.evidence[0]).toBe("sku/sku.go");
    expect(ok.complete).toBe(true);
    expect(ok.card?.signals).toBeDefined();
    // what else the index knew, kept for studying new signals from the saved run (preflight-probe.ts)
    expect(ok.probe!.files).toBeGreaterThan(0);
    expect(ok.probe!.terms.map((t) => t.term)).toContain("sku");
    expect(ok.probe!.terms.find((t) => t.term === "sku")!.files).toBeGreaterThan(0);
    expect(ok.results![0]).toMatchObject({ file: "sku/sku.go", relationships: expect.any(Object) });
    const failed = results.find((r) => r.id === "fake/shop@missing")!;
    expect(failed.error).toBeDefined();
    expect(failed.ready).toBe(false);
    expect(confusion(results).errors).toBe(1);
    expect(lines.some((l) => l.includes("FAILED"))).toBe(true);
  });

  test("a row with a bad field is refused with its line", () => {
    const data = join(dir, "bad.jsonl");
    writeFileSync(data, JSON.stringify({ kind: "edit", id: "x" }) + "\n");
    expect(() => loadEditTasks(data)).toThrow(/bad\.jsonl:1: /);
  });
});

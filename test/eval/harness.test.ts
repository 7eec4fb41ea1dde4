/**
 * The evaluation harness end to end on a repository the test builds: three commits of a small Python
 * project, three fake instances listed out of commit order, the bm25 ranker, cortex's indexer in-process.
 * Every expected rank and metric below is worked out by hand from the files' contents.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { runEvaluation } from "../../scripts/eval/harness.ts";
import { createBm25Ranker } from "../../scripts/eval/bm25-ranker.ts";
import { evalCli } from "../../scripts/eval.ts";
import { CorpusFolder, isTestPath } from "../../scripts/eval/corpus.ts";

let dir: string;
let repo: string;
const commits: string[] = [];

function git(...args: string[]): string {
  const r = Bun.spawnSync(["git", "-C", repo, ...args], {
    env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" },
  });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

function write(path: string, text: string): void {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
}

/** Commits everything with a fixed date, so base-commit order is known. */
function commit(message: string, day: number): string {
  git("add", "-A");
  const date = `2024-01-0${day}T12:00:00Z`;
  const r = Bun.spawnSync(["git", "-C", repo, "commit", "-q", "-m", message], {
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.com",
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    },
  });
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  return git("rev-parse", "HEAD");
}

const row = (id: string, commit: string, problem: string, gold: string[]) =>
  JSON.stringify({
    instance_id: id,
    repo: "fake/proj",
    base_commit: commit,
    problem_statement: problem,
    gold_files: gold,
    fetch_source: "github:fake/proj",
    new_files: [],
  });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "cortex-eval-test-"));
  repo = join(dir, "mirrors", "fake+proj");
  mkdirSync(repo, { recursive: true });
  git("init", "-q", "-b", "main");
  // Commit 1: a parser, a renderer, a legacy module, a test file and a non-Python file (both outside the corpus).
  write("pkg/__init__.py", "VERSION = 1\n");
  write("pkg/parser.py", "def parse_config(text):\n    return dict(line.split('=') for line in text.splitlines())\n");
  write("pkg/render.py", "class HtmlRenderer:\n    def render(self, node):\n        return '<div>' + str(node) + '</div>'\n");
  write("pkg/legacy.py", "def old_entry():\n    return None\n");
  write("tests/test_parser.py", "from pkg.parser import parse_config\n\ndef test_parse_config():\n    assert parse_config('a=b') == {'a': 'b'}\n");
  write("README.md", "parse_config HtmlRenderer cache\n");
  commits.push(commit("one", 1));
  // Commit 2: the renderer changes and a cache module appears.
  write("pkg/render.py", "class HtmlRenderer:\n    def render(self, node):\n        return '<span>' + str(node) + '</span>'\n");
  write("pkg/cache.py", "STORE = {}\n\ndef remember(key, value):\n    STORE[key] = value\n");
  commits.push(commit("two", 2));
  // Commit 3: the legacy module is removed.
  rmSync(join(repo, "pkg/legacy.py"));
  commits.push(commit("three", 3));
  writeFileSync(
    join(dir, "data.jsonl"),
    [
      // Listed out of commit order: the harness must still visit commit 1, 2, 3 in turn.
      row("fake__proj-3", commits[2]!, "old_entry is still documented after its removal", ["pkg/legacy.py"]),
      row("fake__proj-1", commits[0]!, "parse_config crashes when the text is empty", ["pkg/parser.py"]),
      row("fake__proj-2", commits[1]!, "HtmlRenderer emits the wrong element", ["pkg/render.py", "pkg/cache.py"]),
    ].join("\n") + "\n",
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("eval harness on a small repository", () => {
  test("visits base commits in order, indexes incrementally and ranks as worked out by hand", async () => {
    const result = await runEvaluation({ data: join(dir, "data.jsonl"), mirrors: join(dir, "mirrors"), work: join(dir, "work"), ranker: createBm25Ranker });
    expect(result.instances.map((i) => i.instance_id)).toEqual(["fake__proj-1", "fake__proj-2", "fake__proj-3"]);
    // Corpus: __init__, parser, render, legacy; then + cache; then − legacy. The test file and README never count.
    expect(result.instances.map((i) => i.n_docs)).toEqual([4, 5, 4]);
    // 1: only parser.py holds parse_config → rank 0.
    // 2: only render.py matches (HtmlRenderer, html, renderer); no query token is in cache.py, so it sits among
    //    the zero-score files in path order: pkg/__init__.py (1), pkg/cache.py (2).
    // 3: legacy.py left the corpus at commit 3 → not ranked.
    expect(result.instances.map((i) => i.ranks)).toEqual([[0], [0, 2], [null]]);
    expect(result.instances.map((i) => i.index?.mode)).toEqual(["full", "incremental", "incremental"]);
    // Commit 2 rewrote render.py and added cache.py; commit 3 only deleted legacy.py.
    expect(result.instances.map((i) => [i.index?.parsed, i.index?.deleted])).toEqual([
      [4, 0],
      [2, 0],
      [0, 1],
    ]);
    expect(result.instances.map((i) => i.corpus)).toEqual([
      { written: 4, deleted: 0, unchanged: 0, missing: 0 },
      { written: 2, deleted: 0, unchanged: 3, missing: 0 },
      { written: 0, deleted: 1, unchanged: 4, missing: 0 },
    ]);
    const s = result.summary;
    expect(s.instances).toBe(3);
    expect([s.acc1, s.acc3, s.acc5, s.acc10]).toEqual([100 / 3, 200 / 3, 200 / 3, 200 / 3]);
    expect(s.mrr).toBeCloseTo((1 + 1 + 0) / 3, 10);
    // NDCG@10: 1; (1 + 1/log2 4) / (1 + 1/log2 3); 0.
    expect(s.ndcg10).toBeCloseTo((1 + 1.5 / (1 + 1 / Math.log2(3)) + 0) / 3, 10);
    // The corpus folder holds exactly the corpus of the last commit.
    const folder = join(dir, "work", "corpus", "fake+proj");
    expect(readdirSync(join(folder, "pkg")).sort()).toEqual(["__init__.py", "cache.py", "parser.py", "render.py"]);
    expect(existsSync(join(folder, "tests"))).toBe(false);
  });

  test("the corpus folder is a git checkout of the base commit: history up to it, never beyond", async () => {
    const root = join(dir, "git-corpus");
    const folder = new CorpusFolder(root, join(repo, ".git"), { include: () => true });
    // commit 2 asked about commit 3 (its child): HEAD is commit 2, and commit 3 cannot be reached from it
    await folder.checkout(commits[1]!, commits[2]!);
    const head = (args: string[]) =>
      Bun.spawnSync(["git", "-C", root, ...args])
        .stdout.toString()
        .trim();
    expect(head(["rev-parse", "HEAD"])).toBe(commits[1]!);
    expect(head(["log", "--format=%s"]).split("\n")).toEqual(["two", "one"]);
    expect(head(["for-each-ref"])).toBe("");
    // a question made from a commit the checkout already holds is a leak, and the harness refuses it
    await expect(folder.checkout(commits[2]!, commits[1]!)).rejects.toThrow(/history leak/);
    // the harness's runs index with the history channel on: each instance's index ends at its base commit
    const result = await runEvaluation({ data: join(dir, "data.jsonl"), mirrors: join(dir, "mirrors"), work: join(dir, "work-git"), ranker: createBm25Ranker });
    expect(result.instances.map((i) => i.error)).toEqual([undefined, undefined, undefined]);
  });

  test("the CLI filters, writes per-instance ranks and measures agreement with a reference", async () => {
    const reference = join(dir, "reference.json");
    writeFileSync(
      reference,
      JSON.stringify([
        { instance_id: "fake__proj-1", n_docs: 4, ranks: [0] },
        { instance_id: "fake__proj-2", n_docs: 5, ranks: [0, 3] },
      ]),
    );
    const out = join(dir, "ranks.json");
    const lines: string[] = [];
    const r = await evalCli(
      [
        "--data",
        join(dir, "data.jsonl"),
        "--mirrors",
        join(dir, "mirrors"),
        "--work",
        join(dir, "work2"),
        "--out",
        out,
        "--limit",
        "2",
        "--reference",
        reference,
        "--no-index",
      ],
      (l) => lines.push(l),
    );
    // --limit keeps the first two rows of the file: instances 3 and 1.
    expect(r.result.instances.map((i) => i.instance_id)).toEqual(["fake__proj-1", "fake__proj-3"]);
    expect(r.result.instances.every((i) => i.index === undefined)).toBe(true);
    expect(r.agreement).toMatchObject({ compared: 1, sameRanks: 1, sameDocCount: 1 });
    expect(r.table).toContain("| bm25 | 2 | 50.0 | 50.0 | 50.0 | 50.0 | 0.500 | 0.500 |");
    const written = JSON.parse(await Bun.file(out).text());
    expect(written.instances.map((i: { ranks: unknown }) => i.ranks)).toEqual([[0], [null]]);
    expect(lines).toHaveLength(2);
  });

  test("bad options and bad data fail with the field and the rule", async () => {
    const base = ["--mirrors", join(dir, "mirrors"), "--work", join(dir, "work3")];
    await expect(evalCli(base)).rejects.toThrow("--data: required");
    await expect(evalCli(["--bogus", ...base])).rejects.toThrow("Unknown option '--bogus'");
    await expect(evalCli(["--data", join(dir, "data.jsonl"), "--ranker", "tfidf", ...base])).rejects.toThrow(
      "--ranker: must be one of bm25, signals, cortex, got 'tfidf'",
    );
    await expect(evalCli(["--data", join(dir, "data.jsonl"), "--limit", "0", ...base])).rejects.toThrow("--limit: must be a positive integer, got '0'");
    await expect(evalCli(["--data", join(dir, "data.jsonl"), "--repo", "no/such", ...base])).rejects.toThrow("repo: no instance of no/such");
    await expect(evalCli(["--data", join(dir, "data.jsonl"), "--mode", "vector", ...base])).rejects.toThrow("--mode: only with --ranker cortex");
    const bad = join(dir, "bad.jsonl");
    writeFileSync(
      bad,
      row("x-1", commits[0]!, "q", ["a.py"]) +
        "\n" +
        JSON.stringify({ instance_id: "x-2", repo: "fake/proj", base_commit: "zz", problem_statement: "q", gold_files: [], fetch_source: "github:fake/proj" }) +
        "\n",
    );
    await expect(evalCli(["--data", bad, ...base])).rejects.toThrow(/bad\.jsonl:2: base_commit: must be a commit id; gold_files: must not be empty/);
  });
});

describe("test-path rule of the protocol", () => {
  test("splits on space, underscore, slash and dot", () => {
    expect(isTestPath("tests/foo.py")).toBe(true);
    expect(isTestPath("pkg/test_foo.py")).toBe(true);
    expect(isTestPath("pkg/foo_test.py")).toBe(true);
    expect(isTestPath("pkg/testing/utils.py")).toBe(true);
    expect(isTestPath("pkg/my test.py")).toBe(true);
    expect(isTestPath("pkg/testutils.py")).toBe(false);
    expect(isTestPath("pkg/contest.py")).toBe(false);
    expect(isTestPath("pkg/Tests/a.py")).toBe(false);
  });
});

/**
 * The generated query sets (scripts/eval/build-sets.ts) on a repository the test builds: which commits
 * become queries, which functions their hunks touch, how a docstring or leading comment becomes a query
 * and disappears from the indexed copy, and that the harness blanks it, ranks the sets and records a
 * failing instance as a miss instead of stopping.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { judgeCommit, parseLog, type CommitCandidate } from "../../scripts/eval/sets/commit-filter.ts";
import { blankRanges, cleanComment, docComments } from "../../scripts/eval/sets/doc-comments.ts";
import { changedLines } from "../../scripts/eval/sets/hunks.ts";
import { commitRows, docstringRows } from "../../scripts/eval/build-sets.ts";
import { FactsParser } from "../../src/lang/parser.ts";
import { emptyProjectInfo } from "../../src/lang/project.ts";
import { runEvaluation } from "../../scripts/eval/harness.ts";
import { createBm25Ranker } from "../../scripts/eval/bm25-ranker.ts";
import type { PinnedRepo } from "../../scripts/eval/sets/repos.ts";

let dir: string;
let repo: string;
let parser: FactsParser;
const shas: Record<string, string> = {};
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

let day = 1;
function commit(name: string, message: string): void {
  git("add", "-A");
  const date = `2024-02-${String(day++).padStart(2, "0")}T12:00:00Z`;
  const r = Bun.spawnSync(["git", "-C", repo, "commit", "-q", "-m", message], { env: { ...ENV, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } });
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  shas[name] = git("rev-parse", "HEAD");
}

const CLIENT_GO = `package client

// Fetch downloads the page at the address and returns its body as text.
func Fetch(url string) string {
	return get(url)
}

// get performs the request on the shared transport without any retry logic.
func get(url string) string {
	return url
}
`;

const PARSER_PY = `def parse_header(line):
    """Split a header line into its name and its value, trimming spaces."""
    name, value = line.split(":", 1)
    return name.strip(), value.strip()


# Count how many non-empty lines the given block of text holds.
def count_lines(text):
    return len([l for l in text.splitlines() if l])
`;

beforeAll(async () => {
  parser = await FactsParser.create();
  dir = mkdtempSync(join(tmpdir(), "cortex-build-sets-"));
  repo = join(dir, "mirrors", "fake+multi");
  mkdirSync(repo, { recursive: true });
  git("init", "-q", "-b", "main");
  write("client/client.go", CLIENT_GO);
  write("pkg/parser.py", PARSER_PY);
  write("README.md", "a fake project\n");
  commit("root", "Initial import of the project");
  // a real change: modifies get() in client.go and adds a test
  write("client/client.go", CLIENT_GO.replace("\treturn url\n}", "\tfor i := 0; i < 3; i++ {\n\t}\n\treturn url\n}"));
  write("client/client_test.go", "package client\n");
  commit("retry", "Retry failed requests three times in the fetch client");
  // whitespace only, with a subject that does not say so
  write("pkg/parser.py", PARSER_PY.replace("    return len(", "    return  len("));
  commit("spaces", "Tidy up the parser module for readers");
  write("pkg/parser.py", PARSER_PY.replace("    return len(", "    return len(list(").replace("if l])", "if l]))"));
  commit("revert", 'Revert "Count lines lazily in the parser"');
  // eleven files
  for (let i = 0; i < 11; i++) write(`gen/file${i}.py`, `X = ${i}\n`);
  commit("sweep", "Add generated tables for every supported locale");
  // a vendored change
  write("vendor/lib/lib.go", "package lib\n");
  write("client/client.go", CLIENT_GO.replace("get(url)\n}", "get(url) // vendored\n}"));
  commit("vendored", "Update the vendored HTTP library to the latest release");
  // a branch and its merge
  git("checkout", "-q", "-b", "side");
  // (whitespace only again, over the reverted text)
  write("pkg/parser.py", PARSER_PY.replace("    return len(", "    return len(list(").replace("if l])", "if l]))").replace("1)", "1 )"));
  commit("side", "Handle header lines with spaces in the parser");
  git("checkout", "-q", "main");
  git("merge", "-q", "--no-ff", "-m", "Merge the header parsing branch into main", "side");
  shas.merge = git("rev-parse", "HEAD");
  // docs only: no source file
  write("README.md", "a fake project that fetches pages\n");
  commit("docs", "Explain what the project does in the readme");
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pin = (): PinnedRepo => ({ repo: "fake/multi", language: "go", split: "dev", commit: git("rev-parse", "HEAD") });

describe("the commit filter", () => {
  const base: CommitCandidate = { sha: "b", parents: ["a"], subject: "Retry failed requests in the client", files: [{ status: "M", path: "src/client.go" }] };
  test("keeps a change to a source file and labels its modified files", () => {
    expect(judgeCommit({ ...base, files: [...base.files, { status: "A", path: "src/retry.go" }, { status: "M", path: "src/client_test.go" }] })).toEqual({
      ok: true,
      files: ["src/client.go"],
      testFiles: ["src/client_test.go"],
      addedFiles: ["src/retry.go"],
      deletedFiles: [],
    });
  });
  test.each([
    ["merge", { parents: ["a", "c"] }],
    ["revert", { subject: 'Revert "Retry failed requests"' }],
    ["formatting", { subject: "Run gofmt over the client package" }],
    ["housekeeping", { subject: "Bump golang.org/x/net from 0.1 to 0.2" }],
    ["subject too short", { subject: "wip" }],
    ["more than 10 files", { files: Array.from({ length: 11 }, (_, i) => ({ status: "M" as const, path: `src/f${i}.go` })) }],
    ["vendored", { files: [...base.files, { status: "M" as const, path: "vendor/x/y.go" }] }],
    [
      "no modified source file",
      {
        files: [
          { status: "M" as const, path: "README.md" },
          { status: "A" as const, path: "src/new.go" },
        ],
      },
    ],
  ])("refuses a commit: %s", (reason, change) => {
    expect(judgeCommit({ ...base, ...change })).toEqual({ ok: false, reason });
  });
  test("reads git log's records", () => {
    const raw = "\x01aaa bbb\x02Fix the thing now\nM\tsrc/a.go\nA\tsrc/b.go\n\n\x01ccc ddd eee\x02Merge it\n";
    expect(parseLog(raw)).toEqual([
      {
        sha: "aaa",
        parents: ["bbb"],
        subject: "Fix the thing now",
        files: [
          { status: "M", path: "src/a.go" },
          { status: "A", path: "src/b.go" },
        ],
      },
      { sha: "ccc", parents: ["ddd", "eee"], subject: "Merge it", files: [] },
    ]);
  });
});

describe("commit rows from a repository's history", () => {
  test("only the real change qualifies; it is indexed at its parent with the functions its hunks touch", async () => {
    const rows = await commitRows(join(repo, ".git"), pin(), parser, { perRepo: 10, window: 100 });
    expect(rows.map((r) => r.query)).toEqual(["Retry failed requests three times in the fetch client"]);
    const r = rows[0]!;
    expect(r.commit).toBe(shas.root!);
    expect(r.change).toBe(shas.retry!);
    expect(r.files).toEqual(["client/client.go"]);
    expect(r.test_files).toEqual(["client/client_test.go"]);
    expect(r.added_files).toEqual(["client/client_test.go"]);
    expect(r.functions.map((f) => [f.name, f.start_line, f.end_line])).toEqual([["get", 9, 11]]);
  });

  test("hunks: old-side spans, with and without context, insertions between two lines", () => {
    const diff = [
      "--- a/x.go",
      "+++ b/x.go",
      "@@ -10,0 +11,2 @@",
      "+a",
      "+b",
      "@@ -20,2 +22,1 @@",
      "-c",
      "-d",
      "+e",
      "--- a/y.py",
      "+++ b/y.py",
      "@@ -1,4 +1,4 @@",
      " keep",
      "-old",
      "+new",
      " keep",
      " keep",
    ].join("\n");
    expect(Object.fromEntries(changedLines(diff))).toEqual({
      "x.go": [
        { start: 10.5, end: 10.5 },
        { start: 20, end: 21 },
      ],
      "y.py": [{ start: 2, end: 2 }],
    });
  });
});

describe("docstring rows and the stripped copy", () => {
  test("a comment's first paragraph, without markers, tags or the function's own name", () => {
    expect(cleanComment("/**\n * Creates a {@link Widget} for the given name.\n *\n * More text.\n * @param name the name\n */", "create")).toBe(
      "Creates a Widget for the given name.",
    );
    expect(cleanComment("// Fetch downloads the page at the address.", "Fetch")).toBe("downloads the page at the address.");
    expect(cleanComment('"""Split a header line into its name."""', "parse_header")).toBe("Split a header line into its name.");
    expect(cleanComment("// TODO: make this faster one day please", "f")).toBeUndefined();
    expect(cleanComment("/// Too short.", "f")).toBeUndefined();
  });

  test("finds Go leading comments and Python docstrings and comments, and blanking keeps every line", async () => {
    for (const [path, text, expected] of [
      [
        "client/client.go",
        CLIENT_GO,
        {
          Fetch: "downloads the page at the address and returns its body as text.",
          get: "performs the request on the shared transport without any retry logic.",
        },
      ],
      [
        "pkg/parser.py",
        PARSER_PY,
        {
          parse_header: "Split a header line into its name and its value, trimming spaces.",
          count_lines: "Count how many non-empty lines the given block of text holds.",
        },
      ],
    ] as const) {
      const parsed = await parser.parse(path, text, emptyProjectInfo());
      const fns = parsed.facts!.functions;
      const docs = docComments(text, { language: parsed.language, functions: fns, comments: parsed.comments! });
      expect(Object.fromEntries([...docs].map(([i, d]) => [fns[i]!.name, d.query]))).toEqual(expected);
      const stripped = blankRanges(
        text,
        [...docs.values()].flatMap((d) => d.ranges),
      );
      expect(stripped.split("\n").length).toBe(text.split("\n").length);
      expect(stripped.length).toBe(text.length);
      for (const q of Object.values(expected)) expect(stripped).not.toContain(q.slice(0, 20));
      // the code is untouched and still parses into the same functions
      const again = await parser.parse(path, stripped, emptyProjectInfo());
      expect(again.facts!.functions.map((f) => [f.name, f.startLine, f.endLine])).toEqual(fns.map((f) => [f.name, f.startLine, f.endLine]));
    }
  });

  test("the harness indexes the stripped copy, ranks the rows and records a failing row as a miss", async () => {
    // one pin per language: each takes only the functions of files in its language
    const goRows = await docstringRows(join(repo, ".git"), pin(), parser, { perRepo: 10 });
    expect(goRows.map((r) => r.function).sort()).toEqual(["Fetch", "get"]);
    const rows = [...goRows, ...(await docstringRows(join(repo, ".git"), { ...pin(), language: "python" }, parser, { perRepo: 10 }))];
    expect(rows.map((r) => r.function).sort()).toEqual(["Fetch", "count_lines", "get", "parse_header"]);
    writeFileSync(join(dir, "ok.jsonl"), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
    const result = await runEvaluation({ data: join(dir, "ok.jsonl"), mirrors: join(dir, "mirrors"), work: join(dir, "work"), ranker: createBm25Ranker });
    expect(result.instances.every((i) => i.error === undefined)).toBe(true);
    const corpusFile = readFileSync(join(dir, "work", "corpus", "fake+multi", "pkg", "parser.py"), "utf8");
    expect(corpusFile).not.toContain("Split a header line");
    expect(corpusFile).not.toContain("Count how many");
    expect(corpusFile).toContain("def parse_header(line):");
    expect(result.groups.map((g) => [g.key, g.n])).toEqual([
      ["docstring / dev / go", 2],
      ["docstring / dev / python", 2],
      ["docstring / dev / all languages", 4],
    ]);
    // the BM25 floor ranks functions too: every row gets a function-level rank
    expect(result.groups[2]!.fn?.instances).toBe(4);
    expect(result.instances.every((i) => i.function_ranks?.length === 1)).toBe(true);

    // a commit the mirror lacks: a miss with its error, and the rest still ranked
    const commitsData = join(dir, "commits.jsonl");
    const commitRowsOk = await commitRows(join(repo, ".git"), pin(), parser, { perRepo: 10, window: 100 });
    const missing = { ...commitRowsOk[0]!, id: "fake/multi@missing", commit: "1".repeat(40) };
    writeFileSync(commitsData, [missing, ...commitRowsOk].map((r) => JSON.stringify(r)).join("\n") + "\n");
    const lines: string[] = [];
    const r2 = await runEvaluation({
      data: commitsData,
      mirrors: join(dir, "mirrors"),
      work: join(dir, "work2"),
      ranker: createBm25Ranker,
      progress: (l) => lines.push(l),
      index: false,
    });
    expect(r2.instances.map((i) => i.instance_id)).toEqual([commitRowsOk[0]!.id, "fake/multi@missing"]);
    const failed = r2.instances[1]!;
    expect(failed.error).toContain("1111111111");
    expect(failed.ranks).toEqual([null]);
    expect(r2.instances[0]!.error).toBeUndefined();
    expect(r2.instances[0]!.ranks).toEqual([0]);
    // a commit's touched functions are its function labels; the first chunks are kept to see what outranks them
    expect(commitRowsOk[0]!.functions.length).toBeGreaterThan(0);
    expect(r2.instances[0]!.function_ranks).toHaveLength(commitRowsOk[0]!.functions.length);
    expect(r2.instances[0]!.function_top!.length).toBeGreaterThan(0);
    expect(r2.groups[0]).toMatchObject({ key: "commit / dev / go", n: 2, errors: 1 });
    expect(lines.some((l) => l.includes("FAILED"))).toBe(true);
  });

  test("SWE-bench rows take function labels and their split from --functions; a row naming no function has no function-level figure", async () => {
    const base = { repo: "fake/multi", base_commit: shas.root!, gold_files: ["pkg/parser.py"], fetch_source: "github:fake/multi", new_files: [] };
    writeFileSync(
      join(dir, "swe.jsonl"),
      [
        { ...base, instance_id: "fake-1", problem_statement: "parse_header fails on a header line without a colon" },
        { ...base, instance_id: "fake-2", problem_statement: "the parser module's imports are unsorted" },
      ]
        .map((r) => JSON.stringify(r))
        .join("\n") + "\n",
    );
    writeFileSync(
      join(dir, "swe-functions.jsonl"),
      [
        {
          instance_id: "fake-1",
          repo: "fake/multi",
          base_commit: shas.root!,
          split: "dev",
          functions: [{ file: "pkg/parser.py", name: "parse_header", qualified_name: "parser.parse_header", start_line: 1, end_line: 4 }],
          outside_functions: 0,
        },
        { instance_id: "fake-2", repo: "fake/multi", base_commit: shas.root!, split: "dev", functions: [], outside_functions: 1 },
      ]
        .map((r) => JSON.stringify(r))
        .join("\n") + "\n",
    );
    const r = await runEvaluation({
      data: join(dir, "swe.jsonl"),
      functions: join(dir, "swe-functions.jsonl"),
      mirrors: join(dir, "mirrors"),
      work: join(dir, "work3"),
      ranker: createBm25Ranker,
      index: false,
    });
    expect(r.instances.map((i) => [i.instance_id, i.split, i.ranks, i.function_ranks])).toEqual([
      ["fake-1", "dev", [0], [0]],
      ["fake-2", "dev", [0], undefined],
    ]);
    expect(r.groups[0]).toMatchObject({ key: "swebench / dev / python", n: 2, errors: 0 });
    expect(r.groups[0]!.fn!.instances).toBe(1);
  });
});

/**
 * The search_text_pattern and cortex_exact tools as the surfaces see them: schemas (defaults, limits,
 * field-naming errors), the specification's result shape and statuses, paths refused outside the root,
 * and the CLI (`cortex grep`, `cortex exact`) run as a real process, its grep output compared with
 * ripgrep's, recorded on the same files (and with live ripgrep where it is installed).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { copyFixture, tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { fixtureDigest, PARITY_CASES, readRecording, ripgrepPath, runRipgrep } from "../helpers/ripgrep-oracle.ts";
import { Session } from "../../src/tools/session.ts";
import { RipgrepLines } from "../../src/tools/search-text-pattern.ts";
import { findTool } from "../../src/tools/index.ts";
import { parseInput } from "../../src/core/zod-issues.ts";
import { exposedOutput, invokeTool } from "../../src/tools/invoke.ts";
import type { ToolContext } from "../../src/tools/context.ts";

const CLI = join(import.meta.dir, "..", "..", "src", "cli", "main.ts");

let p: TmpProject;
let s: Session;

beforeAll(async () => {
  p = tmpProject({
    "src/app/server.go":
      'package app\n\nimport "sync"\n\ntype Server struct {\n\tmu sync.RWMutex\n\tapiKey string\n}\n\nfunc (s *Server) Key() string {\n\ts.mu.RLock()\n\tdefer s.mu.RUnlock()\n\treturn s.apiKey\n}\n',
    "src/app/util.py": "API_KEY = 'secret'\n\ndef api_key():\n    return API_KEY\n",
    "src/web/index.ts": "const apiKey = process.env.API_KEY;\nexport function handler() {\n  return apiKey;\n}\n",
    "README.md": "Set API_KEY before starting.\nThe server reads the api key once.\n",
  });
  s = new Session(p.root);
  await s.index();
});
afterAll(() => {
  s.close();
  p.cleanup();
});

const ctx = (deadlineMs = 20_000): ToolContext => ({ session: s, signal: new AbortController().signal, deadline: Date.now() + deadlineMs });

/** Calls a tool as both surfaces do (validation, handler, output budget) and checks the declared output schema. */
async function call(name: string, raw: Record<string, unknown>) {
  const tool = findTool(name)!;
  const result = await invokeTool(tool, raw, ctx());
  exposedOutput(tool)!.parse(result);
  return result as any;
}

describe("search_text_pattern", () => {
  const tool = () => findTool("search_text_pattern")!;

  test("defaults follow the specification: literal, case-insensitive, two context lines", async () => {
    const input = parseInput(tool().input, { query: "api_key" });
    expect(input).toMatchObject({ is_regex: false, case_sensitive: false, context_lines: 2, fresh: false });
    const r = await call("search_text_pattern", { query: "api_key" });
    expect(r.status).toBe("success");
    expect(r.match_count).toBe(r.matches.length);
    expect(r.matches.map((m: any) => `${m.file_path}:${m.line_number}`)).toEqual([
      "README.md:1",
      "src/app/util.py:1",
      "src/app/util.py:3",
      "src/app/util.py:4",
      "src/web/index.ts:1",
    ]);
    expect(r.matches[1].context).toEqual(["", "def api_key():"]);
  });

  test("the specification's example input is accepted", () => {
    expect(() => parseInput(tool().input, tool().example)).not.toThrow();
  });

  test("regex with capture groups, extensions, target paths", async () => {
    const r = await call("search_text_pattern", {
      query: "func \\((\\w+) \\*(\\w+)\\)",
      is_regex: true,
      case_sensitive: true,
      file_extensions: ["go"],
      target_paths: ["src/"],
    });
    expect(r.matches).toHaveLength(1);
    expect(r.matches[0].match_details.matches[0]).toEqual({ text: "func (s *Server)", column: 1, groups: ["s", "Server"] });
  });

  test("statuses: no_matches_found, and error for an invalid regex or an inaccessible path", async () => {
    expect(await call("search_text_pattern", { query: "nothing-like-this" })).toMatchObject({ status: "no_matches_found", matches: [], match_count: 0 });
    const bad = await call("search_text_pattern", { query: "([a-z", is_regex: true });
    expect(bad.status).toBe("error");
    expect(bad.error_message).toMatch(/^query: Invalid regular expression/);
    // valid for the parser, refused where it runs: an error naming why, not "no matches"
    const nested = await call("search_text_pattern", { query: `${"(".repeat(15000)}${")".repeat(15000)}`, is_regex: true });
    expect(nested.status).toBe("error");
    expect(nested.error_message).toBe("query: the regular expression nests groups 15000 deep; at most 250 (ripgrep's engine has the same limit)");
    // up to the limit it runs, whatever thread runs it; a parenthesis in a class or escaped is no group
    const deep = await call("search_text_pattern", { query: `${"(".repeat(250)}func${")".repeat(250)}[(]?\\(?`, is_regex: true });
    expect(deep.status).toBe("success");
    const outside = await call("search_text_pattern", { query: "x", target_paths: ["../../etc"] });
    expect(outside).toMatchObject({ status: "error", matches: [], match_count: 0 });
    expect(outside.error_message).toContain("outside the project root");
    expect((await call("search_text_pattern", { query: "x", target_paths: ["missing/dir"] })).error_message).toBe(
      "target_paths[0]: no such file or directory: missing/dir",
    );
  });

  test("a long query leaves the output budget to its matches (the plan it carries is cut)", async () => {
    const words = Array.from({ length: 5000 }, (_, i) => `zqw${i}`).join("|");
    const r = await call("search_text_pattern", { query: `func|${words}`, is_regex: true });
    const short = await call("search_text_pattern", { query: "func", is_regex: true });
    expect(short.matches.length).toBeGreaterThan(1);
    expect(r.matches.length).toBe(short.matches.length);
    expect(r.stats.plan.length).toBeLessThanOrEqual(400);
  });

  test("matches are cut to the output budget, and match_count counts what is returned", async () => {
    const all = await call("search_text_pattern", { query: "s", context_lines: 10 });
    const small = await call("search_text_pattern", { query: "s", context_lines: 10, max_tokens: 300 });
    expect(small.truncated).toBe(true);
    expect(small.matches.length).toBeLessThan(all.matches.length);
    expect(small.match_count).toBe(small.matches.length);
    expect(JSON.stringify(small).length).toBeLessThanOrEqual(300 * 4);
    expect(small.truncated_note).toBeUndefined(); // the tool fitted itself; the generic budget had nothing to cut
  });

  test("invalid input is an error naming the field and the rule", () => {
    expect(() => parseInput(tool().input, { query: "x", context_lines: 11 })).toThrow("context_lines: must be at most 10");
    expect(() => parseInput(tool().input, { query: "" })).toThrow("query: must not be empty");
    expect(() => parseInput(tool().input, { query: "x", limit: 5 })).toThrow("unknown field 'limit'");
  });
});

describe("cortex_exact", () => {
  test("returns ranked lines with context and highlights", async () => {
    const r = await call("cortex_exact", { query: "apikey OR api_key", limit: 3, context_lines: 1 });
    expect(r.results).toHaveLength(3);
    expect(r.truncated).toBe(true);
    expect(r.query).toBe("apikey OR api_key");
    for (const h of r.results) expect(h.highlights.length).toBeGreaterThan(0);
  });

  test("limit is 1-100, default 15; malformed queries and unknown languages are errors", async () => {
    const tool = findTool("cortex_exact")!;
    expect(parseInput(tool.input, { query: "x" }).limit).toBe(15);
    expect(() => parseInput(tool.input, { query: "x", limit: 101 })).toThrow("limit: must be at most 100");
    expect(() => parseInput(tool.input, { query: "x", limit: 0 })).toThrow("limit: must be at least 1");
    await expect(call("cortex_exact", { query: "a OR" })).rejects.toThrow("query: OR at column 3 needs a term on both sides");
    await expect(call("cortex_exact", { query: "x", language: ["klingon"] })).rejects.toThrow(/language\[0\]: no indexed file has language 'klingon'/);
    await expect(call("cortex_exact", { query: "x", paths: ["/etc"] })).rejects.toMatchObject({ code: "PATH_OUTSIDE_ROOT" });
  });

  test("a language filter takes any case and common short names in every tool; a name no indexed file has is an error there too", async () => {
    const goOnly = await call("cortex_exact", { query: "func", language: ["go"] });
    expect((await call("cortex_exact", { query: "func", language: ["Go"] })).results).toEqual(goOnly.results);
    expect((await call("cortex_exact", { query: "func", language: ["golang"] })).results).toEqual(goOnly.results);
    for (const [tool, args] of [
      ["cortex_search", { query: "server", language: "klingon" }],
      ["search_codebase", { query: "server", filters: { language: "klingon" } }],
    ] as const) {
      await expect(call(tool, args)).rejects.toThrow(/language: no indexed file has language 'klingon' \(indexed: .*go/);
    }
    // find_symbol_occurrences reports errors in its result (status "error"), as its specification has it
    const occ = await call("find_symbol_occurrences", { symbol_name: "Server", language: "klingon" });
    expect(occ.status).toBe("error");
    expect(occ.error_message).toMatch(/^language: no indexed file has language 'klingon'/);
    const search = await call("cortex_search", { query: "server", language: "GO" });
    expect(search.results.length).toBeGreaterThan(0);
    // a tag no chunk carries is an error naming it and tags the index has; a tag in any case filters
    await expect(call("cortex_search", { query: "server", tags: ["code", "klingon"] })).rejects.toThrow(
      /^tags\[1\]: no indexed chunk carries the tag 'klingon' \(.*common here: .*code/,
    );
    expect((await call("cortex_search", { query: "server", tags: ["GO", "Code"] })).results.length).toBeGreaterThan(0);
    // a tag that exists under which nothing matches is an empty answer, not an error
    expect((await call("cortex_search", { query: "zzqqxxnothing", tags: ["go"] })).results).toEqual([]);
  });

  test("a hit far into a long line is shown in a window around it, its columns the whole line's", async () => {
    const q = tmpProject({ "long.txt": `${"x ".repeat(17_500)}needle_here tail\n` });
    const own = new Session(q.root);
    try {
      await own.index();
      const tool = findTool("cortex_exact")!;
      const r = (await invokeTool(
        tool,
        { query: "needle_here" },
        { session: own, signal: new AbortController().signal, deadline: Date.now() + 20_000 },
      )) as any;
      exposedOutput(tool)!.parse(r);
      const hit = r.results[0];
      expect(hit.highlights[0].column).toBe(35_001);
      expect(hit.line_start_column).toBe(34_801);
      expect(hit.line.endsWith("needle_here tail")).toBe(true);
      // the highlight's column, shifted by the window's start, points at the word in the returned text
      expect(hit.line.slice(hit.highlights[0].column - hit.line_start_column, hit.highlights[0].column - hit.line_start_column + 11)).toBe("needle_here");
    } finally {
      own.close();
      q.cleanup();
    }
  });

  test("a path filter naming no file or folder is an error in every tool, as in grep; globs are patterns", async () => {
    await expect(call("cortex_exact", { query: "func", paths: ["no/such/dir"] })).rejects.toThrow("paths[0]: no such file or directory: no/such/dir");
    expect((await call("cortex_exact", { query: "func", paths: ["**/*.nothing"] })).results).toEqual([]);
    await expect(call("cortex_search", { query: "server", paths: ["no/such/dir"] })).rejects.toThrow("paths[0]: no such file or directory: no/such/dir");
    await expect(call("cortex_search", { query: "server", paths: ["src/**/*.ts"] })).rejects.toThrow(
      "paths[0]: a folder or file, not a pattern: src/**/*.ts (this filter takes path prefixes)",
    );
    // a folder whose name has brackets (a Next.js route) is a path, not a pattern
    mkdirSync(join(p.root, "pages/[id]"), { recursive: true });
    try {
      expect((await call("cortex_search", { query: "server", paths: ["pages/[id]"] })).results).toEqual([]);
      // grep and exact too: the folder is searched, not taken for the glob pages/i or pages/d
      p.write("pages/[id]/page.ts", "export const routeNeedle = 1;\n");
      await s.index();
      const hit = await call("search_text_pattern", { query: "routeNeedle", target_paths: ["pages/[id]"] });
      expect(hit.matches.map((m: any) => m.file_path)).toEqual(["pages/[id]/page.ts"]);
      expect((await call("cortex_exact", { query: "routeNeedle", paths: ["pages/[id]"] })).results).toHaveLength(1);
    } finally {
      rmSync(join(p.root, "pages"), { recursive: true, force: true });
      await s.index(); // the other tests see the project as it was
    }
    const occ = await call("find_symbol_occurrences", { symbol_name: "Server", target_paths: ["no/such/dir"] });
    expect([occ.status, occ.error_message]).toEqual(["error", "target_paths[0]: no such file or directory: no/such/dir"]);
  });

  test("cortex_search says which words it cannot read (letters outside ASCII) and where to look for them", async () => {
    const r = await call("cortex_search", { query: "顧客 für server" });
    expect(r.query_unread).toBe(
      "not read: words with letters outside ASCII (顧客, für): the keyword index holds ASCII words only; cortex_exact and search_text_pattern find them",
    );
    expect((await call("cortex_search", { query: "server" })).query_unread).toBeUndefined();
  });

  test("cortex_search in vector mode with no embeddings to search is an error saying so, not an empty list", async () => {
    const keyword = await call("cortex_search", { query: "server", mode: "keyword" });
    expect(keyword.embeddings).not.toBe("ready");
    await expect(call("cortex_search", { query: "server", mode: "vector" })).rejects.toMatchObject({
      code: "EMBEDDINGS_UNAVAILABLE",
      message: expect.stringContaining("mode vector: no embeddings to search (embeddings: "),
    });
  });
});

async function cli(args: string[], cwd = p.root): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([process.execPath, CLI, ...args], { cwd, env: { ...process.env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

describe("cortex grep (CLI)", () => {
  // ripgrep is the oracle, recorded beside the fixture (a fresh machine has no ripgrep): see test/helpers/ripgrep-oracle.ts
  const recording = readRecording();
  let parity: TmpProject;
  beforeAll(() => {
    parity = copyFixture("grep-parity");
  });
  afterAll(() => parity.cleanup());

  test("the ripgrep recording belongs to this fixture and these cases, and matches live ripgrep where it is installed", () => {
    expect(recording.fixture_sha256).toBe(fixtureDigest());
    expect(recording.cases.map(({ cortex, rg }) => ({ cortex, rg }))).toEqual(PARITY_CASES);
    for (const c of recording.cases) expect(c.stdout.length).toBeGreaterThan(0);
    const rg = ripgrepPath();
    if (rg === undefined) return; // the two checks above hold the recording to the fixture; re-record with scripts/record-ripgrep-oracle.ts
    for (const c of recording.cases) expect(runRipgrep(rg, parity.root, c.rg)).toBe(c.stdout);
  });

  for (const c of recording.cases) {
    test(`prints what ripgrep prints: grep ${c.cortex.join(" ")}`, async () => {
      const r = await cli(["grep", ...c.cortex], parity.root);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(c.stdout);
    });
  }

  test("lines are printed match by match: a line is held back only while a later match of its file may be it", () => {
    const hit = (file_path: string, line_number: number, before: number, after: number) => ({
      file_path,
      line_number,
      matched_line: `match ${line_number}`,
      context: [
        ...Array.from({ length: before }, (_, i) => `ctx ${line_number - before + i}`),
        ...Array.from({ length: after }, (_, i) => `ctx ${line_number + 1 + i}`),
      ],
      context_start_line: line_number - before,
      match_details: { matches: [] },
    });
    const lines = new RipgrepLines(true);
    // -C 2: line 6 is in line 5's context and matches itself; line 12 starts a new group; b.go a new file
    expect(lines.row(hit("a.go", 5, 2, 2))).toBe("a.go-3-ctx 3\na.go-4-ctx 4\na.go:5:match 5");
    expect(lines.row(hit("a.go", 6, 2, 2))).toBe("a.go:6:match 6");
    expect(lines.row(hit("a.go", 12, 2, 2))).toBe("a.go-7-ctx 7\na.go-8-ctx 8\n--\na.go-10-ctx 10\na.go-11-ctx 11\na.go:12:match 12");
    expect(lines.row(hit("b.go", 1, 0, 2))).toBe("a.go-13-ctx 13\na.go-14-ctx 14\n--\nb.go:1:match 1");
    expect(lines.end()).toBe("b.go-2-ctx 2\nb.go-3-ctx 3");
    expect(lines.end()).toBe("");
    // without context lines there are no group separators
    const plain = new RipgrepLines(false);
    expect([plain.row(hit("a.go", 1, 0, 0)), plain.row(hit("b.go", 9, 0, 0)), plain.end()]).toEqual(["a.go:1:match 1", "b.go:9:match 9", ""]);
  });

  test("no match prints nothing and exits 1, as ripgrep does", async () => {
    expect(await cli(["grep", "no-such-text-anywhere"])).toEqual({ code: 1, stdout: "", stderr: "" });
  });

  test("--json prints the tool result; an invalid regex exits 2 with the engine's message on stderr", async () => {
    const ok = await cli(["grep", "Server", "--json", "-C", "0"]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).status).toBe("success");
    const bad = await cli(["grep", "-e", "(unclosed"]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toMatch(/^cortex: query: Invalid regular expression/);
  });

  test("cortex exact prints ranked lines; a malformed query exits 2", async () => {
    const ok = await cli(["exact", "RWMutex", "-n", "1"]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("src/app/server.go:6");
    expect(ok.stdout).toContain("1 of 1 matching lines in 1 files for RWMutex");
    const bad = await cli(["exact", "(RWMutex"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("cortex: query: missing ')' for the '(' at column 1\n");
  });
});

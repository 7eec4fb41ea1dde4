import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { unifiedDiff } from "../../src/engines/structural/diff.ts";
import { FORBIDDEN_FLAGS, debugPatternArgs, searchArgs, validateArgs, type Matcher } from "../../src/engines/structural/command.ts";
import { buildMatches } from "../../src/engines/structural/results.ts";
import type { RawMatch } from "../../src/engines/structural/runner.ts";
import { astGrepError } from "../../src/engines/structural/runner.ts";
import { compileScope } from "../../src/engines/structural/scope.ts";
import { batches, PatternEngine } from "../../src/engines/structural/engine.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { AST_GREP_BIN, devBinary } from "../helpers/ast-grep.ts";
import { TopMatches, keyOf } from "../../src/engines/structural/collect.ts";

const projects: TmpProject[] = [];
afterAll(() => projects.forEach((p) => p.cleanup()));
const project = (files: Record<string, string>) => {
  const p = tmpProject(files);
  projects.push(p);
  return p;
};

describe("unified diffs of proposed rewrites", () => {
  /** Applies the diff with git to a copy and checks it produces exactly the rewritten file. */
  function checkWithGit(original: string, find: string, replacement: string, context: number): string {
    const bytes = Buffer.from(original);
    const start = bytes.indexOf(Buffer.from(find));
    expect(start).toBeGreaterThanOrEqual(0);
    const end = start + Buffer.byteLength(find);
    const diff = unifiedDiff("src/f.txt", bytes, start, end, replacement, context);
    const p = project({ "src/f.txt": original, "change.patch": diff });
    Bun.spawnSync(["git", "init", "-q"], { cwd: p.root });
    const applied = Bun.spawnSync(["git", "apply", "--unidiff-zero", "change.patch"], { cwd: p.root, stderr: "pipe" });
    expect(applied.stderr.toString()).toBe("");
    const expected = Buffer.concat([bytes.subarray(0, start), Buffer.from(replacement), bytes.subarray(end)]).toString();
    expect(readFileSync(join(p.root, "src/f.txt"), "utf8")).toBe(expected);
    return diff;
  }

  const text = "one\ntwo\nthree\nfour\nfive\nsix\nseven\n";

  test("a change inside a line, with context clipped at the file's start", () => {
    expect(checkWithGit(text, "two", "TWO", 3)).toBe("--- a/src/f.txt\n+++ b/src/f.txt\n@@ -1,5 +1,5 @@\n one\n-two\n+TWO\n three\n four\n five\n");
  });

  test("a replacement that adds lines, one that removes lines, and one that empties a line", () => {
    checkWithGit(text, "four", "four\n4b\n4c", 1);
    checkWithGit(text, "three\nfour\nfive", "345", 2);
    checkWithGit(text, "six", "", 0);
  });

  test("the last line without a newline, with and without context", () => {
    const noEol = "a\nb\nlast";
    expect(checkWithGit(noEol, "last", "LAST", 0)).toContain("\\ No newline at end of file");
    checkWithGit(noEol, "b", "B", 2);
    checkWithGit("only", "only", "ONLY", 3);
  });

  test("multi-byte text keeps byte offsets straight", () => {
    checkWithGit("héllo 😀 wörld\nnext\n", "wörld", "world", 1);
  });

  test("no change, no diff", () => {
    const bytes = Buffer.from(text);
    expect(unifiedDiff("f", bytes, 4, 7, "two", 3)).toBe("");
  });
});

describe("ast-grep command lines", () => {
  const matchers: Matcher[] = [
    { kind: "pattern", pattern: "-rf $X", strictness: "smart" },
    { kind: "rule", rule: { pattern: "--update-all" } },
    { kind: "rule", rule: { pattern: "$A" }, fix: "-U" },
  ];

  test("values travel inside their flag, files after '--', and no flag that changes files or waits for a person", () => {
    for (const m of matchers) {
      const args = searchArgs(m, "go", "/cfg.yml", ["-U.go", "--interactive.go"]);
      const sep = args.indexOf("--");
      expect(args.slice(sep + 1)).toEqual(["-U.go", "--interactive.go"]);
      for (const a of args.slice(0, sep)) {
        expect(FORBIDDEN_FLAGS).not.toContain(a);
        expect(a.startsWith("--") || a === "run" || a === "scan").toBe(true);
      }
      expect(args).toContain("--config=/cfg.yml");
      for (const a of [...validateArgs(m, "go", "/cfg.yml"), ...debugPatternArgs("-i", "smart", "go", "/cfg.yml")]) expect(FORBIDDEN_FLAGS).not.toContain(a);
    }
    expect(searchArgs(matchers[0]!, "go", "/c", [])).toContain("--pattern=-rf $X");
    expect(searchArgs(matchers[2]!, "go", "/c", []).find((a) => a.startsWith("--inline-rules="))).toBe(
      '--inline-rules={"id":"cortex-pattern","language":"go","rule":{"pattern":"$A"},"fix":"-U"}',
    );
  });

  test("files named like flags are searched as files, and a rewrite leaves them untouched", async () => {
    const p = project({ "-U.go": "package a\nfunc f() { defer g() }\n", "--interactive.go": "package a\nfunc h() { defer k() }\n" });
    const before = statSync(join(p.root, "-U.go")).mtimeMs;
    const r = await new PatternEngine(p.root, { maxFileSize: 1 << 20, excludes: [] }, devBinary).search({
      pattern: "defer $F()",
      language: "go",
      rewrite: "defer x()",
    });
    expect(r.matches.map((m) => m.file_path)).toEqual(["--interactive.go", "-U.go"]);
    expect(readFileSync(join(p.root, "-U.go"), "utf8")).toBe("package a\nfunc f() { defer g() }\n");
    expect(statSync(join(p.root, "-U.go")).mtimeMs).toBe(before);
  });

  test("batches keep each command line under its byte budget without splitting a name", () => {
    const files = Array.from({ length: 100 }, (_, i) => `dir/file-${i}.go`);
    const runs = batches(files, 200);
    expect(runs.flat()).toEqual(files);
    for (const run of runs) expect(run.reduce((n, f) => n + Buffer.byteLength(f) + 3, 0)).toBeLessThanOrEqual(200);
    expect(batches(["a-very-long-name.go"], 1)).toEqual([["a-very-long-name.go"]]);
  });

  test("ast-grep's error reports become one sentence without help links", () => {
    const stderr = [
      "Error: Cannot parse rule INLINE_RULES",
      "Help: The file is not a valid ast-grep rule. Please refer to doc and fix the error.",
      "See also: https://ast-grep.github.io/guide/rule-config.html",
      "",
      "✖ Caused by",
      "╰▻ Rule contains invalid kind matcher.",
      "╰▻ Kind `nosuch` is invalid.",
    ].join("\n");
    expect(astGrepError(stderr)).toBe("Cannot parse rule: Rule contains invalid kind matcher: Kind `nosuch` is invalid");
    expect(astGrepError("Error: x\n╰▻ Standalone multi meta variable `µµµ` is invalid.", "$$$")).toBe("x: Standalone multi meta variable `$$$` is invalid");
    // a message repeating a huge pattern is cut in the middle, its start and end kept
    const long = astGrepError(`Error: Cannot parse query as a valid pattern: ${"x".repeat(30_000)}END`);
    expect(long.length).toBeLessThan(700);
    expect(long).toStartWith("Cannot parse query as a valid pattern: xxx");
    expect(long).toEndWith("xxxEND");
    expect(long).toContain(" characters left out) … ");
  });
});

describe("ranking ast-grep's output without parsing it", () => {
  test("the key read from the bytes equals the parsed one, even when the code quotes ast-grep's own JSON", () => {
    const tricky = 'package a\nfunc f() {\n\tdefer g(`","range":{"byteOffset":{"start":1,"end":2}},"file":"x"`)\n\tdefer h("\\\\")\n}\n';
    const p = project({ "a.go": tricky, 'we"ird\\ñame.go': "package a\nfunc k() { defer m() }\n" });
    const out = Bun.spawnSync([AST_GREP_BIN, "run", "--pattern=defer $F($$$A)", "--lang=go", "--json=stream", "--", "a.go", 'we"ird\\ñame.go'], {
      cwd: p.root,
      stdout: "pipe",
    });
    const lines = out.stdout.toString().split("\n").filter(Boolean);
    expect(lines.length).toBe(3);
    for (const line of lines) {
      const parsed = JSON.parse(line);
      expect(keyOf(new TextEncoder().encode(line))).toEqual({ file: parsed.file, start: parsed.range.byteOffset.start, end: parsed.range.byteOffset.end });
    }
    expect(keyOf(new TextEncoder().encode('{"something":"else"}'))).toBeUndefined();
  });

  test("the first matches in file order and the true total, whatever order the lines arrive in", () => {
    const line = (file: string, start: number) =>
      new TextEncoder().encode(
        JSON.stringify({ text: "x", range: { byteOffset: { start, end: start + 1 }, start: { line: 0, column: 0 }, end: { line: 0, column: 1 } }, file }),
      );
    const all = Array.from({ length: 500 }, (_, i) => [`f${i % 7}.go`, (i * 37) % 1000] as const);
    const top = new TopMatches(10);
    for (const [f, s] of all) top.add(line(f, s));
    const expected = [...all].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1])).slice(0, 10);
    expect(top.total).toBe(500);
    expect(top.result().map((m) => [m.file, m.range.byteOffset.start])).toEqual(expected.map(([f, s]) => [f, s]));
  });
});

describe("match building", () => {
  const raw = (file: string, text: string, start: number, line: number): RawMatch => ({
    file,
    text,
    lines: `  ${text}`,
    range: { byteOffset: { start, end: start + Buffer.byteLength(text) }, start: { line, column: 2 }, end: { line, column: 2 + text.length } },
  });

  test("a file that changed after ast-grep read it is reported with ast-grep's text and a warning", () => {
    const p = project({ "a.go": "package a\n  defer g()\n" });
    writeFileSync(join(p.root, "a.go"), "package a\n  defer h()\n");
    const built = buildMatches([raw("a.go", "defer g()", 12, 1), raw("gone.go", "defer z()", 0, 0)], { root: p.root, contextLines: 2, rewrite: false });
    expect(built.matches.map((m) => [m.file_path, m.start_line, m.match_text, m.context])).toEqual([
      ["a.go", 2, "defer g()", "  defer g()"],
      ["gone.go", 1, "defer z()", "  defer z()"],
    ]);
    expect(built.warnings).toEqual([
      "a.go changed or disappeared while it was searched: its matches carry ast-grep's text without surrounding lines",
      "gone.go changed or disappeared while it was searched: its matches carry ast-grep's text without surrounding lines",
    ]);
  });

  test("very long matches and context lines are cut to the output budget and say so", () => {
    const long = "x".repeat(5000);
    const p = project({ "m.js": `f(${JSON.stringify(long)});\n` });
    const text = `f(${JSON.stringify(long)})`;
    const built = buildMatches([raw("m.js", text, 0, 0)], { root: p.root, contextLines: 0, rewrite: false });
    const m = built.matches[0]!;
    expect(m.match_text.length).toBe(4000);
    expect(m.match_text.endsWith("…")).toBe(true);
    expect(m.context.length).toBe(400);
    expect(m.truncated_fields!.sort()).toEqual(["context", "match_text"]);
  });
});

describe("file_paths scope", () => {
  const root = "/tmp";
  const inScope = (paths: string[], files: string[]) => {
    const s = compileScope(root, paths);
    return files.filter((f) => s.includes(f));
  };
  const files = ["a.go", "cmd/main.go", "internal/auth/login.go", "internal/auth/gen/x.go", "vendor/v.go", "web/app.ts"];

  test("no entries: everything; only exclusions: everything else", () => {
    expect(inScope([], files)).toEqual(files);
    expect(inScope(["!vendor/", "!**/gen/**"], files)).toEqual(["a.go", "cmd/main.go", "internal/auth/login.go", "web/app.ts"]);
  });

  test("folder globs with a trailing slash, braces, and the last matching entry deciding", () => {
    expect(inScope(["**/auth/"], files)).toEqual(["internal/auth/login.go", "internal/auth/gen/x.go"]);
    expect(inScope(["auth/"], files)).toEqual([]); // a plain path is a file or folder from the root
    expect(inScope(["{cmd,web}/**"], files)).toEqual(["cmd/main.go", "web/app.ts"]);
    expect(inScope(["internal/**", "!internal/auth/gen/**", "internal/auth/gen/x.go"], files)).toEqual(["internal/auth/login.go", "internal/auth/gen/x.go"]);
  });

  test("empty entries are input errors naming their index", () => {
    expect(() => compileScope(root, ["a", " "])).toThrow("file_paths[1]: must not be empty");
  });
});

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { patternTool, renderMatches } from "../../src/tools/cortex-pattern.ts";
import { findTool, Session } from "../../src/tools/index.ts";
import { invokeTool } from "../../src/tools/invoke.ts";
import type { PatternResult } from "../../src/engines/structural/index.ts";
import { CortexError } from "../../src/core/errors.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { AST_GREP_BIN } from "../helpers/ast-grep.ts";

/** cortex_pattern through the tool registry (the path MCP and the CLI take) and through the CLI process. */

const REPO = resolve(import.meta.dir, "..", "..");
let p: TmpProject;
let session: Session;
let savedBinary: string | undefined;

beforeAll(() => {
  savedBinary = process.env.CORTEX_AST_GREP;
  process.env.CORTEX_AST_GREP = AST_GREP_BIN;
  p = tmpProject({
    "go/store.go": "package store\n\nfunc (d *DB) Get() {\n\td.mu.RLock()\n\tdefer d.mu.RUnlock()\n}\n",
    "go/util.go": "package store\n\nfunc f() { defer cleanup() }\n",
  });
  symlinkSync("/etc", join(p.root, "etc-link"));
  session = new Session(p.root);
});

afterAll(() => {
  session.close();
  p.cleanup();
  if (savedBinary === undefined) delete process.env.CORTEX_AST_GREP;
  else process.env.CORTEX_AST_GREP = savedBinary;
});

/** The path MCP and the CLI take: validation by the tool's schema, the handler, the output budget. */
async function call(raw: Record<string, unknown>): Promise<PatternResult> {
  return (await invokeTool(patternTool, raw, { session, signal: new AbortController().signal, deadline: Date.now() + 60_000 })) as PatternResult;
}

async function refusal(raw: Record<string, unknown>): Promise<CortexError> {
  try {
    await call(raw);
  } catch (e) {
    expect(e).toBeInstanceOf(CortexError);
    return e as CortexError;
  }
  throw new Error("expected the call to be refused");
}

describe("cortex_pattern tool", () => {
  test("is registered read-only in the cortex profile, and its example is valid input", () => {
    expect(findTool("cortex_pattern")).toBe(patternTool);
    expect(patternTool.annotations.readOnlyHint).toBe(true);
    expect(patternTool.annotations.destructiveHint).toBe(false);
    expect(patternTool.profiles).toEqual(["cortex"]);
    expect(patternTool.needsIndex).toBe(false);
    expect(patternTool.input.safeParse(patternTool.example).success).toBe(true);
    for (const [field, schema] of Object.entries(patternTool.input.shape))
      expect([field, (schema as { description?: string }).description]).toEqual([field, expect.any(String)]);
  });

  test("answers with matches the output schema accepts, defaults applied", async () => {
    const r = await call({ pattern: "defer $FUNC()", language: "go" });
    expect(patternTool.output!.safeParse(r).success).toBe(true);
    expect(r.matches.map((m) => [m.file_path, m.start_line, m.metavars.FUNC])).toEqual([
      ["go/store.go", 5, "d.mu.RUnlock"],
      ["go/util.go", 3, "cleanup"],
    ]);
    expect(r.matches[0]!.context_start_line).toBe(2); // three lines before line 5 by default
    expect(r.matches[0]!.context.split("\n").length).toBe(5); // and the file ends one line after it
    expect(r.metadata.strictness).toBe("smart");
    expect(r.metadata.ast_grep.source).toBe("env");
  });

  test("bad input is refused with the field and the rule", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ pattern: "", language: "go" }, "pattern: must not be empty"],
      [{ pattern: "  \n", language: "go" }, "pattern: must not be empty"],
      [{ language: "go" }, "pattern: required unless rule is given"],
      [{ pattern: "x", rule: { kind: "x" }, language: "go" }, "rule: give either pattern or rule, not both"],
      [{ pattern: "x", language: "cobol" }, 'language: must be one of "go", "typescript"'],
      [{ pattern: "x", language: "go", strictness: "loose" }, 'strictness: must be one of "cst", "smart", "ast", "relaxed", "signature", "template"'],
      [{ pattern: "x", language: "go", context_lines: 11 }, "context_lines: must be at most 10"],
      [{ pattern: "x", language: "go", context_lines: -1 }, "context_lines: must be at least 0"],
      [{ pattern: "x", language: "go", limit: 0 }, "limit: must be at least 1"],
      [{ pattern: "x", language: "go", limit: 101 }, "limit: must be at most 100"],
      [{ pattern: "x", language: "go", update_all: true }, "input: unknown field 'update_all'"],
      [{ rule: { kind: "x", inside: { knd: "y" } }, language: "go" }, "rule.inside: unknown field 'knd'"],
      [{ rule: {}, language: "go" }, "rule: must set at least one of pattern, kind, regex"],
    ];
    for (const [raw, message] of cases) {
      const e = await refusal(raw);
      expect([raw, e.code]).toEqual([raw, "INVALID_INPUT"]);
      expect(e.message).toStartWith(message);
    }
  });

  test("globs escaping the root and patterns ast-grep rejects are tool errors with a clear message", async () => {
    for (const [bad, message] of [
      ["../**", "file_paths[0]: path is outside the project root: ../**"],
      ["/etc/passwd", "file_paths[0]: absolute path outside the project root: /etc/passwd"],
      ["etc-link/**", "file_paths[0]: path leads outside the project root through a symlink: etc-link/**"],
    ]) {
      const e = await refusal({ pattern: "defer $F()", language: "go", file_paths: [bad] });
      expect([e.code, e.message]).toEqual(["PATH_OUTSIDE_ROOT", message!]);
    }
    const rejected = await refusal({ pattern: "$$$", language: "go" });
    expect(rejected.code).toBe("INVALID_INPUT");
    expect(rejected.message).toStartWith("pattern: ast-grep rejected it: ");
  });

  test("a rewrite comes back as diffs and is never applied", async () => {
    const r = await call({ pattern: "defer $FUNC()", language: "go", rewrite: "defer safe($FUNC)", file_paths: ["go/util.go"], context_lines: 0 });
    expect(r.matches[0]!.diff).toBe("--- a/go/util.go\n+++ b/go/util.go\n@@ -3,1 +3,1 @@\n-func f() { defer cleanup() }\n+func f() { defer safe(cleanup) }\n");
    const again = await call({ pattern: "defer $FUNC()", language: "go", file_paths: ["go/util.go"] });
    expect(again.matches[0]!.match_text).toBe("defer cleanup()");
  });

  test("renders grep-like for terminals: location, numbered context, marked match lines, captures, summary", async () => {
    const r = await call({ pattern: "defer $FUNC()", language: "go", file_paths: ["go/store.go"], context_lines: 1 });
    expect(renderMatches(r).replace(/ in \d+ ms/, " in N ms")).toBe(
      [
        "go/store.go:5:2",
        "      4  \td.mu.RLock()",
        ">     5  \tdefer d.mu.RUnlock()",
        "      6  }",
        "        $FUNC = d.mu.RUnlock",
        "",
        "1 match; searched 1 of 1 go files in N ms",
      ].join("\n"),
    );
  });
});

describe("cortex pattern (CLI)", () => {
  const cli = (args: string[]) => {
    const home = mkdtempSync(join(tmpdir(), "cortex-cli-home-"));
    const proc = Bun.spawnSync([process.execPath, join(REPO, "src", "cli", "main.ts"), ...args], {
      env: { ...process.env, CORTEX_HOME: home, CORTEX_AST_GREP: AST_GREP_BIN },
      stdout: "pipe",
      stderr: "pipe",
    });
    return { code: proc.exitCode, out: proc.stdout.toString(), err: proc.stderr.toString() };
  };

  test("cortex pattern '<pattern>' --lang go --path … --strictness … --json prints the tool's JSON", () => {
    const r = cli(["pattern", "defer $FUNC()", "--lang", "go", "--path", "go/store.go", "--strictness", "smart", "--json", "--root", p.root]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const result = patternTool.output!.parse(JSON.parse(r.out));
    expect(result.matches.map((m) => [m.file_path, m.start_line])).toEqual([["go/store.go", 5]]);
  }, 30_000);

  test("a result far over a pipe's 64 KiB comes out whole", () => {
    const big = tmpProject({
      "big.go": "package big\n\nfunc f() {\n" + Array.from({ length: 150 }, (_, i) => `\tdefer step${i}() // ${"x".repeat(300)}\n`).join("") + "}\n",
    });
    try {
      const r = cli(["pattern", "defer $F()", "--lang", "go", "--limit", "100", "-C", "10", "--max-tokens", "200000", "--json", "--root", big.root]);
      expect(r.code).toBe(0);
      expect(r.out.length).toBeGreaterThan(256 * 1024);
      const result = JSON.parse(r.out);
      expect([result.total, result.matches.length]).toEqual([150, 100]);
    } finally {
      big.cleanup();
    }
  }, 30_000);

  test("a rule from a JSON file, and an error exits 2 with the message on stderr", () => {
    const rule = join(p.root, "rule.json");
    Bun.write(rule, JSON.stringify({ pattern: "defer $F()", inside: { kind: "method_declaration", stopBy: "end" } }));
    const ok = cli(["pattern", "--lang", "go", "--file", rule, "--json", "--root", p.root]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out).matches.map((m: { file_path: string }) => m.file_path)).toEqual(["go/store.go"]);
    const bad = cli(["pattern", "$$$", "--lang", "go", "--root", p.root]);
    expect(bad.code).toBe(2);
    expect(bad.out).toBe("");
    expect(bad.err).toStartWith("cortex: pattern: ast-grep rejected it: Cannot parse query as a valid pattern");
  }, 30_000);
});

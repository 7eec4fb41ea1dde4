import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PatternEngine, type PatternSearch, type SearchControl } from "../../src/engines/structural/index.ts";
import { CortexError } from "../../src/core/errors.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { devBinary } from "../helpers/ast-grep.ts";

/** Every test here runs the real ast-grep 0.51.1 (the dev dependency) over files written inline. */

const projects: TmpProject[] = [];
afterAll(() => projects.forEach((p) => p.cleanup()));

function project(files: Record<string, string>): TmpProject {
  const p = tmpProject(files);
  projects.push(p);
  return p;
}

function engine(p: TmpProject, maxFileSize = 1 << 20): PatternEngine {
  return new PatternEngine(p.root, { maxFileSize, excludes: [] }, devBinary);
}

const search = (p: TmpProject, q: PatternSearch, control?: SearchControl) => engine(p).search(q, control);

async function rejection(p: Promise<unknown>): Promise<CortexError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(CortexError);
    return e as CortexError;
  }
  throw new Error("expected the search to fail");
}

const GO_SERVER = `package server

import (
	"errors"
	"os"
)

// Open opens a file.
func Open(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	defer cleanup()
	return f, nil
}

func cleanup() {}

func check(err error) error {
	if err != nil {
		return errors.New("wrapped")
	}
	return nil
}
`;

describe("the specification's examples, on the real binary", () => {
  const p = project({
    "go/server.go": GO_SERVER,
    "web/Profile.tsx": `export function Profile({ id }: { id: string }) {
  if (id) {
    useState(0); // conditional hook
  }
  const [name] = useState("");
  return <div>{name}</div>;
}
`,
    "py/io.py": `import json


def read(path):
    with open(path) as fh:
        data = json.load(fh)
        return data


def write(path, data):
    with open(path, "w") as out:
        json.dump(data, out)
`,
    "java/A.java": `public class A {
    void run() {
        System.out.println("start");
        try {
            work();
        } catch (Exception e) {
            e.printStackTrace();
        }
    }
}
`,
    "rust/load.rs": `fn load(path: &str) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let n: i32 = text.trim().parse().unwrap();
    format!("{}", n)
}
`,
    "php/users.php": `<?php
function find($conn, $id) {
    $rows = mysqli_query($conn, "SELECT * FROM users WHERE id = " . $id);
    return $rows;
}
FUNCTION shout($x) { ECHO strtoupper($x); }
`,
    "ruby/greeter.rb": `class Greeter
  def greet(names)
    names.each do |name|
      puts "Hello #{name}"
    end
  end
end
`,
  });

  test("Go: defer $FUNC() with 1-based lines, real context and the captured call", async () => {
    const r = await search(p, { pattern: "defer $FUNC()", language: "go", contextLines: 1 });
    expect(r.total).toBe(2);
    expect(r.partial).toBe(false);
    expect(r.truncated).toBe(false);
    expect(r.matches.map((m) => [m.file_path, m.start_line, m.end_line, m.start_column, m.end_column, m.match_text, m.metavars])).toEqual([
      ["go/server.go", 14, 14, 2, 17, "defer f.Close()", { FUNC: "f.Close" }],
      ["go/server.go", 15, 15, 2, 17, "defer cleanup()", { FUNC: "cleanup" }],
    ]);
    const lines = GO_SERVER.split("\n");
    expect(r.matches[0]!.context).toBe(lines.slice(12, 15).join("\n"));
    expect(r.matches[0]!.context_start_line).toBe(13);
    expect(r.matches[1]!.context).toBe(lines.slice(13, 16).join("\n"));
    expect(r.metadata.language).toBe("go");
    expect(r.metadata.strictness).toBe("smart");
    expect(r.metadata.ast_grep.version).toBe("0.51.1");
  });

  test("Go: error checks capture the whole body with $$$BODY", async () => {
    const r = await search(p, { pattern: "if err != nil { $$$BODY }", language: "go", contextLines: 0 });
    expect(r.matches.map((m) => [m.start_line, m.end_line, m.metavars.BODY])).toEqual([
      [11, 13, "return nil, err"],
      [22, 24, 'return errors.New("wrapped")'],
    ]);
    expect(r.matches[0]!.context).toBe(GO_SERVER.split("\n").slice(10, 13).join("\n"));
  });

  test("TSX: a hook inside a conditional (relaxed), not the one at the top level; cst is stricter", async () => {
    const relaxed = await search(p, { pattern: "if ($COND) { useState($INIT) }", language: "tsx", strictness: "relaxed" });
    expect(relaxed.matches.map((m) => [m.file_path, m.start_line, m.metavars])).toEqual([["web/Profile.tsx", 2, { COND: "id", INIT: "0" }]]);
    expect(relaxed.metadata.strictness).toBe("relaxed");
    const cst = await search(p, { pattern: "if ($COND) { useState($INIT) }", language: "tsx", strictness: "cst" });
    expect(cst.total).toBe(0);
  });

  test("Python: with statements with their context manager, target and body", async () => {
    const r = await search(p, { pattern: "with $CTX as $VAR: $$$BODY", language: "python" });
    expect(r.matches.map((m) => [m.start_line, m.end_line, m.metavars])).toEqual([
      [5, 7, { CTX: "open(path)", VAR: "fh", BODY: "data = json.load(fh)\n        return data" }],
      [11, 12, { CTX: 'open(path, "w")', VAR: "out", BODY: "json.dump(data, out)" }],
    ]);
  });

  test("Java: println calls and swallowed exceptions", async () => {
    const println = await search(p, { pattern: "System.out.println($MSG)", language: "java" });
    expect(println.matches.map((m) => [m.start_line, m.metavars.MSG])).toEqual([[3, '"start"']]);
    const swallowed = await search(p, { pattern: "try { $$$BODY } catch ($T $E) { $E.printStackTrace(); }", language: "java" });
    expect(swallowed.matches.map((m) => [m.start_line, m.end_line, m.metavars.T])).toEqual([[4, 8, "Exception"]]);
  });

  test("Rust: every unwrap() with its receiver", async () => {
    const r = await search(p, { pattern: "$X.unwrap()", language: "rust" });
    expect(r.matches.map((m) => [m.start_line, m.metavars.X])).toEqual([
      [2, "std::fs::read_to_string(path)"],
      [3, "text.trim().parse()"],
    ]);
  });

  test("PHP: SQL built by concatenation; keywords match in any letter case even with narrowing", async () => {
    const sql = await search(p, { pattern: "mysqli_query($CONN, $SQL)", language: "php" });
    expect(sql.matches.map((m) => [m.start_line, m.metavars])).toEqual([[3, { CONN: "$conn", SQL: '"SELECT * FROM users WHERE id = " . $id' }]]);
    const fns = await search(p, { pattern: "function $F($$$ARGS) { $$$BODY }", language: "php" });
    expect(fns.metadata.literals.caseless).toContain("function");
    expect(fns.matches.map((m) => [m.start_line, m.metavars.F])).toEqual([
      [2, "find"],
      [6, "shout"],
    ]);
  });

  test("Ruby: blocks passed to each", async () => {
    const r = await search(p, { pattern: "$LIST.each do |$X| $$$BODY end", language: "ruby" });
    expect(r.matches.map((m) => [m.start_line, m.end_line, m.metavars.LIST, m.metavars.X])).toEqual([[3, 5, "names", "name"]]);
  });
});

describe("which files are searched", () => {
  const p = project({
    ".gitignore": "generated/\n",
    ".cortexignore": "legacy.go\n",
    "main.go": "package main\nfunc main() { defer a() }\n",
    "internal/auth/login.go": "package auth\nfunc Login() { defer b() }\n",
    "internal/auth/login_test.go": "package auth\nfunc TestLogin() { defer c() }\n",
    "vendor/lib/lib.go": "package lib\nfunc L() { defer d() }\n",
    "node_modules/pkg/x.go": "package x\nfunc X() { defer e() }\n",
    "generated/gen.go": "package gen\nfunc G() { defer f() }\n",
    "legacy.go": "package main\nfunc legacy() { defer g() }\n",
    "notes.txt": "defer h()\n",
  });
  const files = async (q: Partial<PatternSearch>) =>
    [...new Set((await search(p, { pattern: "defer $F()", language: "go", ...q })).matches.map((m) => m.file_path))].sort();

  test("cortex's ignore rules apply: .gitignore, .cortexignore, node_modules; other languages are not searched", async () => {
    expect(await files({})).toEqual(["internal/auth/login.go", "internal/auth/login_test.go", "main.go", "vendor/lib/lib.go"]);
  });

  test("file_paths: folders, globs, names at any depth, exclusions, absolute paths inside the root", async () => {
    expect(await files({ filePaths: ["internal"] })).toEqual(["internal/auth/login.go", "internal/auth/login_test.go"]);
    expect(await files({ filePaths: ["internal/**/*.go"] })).toEqual(["internal/auth/login.go", "internal/auth/login_test.go"]);
    expect(await files({ filePaths: ["*_test.go"] })).toEqual(["internal/auth/login_test.go"]);
    expect(await files({ filePaths: ["!vendor/**", "!*_test.go"] })).toEqual(["internal/auth/login.go", "main.go"]);
    expect(await files({ filePaths: ["internal/", "!internal/auth/login.go"] })).toEqual(["internal/auth/login_test.go"]);
    expect(await files({ filePaths: [join(p.root, "main.go")] })).toEqual(["main.go"]);
    expect(await files({ filePaths: ["./main.go", "vendor/lib/../lib/lib.go"] })).toEqual(["main.go", "vendor/lib/lib.go"]);
  });

  test("file_paths that leave the root are refused: absolute, '..', through a symlink", async () => {
    symlinkSync("/etc", join(p.root, "etc-link"));
    for (const [bad, why] of [
      ["/etc/**", "absolute path outside the project root"],
      ["../**/*.go", "path is outside the project root"],
      ["internal/../../x.go", "path is outside the project root"],
      ["internal/*/../../../x", "'..' inside a glob could climb out of the project root"],
      ["etc-link/*.go", "path leads outside the project root through a symlink"],
    ] as const) {
      const e = await rejection(search(p, { pattern: "defer $F()", language: "go", filePaths: ["main.go", bad] }));
      expect(e.code).toBe("PATH_OUTSIDE_ROOT");
      expect(e.message).toBe(`file_paths[1]: ${why}: ${bad}`);
    }
  });

  test("files over the size limit are skipped and counted, not silently dropped", async () => {
    const big = project({ "small.go": "package a\nfunc s() { defer x() }\n", "big.go": "package a\nfunc b() { defer y() }\n" + "// padding\n".repeat(200) });
    const r = await engine(big, 1000).search({ pattern: "defer $F()", language: "go" });
    expect(r.matches.map((m) => m.file_path)).toEqual(["small.go"]);
    expect(r.metadata.files.too_large).toBe(1);
    expect(r.warnings).toEqual([
      "1 go file over the size limit (1000 bytes) not searched: big.go; raise index.max_file_size in .cortex/config.yml to search them",
    ]);
  });

  test("a pattern ast-grep parses with an ERROR node is warned of whether or not a file survives the literal filter", async () => {
    const warning = "Pattern contains an ERROR node and may cause unexpected results.";
    const none = project({ "a.ts": "console.log(1)\n" });
    const filtered = await search(none, { pattern: "foo(", language: "ts" });
    expect([filtered.metadata.files.searched, filtered.metadata.files.skipped_by_literals]).toEqual([0, 1]);
    expect(filtered.warnings).toEqual([warning]);
    const some = project({ "a.ts": "foo(1)\n" });
    expect((await search(some, { pattern: "foo(", language: "ts" })).warnings).toEqual([warning]);
  });

  test("a path to search that is not there is an error; one named but ignored or of another language says why it is not searched", async () => {
    const p = project({
      "main.go": "package a\nfunc m() { defer x() }\n",
      "web/app.ts": "console.log(1)\n",
      "gen/out.go": "package g\n",
      ".gitignore": "gen/\n",
    });
    for (const [paths, message] of [
      [["mian.go"], "file_paths[0]: no such file or directory: mian.go"],
      [["main.go", "web/ap.ts"], "file_paths[1]: no such file or directory: web/ap.ts"],
      [["main.go,web/app.ts"], "file_paths[0]: no such file or directory (give each path its own entry: one --path each): main.go,web/app.ts"],
    ] as const) {
      const e = await rejection(search(p, { pattern: "defer $F()", language: "go", filePaths: [...paths] }));
      expect([e.code, e.message]).toEqual(["INVALID_INPUT", message]);
    }
    // globs that match nothing, and exclusions of what is not there, are no mistakes
    expect((await search(p, { pattern: "defer $F()", language: "go", filePaths: ["nothing/**", "!vendor/"] })).total).toBe(0);
    const named = await search(p, { pattern: "defer $F()", language: "go", filePaths: ["main.go", "web/app.ts", "gen/out.go"] });
    expect(named.total).toBe(1);
    expect(named.warnings).toEqual([
      "web/app.ts is not a go file: not searched (give the language it is written in)",
      "gen/out.go is ignored (.gitignore:1: gen/): not searched",
    ]);
  });
});

describe("results", () => {
  test("limit keeps the first matches in file order and total counts them all", async () => {
    const files: Record<string, string> = {};
    for (const name of ["c.go", "a.go", "b.go"]) {
      files[name] = "package p\nfunc f() {\n" + Array.from({ length: 50 }, (_, i) => `\tdefer g${i}()\n`).join("") + "}\n";
    }
    const p = project(files);
    const r = await search(p, { pattern: "defer $F()", language: "go", limit: 100 });
    expect(r.total).toBe(150);
    expect(r.truncated).toBe(true);
    expect(r.matches.length).toBe(100);
    expect(r.matches.map((m) => `${m.file_path}:${m.start_line}`)).toEqual([
      ...Array.from({ length: 50 }, (_, i) => `a.go:${i + 3}`),
      ...Array.from({ length: 50 }, (_, i) => `b.go:${i + 3}`),
    ]);
    const small = await search(p, { pattern: "defer $F()", language: "go", limit: 1 });
    expect([small.total, small.matches.length, small.matches[0]!.metavars.F]).toEqual([150, 1, "g0"]);
  });

  test("columns count UTF-16 code units from 1; a multi-line match spans its lines", async () => {
    const p = project({ "u.go": 'package u\nfunc f() {\n\ts := "héllo 😀"; defer g(1,\n\t\t2)\n}\n' });
    const r = await search(p, { pattern: "defer $F($$$A)", language: "go", contextLines: 0 });
    const m = r.matches[0]!;
    expect([m.start_line, m.end_line, m.start_column, m.end_column]).toEqual([3, 4, 19, 5]);
    const line = 's := "héllo 😀"; defer g(1,';
    expect(line.slice(m.start_column - 2)).toStartWith("defer");
    expect(m.metavars.A).toBe("1,\n\t\t2");
    expect(m.context).toBe('\ts := "héllo 😀"; defer g(1,\n\t\t2)');
  });

  test("a match that ends with its newline ends on that line, and its context does not run past it", async () => {
    const p = project({ "sl.go": "package a\n\nfunc f() error {\n\tif err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n" });
    const r = await search(p, { rule: { kind: "statement_list" }, language: "go", contextLines: 0 });
    expect(r.matches.map((m) => [m.start_line, m.start_column, m.end_line, m.end_column, m.context])).toEqual([
      [4, 2, 7, 12, "\tif err != nil {\n\t\treturn err\n\t}\n\treturn nil"],
      [5, 3, 5, 13, "\t\treturn err"],
    ]);
  });

  test("context stops at the file's edges and never copies the match instead of lines", async () => {
    const p = project({ "e.go": "package e\nfunc f() { defer g() }" });
    const r = await search(p, { pattern: "defer $F()", language: "go", contextLines: 10 });
    expect(r.matches[0]!.context).toBe("package e\nfunc f() { defer g() }");
    expect(r.matches[0]!.context_start_line).toBe(1);
  });

  test("rewrite returns the replacement and a diff that git applies, and changes no file", async () => {
    const p = project({ "go/server.go": GO_SERVER });
    const file = join(p.root, "go/server.go");
    const before = { bytes: readFileSync(file), mtime: statSync(file).mtimeMs };
    const r = await search(p, { pattern: "defer $FUNC()", language: "go", rewrite: "defer safe($FUNC)", contextLines: 2 });
    expect(r.matches.map((m) => m.replacement)).toEqual(["defer safe(f.Close)", "defer safe(cleanup)"]);
    expect(r.matches[0]!.diff).toBe(
      [
        "--- a/go/server.go",
        "+++ b/go/server.go",
        "@@ -12,5 +12,5 @@",
        "\t\treturn nil, err",
        "\t}",
        "-\tdefer f.Close()",
        "+\tdefer safe(f.Close)",
        "\tdefer cleanup()",
        "\treturn f, nil",
        "",
      ]
        .map((l, i) => (i >= 3 && l !== "" && !l.startsWith("-") && !l.startsWith("+") ? " " + l : l))
        .join("\n"),
    );
    expect(readFileSync(file).equals(before.bytes)).toBe(true);
    expect(statSync(file).mtimeMs).toBe(before.mtime);
    // the diff is a real patch: git applies it to a copy
    const copy = project({ "go/server.go": GO_SERVER });
    Bun.spawnSync(["git", "init", "-q"], { cwd: copy.root });
    writeFileSync(join(copy.root, "fix.patch"), r.matches[0]!.diff!);
    const applied = Bun.spawnSync(["git", "apply", "fix.patch"], { cwd: copy.root, stderr: "pipe" });
    expect(applied.stderr.toString()).toBe("");
    expect(readFileSync(join(copy.root, "go/server.go"), "utf8")).toBe(GO_SERVER.replace("defer f.Close()", "defer safe(f.Close)"));
  });

  test("a project's broken sgconfig.yml neither breaks nor changes a search", async () => {
    const p = project({ "sgconfig.yml": "ruleDirs: [unclosed\n", "a.go": "package a\nfunc f() { defer g() }\n" });
    const r = await search(p, { pattern: "defer $F()", language: "go" });
    expect(r.total).toBe(1);
  });
});

describe("rules", () => {
  const p = project({
    "x.js": `class A {
  a = 123;
  b = 456;
}
let a = 123;
function handleLogin(user) {
  console.log(user);
  try {
    console.log("inside try");
  } catch (e) {}
}
function other() {
  console.log("other");
}
if (ready) {
  useState(0);
}
`,
  });

  test("a pattern with context and selector finds what the bare pattern cannot (a class field)", async () => {
    const bare = await search(p, { pattern: "a = 123", language: "javascript" });
    expect(bare.total).toBe(0);
    const r = await search(p, { rule: { pattern: { context: "class A { a = 123 }", selector: "field_definition" } }, language: "javascript" });
    expect(r.matches.map((m) => [m.start_line, m.match_text])).toEqual([[2, "a = 123"]]);
  });

  test("inside with stopBy, has, not, all and any combine as ast-grep defines them", async () => {
    const inHandlers = await search(p, {
      rule: { pattern: "console.log($$$A)", inside: { kind: "function_declaration", stopBy: "end", has: { field: "name", regex: "^handle" } } },
      language: "javascript",
    });
    expect(inHandlers.matches.map((m) => m.start_line)).toEqual([7, 9]);
    const notInTry = await search(p, {
      rule: { all: [{ pattern: "console.log($$$A)" }, { not: { inside: { kind: "try_statement", stopBy: "end" } } }] },
      language: "javascript",
    });
    expect(notInTry.matches.map((m) => m.start_line)).toEqual([7, 13]);
    const either = await search(p, { rule: { any: [{ pattern: "let $X = $V" }, { kind: "class_declaration" }] }, language: "javascript" });
    expect(either.matches.map((m) => m.start_line)).toEqual([1, 5]);
    expect(inHandlers.metadata.literals.exact).toContain("console");
  });

  test("a rule with a rewrite proposes a diff per match", async () => {
    const r = await search(p, {
      rule: { pattern: "console.log($$$A)", inside: { pattern: "function other() { $$$ }", stopBy: "end" } },
      rewrite: "logger.info($$$A)",
      language: "javascript",
    });
    expect(r.matches.map((m) => [m.start_line, m.replacement])).toEqual([[13, 'logger.info("other")']]);
    expect(r.matches[0]!.diff).toContain('-  console.log("other");\n+  logger.info("other");');
  });

  test("strictness applies to every pattern of a rule that sets none", async () => {
    // the code has `useState(0);`: smart skips the semicolon the pattern lacks, cst does not
    const q = (strictness: "cst" | "smart") => search(p, { rule: { all: [{ pattern: "if ($C) { useState($I) }" }] }, strictness, language: "javascript" });
    expect((await q("smart")).total).toBe(1);
    expect((await q("cst")).total).toBe(0);
  });
});

describe("narrowing by required literals", () => {
  const p = project({
    "a.go": "package a\nfunc f() { mu.Lock(); defer mu.Unlock() }\n",
    "b.go": "package a\nfunc g() { if err != nil { return } }\n",
    "c.go": "package a\n// nothing to see\nfunc h() {}\n",
    "d.ts": "const x = 1;\n",
  });
  const cases: Array<[string, "smart" | "relaxed" | "signature" | "ast" | "cst"]> = [
    ["$MU.Lock()", "smart"],
    ["defer $F()", "smart"],
    ["if err != nil { $$$B }", "smart"],
    ["if err != nil { $$$B }", "relaxed"],
    ["func $F() {}", "signature"],
    ["func h() {}", "ast"],
    ["func h() {}", "cst"],
  ];

  for (const [pattern, strictness] of cases) {
    test(`${pattern} (${strictness}): the same matches with and without narrowing`, async () => {
      const narrowed = await search(p, { pattern, language: "go", strictness });
      const full = await search(p, { pattern, language: "go", strictness }, { narrow: false });
      expect(narrowed.matches).toEqual(full.matches);
      expect(narrowed.total).toBe(full.total);
      expect(full.metadata.files.searched).toBe(3);
    });
  }

  test("a selective pattern reads every file but hands ast-grep only those with its words", async () => {
    const r = await search(p, { pattern: "$MU.Lock()", language: "go" });
    expect(r.metadata.literals).toEqual({ exact: ["Lock"], caseless: [] });
    expect(r.metadata.files).toEqual({ in_scope: 3, searched: 1, skipped_by_literals: 2, too_large: 0 });
  });

  test("signature strictness ignores text, so it never narrows", async () => {
    const r = await search(p, { pattern: "func $F() {}", language: "go", strictness: "signature" });
    expect(r.metadata.literals).toEqual({ exact: [], caseless: [] });
    expect(r.metadata.files.searched).toBe(3);
  });
});

describe("deadline and cancellation", () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 1000; i++) files[`pkg/f${String(i).padStart(4, "0")}.go`] = `package pkg\nfunc f${i}() { defer g() }\n`;
  const p = project(files);

  test("the deadline stops the search and returns the matches found so far, marked partial", async () => {
    // one file per ast-grep run makes a search of a thousand runs, far longer than the deadline
    const r = await search(p, { pattern: "defer $F()", language: "go", limit: 100 }, { timeoutMs: 1500, batchBytes: 1 });
    expect(r.partial).toBe(true);
    expect(r.total).toBeGreaterThan(0);
    expect(r.total).toBeLessThan(1000);
    expect(r.matches.length).toBe(Math.min(100, r.total));
    expect(r.matches[0]!.file_path).toBe("pkg/f0000.go");
    // the files searched are those whose runs finished (one match each here); the stopped run is not
    // counted, though it may have given its match before it stopped
    expect(r.metadata.files.searched).toBeLessThan(1000);
    expect(r.total - r.metadata.files.searched).toBeGreaterThanOrEqual(0);
    expect(r.total - r.metadata.files.searched).toBeLessThanOrEqual(1);
  }, 30_000);

  test("a cancelled call stops the same way", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 1500);
    const r = await search(p, { pattern: "defer $F()", language: "go" }, { signal: controller.signal, batchBytes: 1 });
    expect(r.partial).toBe(true);
    expect(r.total).toBeLessThan(1000);
  }, 30_000);

  test("without a deadline in the way the same search is complete", async () => {
    const r = await search(p, { pattern: "defer $F()", language: "go", limit: 5 });
    expect([r.partial, r.total, r.matches.length]).toEqual([false, 1000, 5]);
  }, 60_000);
});

describe("errors ast-grep reports", () => {
  test("a pattern ast-grep rejects is an input error carrying its message", async () => {
    const p = project({ "a.go": "package a\n" });
    const e = await rejection(search(p, { pattern: "$$$", language: "go" }));
    expect(e.code).toBe("INVALID_INPUT");
    expect(e.message).toBe(
      "pattern: ast-grep rejected it: Cannot parse query as a valid pattern: Standalone multi meta variable `$$$` is invalid. Use `$VAR` or wrap `$$$VAR` in a larger pattern",
    );
  });

  test("a rule ast-grep rejects is reported even when no file would be searched", async () => {
    const p = project({ "README.md": "nothing in go here\n" });
    const e = await rejection(search(p, { rule: { kind: "no_such_kind" }, language: "go" }));
    expect(e.code).toBe("INVALID_INPUT");
    expect(e.message).toStartWith("rule: ast-grep rejected it: Cannot parse rule");
    expect(e.message).toContain("Kind `no_such_kind` is invalid");
    const nested = await rejection(search(p, { rule: { kind: "call_expression", inside: { pattern: "$$$" } }, language: "go" }));
    expect(nested.message).toStartWith("rule.inside.pattern: ast-grep rejected it");
  });

  test("an empty or missing pattern and an unknown language are refused before ast-grep runs", async () => {
    const p = project({ "a.go": "package a\n" });
    expect((await rejection(search(p, { pattern: "   ", language: "go" }))).message).toBe("pattern: must not be empty");
    expect((await rejection(search(p, { language: "go" }))).message).toBe("pattern: required (or give a rule)");
    expect((await rejection(search(p, { pattern: "x", language: "cobol" }))).message).toStartWith("language: unsupported 'cobol'; supported: go, typescript");
  });
});

describe("empty results", () => {
  test("a project without files of the language answers with no matches", async () => {
    const p = project({ "a.py": "print(1)\n" });
    mkdirSync(join(p.root, "empty"));
    const r = await search(p, { pattern: "defer $F()", language: "go" });
    expect([r.total, r.matches.length, r.partial, r.metadata.files.in_scope]).toEqual([0, 0, false, 0]);
  });
});

import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PATTERN_LANGUAGES, LANGUAGE_NAMES, fileFilter, patternLanguage, extensionOf } from "../../src/engines/structural/languages.ts";
import { AST_GREP_BIN } from "../helpers/ast-grep.ts";

/**
 * The language table must choose exactly the files ast-grep's own walk chooses, since cortex passes
 * explicit file lists and ast-grep searches whatever it is given. These tests ask the real binary.
 */

const probe = mkdtempSync(join(tmpdir(), "cortex-lang-probe-"));
const extensions = new Set(PATTERN_LANGUAGES.flatMap((l) => l.extensions));
const probeFiles = [...extensions].map((e) => `f.${e}`);
// near misses: upper case, unknown, double extensions, no extension
probeFiles.push("f.GO", "f.Py", "f.txt", "f.vue", "f.go.txt", "f.test.ts", "Makefile", "f.jsonc", "f.h.in");
for (const f of probeFiles) writeFileSync(join(probe, f), "x\n");

afterAll(() => rmSync(probe, { recursive: true, force: true }));

function astGrepChoice(language: string): string[] {
  const p = Bun.spawnSync([AST_GREP_BIN, "run", "--pattern=x", `--lang=${language}`, "--inspect=entity", "."], { cwd: probe, stdout: "pipe", stderr: "pipe" });
  const err = p.stderr.toString();
  if (!/scannedFileCount=\d+/.test(err)) throw new Error(`ast-grep did not scan for ${language}: ${err}`);
  return [...err.matchAll(/^sg: entity\|file\|(.+?): language=/gm)].map((m) => m[1]!).sort();
}

describe("pattern languages", () => {
  test("the table has every language ast-grep 0.51.1 has built in, each name accepted by the binary", () => {
    expect(PATTERN_LANGUAGES.map((l) => l.id).sort()).toEqual([
      "bash",
      "c",
      "cpp",
      "csharp",
      "css",
      "dart",
      "elixir",
      "go",
      "haskell",
      "hcl",
      "html",
      "java",
      "javascript",
      "json",
      "kotlin",
      "lua",
      "markdown",
      "nix",
      "php",
      "python",
      "ruby",
      "rust",
      "scala",
      "solidity",
      "swift",
      "tsx",
      "typescript",
      "yaml",
      "zig",
    ]);
    for (const name of LANGUAGE_NAMES) {
      const lang = patternLanguage(name)!;
      const p = Bun.spawnSync([AST_GREP_BIN, "run", "--pattern=x", `--lang=${lang.id}`, "--stdin"], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      expect(p.stderr.toString()).not.toContain("is not supported");
    }
  });

  test("the specification's twelve languages are accepted, jsx and c_sharp by alias", () => {
    for (const name of ["go", "typescript", "javascript", "tsx", "jsx", "python", "rust", "c", "cpp", "java", "php", "ruby", "c_sharp", "kotlin"]) {
      expect(LANGUAGE_NAMES).toContain(name);
    }
    expect(patternLanguage("jsx")!.id).toBe("javascript");
    expect(patternLanguage("c_sharp")!.id).toBe("csharp");
    expect(patternLanguage("Golang")!.id).toBe("go");
    expect(patternLanguage("cobol")).toBeUndefined();
  });

  for (const lang of PATTERN_LANGUAGES) {
    test(`${lang.id}: cortex picks the files ast-grep's own walk picks`, () => {
      const ours = probeFiles.filter(fileFilter(lang)).sort();
      expect(ours).toEqual(astGrepChoice(lang.id));
    });
  }

  test("extensions are read the way Rust reads them", () => {
    expect(extensionOf("a/b.go")).toBe("go");
    expect(extensionOf("a/b.test.ts")).toBe("ts");
    expect(extensionOf("a/.env")).toBeUndefined();
    expect(extensionOf("Makefile")).toBeUndefined();
  });
});

import { describe, expect, test } from "bun:test";
import { LiteralFilter, parseDebugPattern, ruleRequirement, simplify, type LiteralRequirement } from "../../src/engines/structural/literals.ts";
import type { Strictness } from "../../src/engines/structural/rule.ts";
import { AST_GREP_BIN } from "../helpers/ast-grep.ts";

/** ast-grep's own view of a pattern, as the engine asks for it. */
function debugPattern(pattern: string, language: string, strictness: Strictness = "smart"): string {
  const p = Bun.spawnSync(
    [AST_GREP_BIN, "run", `--lang=${language}`, `--pattern=${pattern}`, `--strictness=${strictness}`, "--debug-query=pattern", "--stdin"],
    {
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  return p.stderr.toString();
}

const literals = (pattern: string, language: string, strictness: Strictness = "smart") =>
  parseDebugPattern(debugPattern(pattern, language, strictness), pattern, strictness);

describe("required literals from ast-grep's parse of the pattern", () => {
  test("named leaves must appear exactly; keywords in any letter case; metavariables never", () => {
    expect(literals("if err != nil { $$$BODY }", "go")).toEqual({ exact: ["err", "nil"], caseless: ["if"] });
    expect(literals("defer $FUNC()", "go")).toEqual({ exact: [], caseless: ["defer"] });
    expect(literals("$MU.Lock()", "go")).toEqual({ exact: ["Lock"], caseless: [] });
  });

  test("strictness decides: unnamed nodes do not count in ast or relaxed, and signature ignores all text", () => {
    expect(literals("if err != nil { $$$BODY }", "go", "relaxed")).toEqual({ exact: ["err", "nil"], caseless: [] });
    expect(literals("if err != nil { $$$BODY }", "go", "ast")).toEqual({ exact: ["err", "nil"], caseless: [] });
    expect(literals("if err != nil { $$$BODY }", "go", "cst")).toEqual({ exact: ["err", "nil"], caseless: ["if"] });
    expect(literals("if err != nil { $$$BODY }", "go", "signature")).toEqual({ exact: [], caseless: [] });
  });

  test("words inside string literals count, node kinds never do, and at most four longest are kept", () => {
    const r = literals('console.log("hello wonderful world")', "javascript");
    expect(r.exact).toEqual(["wonderful", "console", "hello", "world"]);
    for (const kind of ["call_expression", "member_expression", "arguments", "string"]) expect(r.exact).not.toContain(kind);
  });

  test("a multi-line leaf (a raw string) yields only words that are in the pattern", () => {
    const pattern = "x := `raw\nlines here` + $Y";
    const r = literals(pattern, "go");
    for (const w of [...r.exact, ...r.caseless]) expect(pattern.toLowerCase()).toContain(w.toLowerCase());
    expect(r.exact).toContain("raw");
  });

  test("output without a pattern tree (an error) requires nothing", () => {
    expect(parseDebugPattern(debugPattern("$$$", "go"), "$$$", "smart")).toEqual({ exact: [], caseless: [] });
    expect(parseDebugPattern("", "x", "smart")).toEqual({ exact: [], caseless: [] });
  });

  test("simplify drops keywords implied by an exact literal", () => {
    expect(simplify({ exact: ["deferred"], caseless: ["defer", "go"] })).toEqual({ exact: ["deferred"], caseless: ["go"] });
  });
});

describe("rule requirements", () => {
  const table: Record<string, LiteralRequirement> = {
    "console.log($A)": { exact: ["console"], caseless: [] },
    "function $F() { $$$ }": { exact: [], caseless: ["function"] },
    "try { $$$ }": { exact: [], caseless: ["try"] },
  };
  const analyze = async (pattern: string) => table[pattern] ?? { exact: [], caseless: [] };

  test("relations and all add what their patterns require; any, not and selectors require nothing", async () => {
    expect(await ruleRequirement({ pattern: "console.log($A)", inside: { pattern: "function $F() { $$$ }", stopBy: "end" } }, "rule", analyze)).toEqual({
      exact: ["console"],
      caseless: ["function"],
    });
    expect(await ruleRequirement({ all: [{ pattern: "console.log($A)" }, { has: { pattern: "try { $$$ }" } }] }, "rule", analyze)).toEqual({
      exact: ["console"],
      caseless: ["try"],
    });
    expect(await ruleRequirement({ any: [{ pattern: "console.log($A)" }, { kind: "x" }] }, "rule", analyze)).toEqual({ exact: [], caseless: [] });
    expect(await ruleRequirement({ kind: "call_expression", not: { pattern: "console.log($A)" } }, "rule", analyze)).toEqual({ exact: [], caseless: [] });
    expect(await ruleRequirement({ pattern: { context: "console.log($A)", selector: "arguments" } }, "rule", analyze)).toEqual({ exact: [], caseless: [] });
    expect(await ruleRequirement({ pattern: { context: "console.log($A)" } }, "rule", analyze)).toEqual({ exact: ["console"], caseless: [] });
  });

  test("each pattern is analysed under the path of its field, with its own strictness", async () => {
    const seen: string[] = [];
    await ruleRequirement(
      { pattern: "a", inside: { pattern: { context: "b", strictness: "cst" } }, all: [{ has: { pattern: "c" } }] },
      "rule",
      async (p, s, path) => {
        seen.push(`${path}=${p}/${s}`);
        return { exact: [], caseless: [] };
      },
    );
    expect(seen.sort()).toEqual(["rule.all[0].has.pattern=c/smart", "rule.inside.pattern.context=b/cst", "rule.pattern=a/smart"]);
  });
});

describe("literal filter", () => {
  test("exact literals are case-sensitive byte strings, UTF-8 included", () => {
    const f = new LiteralFilter({ exact: ["Lock", "héllo"], caseless: [] });
    expect(f.accepts(Buffer.from("mu.Lock() // héllo"))).toBe(true);
    expect(f.accepts(Buffer.from("mu.lock() // héllo"))).toBe(false);
    expect(f.accepts(Buffer.from("mu.Lock() // hello"))).toBe(false);
  });

  test("caseless keywords match in any letter case, anywhere in the file", () => {
    const f = new LiteralFilter({ exact: [], caseless: ["function"] });
    expect(f.accepts(Buffer.from("<?php FUNCTION f() {}"))).toBe(true);
    expect(f.accepts(Buffer.from("<?php fUnCtIoN f() {}"))).toBe(true);
    expect(f.accepts(Buffer.from("<?php fn f() {} // functio"))).toBe(false);
    expect(new LiteralFilter({ exact: [], caseless: [] }).active).toBe(false);
  });
});

import { describe, expect, test } from "bun:test";
import { FactsParser } from "../../src/lang/parser.ts";
import { emptyProjectInfo } from "../../src/lang/project.ts";

describe("the parser host", () => {
  test("a file that takes too long to parse is indexed as text, and the next file parses normally", async () => {
    const p = await FactsParser.create({ timeLimitMs: 20 });
    const huge = "package x\nvar s = " + Array.from({ length: 40_000 }, (_, i) => `"a${i}"`).join(" + ") + "\n";
    const r = await p.parse("x.go", huge, emptyProjectInfo());
    expect(r.facts).toBeUndefined();
    expect(r.lines.total).toBe(2);
    const next = await p.parse("y.go", "package y\n\nfunc F() {}\n", emptyProjectInfo());
    expect(next.facts?.functions.map((f) => f.name)).toEqual(["F"]);
  });

  test("files without a grammar get line counts only", async () => {
    const p = await FactsParser.create();
    const r = await p.parse("notes.txt", "one\n\ntwo\n", emptyProjectInfo());
    expect(r.facts).toBeUndefined();
    expect(r.lines).toEqual({ total: 3, code: 2, comment: 0, blank: 1 });
  });
});

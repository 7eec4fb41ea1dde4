import { describe, expect, test } from "bun:test";
import { lastSegment, nameMatch, promoteFunctions, stem } from "../../src/engines/search/function-promotion.ts";
import { analyzeQuery } from "../../src/engines/search/query.ts";
import type { Candidate } from "../../src/engines/search/rank.ts";

const candidate = (id: string, fields: Partial<Candidate>): Candidate => ({
  id,
  filePath: "a.py",
  chunkType: "definitions",
  symbolPath: null,
  isTest: false,
  score: 1,
  ...fields,
});

describe("function promotion", () => {
  test("stems meet a verb's forms and keep short words whole", () => {
    expect(stem("writes")).toBe(stem("write"));
    expect(stem("writing")).toBe(stem("write"));
    expect(stem("adds")).toBe("add");
    expect(stem("added")).toBe("add");
    expect(stem("class")).toBe("class");
    expect(stem("is")).toBe("is");
  });

  test("the last segment of a symbol path, whatever the language's separator", () => {
    expect(lastSegment("HelpFormatter.write_dl")).toBe("write_dl");
    expect(lastSegment("de::Deserializer::parse")).toBe("parse");
    expect(lastSegment("Rack::Request#params")).toBe("params");
    expect(lastSegment("main")).toBe("main");
  });

  test("a name's share of words the query uses", () => {
    const q = new Set(["add", "option", "parser"].map(stem));
    expect(nameMatch("add_option", q)).toBe(1);
    expect(nameMatch("addArgument", q)).toBe(0.5);
    expect(nameMatch("render", q)).toBe(0);
  });

  test("a method the query describes leads the class that lists it, and the file overview", () => {
    const q = analyzeQuery("Adds a new option to the parser");
    const ranked = [
      candidate("class", { symbolPath: "OptionParser", kind: "class", score: 1 }),
      candidate("overview", { chunkType: "symbols", score: 0.95 }),
      candidate("method", { symbolPath: "OptionParser.add_option", kind: "method", score: 0.9 }),
      candidate("other", { symbolPath: "OptionParser.process", kind: "method", score: 0.92 }),
    ];
    const order = promoteFunctions(ranked, q, [{ filePath: "a.py", score: 3 }]).map((c) => c.id);
    expect(order[0]).toBe("method");
    expect(order.indexOf("class")).toBeGreaterThan(order.indexOf("other"));
    expect(order.indexOf("overview")).toBeGreaterThan(order.indexOf("method"));
  });

  test("a type whose members are not candidates keeps its place: it may be the answer", () => {
    const q = analyzeQuery("the parsed options");
    const ranked = [
      candidate("class", { symbolPath: "Options", kind: "class", score: 1 }),
      candidate("fn", { symbolPath: "parse", kind: "function", score: 0.9 }),
    ];
    expect(promoteFunctions(ranked, q, []).map((c) => c.id)).toEqual(["class", "fn"]);
  });

  test("the file the whole-file ranking trusts lifts its chunks over a weak file's", () => {
    const q = analyzeQuery("flush the buffer");
    const ranked = [
      candidate("weak", { filePath: "weak.go", symbolPath: "drain", kind: "function", score: 1 }),
      candidate("strong", { filePath: "strong.go", symbolPath: "sync", kind: "function", score: 0.8 }),
    ];
    const files = [
      { filePath: "strong.go", score: 2 },
      { filePath: "weak.go", score: 0.2 },
    ];
    expect(promoteFunctions(ranked, q, files).map((c) => c.id)).toEqual(["strong", "weak"]);
  });
});

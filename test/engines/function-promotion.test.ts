import { describe, expect, test } from "bun:test";
import {
  codeNamesOf,
  FUNCTION_RANKING,
  fileSupport,
  lastSegment,
  nameMatch,
  promoteFunctions,
  shortnessOf,
  stem,
  titleOf,
} from "../../src/engines/search/function-promotion.ts";
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
      candidate("class", { symbolPath: "OptionParser", kind: "class", score: 1, keywordScore: 9 }),
      candidate("overview", { chunkType: "symbols", score: 0.95, keywordScore: 8 }),
      candidate("method", { symbolPath: "OptionParser.add_option", kind: "method", score: 0.9, keywordScore: 6 }),
      candidate("other", { symbolPath: "OptionParser.process", kind: "method", score: 0.92, keywordScore: 7 }),
    ];
    const order = promoteFunctions(ranked, q).map((c) => c.id);
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
    expect(promoteFunctions(ranked, q).map((c) => c.id)).toEqual(["class", "fn"]);
  });

  test("a file's support is its two best chunks, keyword and vector scores alike, as a share of the best file's", () => {
    const support = fileSupport([
      candidate("a1", { filePath: "a.go", keywordScore: 10 }),
      candidate("a2", { filePath: "a.go", keywordScore: 5 }),
      candidate("a3", { filePath: "a.go", keywordScore: 5 }),
      candidate("b1", { filePath: "b.go", keywordScore: 6, vectorScore: 0.4 }),
      candidate("c1", { filePath: "c.go", vectorScore: 0.8 }),
    ]);
    // a: 1 + 0.5 = 1.5; b: 0.6 + 0.5 = 1.1; c: 1.0
    expect(support.get("a.go")).toBe(1);
    expect(support.get("b.go")).toBeCloseTo(1.1 / 1.5, 6);
    expect(support.get("c.go")).toBeCloseTo(1 / 1.5, 6);
  });

  test("chunks of the file the candidates support lift over a lone chunk of a weak file", () => {
    const q = analyzeQuery("flush the buffer");
    const ranked = [
      candidate("weak", { filePath: "weak.go", symbolPath: "drain", kind: "function", score: 1, keywordScore: 5 }),
      candidate("strong", { filePath: "strong.go", symbolPath: "sync", kind: "function", score: 0.8, keywordScore: 4.5 }),
      candidate("strong2", { filePath: "strong.go", symbolPath: "reset", kind: "function", score: 0.7, keywordScore: 4.5 }),
    ];
    expect(promoteFunctions(ranked, q).map((c) => c.id)[0]).toBe("strong");
  });

  // a pasted issue: more than FUNCTION_RANKING.shortQueryTerms words, so the long-question weights apply
  const issue = analyzeQuery(
    "Saving a model with a deferred field drops the update when the cache backend is configured for the request " +
      "middleware; the queryset then returns stale rows after the transaction commits and the signal handler fires twice. " +
      "Traceback shows the admin changelist view, the paginator, the template engine rendering widgets, the form validation " +
      "hooks, a serializer writing json output, and the migration autodetector comparing states for every installed application",
  );

  test("a long question is long, a short one short", () => {
    expect(shortnessOf(analyzeQuery("flush the buffer"))).toBe(1);
    expect(shortnessOf(issue)).toBeLessThan(0.1);
  });

  test("a long question's file support comes from the whole-file ranking, not the candidates' chunks", () => {
    const ranked = [
      candidate("lone", { filePath: "cache.py", symbolPath: "get", kind: "function", score: 1, keywordScore: 10 }),
      candidate("ranked", { filePath: "base.py", symbolPath: "save", kind: "method", score: 0.8, keywordScore: 4 }),
    ];
    const files = [
      { filePath: "base.py", score: 2 },
      { filePath: "cache.py", score: 0.2 },
    ];
    expect(promoteFunctions([...ranked.map((c) => ({ ...c }))], issue).map((c) => c.id)[0]).toBe("lone");
    expect(promoteFunctions([...ranked.map((c) => ({ ...c }))], issue, undefined, files).map((c) => c.id)[0]).toBe("ranked");
  });

  test("a long question names definitions by chance: the name no longer lifts them, and a class or a data chunk gives way to a function", () => {
    const ranked = () => [
      candidate("named", { symbolPath: "save_deferred_field", kind: "function", score: 1 }),
      candidate("class", { symbolPath: "Model", kind: "class", score: 1.02 }),
      candidate("data", { chunkType: "data", score: 1.05 }),
      candidate("fn", { symbolPath: "refresh", kind: "function", score: 1.2 }),
    ];
    expect(promoteFunctions(ranked(), issue).map((c) => c.id)).toEqual(["fn", "named", "data", "class"]);
    // the same chunks for a short question: the name leads, the others keep their order (no lift, no demotion)
    expect(promoteFunctions(ranked(), analyzeQuery("save deferred field")).map((c) => c.id)).toEqual(["named", "fn", "data", "class"]);
  });

  // the same issue pasted with a title line
  const pasted = (title: string) => analyzeQuery(`${title}\n${issue.raw}`);

  test("a pasted issue's title is its first line; a one-line question has none", () => {
    expect(titleOf("Field.__hash__() should be immutable.\nDescription\n\tmore")).toBe("Field.__hash__() should be immutable.");
    expect(titleOf("  \nflush the buffer\n")).toBe("");
  });

  test("the names a title writes as code: snake_case, inner capitals, calls and members, not plain words", () => {
    const names = codeNamesOf("Model Field.__hash__() should be immutable; get_context_data and SpanSelector, run(x) but not Run or hash");
    expect([...names].sort()).toEqual(["SpanSelector", "__hash__", "get_context_data", "run"]);
  });

  test("a definition the title writes as code leads its file's other functions, in proportion to the question's length", () => {
    const ranked = () => [
      candidate("other", { symbolPath: "Field.check", kind: "method", score: 1.2 }),
      candidate("named", { symbolPath: "Field.__hash__", kind: "method", score: 1 }),
    ];
    const weights = { ...FUNCTION_RANKING, titleName: 1 };
    const q = pasted("Model Field.__hash__() should be immutable.");
    expect(promoteFunctions(ranked(), q, weights).map((c) => c.id)).toEqual(["named", "other"]);
    expect(promoteFunctions(ranked(), q, { ...weights, titleName: 0 }).map((c) => c.id)).toEqual(["other", "named"]);
    // a short question has no title to read: its name factor alone decides
    expect(promoteFunctions(ranked(), analyzeQuery("Field.__hash__() should be immutable"), weights)[0]!.id).toBe("named");
  });

  test("when the whole-file ranking is sure of its best file, that file's best functions lead a pasted issue's list", () => {
    const ranked = () => [
      candidate("b1", { filePath: "b.py", symbolPath: "b_one", kind: "function", score: 3 }),
      candidate("a1", { filePath: "a.py", symbolPath: "a_one", kind: "function", score: 2 }),
      candidate("aC", { filePath: "a.py", symbolPath: "A", kind: "class", score: 1.9 }),
      candidate("a2", { filePath: "a.py", symbolPath: "a_two", kind: "function", score: 1 }),
      candidate("a3", { filePath: "a.py", symbolPath: "a_three", kind: "function", score: 0.5 }),
    ];
    const q = pasted("Something about a");
    const weights = { ...FUNCTION_RANKING, leadFileFunctions: 2, leadFileGap: 1.2 };
    const sure = [
      { filePath: "a.py", score: 2 },
      { filePath: "b.py", score: 1 },
    ];
    expect(
      promoteFunctions(ranked(), q, weights, sure)
        .map((c) => c.id)
        .slice(0, 3),
    ).toEqual(["a1", "a2", "b1"]);
    // the second file close behind: no lead, the scores decide
    const close = [
      { filePath: "a.py", score: 2 },
      { filePath: "b.py", score: 1.9 },
    ];
    expect(promoteFunctions(ranked(), q, weights, close)[0]!.id).toBe("b1");
  });
});

/**
 * A question written as a conventional-commit subject (`fix(parser): …`): the type word says what kind of
 * change, not where, and must not be read as code (a call, an identifier) or weigh as a word; the scope,
 * which often names the place, stays. A question that merely starts with such a word is left alone.
 */
import { expect, test } from "bun:test";
import { analyzeQuery, withoutCommitType } from "../../src/engines/search/query.ts";

test("the type goes, the scope stays as words, and the question itself is kept as written", () => {
  const q = analyzeQuery("fix(parser): Fill in defaults on ignored error");
  expect(q.raw).toBe("fix(parser): Fill in defaults on ignored error");
  expect(q.symbols).not.toContain("fix");
  expect(q.weights.has("fix")).toBe(false);
  expect(q.weights.has("parser")).toBe(true);
  expect(q.weights.has("defaults")).toBe(true);
});

test("every conventional type, with or without a scope or a breaking mark", () => {
  expect(withoutCommitType("feat(utils/headers)!: add a getter")).toBe("utils/headers: add a getter");
  expect(withoutCommitType("docs: explain the cache")).toBe("explain the cache");
  expect(withoutCommitType("Chore(deps): bump the parser")).toBe("deps: bump the parser");
  expect(withoutCommitType("refactor!: split the router")).toBe("split the router");
});

test("a question that only starts with such a word, or names it later, is unchanged", () => {
  for (const q of ["fix the parser's defaults", "fixed: parser defaults", "how do docs get built", "where is fix(parser) called: the caller"]) {
    expect(withoutCommitType(q)).toBe(q);
  }
  // written as a call anywhere else, `fix(` still names a symbol
  expect(analyzeQuery("where is fixParser(input) called").symbols).toContain("fixParser");
});

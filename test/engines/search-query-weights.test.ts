/**
 * The query's term weights as file ranking reads them (rankingWeights): a pasted issue's first line (its
 * title) counts more, and a word the issue repeats many times (a log, a configuration dump) saturates as in
 * BM25's k3, so it no longer outweighs the question's other words by its count.
 */
import { expect, test } from "bun:test";
import { FILE_RANKING, rankingWeights } from "../../src/engines/search/index.ts";
import { analyzeQuery } from "../../src/engines/search/query.ts";
import { withKnobs } from "../helpers/search-project.ts";

const withRanking = <T>(knobs: Partial<typeof FILE_RANKING>, run: () => T): T => withKnobs(FILE_RANKING, knobs, run);

const issue = analyzeQuery("levels broken after upgrade\nfix fix fix fix fix fix fix fix fix fix fix fix levels\nmore words here");

test("both off: the query's own weights", () => {
  withRanking({ title: 0, queryTfSaturation: 0 }, () => expect(rankingWeights(issue.weights, issue)).toBe(issue.weights));
});

test("a multi-line question's title words count FILE_RANKING.title more", () => {
  withRanking({ title: 2, queryTfSaturation: 0 }, () => {
    const w = rankingWeights(issue.weights, issue);
    expect(w.get("levels")).toBe(issue.weights.get("levels")! + 2);
    expect(w.get("upgrade")).toBe(issue.weights.get("upgrade")! + 2);
    expect(w.get("words")).toBe(issue.weights.get("words"));
  });
});

test("a one-line question has no title to weigh", () => {
  const q = analyzeQuery("levels broken after upgrade");
  withRanking({ title: 2, queryTfSaturation: 0 }, () => expect(rankingWeights(q.weights, q)).toEqual(q.weights));
});

test("a repeated word saturates: still above a word said once, far below its count", () => {
  withRanking({ title: 0, queryTfSaturation: 10 }, () => {
    const w = rankingWeights(issue.weights, issue);
    expect(issue.weights.get("fix")).toBe(12);
    expect(w.get("fix")!).toBeCloseTo((12 * 11) / 22, 10);
    expect(w.get("fix")!).toBeGreaterThan(w.get("levels")!);
    // one count stays one: a short question's weights are unchanged
    expect(w.get("words")).toBeCloseTo(issue.weights.get("words")!, 10);
  });
});

test("the defaults are on", () => {
  expect(FILE_RANKING.title).toBeGreaterThan(0);
  expect(FILE_RANKING.queryTfSaturation).toBeGreaterThan(0);
});

test("a query of stop words alone: a name written as code is the question; failing one, the words themselves", () => {
  const use = analyzeQuery("how does Use work");
  expect([use.terms, use.symbols, [...use.weights]]).toEqual([["use"], ["Use"], [["use", 2]]]);
  const call = analyzeQuery("get()");
  expect([call.terms, call.symbols]).toEqual([["get"], ["get"]]);
  const one = analyzeQuery("new");
  expect([one.terms, one.symbols, one.isSymbolQuery]).toEqual([["new"], ["new"], true]);
  const filler = analyzeQuery("how does it work");
  expect([filler.terms, filler.symbols]).toEqual([["how", "does", "it", "work"], []]);
  // a question with a word of its own keeps its stop words out, as before
  expect(analyzeQuery("how is routing done").terms).toEqual(["routing"]);
});

test("a question asking how or where something is tested asks about tests; a sentence saying it can be tested does not", () => {
  expect(analyzeQuery("how is the cors middleware tested").aboutTests).toBe(true);
  expect(analyzeQuery("where are the route handlers tested?").aboutTests).toBe(true);
  expect(analyzeQuery("cors tests").aboutTests).toBe(true);
  expect(analyzeQuery("Wraps the error_log function so that this can be easily tested").aboutTests).toBe(false);
  expect(analyzeQuery("cors middleware allow methods").aboutTests).toBe(false);
});

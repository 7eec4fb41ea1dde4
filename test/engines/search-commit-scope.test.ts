/**
 * A question written as a commit subject names its place in the header: `fix(complete): …`,
 * `feat(middleware/cache): …`. File ranking adds the share of the scope's words a candidate's path holds
 * (FILE_RANKING.scope), so a file in the named folder, or named for it, passes a file elsewhere that only
 * repeats the subject's words; an edit's preflight leaves it out. Test files are scaled by a file-ranking
 * weight of their own (FILE_RANKING.tests), the preflight keeping the chunk list's.
 */
import { expect, test } from "bun:test";
import { FILE_RANKING, placeShares } from "../../src/engines/search/index.ts";
import { RANKING } from "../../src/engines/search/rank.ts";
import { analyzeQuery } from "../../src/engines/search/query.ts";
import { indexedForSearch, withKnobs, withUnrelatedPackages } from "../helpers/search-project.ts";

const files: Record<string, string> = {
  // the subject's words, repeated, outside the scope's folder
  "core/options.go": `package core

// Options lists the options to suggest, and the options after a double dash.
func Options(args []string) []string { return args }
`,
  // the scope's folder: the change is here, with fewer of the subject's words
  "complete/engine.go": `package complete

// Next lists what to suggest after the current word, none after a dash.
func Next(words []string, options []string) []string {
	if len(words) > 0 && words[len(words)-1] == "--" { return nil }
	return options
}
`,
  // a test repeating the words: a commit subject's file is rarely its test
  "core/options_test.go": `package core

// TestOptions checks the options a suggestion lists after a double dash, options and more options.
func TestOptions(t *T) { Options([]string{"--"}) } // options options options
`,
};
withUnrelatedPackages(files);

const project = indexedForSearch(files);

const ranked = (query: string, knobs: Partial<typeof FILE_RANKING>, intent?: "edit"): Promise<string[]> =>
  withKnobs(FILE_RANKING, knobs, async () =>
    (await project.engine.searchFiles(query, 5, { mode: "keyword", ...(intent ? { intent } : {}) })).map((f) => f.filePath),
  );

const SUBJECT = "fix(complete): Do not suggest options after a double dash";

test("the header's scope is read as the place's words; a question without one has none", () => {
  expect(analyzeQuery(SUBJECT).scope).toEqual(["complete"]);
  expect(analyzeQuery("feat(middleware/cache)!: add an option").scope).toEqual(["middleware", "cache"]);
  expect(analyzeQuery("fix(clap_complete): Improve registration").scope).toEqual(["clap_complete", "clap", "complete"]);
  expect(analyzeQuery("fix: a bare type").scope).toEqual([]);
  expect(analyzeQuery("Do not suggest options after a double dash").scope).toEqual([]);
});

test("a scope lifts the file whose path holds it above a file that only repeats the subject's words", async () => {
  expect((await ranked(SUBJECT, { scope: 0 }))[0]).toBe("core/options.go");
  expect((await ranked(SUBJECT, { scope: 1 }))[0]).toBe("complete/engine.go");
  // the same question without its header: no place, the body's words decide
  expect((await ranked("Do not suggest options after a double dash", { scope: 1 }))[0]).toBe("core/options.go");
});

test("an edit's preflight ranks without the scope", async () => {
  expect(await ranked(SUBJECT, { scope: 1 }, "edit")).toEqual(await ranked(SUBJECT, { scope: 0 }, "edit"));
});

test("a path's words weigh by their rarity among the candidates: a word in every path says little", () => {
  const paths = ["clap_complete/src/engine.rs", "clap_builder/src/arg.rs", "clap_builder/src/command.rs", "clap_derive/src/lib.rs"];
  const shares = placeShares(paths, ["clap", "complete"]);
  expect(shares.get("clap_complete/src/engine.rs")).toBeCloseTo(1, 9);
  // 'clap' is in all four: ln 2 of (ln 2 + ln 5)
  expect(shares.get("clap_builder/src/arg.rs")).toBeCloseTo(Math.log(2) / (Math.log(2) + Math.log(5)), 9);
  // folders and the file's name count, without the extension; words are compared stemmed
  expect(placeShares(["src/middleware/cache/index.ts", "src/utils/headers.ts"], ["headers"]).get("src/utils/headers.ts")).toBe(1);
  expect(placeShares(["src/a.ts"], ["ts"]).size).toBe(0);
});

test("test files are scaled by the file ranking's own weight; the preflight keeps the chunk list's", async () => {
  const q = "options after a double dash, options options";
  const score = (knobs: Partial<typeof FILE_RANKING>, intent?: "edit") =>
    withKnobs(
      FILE_RANKING,
      knobs,
      async () =>
        (await project.engine.searchFiles(q, 10, { mode: "keyword", ...(intent ? { intent } : {}) })).find((f) => f.filePath === "core/options_test.go")!.score,
    );
  expect((await score({ tests: 0.2 })) / (await score({ tests: 0.4 }))).toBeCloseTo(0.5, 3);
  expect(await score({ tests: 0.2 }, "edit")).toBe(await score({ tests: 0.4 }, "edit"));
  expect(RANKING.testPenalty).toBe(0.55);
});

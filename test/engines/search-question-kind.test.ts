/**
 * The question's kind, learned from the project's own commit subjects: a question that opens as the
 * subjects do ("Fix …") reads as a change request, the third person of a verb they open with ("Returns
 * …") or a full stop the subjects never end with as a description, and file ranking blends
 * FILE_RANKING.change and describe by it; without a history (or a short one) the weights are FILE_RANKING's
 * own, and a long question fades the blend.
 */
import { afterEach, expect, test } from "bun:test";
import { changeLikeness, FILE_RANKING, kindWeights } from "../../src/engines/search/index.ts";
import { openingWord } from "../../src/core/words.ts";
import { styleOf, subjectStyle, type SubjectStyle } from "../../src/store/history-store.ts";
import { Session } from "../../src/tools/session.ts";
import { commitAt, temporaryHome, tmpProject } from "../helpers/tmp-project.ts";

const saved = { ...FILE_RANKING };
const cleanups: Array<() => void> = [];
afterEach(() => {
  Object.assign(FILE_RANKING, saved);
  while (cleanups.length > 0) cleanups.pop()!();
});

function style(openings: Record<string, number>, fullStops = 0): SubjectStyle {
  const map = new Map(Object.entries(openings));
  return { subjects: [...map.values()].reduce((a, b) => a + b, 0), openings: map, fullStops };
}

test("a sentence's opening word, lower case, a conventional type included", () => {
  expect(openingWord("Fix the parser")).toBe("fix");
  expect(openingWord("fix(parser): keep the comments")).toBe("fix");
  expect(openingWord("  `Returns` the current line.")).toBe("returns");
  expect(openingWord("[maven-release-plugin] prepare release")).toBe("maven");
  expect(openingWord("123 !!")).toBeUndefined();
});

test("a project's subjects: how many open with each word, how many end with a full stop", () => {
  const s = styleOf(["Fix the parser", "fix: tabs", "Add a flag.", "Return early", "42"]);
  expect(s.subjects).toBe(5);
  expect(Object.fromEntries(s.openings)).toEqual({ fix: 2, add: 1, return: 1 });
  expect(s.fullStops).toBe(1);
});

test("the kind: an opening the subjects use is a change request, its third person a description, a full stop they lack a description", () => {
  Object.assign(FILE_RANKING, { kindMinCommits: 10, kindUnseen: 0.75, kindEnd: 2 });
  const s = style({ fix: 30, add: 15, return: 2, update: 3 }, 5); // 50 subjects, 5 with a full stop
  expect(changeLikeness("Fix the footer total", s)).toBeCloseTo(0.9 ** 2, 9);
  expect(changeLikeness("Returns the footer total", s)).toBe(0);
  expect(changeLikeness("Applies the footer total", style({ apply: 50 }))).toBe(0);
  expect(changeLikeness("Move cursor to the start of the line", s)).toBeCloseTo(0.75 * 0.9 ** 2, 9);
  // the full stop: 5 of 50 subjects end with one
  expect(changeLikeness("Add a flag.", s)).toBeCloseTo(0.1 ** 2, 9);
  // too short a history says nothing
  expect(changeLikeness("Fix the footer total", style({ fix: 9 }))).toBeUndefined();
});

test("the weights: FILE_RANKING's own without a kind, describe's at 0, change's at 1, faded for a long question", () => {
  Object.assign(FILE_RANKING, { history: 1, chunkPower: 1, describe: { history: 0.5, chunkPower: 3 }, change: { history: 1.5 } });
  expect(kindWeights(undefined, 1).history).toBe(1);
  expect(kindWeights(0, 1)).toMatchObject({ history: 0.5, chunkPower: 3 });
  expect(kindWeights(1, 1)).toMatchObject({ history: 1.5, chunkPower: 1 });
  expect(kindWeights(0.5, 1)).toMatchObject({ history: 1, chunkPower: 2 });
  // a pasted issue (shortness 0.25) keeps three quarters of the weights' own
  expect(kindWeights(0, 0.25).history).toBeCloseTo(0.875, 9);
  expect(kindWeights(0, 0).chunkPower).toBe(1);
});

const LEDGER = "def post(entries):\n    total = 0\n    for e in entries:\n        total += e.amount\n    return total\n";
const REPORT = "def render(rows):\n    return '\\n'.join(str(r) for r in rows)\n";

/** A project whose subjects open with "Fix" and "Print", none with a full stop; report.py only the history finds. */
async function indexed(): Promise<{ session: Session; commit: (subject: string) => void }> {
  const restoreHome = temporaryHome("cortex-kind-home-");
  process.env.CORTEX_EMBEDDINGS_PROVIDER = "none";
  const p = tmpProject({ "src/ledger.py": LEDGER, "src/report.py": REPORT });
  Bun.spawnSync(["git", "-C", p.root, "init", "-q"]);
  commitAt(p.root, "Initial import", 9);
  let n = 0;
  const commit = (subject: string) => {
    p.write("src/report.py", `${REPORT}# ${++n}\n`);
    commitAt(p.root, subject, 8 - n / 10);
  };
  commit("Fix the footer total");
  commit("Print the footer total");
  commit("Fix the printed footer");
  const session = new Session(p.root);
  cleanups.push(() => {
    session.close();
    p.cleanup();
    restoreHome();
    delete process.env.CORTEX_EMBEDDINGS_PROVIDER;
  });
  await session.index();
  return { session, commit };
}

test("the store reads the subjects' style, and again after the history grows", async () => {
  const { session, commit } = await indexed();
  const store = session.store()!;
  expect(Object.fromEntries(subjectStyle(store).openings)).toEqual({ initial: 1, fix: 2, print: 1 });
  commit("Fix the footer again.");
  await session.index();
  const s = subjectStyle(store);
  expect(s.subjects).toBe(5);
  expect(s.openings.get("fix")).toBe(3);
  expect(s.fullStops).toBe(1);
});

test("search: the history weighs the change request's weight for 'Fix …' and the description's for 'Prints ….'", async () => {
  const { session } = await indexed();
  const search = await session.search();
  Object.assign(FILE_RANKING, {
    history: 1,
    historyGate: 1,
    describe: { history: 0.5 },
    change: { history: 1.5, historyGate: 1 },
    kindUnseen: 0.75,
    kindEnd: 2,
  });
  const report = async (q: string) => (await search.searchFiles(q, 5, { mode: "keyword" })).find((f) => f.filePath === "src/report.py")?.score ?? 0;
  for (const [question, weight] of [
    ["Fix the footer total", 1.5],
    ["Prints the footer total.", 0.5],
  ] as const) {
    FILE_RANKING.kindMinCommits = 1_000; // no kind: FILE_RANKING's own history weight
    const own = await report(question);
    expect(own).toBeGreaterThan(0);
    FILE_RANKING.kindMinCommits = 1;
    expect(await report(question)).toBeCloseTo(own * weight, 5);
  }
  // an edit's preflight ranks as before: no history, no kind
  FILE_RANKING.kindMinCommits = 1;
  const edit = await search.searchFiles("Fix the footer total", 5, { mode: "keyword", intent: "edit" });
  FILE_RANKING.kindMinCommits = 1_000;
  expect(await search.searchFiles("Fix the footer total", 5, { mode: "keyword", intent: "edit" })).toEqual(edit);
});

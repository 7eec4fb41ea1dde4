/**
 * The file ranking's learned weights: file-ranking.json laid over the hand-chosen FILE_RANKING (a key for a
 * plain weight, kind.key for a weight a question's kind moves), a broken data file refused by name, and an
 * edit's preflight ranking with the hand-chosen weights its ready rule was chosen with.
 */
import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FILE_RANKING, HAND_FILE_RANKING, kindWeights } from "../../src/engines/search/index.ts";
import { LEARNED_KNOBS, withLearned } from "../../src/engines/search/learned-ranking.ts";
import { Session } from "../../src/tools/session.ts";
import { temporaryHome, tmpProject } from "../helpers/tmp-project.ts";

const shipped = JSON.parse(readFileSync(join(import.meta.dir, "../../src/engines/search/file-ranking.json"), "utf8")) as {
  weights: Record<string, number>;
};

test("the shipped weights are the hand-chosen ones with the data file's laid over them, nothing else moved", () => {
  expect(FILE_RANKING).toEqual(withLearned(HAND_FILE_RANKING, shipped.weights));
  const hand = HAND_FILE_RANKING as unknown as Record<string, unknown>;
  const now = FILE_RANKING as unknown as Record<string, unknown>;
  const named = new Set(Object.keys(shipped.weights).map((k) => k.split(".")[0]));
  for (const key of Object.keys(hand)) if (!named.has(key)) expect(now[key]).toEqual(hand[key]);
  for (const name of Object.keys(shipped.weights)) expect(LEARNED_KNOBS as readonly string[]).toContain(name);
});

test("a plain weight replaces its value; a kind's weight sets the kind's own and keeps its other keys", () => {
  const hand = { chunk: 0.5, history: 1, describe: { history: 0.5, chunkPower: 3 } as Record<string, number>, change: {} as Record<string, number> };
  const out = withLearned(hand, { chunk: 1.5, "describe.history": 0.25, "change.tests": 0.2 });
  expect(out).toEqual({ chunk: 1.5, history: 1, describe: { history: 0.25, chunkPower: 3 }, change: { tests: 0.2 } });
  // the hand-chosen object is left as it was
  expect(hand.chunk).toBe(0.5);
  expect(hand.describe).toEqual({ history: 0.5, chunkPower: 3 });
});

test("a data file naming a weight the trainer may not set, or a value that is not a number ≥ 0, is refused by name", () => {
  expect(() => withLearned(HAND_FILE_RANKING, { fields: 2 })).toThrow(/"fields" is not a learned weight/);
  expect(() => withLearned(HAND_FILE_RANKING, { "describe.fields": 2 })).toThrow(/"describe.fields" is not a learned weight/);
  expect(() => withLearned(HAND_FILE_RANKING, { chunk: "1" })).toThrow(/"chunk" must be a number ≥ 0, not "1"/);
  expect(() => withLearned(HAND_FILE_RANKING, { chunk: Number.NaN })).toThrow(/"chunk" must be a number/);
  expect(() => withLearned(HAND_FILE_RANKING, { history: -1 })).toThrow(/"history" must be a number ≥ 0, not -1/);
});

test("the kind's weights read the object they are given: an edit's preflight the hand-chosen one", () => {
  const learned = withLearned(HAND_FILE_RANKING, { definitions: 0.9, nonSource: 0.8 });
  expect(kindWeights(undefined, 1, learned)).toMatchObject({ definitions: 0.9, nonSource: 0.8 });
  expect(kindWeights(undefined, 1, HAND_FILE_RANKING)).toMatchObject({ definitions: HAND_FILE_RANKING.definitions, nonSource: HAND_FILE_RANKING.nonSource });
});

const saved = structuredClone(FILE_RANKING);
const cleanups: Array<() => void> = [];
afterEach(() => {
  Object.assign(FILE_RANKING, structuredClone(saved));
  while (cleanups.length > 0) cleanups.pop()!();
});

test("search: an explore question ranks with FILE_RANKING, an edit's preflight with the hand-chosen weights whatever FILE_RANKING holds", async () => {
  const restoreHome = temporaryHome("cortex-learned-home-");
  const p = tmpProject({
    "src/ledger.py": "def post_entries(entries):\n    total = 0\n    for e in entries:\n        total += e.amount\n    return total\n",
    "docs/ledger_notes.py": "# how the ledger posts entries and keeps the total\ndef explain_total():\n    return 'ledger total of the posted entries'\n",
  });
  const session = new Session(p.root);
  cleanups.push(() => {
    session.close();
    p.cleanup();
    restoreHome();
  });
  await session.index();
  const search = await session.search();
  const docsScore = async (intent: "explore" | "edit") =>
    (await search.searchFiles("post the ledger entries total", 5, { mode: "keyword", intent })).find((f) => f.filePath === "docs/ledger_notes.py")?.score ?? 0;
  FILE_RANKING.nonSource = 1;
  const exploreFull = await docsScore("explore");
  const editBefore = await docsScore("edit");
  FILE_RANKING.nonSource = 0.1;
  expect(exploreFull).toBeGreaterThan(0);
  expect(await docsScore("explore")).toBeCloseTo(exploreFull * 0.1, 5);
  expect(await docsScore("edit")).toBe(editBefore);
  expect(editBefore).toBeGreaterThan(0);
});

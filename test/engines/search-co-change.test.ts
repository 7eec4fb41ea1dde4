/**
 * File ranking for a long question (a pasted issue) lifts the files usually changed together with the
 * leading files (FILE_RANKING.coChangeLong): a fix often spans a file the issue's words name and its
 * usual partner, which the words do not name. A short question is ranked as before.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FILE_RANKING } from "../../src/engines/search/index.ts";
import { indexedForSearch } from "../helpers/search-project.ts";
import { commitAt } from "../helpers/tmp-project.ts";

const LEDGER = "def post_entries(entries):\n    total = 0\n    for e in entries:\n        total += e.amount\n    return total\n";
const LIMITS = "MAXIMUM = 100\n\ndef check(value):\n    return value <= MAXIMUM\n";
const files: Record<string, string> = { "src/ledger.py": LEDGER, "src/limits.py": LIMITS };
// unrelated modules, so that the question's words are rare in the project as they are in a real one
for (let i = 0; i < 12; i++) files[`src/tool${i}.py`] = `def run${i}():\n    print(${i})\n`;

let home: string;
const saved = { home: process.env.CORTEX_HOME, coChangeLong: FILE_RANKING.coChangeLong, capped: FILE_RANKING.coChangeCapped };

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), "cortex-cochange-home-"));
  process.env.CORTEX_HOME = home;
  process.env.CORTEX_EMBEDDINGS_PROVIDER = "none";
});
const indexed = indexedForSearch(files, (p) => {
  Bun.spawnSync(["git", "-C", p.root, "init", "-q"]);
  commitAt(p.root, "Initial import", 5);
  // the ledger and the limits change together, three times
  for (let i = 0; i < 3; i++) {
    p.write("src/ledger.py", `${LEDGER}\n# revision ${i}\n`);
    p.write("src/limits.py", `${LIMITS}\n# revision ${i}\n`);
    commitAt(p.root, `Rework ${i}`, 4 - i);
  }
});
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  if (saved.home === undefined) delete process.env.CORTEX_HOME;
  else process.env.CORTEX_HOME = saved.home;
  delete process.env.CORTEX_EMBEDDINGS_PROVIDER;
  FILE_RANKING.coChangeLong = saved.coChangeLong;
  FILE_RANKING.coChangeCapped = saved.capped;
});

async function ranked(query: string, coChangeLong: number, capped = saved.capped): Promise<Array<{ filePath: string; score: number }>> {
  FILE_RANKING.coChangeLong = coChangeLong;
  FILE_RANKING.coChangeCapped = capped;
  try {
    return await indexed.engine.searchFiles(query, 20, { mode: "keyword" });
  } finally {
    FILE_RANKING.coChangeLong = saved.coChangeLong;
    FILE_RANKING.coChangeCapped = saved.capped;
  }
}

async function scoreOf(query: string, file: string, coChangeLong: number): Promise<number> {
  return (await ranked(query, coChangeLong)).find((f) => f.filePath === file)?.score ?? 0;
}

// an issue's length: forty words beyond the few that matter
const filler = Array.from({ length: 40 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${i}`).join(" ");

test("a long question lifts the file usually changed with its leading file", async () => {
  const issue = `post_entries total is wrong when entries amount overflows\n${filler}`;
  expect(FILE_RANKING.coChangeLong).toBeGreaterThan(0);
  const without = await scoreOf(issue, "src/limits.py", 0);
  const withLift = await scoreOf(issue, "src/limits.py", FILE_RANKING.coChangeLong);
  expect(without).toBe(0); // no word of the issue is in limits.py
  expect(withLift).toBeGreaterThan(0.1);
});

test("a short question is ranked as before", async () => {
  const question = "post entries total amount";
  expect(await scoreOf(question, "src/limits.py", FILE_RANKING.coChangeLong)).toBeLessThan(0.05);
  expect(await scoreOf(question, "src/ledger.py", FILE_RANKING.coChangeLong)).toBe(await scoreOf(question, "src/ledger.py", 0));
});

test("the lift never carries a file past the leading file that lends it", async () => {
  // limits.py holds one of the issue's words, so its own score is near the ledger's; a heavy lift would pass it
  const issue = `post_entries total wrong: value check fails\n${filler}`;
  const uncapped = await ranked(issue, 3, false);
  expect(uncapped[0]!.filePath).toBe("src/limits.py");
  const capped = await ranked(issue, 3, true);
  expect(capped.map((f) => f.filePath).slice(0, 2)).toEqual(["src/ledger.py", "src/limits.py"]);
  expect(capped[1]!.score).toBeLessThan(capped[0]!.score);
});

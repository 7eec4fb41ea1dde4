/**
 * File ranking for a long question (a pasted issue) lifts the files that import, or are imported by, a
 * leading file when the question already reached them (FILE_RANKING.linkedLong): a change to a module often
 * needs the module that builds on it. The lift stops below the leader, a short question is ranked as before.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Session } from "../../src/tools/session.ts";
import { FILE_RANKING, rankingWeights, type SearchEngine } from "../../src/engines/search/index.ts";
import { analyzeQuery } from "../../src/engines/search/query.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";

const CONTOUR =
  "class ContourSet:\n    def levels(self, count):\n        return [i / count for i in range(count)]\n\n    def label(self, fmt):\n        return fmt\n";
// builds on the contour module; shares one word of the issue below ("levels") and the module path (contour)
const TRICONTOUR = "from pkg.contour import ContourSet\n\n\nclass TriSet(ContourSet):\n    def levels(self, count):\n        return super().levels(count)\n";
// unrelated to the contour module, but shares more of the issue's words than the module building on it
const SPACING = "def levels(steps):\n    return steps\n\n\ndef label(fmt):\n    return fmt\n";
const files: Record<string, string> = {
  "pkg/__init__.py": "",
  "pkg/contour.py": CONTOUR,
  "pkg/triangles.py": TRICONTOUR,
  "pkg/spacing.py": SPACING,
};
for (let i = 0; i < 12; i++) files[`pkg/tool${i}.py`] = `def run${i}():\n    print(${i})\n`;

let p: TmpProject;
let home: string;
let session: Session;
let engine: SearchEngine;
const saved = { home: process.env.CORTEX_HOME, linkedLong: FILE_RANKING.linkedLong };

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), "cortex-linked-home-"));
  process.env.CORTEX_HOME = home;
  process.env.CORTEX_EMBEDDINGS_PROVIDER = "none";
  p = tmpProject(files);
  session = new Session(p.root);
  await session.index();
  engine = await session.search();
});
afterAll(() => {
  session.close();
  p.cleanup();
  rmSync(home, { recursive: true, force: true });
  if (saved.home === undefined) delete process.env.CORTEX_HOME;
  else process.env.CORTEX_HOME = saved.home;
  delete process.env.CORTEX_EMBEDDINGS_PROVIDER;
  FILE_RANKING.linkedLong = saved.linkedLong;
});

async function ranked(query: string, linkedLong: number): Promise<string[]> {
  FILE_RANKING.linkedLong = linkedLong;
  try {
    return (await engine.searchFiles(query, 20, { mode: "keyword" })).map((f) => f.filePath);
  } finally {
    FILE_RANKING.linkedLong = saved.linkedLong;
  }
}

// an issue's length: forty words beyond the few that matter
const filler = Array.from({ length: 40 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${i}`).join(" ");

test("the index links the two modules", async () => {
  const edges = await session.reader()!.edgesAmong(["pkg/contour.py", "pkg/triangles.py"]);
  expect(edges.some((e) => e.file === "pkg/triangles.py" && e.target === "pkg/contour.py")).toBe(true);
});

test("a long question lifts the module importing its leading file above an unrelated one, not above the leader", async () => {
  const issue = `contour label fmt ignored when levels are set\n${filler}`;
  const without = await ranked(issue, 0);
  expect(without[0]).toBe("pkg/contour.py");
  expect(without.indexOf("pkg/triangles.py")).toBeGreaterThan(without.indexOf("pkg/spacing.py"));
  const lifted = await ranked(issue, 0.8);
  expect(lifted[0]).toBe("pkg/contour.py");
  expect(lifted.indexOf("pkg/triangles.py")).toBeLessThan(lifted.indexOf("pkg/spacing.py"));
});

test("a short question is ranked as before", async () => {
  const question = "ContourSet label levels";
  expect(await ranked(question, 0.8)).toEqual(await ranked(question, 0));
});

test("query term weights: a title counts more, a repeated word saturates", () => {
  const saved = { title: FILE_RANKING.title, k: FILE_RANKING.queryTfSaturation };
  try {
    const q = analyzeQuery("levels broken\nfix fix fix fix fix fix fix fix fix fix levels");
    FILE_RANKING.title = 0;
    FILE_RANKING.queryTfSaturation = 0;
    expect(rankingWeights(q.weights, q)).toBe(q.weights);
    FILE_RANKING.title = 2;
    expect(rankingWeights(q.weights, q).get("levels")).toBe(q.weights.get("levels")! + 2);
    FILE_RANKING.title = 0;
    FILE_RANKING.queryTfSaturation = 2;
    const w = rankingWeights(q.weights, q);
    expect(w.get("fix")!).toBeLessThan(3);
    expect(w.get("fix")!).toBeGreaterThan(w.get("levels")!);
  } finally {
    FILE_RANKING.title = saved.title;
    FILE_RANKING.queryTfSaturation = saved.k;
  }
});

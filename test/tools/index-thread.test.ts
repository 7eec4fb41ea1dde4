/**
 * Index runs on a thread of their own (the server's way): the same report as on the calling thread,
 * progress and log records relayed, errors with their codes, and the calling thread free meanwhile.
 */
import { afterEach, expect, test } from "bun:test";
import { sqliteOf } from "../../src/store/sqlite-access.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { runIndexOnThread } from "../../src/tools/index-thread.ts";
import { indexLocation } from "../../src/store/location.ts";
import { canonicalRoot } from "../../src/core/paths.ts";
import { log, type LogRecord } from "../../src/core/log.ts";
import { Session } from "../../src/tools/session.ts";
import type { IndexProgress } from "../../src/indexer/pipeline.ts";

let p: TmpProject;
afterEach(() => p?.cleanup());

function project(n: number): TmpProject {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`pkg${i % 8}/f${i}.go`] = `package pkg${i % 8}\n\nfunc F${i}() int {\n\treturn ${i}\n}\n`;
  return tmpProject(files);
}

test("a run on the index thread reports both tiers' progress and the same counts as a run here", async () => {
  p = project(200);
  const phases = new Set<string>();
  let lastParse: IndexProgress | undefined;
  const steps: string[] = [];
  const report = await runIndexOnThread({
    root: p.root,
    onProgress: (pr) => {
      phases.add(pr.phase);
      if (pr.phase === "parse") lastParse = pr;
      if (pr.phase === "finish") steps.push(`${pr.step} ${pr.done}/${pr.total}`);
    },
  });
  // the steps after the parse tier, one by one, counted as steps (a first build loads its keyword index last)
  expect(steps).toEqual(["modules 0/4", "reference resolution 1/4", "git history 2/4", "keyword index 3/4", "done 4/4"]);
  expect(report.mode).toBe("full");
  expect(report.files).toBe(200);
  expect(report.parsed).toBe(200);
  expect([...phases]).toEqual(expect.arrayContaining(["walk", "text", "parse", "finish"]));
  expect(lastParse).toMatchObject({ total: 200 });
  // the index it wrote is this thread's current index, whole
  const s = new Session(p.root);
  try {
    expect(await s.parseTierState()).toBeUndefined();
    expect((await (await s.files()).query({ from: "functions", aggregations: [{ function: "COUNT", alias: "n" }] })).rows).toEqual([[200]]);
  } finally {
    s.close();
  }
  p.write("pkg0/f0.go", "package pkg0\n\nfunc G() {}\n");
  const again = await runIndexOnThread({ root: p.root });
  expect(again).toMatchObject({ mode: "incremental", parsed: 1, unchanged: 199 });
});

test("errors keep their code; the thread's log records reach this thread's sinks", async () => {
  p = project(3);
  const location = indexLocation(canonicalRoot(p.root));
  await expect(runIndexOnThread({ root: p.root + "/no-such-folder" })).rejects.toMatchObject({
    code: "NOT_FOUND",
    message: expect.stringContaining("project root does not exist"),
  });
  // a first build interrupted in its parse tier warns, on the next run, that it parses everything again
  const records: LogRecord[] = [];
  const remove = log.addSink((r) => records.push(r));
  const level = log.level();
  log.setLevel("warning"); // the thread logs at this thread's level
  try {
    await runIndexOnThread({ root: p.root });
    const s = new Session(p.root);
    const db = sqliteOf(await s.requireStore());
    db.close();
    s.close();
    const { Database } = await import("bun:sqlite");
    const w = new Database(location.current()!);
    w.query("INSERT OR REPLACE INTO meta (key, value) VALUES ('parse_state', 'bulk')").run();
    w.close();
    const resumed = await runIndexOnThread({ root: p.root });
    expect(resumed.parsed).toBe(3);
  } finally {
    remove();
    log.setLevel(level);
  }
  expect(records.some((r) => r.level === "warning" && r.message.includes("parsing every file again"))).toBe(true);
});

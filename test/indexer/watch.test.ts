/**
 * What the watcher lets through to an index run, and when: events that cannot change the index (git's
 * internals, paths the ignore rules leave out) are dropped; a stream of events settles within MAX_WAIT_MS
 * of the first instead of waiting for a quiet moment that never comes.
 */
import { afterEach, expect, test } from "bun:test";
import { MAX_WAIT_MS, ProjectWatcher } from "../../src/indexer/watch.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";

let p: TmpProject | undefined;
let w: ProjectWatcher | undefined;
afterEach(() => {
  w?.stop();
  p?.cleanup();
  w = p = undefined;
});

function watcher(debounceMs: number, excludes: string[] = []): { settled: string[][]; heard: string[] } {
  const settled: string[][] = [];
  const heard: string[] = [];
  w = new ProjectWatcher(
    p!.root,
    (paths) => settled.push(paths.sort()),
    debounceMs,
    (path) => heard.push(path),
    excludes,
  );
  return { settled, heard };
}

test("ignored paths, git's internals and the config's excludes are dropped; HEAD, branch tips, info/exclude and ignore files count", async () => {
  p = tmpProject({ ".gitignore": "logs/\n*.tmp\n", "src/a.go": "package a\n", ".git/HEAD": "ref: refs/heads/main\n" });
  const { settled, heard } = watcher(20, ["gen/**"]);
  for (const path of ["logs/app.log", "src/x.tmp", ".git/objects/ab/cdef", ".git/index", "node_modules/x/y.js", "gen/out.go", "src/.a.go.swp"]) w!.heard(path);
  await Bun.sleep(60);
  expect([settled, heard]).toEqual([[], []]);
  for (const path of ["src/a.go", ".git/HEAD", ".git/refs/heads/main", ".git/info/exclude"]) w!.heard(path);
  await Bun.sleep(60);
  expect(settled).toEqual([[".git/HEAD", ".git/info/exclude", ".git/refs/heads/main", "src/a.go"]]);
  // a changed ignore file is read again for the events after it
  p.write(".gitignore", "logs/\n*.tmp\nsrc/\n");
  w!.heard(".gitignore");
  w!.heard("src/b.go");
  await Bun.sleep(60);
  expect(settled[1]).toEqual([".gitignore"]);
});

test("a stream of events settles within the longest wait, not after it stops", async () => {
  p = tmpProject({ "src/a.go": "package a\n" });
  const { settled } = watcher(300);
  const started = Date.now();
  while (settled.length === 0 && Date.now() - started < MAX_WAIT_MS + 1500) {
    w!.heard("src/a.go");
    await Bun.sleep(50);
  }
  expect(settled.length).toBe(1);
  expect(Date.now() - started).toBeLessThan(MAX_WAIT_MS + 400);
  expect(Date.now() - started).toBeGreaterThanOrEqual(MAX_WAIT_MS - 50);
});

test("a changed configuration is no index change; the server says once that it keeps the settings it started with", async () => {
  p = tmpProject({ "src/a.go": "package a\n", ".cortex/config.yml": "index:\n  exclude: []\n" });
  const { settled } = watcher(20);
  const warned: string[] = [];
  const { log } = await import("../../src/core/log.ts");
  const warn = log.warn;
  log.warn = (m: string) => void warned.push(m);
  try {
    w!.heard(".cortex/config.yml");
    w!.heard(".cortex/config.yml");
  } finally {
    log.warn = warn;
  }
  await Bun.sleep(60);
  expect(settled).toEqual([]);
  expect(warned).toEqual([".cortex/config.yml changed: restart the server for the change to apply (it keeps the settings it started with)"]);
});

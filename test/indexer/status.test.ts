/**
 * The index's state as get_indexing_status and `cortex status` report it: an index that exists is ready
 * even while a run updates it (its answers come from the index as it stood), and only a first build with
 * nothing to answer from is "indexing".
 */
import { afterEach, expect, test } from "bun:test";
import { runIndex } from "../../src/indexer/pipeline.ts";
import { indexStatus } from "../../src/indexer/status.ts";
import { INDEX_HOOKS } from "../../src/tools/index-hooks.ts";
import { Session } from "../../src/tools/session.ts";
import { TOOLS } from "../../src/tools/index.ts";
import { copyFixture, tmpProject, type TmpProject } from "../helpers/tmp-project.ts";

let p: TmpProject;
afterEach(() => p?.cleanup());

test("an index being updated is ready and says it is updating; without one a run is indexing", async () => {
  p = copyFixture("polyglot/go");
  const s = new Session(p.root);
  try {
    expect((await indexStatus(s.root, s.location, undefined, s.config, false)).state).toBe("missing");
    expect(await indexStatus(s.root, s.location, undefined, s.config, true)).toEqual({ root: s.root, state: "indexing" });
    await runIndex({ hooks: INDEX_HOOKS, root: p.root });
    const store = await s.requireReader();
    const idle = await indexStatus(s.root, s.location, store, s.config, false);
    expect(idle.state).toBe("ready");
    expect(idle.updating).toBeUndefined();
    const updating = await indexStatus(s.root, s.location, store, s.config, true);
    expect(updating).toMatchObject({ state: "ready", updating: true, files: idle.files, languages: idle.languages });
  } finally {
    s.close();
  }
});

test("get_indexing_status during a refresh: ready, updating, and the rendering says so", async () => {
  p = tmpProject({ "go.mod": "module example.com/st\n\ngo 1.21\n", "a.go": "package st\n\nfunc A() int { return 1 }\n" });
  const s = new Session(p.root);
  try {
    await s.index();
    const tool = TOOLS.find((t) => t.name === "get_indexing_status")!;
    const running = s.index();
    const during = (await tool.handler({}, { session: s } as never)) as { state: string; updating?: boolean };
    await running;
    const after = (await tool.handler({}, { session: s } as never)) as { state: string; updating?: boolean };
    expect(during).toMatchObject({ state: "ready", updating: true });
    expect(tool.render!(during as never)).toContain("index ready, updating");
    expect(after.state).toBe("ready");
    expect(after.updating).toBeUndefined();
  } finally {
    s.close();
  }
});

test("files left out for their size are counted in the status, with the setting that includes them", async () => {
  p = tmpProject({ "small.py": "x = 1\n", "big.py": `${"y = 2\n".repeat(300_000)}`, ".cortex/config.yml": "index:\n  max_file_size: 100000\n" });
  const s = new Session(p.root);
  try {
    await runIndex({ hooks: INDEX_HOOKS, root: p.root, config: s.config });
    const st = await indexStatus(s.root, s.location, await s.requireReader(), s.config, false);
    expect(st.too_large).toEqual({ files: 1, limit_bytes: 100000, examples: ["big.py"] });
    const text = TOOLS.find((t) => t.name === "get_indexing_status")!.render!(st as never);
    expect(text).toContain("not indexed for their size: 1 file over 100000 bytes (e.g. big.py; raise index.max_file_size");
  } finally {
    s.close();
  }
});

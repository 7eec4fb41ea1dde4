/**
 * Publishers against a real PostgreSQL server (started by the test in a temporary folder; skipped, with
 * the reason printed, only where the machine has no server binaries): two publishers of one repository
 * at once, readers querying meanwhile, and a publisher process killed midway.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { connectPostgres, type PgClient } from "../../../src/store/postgres/client.ts";
import { publishIndex } from "../../../src/store/postgres/publish.ts";
import { listRepos } from "../../../src/store/postgres/repos.ts";
import { indexedProject } from "./fixture.ts";
import { liveState, type LiveState } from "./live-state.ts";
import { serverSkipReason, startServer, type TestServer } from "./server.ts";

// builds local indexes, starts databases and command-line processes: seconds each on a busy machine
setDefaultTimeout(120_000);

const skip = serverSkipReason();
if (skip !== undefined) console.warn(`skipping the PostgreSQL server tests: ${skip}`);

let server: TestServer;
let client: PgClient;

beforeAll(() => {
  if (skip !== undefined) return;
  server = startServer();
  client = connectPostgres(server.url(), { maxConnections: 8 });
});

afterAll(async () => {
  await client?.close();
  server?.stop();
});

test.skipIf(skip !== undefined)("two publishers of one repository at once: one waits, nothing is lost, readers only ever see whole generations", async () => {
  const schema = "two_publishers";
  const p1 = indexedProject();
  const v1 = await p1.index();
  const many: Record<string, string> = {};
  for (let i = 0; i < 60; i++) many[`gen/file${i}.ts`] = `export const value${i} = ${i};\n`;
  const p2 = indexedProject(many);
  const v2 = await p2.index();
  const other = connectPostgres(server.url(), { maxConnections: 2 });
  try {
    await publishIndex(client, "seed", v1, { schema });
    const empty: LiveState = { files: {}, functions: [], symbols: [], chunks: 0, modules: [] };
    const whole1 = { ...(await liveState(client, schema, "seed")) };
    expect(Object.keys(whole1.files).length).toBe(4);

    // readers poll while both publish: every state they see is nothing yet, v1 whole or v2 whole
    let publishing = true;
    const seen = new Set<string>();
    const reader = (async () => {
      while (publishing) {
        const st = await liveState(other, schema, "demo");
        const keys = Object.keys(st.files).length;
        seen.add(String(keys));
        expect([0, 4, 60]).toContain(keys);
        if (keys === 0) expect(st).toEqual(empty);
        if (keys === 4) expect(st.files).toEqual(whole1.files);
      }
    })();
    let waited = 0;
    let otherWaits: () => void = () => {};
    const otherWaiting = new Promise<void>((r) => (otherWaits = r));
    const onWait = () => {
      waited++;
      otherWaits();
    };
    // whichever publisher takes the lock holds it until the other has found it taken (on a loaded machine
    // the first could otherwise finish before the second starts); 10 s at most, so a missing wait fails below
    const onBatch = () => Promise.race([otherWaiting, Bun.sleep(10_000)]);
    const [a, b] = await Promise.all([
      publishIndex(client, "demo", v1, { schema, batchFiles: 1, onWait, onBatch }),
      publishIndex(client, "demo", v2, { schema, batchFiles: 1, onWait, onBatch }),
    ]);
    publishing = false;
    await reader;
    expect(waited).toBe(1);
    expect([a.generation, b.generation].sort()).toEqual([1, 2]);
    const last = a.generation === 2 ? p1 : p2;
    const final = await liveState(client, schema, "demo");
    expect(Object.keys(final.files).length).toBe(last === p1 ? 4 : 60);
    // the later publication replaced every file of the earlier one: nothing of it is left behind
    const [{ n }] = (await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${schema}.file_versions v JOIN ${schema}.repos r USING (repo_id) WHERE r.name = 'demo'`,
    )) as [{ n: number }];
    expect(n).toBe(Object.keys(final.files).length);
    expect((await listRepos(client, schema)).map((r) => [r.name, r.generation])).toEqual([
      ["demo", 2],
      ["seed", 1],
    ]);
    expect(seen.size).toBeGreaterThan(0);
  } finally {
    await other.close();
    v1.close();
    v2.close();
    p1.project.cleanup();
    p2.project.cleanup();
  }
});

test.skipIf(skip !== undefined)(
  "a publisher process killed midway: the previous generation stays whole, its lock is freed, the next publisher finishes",
  async () => {
    const schema = "killed_publisher";
    const p = indexedProject();
    let store = await p.index();
    await publishIndex(client, "demo", store, { schema });
    store.close();
    const before = await liveState(client, schema, "demo");
    p.project.write("src/util.go", "package util\n\nfunc Changed() {}\n");
    p.project.write("src/server.ts", "export const replaced = true;\n");
    store = await p.index();
    const child = join(import.meta.dir, "publish-child.ts");
    try {
      const killed = spawnSync(process.execPath, [child, server.url(), schema, store.path, "kill"], { encoding: "utf8", timeout: 60_000 });
      expect(killed.signal).toBe("SIGKILL");
      expect(killed.stdout).toBe("batch written\n");
      const [{ n }] = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${schema}.file_versions WHERE gen_from = 2`)) as [{ n: number }];
      expect(n).toBe(1);
      expect(await liveState(client, schema, "demo")).toEqual(before);

      // the server freed the dead session's advisory lock: the next publisher does not wait
      let waited = false;
      const r = await publishIndex(client, "demo", store, { schema, onWait: () => (waited = true) });
      expect(waited).toBe(false);
      expect(r.generation).toBe(2);
      expect((await liveState(client, schema, "demo")).files["src/server.ts"]).toBe("export const replaced = true;\n");
    } finally {
      store.close();
      p.project.cleanup();
    }
  },
);

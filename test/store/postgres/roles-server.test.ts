/**
 * The README's roles, on a real PostgreSQL server the test starts (skipped, with the reason printed,
 * only without server binaries): the SQL block of its "One index for many repositories" section is run
 * as written; the writer publishes, the reader reads, and the server refuses the reader's writes.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { connectPostgres, type PgClient } from "../../../src/store/postgres/client.ts";
import { publishIndex } from "../../../src/store/postgres/publish.ts";
import { PgIndexReader } from "../../../src/store/postgres/reader.ts";
import { listRepos } from "../../../src/store/postgres/repos.ts";
import { indexedProject } from "./fixture.ts";
import { serverSkipReason, startServer, type TestServer } from "./server.ts";

// builds local indexes, starts databases and command-line processes: seconds each on a busy machine
setDefaultTimeout(120_000);

const skip = serverSkipReason();
if (skip !== undefined) console.warn(`skipping the PostgreSQL server tests: ${skip}`);

/** The README's SQL for the two roles. */
function readmeRolesSql(): string {
  const readme = readFileSync(join(import.meta.dir, "..", "..", "..", "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## One index for many repositories (PostgreSQL)"));
  const m = /```sql\n([\s\S]*?)```/.exec(section);
  if (!m) throw new Error("README: no SQL block in the PostgreSQL section");
  return m[1]!;
}

let server: TestServer;
const clients: PgClient[] = [];
const connect = (url: string) => {
  const c = connectPostgres(url);
  clients.push(c);
  return c;
};

beforeAll(async () => {
  if (skip !== undefined) return;
  server = startServer();
  const admin = connect(server.url("postgres"));
  await admin.exec("CREATE DATABASE cortex");
});

afterAll(async () => {
  for (const c of clients) await c.close();
  server?.stop();
});

test.skipIf(skip !== undefined)("the writer publishes, the reader reads and is refused every write", async () => {
  const admin = connect(server.url("cortex"));
  await admin.exec(readmeRolesSql());
  const writerUrl = server.url("cortex").replace("cortex@", "cortex_writer:change-me@");
  const readerUrl = server.url("cortex").replace("cortex@", "cortex_reader:change-me-too@");
  const writer = connect(writerUrl);
  const reader = connect(readerUrl);
  const p = indexedProject();
  const store = await p.index();
  try {
    expect((await publishIndex(writer, "demo", store)).generation).toBe(1);
    // the reader sees the published generation
    expect((await listRepos(reader)).map((r) => r.name)).toEqual(["demo"]);
    expect(await new PgIndexReader(reader, ["demo"]).textFileCount()).toBe(4);
    // and may change nothing
    for (const sql of [
      "INSERT INTO cortex.repos (name) VALUES ('intruder')",
      "UPDATE cortex.repos SET generation = 0",
      "DELETE FROM cortex.file_versions",
      "CREATE TABLE cortex.mine (x int)",
      "DROP TABLE cortex.chunks",
    ]) {
      await expect(reader.query(sql)).rejects.toThrow(/permission denied|must be owner/);
    }
    // publishing as the reader says the role cannot write and what writing needs, not only the table it hit
    const refused = await publishIndex(reader, "demo", store).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(refused).toMatch(/permission denied for (table|schema) \w+: this role cannot write to the shared store; /);
    expect(refused).toContain("writing needs INSERT, UPDATE and DELETE on the tables of schema cortex and CREATE on the schema");
    expect(refused).not.toContain("change-me");
    expect((await listRepos(writer)).map((r) => [r.name, r.generation])).toEqual([["demo", 1]]);
  } finally {
    store.close();
    p.project.cleanup();
  }
});
